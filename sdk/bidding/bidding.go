package bidding

import (
	arenav1 "github.com/botarena/arena/proto/arena/v1"
	"github.com/botarena/arena/sdk"
	"github.com/botarena/arena/sdk/internal/seat"
)

// Name is the game's registry name.
const Name = "bidding"

// Side is player A or player B of a bidding game (the seed's player_identifier).
type Side int8

// The two sides. A round won by A moves the bottle toward A's end (10), by B toward 0.
const (
	UnknownSide Side = iota
	A
	B
)

func (s Side) String() string {
	switch s {
	case A:
		return "A"
	case B:
		return "B"
	}
	return "unknown"
}

// State is what a bidding player sees before a bid (the seed's GameState).
type State struct {
	sdk.Clock
	OwnName, OpponentName string
	// Games in the match, and rounds per game before a game is a draw.
	Games, MaxRounds int
	// Game is the current game, from 1; sides alternate from game to game.
	Game int
	// Round is the round about to be played in this game, from 1.
	Round int
	Side  Side
	// Money left in this game; StartMoney is what each player started the game with.
	OwnMoney, OpponentMoney, StartMoney int
	// BottlePosition is the bottle's place, 0..10 (A wins at 10, B at 0).
	BottlePosition int
	// OwnBids and OpponentBids are the bids of this game's rounds so far, oldest first; do
	// not modify.
	OwnBids, OpponentBids []int
	// Rounds of this game won and lost; a tied round counts as won by whoever held the draw
	// advantage.
	RoundsWon, RoundsLost int
	// DrawAdvantage is true when I win a tie this round (A holds it first; it passes on a tie).
	DrawAdvantage bool
	// Games of the match so far.
	GamesWon, GamesLost, GamesDrawn int
}

// IsPlayerA reports whether I am A (the seed's is_player_a()).
func (s *State) IsPlayerA() bool { return s.Side == A }

// PlacesToWin is how many more rounds I must win (net) for the bottle to reach my end.
func (s *State) PlacesToWin() int {
	if s.Side == A {
		return 10 - s.BottlePosition
	}
	return s.BottlePosition
}

// PlacesToLose is how many more rounds the opponent must win (net) to take the bottle.
func (s *State) PlacesToLose() int { return 10 - s.PlacesToWin() }

// MinBid is the least legal bid: 1, or 0 when I have no money left.
func (s *State) MinBid() int { return min(1, s.OwnMoney) }

// Player plays one bidding match (all its games).
type Player interface {
	// Bid returns a whole-dollar bid: at least 1 and at most OwnMoney, or 0 when OwnMoney is 0.
	// Any other bid abandons the game, which I lose.
	Bid(s *State) int
}

// Func adapts a plain function to Player.
type Func func(s *State) int

// Bid calls f.
func (f Func) Bid(s *State) int { return f(s) }

type gameSeat struct {
	p     Player
	state State
	out   arenav1.BiddingAction
	wrap  arenav1.ActResponse_Bidding
}

// Play is the bidding entry of sdk.Bot's Games: newPlayer makes a fresh player for every seat
// the host opens. A nil newPlayer plays nothing.
func Play(newPlayer func() Player) sdk.Game {
	g := sdk.Game{Name: Name, HouseBot: "bots/bidding/cmd/random"}
	if newPlayer == nil {
		return g
	}
	g.Open = func(req *arenav1.StartRequest) seat.Seat {
		s := &gameSeat{p: newPlayer()}
		if su := req.GetBidding(); su != nil {
			s.state.OwnName, s.state.OpponentName = su.GetOwnName(), su.GetOpponentName()
			s.state.Games, s.state.MaxRounds = int(su.GetGames()), int(su.GetMaxRounds())
			s.state.StartMoney = int(su.GetStartMoney())
		}
		s.state.OwnBids = make([]int, 0, 16)
		s.state.OpponentBids = make([]int, 0, 16)
		s.wrap.Bidding = &s.out
		return s
	}
	return g
}

func (s *gameSeat) Act(req *arenav1.ActRequest, resp *arenav1.ActResponse) {
	o := req.GetBidding()
	if o == nil {
		seat.Invalid(resp, "expected a bidding observation")
		return
	}
	st := &s.state
	if o.GetNewGame() {
		st.OwnBids, st.OpponentBids = st.OwnBids[:0], st.OpponentBids[:0]
	}
	if o.GetHasLast() {
		st.OwnBids = append(st.OwnBids, int(o.GetLastOwnBid()))
		st.OpponentBids = append(st.OpponentBids, int(o.GetLastOpponentBid()))
	}
	st.Clock = seat.ClockOf(req)
	st.Game, st.Round = int(o.GetGame()), int(o.GetRound())
	switch o.GetPlayer() {
	case arenav1.BiddingPlayer_BIDDING_PLAYER_A:
		st.Side = A
	case arenav1.BiddingPlayer_BIDDING_PLAYER_B:
		st.Side = B
	default:
		st.Side = UnknownSide
	}
	if n := o.GetOpponentName(); n != "" {
		st.OpponentName = n
	}
	st.OwnMoney, st.OpponentMoney, st.StartMoney = int(o.GetOwnMoney()), int(o.GetOpponentMoney()), int(o.GetStartMoney())
	st.BottlePosition = int(o.GetBottlePosition())
	st.RoundsWon, st.RoundsLost = int(o.GetRoundsWon()), int(o.GetRoundsLost())
	st.DrawAdvantage = o.GetDrawAdvantage()
	st.GamesWon, st.GamesLost, st.GamesDrawn = int(o.GetGamesWon()), int(o.GetGamesLost()), int(o.GetGamesDrawn())
	s.out.Bid = int64(s.p.Bid(st))
	resp.Action = &s.wrap
}

func (s *gameSeat) End(*arenav1.EndRequest) {}
