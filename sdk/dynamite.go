package sdk

import (
	arenav1 "github.com/botarena/arena/proto/arena/v1"
)

// DynamiteMove is one throw, written as in the seed: 'R', 'P', 'S', 'D' or 'W'.
type DynamiteMove byte

// The five throws.
const (
	Rock     DynamiteMove = 'R'
	Paper    DynamiteMove = 'P'
	Scissors DynamiteMove = 'S'
	Dynamite DynamiteMove = 'D'
	Water    DynamiteMove = 'W'
)

func (m DynamiteMove) String() string { return string(m) }

// DynamiteRound is one played round from the player's point of view (the seed's p1 and p2).
type DynamiteRound struct {
	Own, Opponent DynamiteMove
}

// DynamiteState is what a dynamite player sees before a round.
type DynamiteState struct {
	Clock
	// Round about to be played, from 1.
	Round int
	// Rounds played so far, oldest first; do not modify.
	Rounds               []DynamiteRound
	OwnScore             int
	OpponentScore        int
	OwnDynamiteLeft      int
	OpponentDynamiteLeft int
	// Stake is what the coming round is worth (draws roll over).
	Stake int
}

// DynamitePlayer plays one dynamite match.
type DynamitePlayer interface {
	Move(s *DynamiteState) DynamiteMove
}

// DynamiteFunc adapts a plain function to DynamitePlayer.
type DynamiteFunc func(s *DynamiteState) DynamiteMove

// Move calls f.
func (f DynamiteFunc) Move(s *DynamiteState) DynamiteMove { return f(s) }

var dynamiteToWire = map[DynamiteMove]arenav1.DynamiteMove{
	Rock: arenav1.DynamiteMove_DYNAMITE_MOVE_ROCK, Paper: arenav1.DynamiteMove_DYNAMITE_MOVE_PAPER,
	Scissors: arenav1.DynamiteMove_DYNAMITE_MOVE_SCISSORS, Dynamite: arenav1.DynamiteMove_DYNAMITE_MOVE_DYNAMITE,
	Water: arenav1.DynamiteMove_DYNAMITE_MOVE_WATER,
}

// DynamiteFromWire converts a wire move; 0 for unspecified.
func DynamiteFromWire(m arenav1.DynamiteMove) DynamiteMove {
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

type dynamiteSeat struct {
	p     DynamitePlayer
	state DynamiteState
	out   arenav1.DynamiteAction
	wrap  arenav1.ActResponse_Dynamite
}

func init() {
	openers["dynamite"] = func(b *Bot, req *arenav1.StartRequest) (seat, bool) {
		if b.Dynamite == nil {
			return nil, false
		}
		if req == nil {
			return nil, true
		}
		s := &dynamiteSeat{p: b.Dynamite()}
		s.state.Rounds = make([]DynamiteRound, 0, 64)
		s.wrap.Dynamite = &s.out
		return s, true
	}
}

func (s *dynamiteSeat) act(req *arenav1.ActRequest, resp *arenav1.ActResponse) {
	o := req.GetDynamite()
	if o == nil {
		invalid(resp, "expected a dynamite observation")
		return
	}
	st := &s.state
	if o.GetRound() > 1 && o.GetLastOwn() != arenav1.DynamiteMove_DYNAMITE_MOVE_UNSPECIFIED {
		st.Rounds = append(st.Rounds, DynamiteRound{DynamiteFromWire(o.GetLastOwn()), DynamiteFromWire(o.GetLastOpponent())})
	}
	st.Clock = clockOf(req)
	st.Round = int(o.GetRound())
	st.OwnScore, st.OpponentScore = int(o.GetOwnScore()), int(o.GetOpponentScore())
	st.OwnDynamiteLeft, st.OpponentDynamiteLeft = int(o.GetOwnDynamiteLeft()), int(o.GetOpponentDynamiteLeft())
	st.Stake = int(o.GetStake())
	m := s.p.Move(st)
	w, ok := dynamiteToWire[m]
	if !ok {
		invalid(resp, "Move returned %q, not one of R P S D W", string(m))
		return
	}
	s.out.Move = w
	resp.Action = &s.wrap
}

func (s *dynamiteSeat) end(*arenav1.EndRequest) {}
