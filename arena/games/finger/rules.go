package finger

import (
	"fmt"

	arenav1 "github.com/botarena/arena/proto/arena/v1"
)

// Hands are a player's finger counts: index 0 is the left hand, 1 the right.
type Hands [2]int32

const (
	left  = 0
	right = 1
	// maxHand is the most fingers a hand may hold after a switch; a hit that brings a hand to
	// this many or more loses the hand.
	maxHand = 5
)

// alive reports whether a player still has a hand.
func (h Hands) alive() bool { return h[left] > 0 || h[right] > 0 }

// hit maps each hit move to (my hand, the opponent's hand): LEFT_TO_RIGHT means my left hand
// hits the opponent's right hand.
var hit = map[arenav1.FingerMove][2]int{
	arenav1.FingerMove_FINGER_MOVE_LEFT_TO_LEFT:   {left, left},
	arenav1.FingerMove_FINGER_MOVE_LEFT_TO_RIGHT:  {left, right},
	arenav1.FingerMove_FINGER_MOVE_RIGHT_TO_LEFT:  {right, left},
	arenav1.FingerMove_FINGER_MOVE_RIGHT_TO_RIGHT: {right, right},
}

// moveError tells the two kinds of bad move apart: a move that is not a move of the game at
// all (the seed's "incorrect data type", garbage) and one the rules forbid (illegal).
type moveError struct {
	garbage bool
	msg     string
}

func (e *moveError) Error() string { return e.msg }

func illegal(format string, args ...any) error {
	return &moveError{msg: fmt.Sprintf(format, args...)}
}

// play applies a to the mover's hands me and the opponent's hands opp, returning the new hands
// or why the move is not allowed. It never modifies its arguments.
func play(me, opp Hands, a *arenav1.FingerAction) (Hands, Hands, error) {
	m := a.GetMove()
	if h, ok := hit[m]; ok {
		from, to := h[0], h[1]
		if me[from] == 0 {
			return me, opp, illegal("%s hits with a hand that has 0 fingers (hands %d %d)", moveName(m), me[left], me[right])
		}
		if opp[to] == 0 {
			return me, opp, illegal("%s hits the opponent's hand that has 0 fingers (opponent %d %d)", moveName(m), opp[left], opp[right])
		}
		opp[to] += me[from]
		if opp[to] >= maxHand {
			opp[to] = 0
		}
		return me, opp, nil
	}
	if m != arenav1.FingerMove_FINGER_MOVE_SWITCH {
		return me, opp, &moveError{garbage: true, msg: fmt.Sprintf("move %d is not a finger move", int32(m))}
	}
	l, r := a.GetSwitchLeft(), a.GetSwitchRight()
	switch {
	case l < 0 || r < 0:
		return me, opp, illegal("SWITCH(%d, %d) has a negative count", l, r)
	case l > maxHand || r > maxHand:
		return me, opp, illegal("SWITCH(%d, %d) puts more than %d fingers on a hand", l, r, maxHand)
	case int64(l)+int64(r) != int64(me[left])+int64(me[right]):
		return me, opp, illegal("SWITCH(%d, %d) sums to %d, but the hands %d %d sum to %d",
			l, r, l+r, me[left], me[right], me[left]+me[right])
	case l == me[left] && r == me[right]:
		return me, opp, illegal("SWITCH(%d, %d) leaves the hands as they are", l, r)
	case l == me[right] && r == me[left]:
		return me, opp, illegal("SWITCH(%d, %d) only mirrors the hands %d %d", l, r, me[left], me[right])
	}
	return Hands{l, r}, opp, nil
}

// legalMoves lists every legal move of a player with hands me against opp, hits first.
func legalMoves(me, opp Hands) []*arenav1.FingerAction {
	var out []*arenav1.FingerAction
	for _, m := range []arenav1.FingerMove{
		arenav1.FingerMove_FINGER_MOVE_LEFT_TO_LEFT, arenav1.FingerMove_FINGER_MOVE_LEFT_TO_RIGHT,
		arenav1.FingerMove_FINGER_MOVE_RIGHT_TO_LEFT, arenav1.FingerMove_FINGER_MOVE_RIGHT_TO_RIGHT,
	} {
		h := hit[m]
		if me[h[0]] > 0 && opp[h[1]] > 0 {
			out = append(out, &arenav1.FingerAction{Move: m})
		}
	}
	sum := me[left] + me[right]
	for l := int32(0); l <= maxHand; l++ {
		r := sum - l
		if r < 0 || r > maxHand || (l == me[left] && r == me[right]) || (l == me[right] && r == me[left]) {
			continue
		}
		out = append(out, &arenav1.FingerAction{Move: arenav1.FingerMove_FINGER_MOVE_SWITCH, SwitchLeft: l, SwitchRight: r})
	}
	return out
}

// moveName writes a move as the seed does ("LEFT TO RIGHT").
func moveName(m arenav1.FingerMove) string {
	switch m {
	case arenav1.FingerMove_FINGER_MOVE_LEFT_TO_LEFT:
		return "LEFT TO LEFT"
	case arenav1.FingerMove_FINGER_MOVE_LEFT_TO_RIGHT:
		return "LEFT TO RIGHT"
	case arenav1.FingerMove_FINGER_MOVE_RIGHT_TO_LEFT:
		return "RIGHT TO LEFT"
	case arenav1.FingerMove_FINGER_MOVE_RIGHT_TO_RIGHT:
		return "RIGHT TO RIGHT"
	case arenav1.FingerMove_FINGER_MOVE_SWITCH:
		return "SWITCH"
	}
	return fmt.Sprintf("move(%d)", int32(m))
}
