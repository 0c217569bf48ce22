package fingerbots

import (
	"sync"

	"github.com/botarena/arena/sdk/finger"
)

// The finger game has only 6^4 positions (each hand holds 0..5 fingers), so it can be solved
// outright by retrograde analysis: a position is won when some move leads to a lost position
// for the opponent, lost when every move leads to a won one, and drawn (an endless game) when
// neither ever becomes true.

// position is the mover's hands and the opponent's, each 0..5.
type position struct{ ownL, ownR, oppL, oppR int }

func (p position) index() int { return ((p.ownL*6+p.ownR)*6+p.oppL)*6 + p.oppR }

const positions = 6 * 6 * 6 * 6

// value of a position for the player to move.
type value int8

const (
	drawn value = iota
	won
	lost
)

type solution struct {
	value [positions]value
	// depth counts the moves to the end under best play (the winner hurries, the loser stalls).
	depth [positions]int
}

var (
	solved     solution
	solvedOnce sync.Once
)

// table returns the solved game, computing it on first use (a few milliseconds).
func table() *solution {
	solvedOnce.Do(solved.solve)
	return &solved
}

// stateOf is the position a player sees.
func stateOf(s *finger.State) position {
	return position{s.OwnLeft, s.OwnRight, s.OpponentLeft, s.OpponentRight}
}

// after is the position the opponent faces once the mover plays m from p.
func after(p position, m finger.Move) position {
	own := [2]int{p.ownL, p.ownR}
	opp := [2]int{p.oppL, p.oppR}
	switch m.Kind {
	case finger.KindSwitch:
		own = [2]int{m.Left, m.Right}
	default:
		from, to := hitHands(m)
		opp[to] += own[from]
		if opp[to] >= 5 {
			opp[to] = 0
		}
	}
	return position{opp[0], opp[1], own[0], own[1]}
}

func hitHands(m finger.Move) (from, to int) {
	switch m {
	case finger.LeftToRight:
		return 0, 1
	case finger.RightToLeft:
		return 1, 0
	case finger.RightToRight:
		return 1, 1
	}
	return 0, 0
}

// legal lists the legal moves from p, through the SDK's rules.
func legal(p position) []finger.Move {
	s := finger.State{OwnLeft: p.ownL, OwnRight: p.ownR, OpponentLeft: p.oppL, OpponentRight: p.oppR}
	return s.LegalMoves()
}

func all() []position {
	out := make([]position, 0, positions)
	for a := range 6 {
		for b := range 6 {
			for c := range 6 {
				for d := range 6 {
					out = append(out, position{a, b, c, d})
				}
			}
		}
	}
	return out
}

func (t *solution) solve() {
	ps := all()
	// A player without hands has lost; the game is over before it would move.
	for _, p := range ps {
		if p.ownL == 0 && p.ownR == 0 {
			t.value[p.index()] = lost
		}
	}
	// Each sweep decides the positions whose every needed child was decided in earlier sweeps,
	// so depths come out exact.
	for changed := true; changed; {
		changed = false
		next := t.value
		nextDepth := t.depth
		for _, p := range ps {
			i := p.index()
			if t.value[i] != drawn || (p.oppL == 0 && p.oppR == 0) {
				continue
			}
			bestWin, worstLoss, allWon := -1, -1, true
			for _, m := range legal(p) {
				c := after(p, m).index()
				switch t.value[c] {
				case lost:
					if bestWin < 0 || t.depth[c] < bestWin {
						bestWin = t.depth[c]
					}
				case won:
					worstLoss = max(worstLoss, t.depth[c])
				default:
					allWon = false
				}
			}
			switch {
			case bestWin >= 0:
				next[i], nextDepth[i], changed = won, bestWin+1, true
			case allWon && worstLoss >= 0:
				next[i], nextDepth[i], changed = lost, worstLoss+1, true
			}
		}
		t.value, t.depth = next, nextDepth
	}
}
