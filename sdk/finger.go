package sdk

import (
	"fmt"
	"math"

	arenav1 "github.com/botarena/arena/proto/arena/v1"
)

// FingerMoveKind says which move a FingerMove is.
type FingerMoveKind int8

// The four hits and the switch. "LeftToRight" means my LEFT hand hits the opponent's RIGHT.
const (
	FingerNoMove FingerMoveKind = iota
	FingerLeftToLeft
	FingerLeftToRight
	FingerRightToLeft
	FingerRightToRight
	FingerSwitch
)

// FingerMove is one move: a hit (LeftToLeft, LeftToRight, RightToLeft, RightToRight) or a
// switch made with Switch. The zero value is no move; answering it is an invalid answer.
type FingerMove struct {
	Kind FingerMoveKind
	// Left and Right are my hands after a switch; they count only for FingerSwitch.
	Left, Right int
}

// The four hits, as the seed names them (Move.LEFT_TO_RIGHT ...).
var (
	LeftToLeft   = FingerMove{Kind: FingerLeftToLeft}
	LeftToRight  = FingerMove{Kind: FingerLeftToRight}
	RightToLeft  = FingerMove{Kind: FingerRightToLeft}
	RightToRight = FingerMove{Kind: FingerRightToRight}
)

// Switch sets my hands to left and right fingers (the seed's Move.SWITCH(left, right)). The
// sum must stay the same, and the result may be neither the current hands nor their mirror.
func Switch(left, right int) FingerMove {
	return FingerMove{Kind: FingerSwitch, Left: left, Right: right}
}

// String writes the move as the seed does: "LEFT TO RIGHT", "SWITCH(3, 4)".
func (m FingerMove) String() string {
	switch m.Kind {
	case FingerLeftToLeft:
		return "LEFT TO LEFT"
	case FingerLeftToRight:
		return "LEFT TO RIGHT"
	case FingerRightToLeft:
		return "RIGHT TO LEFT"
	case FingerRightToRight:
		return "RIGHT TO RIGHT"
	case FingerSwitch:
		return fmt.Sprintf("SWITCH(%d, %d)", m.Left, m.Right)
	}
	return "NO MOVE"
}

// hands gives the attacking and the target hand of a hit (0 left, 1 right).
func (m FingerMove) hands() (from, to int, ok bool) {
	switch m.Kind {
	case FingerLeftToLeft:
		return 0, 0, true
	case FingerLeftToRight:
		return 0, 1, true
	case FingerRightToLeft:
		return 1, 0, true
	case FingerRightToRight:
		return 1, 1, true
	}
	return 0, 0, false
}

// FingerTurn is one move of the current game and who made it.
type FingerTurn struct {
	// Player is the name of the player who moved.
	Player string
	// Own is true for my own moves (names may repeat when a bot plays itself).
	Own  bool
	Move FingerMove
}

// FingerState is what a finger player sees before its move (the seed's GenericPlayer getters).
type FingerState struct {
	Clock
	OwnName, OpponentName string
	// Games in the match and the round cap of a game (a game longer than that is lost by both).
	Games, MaxRounds int
	// Game is the current game, from 1.
	Game int
	// Round is the move about to be played in this game, from 1 (the seed's
	// get_current_round() counted moves played, Round-1).
	Round int
	// StartingPlayer is the name of the player who started this game; Started is true if I did.
	StartingPlayer string
	Started        bool
	OwnLeft        int
	OwnRight       int
	OpponentLeft   int
	OpponentRight  int
	// History holds the moves of the current game, oldest first (it is reset for each game);
	// do not modify. My own last move of a finished game is never reported.
	History []FingerTurn
	// Games of the match so far: won by me, by the opponent, and lost by both (round cap).
	GamesWon, GamesLost, GamesBothLost int
}

// Legal reports whether m is a legal move now.
func (s *FingerState) Legal(m FingerMove) bool {
	own := [2]int{s.OwnLeft, s.OwnRight}
	opp := [2]int{s.OpponentLeft, s.OpponentRight}
	if from, to, ok := m.hands(); ok {
		return own[from] > 0 && opp[to] > 0
	}
	if m.Kind != FingerSwitch {
		return false
	}
	return m.Left >= 0 && m.Right >= 0 && m.Left <= 5 && m.Right <= 5 && m.Left+m.Right == own[0]+own[1] &&
		!(m.Left == own[0] && m.Right == own[1]) && !(m.Left == own[1] && m.Right == own[0])
}

// LegalMoves lists every legal move now: hits first, then switches by growing left hand.
func (s *FingerState) LegalMoves() []FingerMove {
	var out []FingerMove
	for _, m := range []FingerMove{LeftToLeft, LeftToRight, RightToLeft, RightToRight} {
		if s.Legal(m) {
			out = append(out, m)
		}
	}
	sum := s.OwnLeft + s.OwnRight
	for l := 0; l <= 5; l++ {
		if m := Switch(l, sum-l); s.Legal(m) {
			out = append(out, m)
		}
	}
	return out
}

// FingerPlayer plays one finger match (all its games).
type FingerPlayer interface {
	Move(s *FingerState) FingerMove
}

// FingerFunc adapts a plain function to FingerPlayer.
type FingerFunc func(s *FingerState) FingerMove

// Move calls f.
func (f FingerFunc) Move(s *FingerState) FingerMove { return f(s) }

// FingerFromWire converts a wire move.
func FingerFromWire(a *arenav1.FingerAction) FingerMove {
	switch a.GetMove() {
	case arenav1.FingerMove_FINGER_MOVE_LEFT_TO_LEFT:
		return LeftToLeft
	case arenav1.FingerMove_FINGER_MOVE_LEFT_TO_RIGHT:
		return LeftToRight
	case arenav1.FingerMove_FINGER_MOVE_RIGHT_TO_LEFT:
		return RightToLeft
	case arenav1.FingerMove_FINGER_MOVE_RIGHT_TO_RIGHT:
		return RightToRight
	case arenav1.FingerMove_FINGER_MOVE_SWITCH:
		return Switch(int(a.GetSwitchLeft()), int(a.GetSwitchRight()))
	}
	return FingerMove{}
}

var fingerToWire = [...]arenav1.FingerMove{
	FingerLeftToLeft: arenav1.FingerMove_FINGER_MOVE_LEFT_TO_LEFT, FingerLeftToRight: arenav1.FingerMove_FINGER_MOVE_LEFT_TO_RIGHT,
	FingerRightToLeft: arenav1.FingerMove_FINGER_MOVE_RIGHT_TO_LEFT, FingerRightToRight: arenav1.FingerMove_FINGER_MOVE_RIGHT_TO_RIGHT,
	FingerSwitch: arenav1.FingerMove_FINGER_MOVE_SWITCH,
}

// clamp32 keeps an out-of-range count out of range instead of letting it wrap into a legal one.
func clamp32(n int) int32 { return int32(max(math.MinInt32, min(math.MaxInt32, n))) }

type fingerSeat struct {
	p     FingerPlayer
	state FingerState
	out   arenav1.FingerAction
	wrap  arenav1.ActResponse_Finger
}

func init() {
	openers["finger"] = func(b *Bot, req *arenav1.StartRequest) (seat, bool) {
		if b.Finger == nil {
			return nil, false
		}
		if req == nil {
			return nil, true
		}
		s := &fingerSeat{p: b.Finger()}
		if su := req.GetFinger(); su != nil {
			s.state.OwnName, s.state.OpponentName = su.GetOwnName(), su.GetOpponentName()
			s.state.Games, s.state.MaxRounds = int(su.GetGames()), int(su.GetMaxRounds())
		}
		s.state.History = make([]FingerTurn, 0, 64)
		s.wrap.Finger = &s.out
		return s, true
	}
}

func (s *fingerSeat) act(req *arenav1.ActRequest, resp *arenav1.ActResponse) {
	o := req.GetFinger()
	if o == nil {
		invalid(resp, "expected a finger observation")
		return
	}
	st := &s.state
	if o.GetNewGame() {
		clear(st.History)
		st.History = st.History[:0]
	}
	for _, h := range o.GetRecent() {
		st.History = append(st.History, FingerTurn{Player: h.GetPlayer(), Own: h.GetOwn(), Move: FingerFromWire(h.GetAction())})
	}
	st.Clock = clockOf(req)
	st.Game, st.Round = int(o.GetGame()), int(o.GetRound())
	st.StartingPlayer, st.Started = o.GetStartingPlayer(), o.GetStarted()
	st.OwnLeft, st.OwnRight = int(o.GetOwnLeft()), int(o.GetOwnRight())
	st.OpponentLeft, st.OpponentRight = int(o.GetOpponentLeft()), int(o.GetOpponentRight())
	st.GamesWon, st.GamesLost, st.GamesBothLost = int(o.GetGamesWon()), int(o.GetGamesLost()), int(o.GetGamesBothLost())
	m := s.p.Move(st)
	if m.Kind <= FingerNoMove || int(m.Kind) >= len(fingerToWire) {
		invalid(resp, "Move returned %v (kind %d), not a finger move", m, m.Kind)
		return
	}
	s.out.Move = fingerToWire[m.Kind]
	s.out.SwitchLeft, s.out.SwitchRight = 0, 0
	if m.Kind == FingerSwitch {
		s.out.SwitchLeft, s.out.SwitchRight = clamp32(m.Left), clamp32(m.Right)
	}
	resp.Action = &s.wrap
}

func (s *fingerSeat) end(*arenav1.EndRequest) {}
