package finger

import (
	"fmt"
	"math"

	arenav1 "github.com/botarena/arena/proto/arena/v1"
	"github.com/botarena/arena/sdk"
	"github.com/botarena/arena/sdk/internal/seat"
)

// Name is the game's registry name.
const Name = "finger"

// MoveKind says which move a Move is.
type MoveKind int8

// The four hits and the switch. "LeftToRight" means my LEFT hand hits the opponent's RIGHT.
const (
	NoMove MoveKind = iota
	KindLeftToLeft
	KindLeftToRight
	KindRightToLeft
	KindRightToRight
	KindSwitch
)

// Move is one move: a hit (LeftToLeft, LeftToRight, RightToLeft, RightToRight) or a
// switch made with Switch. The zero value is no move; answering it is an invalid answer.
type Move struct {
	Kind MoveKind
	// Left and Right are my hands after a switch; they count only for KindSwitch.
	Left, Right int
}

// The four hits, as the seed names them (Move.LEFT_TO_RIGHT ...).
var (
	LeftToLeft   = Move{Kind: KindLeftToLeft}
	LeftToRight  = Move{Kind: KindLeftToRight}
	RightToLeft  = Move{Kind: KindRightToLeft}
	RightToRight = Move{Kind: KindRightToRight}
)

// Switch sets my hands to left and right fingers (the seed's Move.SWITCH(left, right)). The
// sum must stay the same, and the result may be neither the current hands nor their mirror.
func Switch(left, right int) Move {
	return Move{Kind: KindSwitch, Left: left, Right: right}
}

// String writes the move as the seed does: "LEFT TO RIGHT", "SWITCH(3, 4)".
func (m Move) String() string {
	switch m.Kind {
	case KindLeftToLeft:
		return "LEFT TO LEFT"
	case KindLeftToRight:
		return "LEFT TO RIGHT"
	case KindRightToLeft:
		return "RIGHT TO LEFT"
	case KindRightToRight:
		return "RIGHT TO RIGHT"
	case KindSwitch:
		return fmt.Sprintf("SWITCH(%d, %d)", m.Left, m.Right)
	}
	return "NO MOVE"
}

// hands gives the attacking and the target hand of a hit (0 left, 1 right).
func (m Move) hands() (from, to int, ok bool) {
	switch m.Kind {
	case KindLeftToLeft:
		return 0, 0, true
	case KindLeftToRight:
		return 0, 1, true
	case KindRightToLeft:
		return 1, 0, true
	case KindRightToRight:
		return 1, 1, true
	}
	return 0, 0, false
}

// Turn is one move of the current game and who made it.
type Turn struct {
	// Player is the name of the player who moved.
	Player string
	// Own is true for my own moves (names may repeat when a bot plays itself).
	Own  bool
	Move Move
}

// State is what a finger player sees before its move (the seed's GenericPlayer getters).
type State struct {
	sdk.Clock
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
	History []Turn
	// Games of the match so far: won by me, by the opponent, and lost by both (round cap).
	GamesWon, GamesLost, GamesBothLost int
}

// Legal reports whether m is a legal move now.
func (s *State) Legal(m Move) bool {
	own := [2]int{s.OwnLeft, s.OwnRight}
	opp := [2]int{s.OpponentLeft, s.OpponentRight}
	if from, to, ok := m.hands(); ok {
		return own[from] > 0 && opp[to] > 0
	}
	if m.Kind != KindSwitch {
		return false
	}
	return m.Left >= 0 && m.Right >= 0 && m.Left <= 5 && m.Right <= 5 && m.Left+m.Right == own[0]+own[1] &&
		!(m.Left == own[0] && m.Right == own[1]) && !(m.Left == own[1] && m.Right == own[0])
}

// LegalMoves lists every legal move now: hits first, then switches by growing left hand.
func (s *State) LegalMoves() []Move {
	var out []Move
	for _, m := range []Move{LeftToLeft, LeftToRight, RightToLeft, RightToRight} {
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

// Player plays one finger match (all its games).
type Player interface {
	Move(s *State) Move
}

// Func adapts a plain function to Player.
type Func func(s *State) Move

// Move calls f.
func (f Func) Move(s *State) Move { return f(s) }

// FromWire converts a wire move.
func FromWire(a *arenav1.FingerAction) Move {
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
	return Move{}
}

var toWire = [...]arenav1.FingerMove{
	KindLeftToLeft: arenav1.FingerMove_FINGER_MOVE_LEFT_TO_LEFT, KindLeftToRight: arenav1.FingerMove_FINGER_MOVE_LEFT_TO_RIGHT,
	KindRightToLeft: arenav1.FingerMove_FINGER_MOVE_RIGHT_TO_LEFT, KindRightToRight: arenav1.FingerMove_FINGER_MOVE_RIGHT_TO_RIGHT,
	KindSwitch: arenav1.FingerMove_FINGER_MOVE_SWITCH,
}

// clamp32 keeps an out-of-range count out of range instead of letting it wrap into a legal one.
func clamp32(n int) int32 { return int32(max(math.MinInt32, min(math.MaxInt32, n))) }

type gameSeat struct {
	p     Player
	state State
	out   arenav1.FingerAction
	wrap  arenav1.ActResponse_Finger
}

// Play is the finger entry of sdk.Bot's Games: newPlayer makes a fresh player for every seat
// the host opens. A nil newPlayer plays nothing.
func Play(newPlayer func() Player) sdk.Game {
	g := sdk.Game{Name: Name, HouseBot: "bots/finger/cmd/random"}
	if newPlayer == nil {
		return g
	}
	g.Open = func(req *arenav1.StartRequest) seat.Seat {
		s := &gameSeat{p: newPlayer()}
		if su := req.GetFinger(); su != nil {
			s.state.OwnName, s.state.OpponentName = su.GetOwnName(), su.GetOpponentName()
			s.state.Games, s.state.MaxRounds = int(su.GetGames()), int(su.GetMaxRounds())
		}
		s.state.History = make([]Turn, 0, 64)
		s.wrap.Finger = &s.out
		return s
	}
	return g
}

func (s *gameSeat) Act(req *arenav1.ActRequest, resp *arenav1.ActResponse) {
	o := req.GetFinger()
	if o == nil {
		seat.Invalid(resp, "expected a finger observation")
		return
	}
	st := &s.state
	if o.GetNewGame() {
		clear(st.History)
		st.History = st.History[:0]
	}
	for _, h := range o.GetRecent() {
		st.History = append(st.History, Turn{Player: h.GetPlayer(), Own: h.GetOwn(), Move: FromWire(h.GetAction())})
	}
	st.Clock = seat.ClockOf(req)
	st.Game, st.Round = int(o.GetGame()), int(o.GetRound())
	st.StartingPlayer, st.Started = o.GetStartingPlayer(), o.GetStarted()
	st.OwnLeft, st.OwnRight = int(o.GetOwnLeft()), int(o.GetOwnRight())
	st.OpponentLeft, st.OpponentRight = int(o.GetOpponentLeft()), int(o.GetOpponentRight())
	st.GamesWon, st.GamesLost, st.GamesBothLost = int(o.GetGamesWon()), int(o.GetGamesLost()), int(o.GetGamesBothLost())
	m := s.p.Move(st)
	if m.Kind <= NoMove || int(m.Kind) >= len(toWire) {
		seat.Invalid(resp, "Move returned %v (kind %d), not a finger move", m, m.Kind)
		return
	}
	s.out.Move = toWire[m.Kind]
	s.out.SwitchLeft, s.out.SwitchRight = 0, 0
	if m.Kind == KindSwitch {
		s.out.SwitchLeft, s.out.SwitchRight = clamp32(m.Left), clamp32(m.Right)
	}
	resp.Action = &s.wrap
}

func (s *gameSeat) End(*arenav1.EndRequest) {}
