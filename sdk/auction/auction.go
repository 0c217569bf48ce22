package auction

import (
	"strconv"
	"strings"

	arenav1 "github.com/botarena/arena/proto/arena/v1"
	"github.com/botarena/arena/sdk"
	"github.com/botarena/arena/sdk/internal/seat"
)

// Name is the game's registry name.
const Name = "auction"

// Setup is the auction's initial state, as the seed's Client exposes it.
type Setup struct {
	// ArtistsNum is the number of artists k; artists are named "t0" .. "t{k-1}".
	ArtistsNum int
	// RequiredCount is n, the works of one artist that win.
	RequiredCount int
	// AuctionItems is the artist of every item, in auction order; do not modify.
	AuctionItems []string
	PlayerCount  int
	// PlayerNames by seat; OwnName is mine.
	PlayerNames []string
	OwnName     string
	StartMoney  int
	// WealthTable is everyone's money at the start ({name: money}).
	WealthTable map[string]int
}

// State is what an auction player sees before each bid (and once more when the
// auction is over, with Finished set): the seed's per-round game_state plus what the SDK
// keeps track of.
type State struct {
	sdk.Clock
	// Setup is the initial state; do not modify.
	Setup *Setup
	// Round is the index of the item now up for auction, from 0; Item is its artist
	// (Setup.AuctionItems[Round]), empty once Finished.
	Round int
	Item  string
	// Finished is true only in the final state given to Ender.End.
	Finished bool
	// BidItem, BidWinner and WinningBid describe the previous round: its artist (empty before
	// the first round), its winner (empty when nobody won) and the price (-1 when nobody won).
	BidItem    string
	BidWinner  string
	WinningBid int
	// WealthTable is everyone's money ({name: money}); -1 marks a disqualified player.
	WealthTable map[string]int
	// RemainTime is everyone's chess clock in seconds ({name: seconds}).
	RemainTime map[string]float64
	// Money is my own money (WealthTable[Setup.OwnName]).
	Money int
	// Won counts the works each player owns, by artist index: Won[name][3] is t3.
	// Kept by the SDK from the rounds this player saw.
	Won map[string][]int
	// GameWinner names the winner once Finished (empty for a draw).
	GameWinner string
}

// OwnRemainTime is my own clock in seconds (what the seed's sample client kept of remain_time).
func (s *State) OwnRemainTime() float64 { return s.RemainTime[s.Setup.OwnName] }

// Needs is how many more works of artist a the named player must win.
func (s *State) Needs(name string, a int) int {
	if w := s.Won[name]; a >= 0 && a < len(w) {
		return max(0, s.Setup.RequiredCount-w[a])
	}
	return s.Setup.RequiredCount
}

// ArtistIndex turns "t3" into 3; -1 when the name is not an artist.
func ArtistIndex(artist string) int {
	n, err := strconv.Atoi(strings.TrimPrefix(artist, "t"))
	if err != nil || !strings.HasPrefix(artist, "t") || n < 0 {
		return -1
	}
	return n
}

// Player plays one auction.
type Player interface {
	// Bid returns a whole-number bid for the item now up. A bid over my money, or negative,
	// counts as 0.
	Bid(s *State) int
}

// Ender is optionally implemented by an Player that wants the final state.
type Ender interface {
	End(s *State)
}

// Func adapts a plain function to Player.
type Func func(s *State) int

// Bid calls f.
func (f Func) Bid(s *State) int { return f(s) }

type gameSeat struct {
	p     Player
	setup Setup
	state State
	seen  int // rounds already counted into Won
	out   arenav1.AuctionAction
	wrap  arenav1.ActResponse_Auction
}

// Play is the auction entry of sdk.Bot's Games: newPlayer makes a fresh player for every seat
// the host opens. A nil newPlayer plays nothing.
func Play(newPlayer func() Player) sdk.Game {
	g := sdk.Game{Name: Name, HouseBot: "bots/auction/cmd/sample"}
	if newPlayer == nil {
		return g
	}
	g.Open = func(req *arenav1.StartRequest) seat.Seat {
		s := &gameSeat{p: newPlayer()}
		su := req.GetAuction()
		s.setup = Setup{ArtistsNum: int(su.GetArtistsNum()), RequiredCount: int(su.GetRequiredCount()),
			AuctionItems: su.GetAuctionItems(), PlayerCount: int(su.GetPlayerCount()), PlayerNames: su.GetPlayerNames(),
			OwnName: su.GetOwnName(), StartMoney: int(su.GetStartMoney()), WealthTable: map[string]int{}}
		st := &s.state
		st.Setup = &s.setup
		st.WealthTable = map[string]int{}
		st.RemainTime = map[string]float64{}
		st.Won = map[string][]int{}
		st.WinningBid = -1
		st.Money = s.setup.StartMoney
		for _, n := range s.setup.PlayerNames {
			s.setup.WealthTable[n] = s.setup.StartMoney
			st.WealthTable[n] = s.setup.StartMoney
			st.Won[n] = make([]int, s.setup.ArtistsNum)
		}
		if len(s.setup.AuctionItems) > 0 {
			st.Item = s.setup.AuctionItems[0]
		}
		s.wrap.Auction = &s.out
		return s
	}
	return g
}

// update folds an observation into the state.
func (s *gameSeat) update(o *arenav1.AuctionObservation) {
	st := &s.state
	st.Round = int(o.GetItemIndex())
	st.Item = o.GetItem()
	st.Finished = o.GetFinished()
	st.BidItem, st.BidWinner, st.WinningBid = o.GetBidItem(), o.GetBidWinner(), int(o.GetWinningBid())
	st.GameWinner = o.GetGameWinner()
	clear(st.WealthTable)
	for n, w := range o.GetWealthTable() {
		st.WealthTable[n] = int(w)
	}
	clear(st.RemainTime)
	for n, t := range o.GetRemainTime() {
		st.RemainTime[n] = t
	}
	st.Money = int(o.GetOwnMoney())
	// Each observation reports one round; count it once.
	if st.Round > s.seen && st.BidWinner != "" {
		if a := ArtistIndex(st.BidItem); a >= 0 {
			w := st.Won[st.BidWinner]
			for len(w) <= a {
				w = append(w, 0)
			}
			w[a]++
			st.Won[st.BidWinner] = w
		}
	}
	s.seen = max(s.seen, st.Round)
}

func (s *gameSeat) Act(req *arenav1.ActRequest, resp *arenav1.ActResponse) {
	o := req.GetAuction()
	if o == nil {
		seat.Invalid(resp, "expected an auction observation")
		return
	}
	s.update(o)
	s.state.Clock = seat.ClockOf(req)
	s.out.Bid = float64(s.p.Bid(&s.state))
	resp.Action = &s.wrap
}

func (s *gameSeat) End(req *arenav1.EndRequest) {
	o := req.GetAuction()
	if o == nil {
		return
	}
	s.update(o)
	if e, ok := s.p.(Ender); ok {
		e.End(&s.state)
	}
}
