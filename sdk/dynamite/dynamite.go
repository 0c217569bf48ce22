package dynamite

import (
	arenav1 "github.com/botarena/arena/proto/arena/v1"
	"github.com/botarena/arena/sdk"
	"github.com/botarena/arena/sdk/internal/seat"
)

// Name is the game's registry name.
const Name = "dynamite"

// Move is one throw, written as in the seed: 'R', 'P', 'S', 'D' or 'W'.
type Move byte

// The five throws.
const (
	Rock     Move = 'R'
	Paper    Move = 'P'
	Scissors Move = 'S'
	Dynamite Move = 'D'
	Water    Move = 'W'
)

func (m Move) String() string { return string(m) }

// Round is one played round from the player's point of view (the seed's p1 and p2).
type Round struct {
	Own, Opponent Move
}

// State is what a dynamite player sees before a round.
type State struct {
	sdk.Clock
	// Round about to be played, from 1.
	Round int
	// Rounds played so far, oldest first; do not modify.
	Rounds               []Round
	OwnScore             int
	OpponentScore        int
	OwnDynamiteLeft      int
	OpponentDynamiteLeft int
	// Stake is what the coming round is worth (draws roll over).
	Stake int
}

// Player plays one dynamite match.
type Player interface {
	Move(s *State) Move
}

// Func adapts a plain function to Player.
type Func func(s *State) Move

// Move calls f.
func (f Func) Move(s *State) Move { return f(s) }

var toWire = map[Move]arenav1.DynamiteMove{
	Rock: arenav1.DynamiteMove_DYNAMITE_MOVE_ROCK, Paper: arenav1.DynamiteMove_DYNAMITE_MOVE_PAPER,
	Scissors: arenav1.DynamiteMove_DYNAMITE_MOVE_SCISSORS, Dynamite: arenav1.DynamiteMove_DYNAMITE_MOVE_DYNAMITE,
	Water: arenav1.DynamiteMove_DYNAMITE_MOVE_WATER,
}

// FromWire converts a wire move; 0 for unspecified.
func FromWire(m arenav1.DynamiteMove) Move {
	switch m {
	case arenav1.DynamiteMove_DYNAMITE_MOVE_ROCK:
		return Rock
	case arenav1.DynamiteMove_DYNAMITE_MOVE_PAPER:
		return Paper
	case arenav1.DynamiteMove_DYNAMITE_MOVE_SCISSORS:
		return Scissors
	case arenav1.DynamiteMove_DYNAMITE_MOVE_DYNAMITE:
		return Dynamite
	case arenav1.DynamiteMove_DYNAMITE_MOVE_WATER:
		return Water
	}
	return 0
}

type gameSeat struct {
	p     Player
	state State
	out   arenav1.DynamiteAction
	wrap  arenav1.ActResponse_Dynamite
}

// Play is the dynamite entry of sdk.Bot's Games: newPlayer makes a fresh player for every seat
// the host opens. A nil newPlayer plays nothing.
func Play(newPlayer func() Player) sdk.Game {
	g := sdk.Game{Name: Name, HouseBot: "bots/dynamite/cmd/paper"}
	if newPlayer == nil {
		return g
	}
	g.Open = func(req *arenav1.StartRequest) seat.Seat {
		s := &gameSeat{p: newPlayer()}
		s.state.Rounds = make([]Round, 0, 64)
		s.wrap.Dynamite = &s.out
		return s
	}
	return g
}

func (s *gameSeat) Act(req *arenav1.ActRequest, resp *arenav1.ActResponse) {
	o := req.GetDynamite()
	if o == nil {
		seat.Invalid(resp, "expected a dynamite observation")
		return
	}
	st := &s.state
	if o.GetRound() > 1 && o.GetLastOwn() != arenav1.DynamiteMove_DYNAMITE_MOVE_UNSPECIFIED {
		st.Rounds = append(st.Rounds, Round{FromWire(o.GetLastOwn()), FromWire(o.GetLastOpponent())})
	}
	st.Clock = seat.ClockOf(req)
	st.Round = int(o.GetRound())
	st.OwnScore, st.OpponentScore = int(o.GetOwnScore()), int(o.GetOpponentScore())
	st.OwnDynamiteLeft, st.OpponentDynamiteLeft = int(o.GetOwnDynamiteLeft()), int(o.GetOpponentDynamiteLeft())
	st.Stake = int(o.GetStake())
	m := s.p.Move(st)
	w, ok := toWire[m]
	if !ok {
		seat.Invalid(resp, "Move returned %q, not one of R P S D W", string(m))
		return
	}
	s.out.Move = w
	resp.Action = &s.wrap
}

func (s *gameSeat) End(*arenav1.EndRequest) {}
