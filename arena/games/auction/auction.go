package auction

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"time"

	"github.com/botarena/arena/arena/game"
	arenav1 "github.com/botarena/arena/proto/arena/v1"
)

// StartMoney is what every player starts with (seed rule).
const StartMoney = 100

// Spec describes the game; init registers it.
var Spec game.Spec

func init() {
	Spec = game.Spec{
		Name:       "auction",
		Summary:    "sealed-bid art auction for m players; first to own n works of one artist wins",
		MinPlayers: 2,
		MaxPlayers: 0,
		Params: []game.Param{
			// k=4 and n=3 are the seed's own worked example (m=2, k=4, n=3).
			{Name: "artists", Default: "4", Help: "number of artists k (items are t0..t{k-1})"},
			{Name: "required", Default: "3", Help: "works of one artist needed to win (n)"},
			{Name: "items", Default: "1000", Help: "items put up for auction; all sold without a winner is a draw"},
			{Name: "clock", Default: "120", Help: "each player's total chess clock, in seconds"},
		},
		ClockMs: 120_000,
		New:     New,
		Legal:   RandomLegal,
		Test:    game.TestPlan{Players: []int{2, 3, 5, 12}, MaxSteps: 1000},
		// The seed's game is m players bidding against each other: the ladder plays tables
		// of four (the pair is the seed's worked example, not its format).
		LadderTable: 4,
		House: []game.HouseBot{
			{Name: "sample", Strength: game.Random, Ladder: true},
			{Name: "collector", Strength: game.Strong},
		},
		Kit: game.KitPlan{Opponent: "sample"},
		// A table of three whose third player crashes at step 5.
		Short: game.ShortMatch{Seed: 1, Params: map[string]string{"artists": "3", "required": "4"},
			Players: []string{"collector", "sample", "sample"}, CrashFrom: 5},
	}
	game.Register(Spec)
}

// player is one seat's state.
type player struct {
	name  string
	money int64
	// clock left; charged with every answer's Elapsed.
	clock time.Duration
	out   bool // disqualified
	// outRound is the round (1-based) in which the player was disqualified.
	outRound int
	won      []int // works won, per artist
}

// Engine is one auction.
type Engine struct {
	cfg      game.Config
	artists  int
	required int
	items    []int // artist of each item
	players  []player

	round int // rounds played; item `round` is up next
	// Previous round, as the observation reports it.
	lastItem   int // -1 before the first round
	lastWinner int // -1 when nobody won
	lastBid    int64

	done   bool
	winner int // -1: none
	// nobodyLeft: every player was disqualified, so there is no draw either.
	nobodyLeft bool
	reason     string
	faults     []game.FaultRecord
	pending    []int
}

// New builds an engine.
func New(cfg game.Config) (game.Engine, error) {
	e := &Engine{cfg: cfg, lastItem: -1, lastWinner: -1, lastBid: -1, winner: -1}
	var err error
	if e.artists, err = Spec.Int(cfg, "artists", 1, 1000); err != nil {
		return nil, err
	}
	if e.required, err = Spec.Int(cfg, "required", 1, 1_000_000); err != nil {
		return nil, err
	}
	nItems, err := Spec.Int(cfg, "items", 1, 1_000_000)
	if err != nil {
		return nil, err
	}
	clock, err := Spec.Clock(cfg)
	if err != nil {
		return nil, err
	}
	// The item list is the only randomness of the game.
	r := rand.New(rand.NewPCG(cfg.Seed, 0xa0c7_10))
	e.items = make([]int, nItems)
	for i := range e.items {
		e.items[i] = r.IntN(e.artists)
	}
	names := UniqueNames(cfg.Players)
	e.players = make([]player, len(cfg.Players))
	for i := range e.players {
		e.players[i] = player{name: names[i], money: StartMoney, clock: clock,
			won: make([]int, e.artists)}
	}
	e.refreshPending()
	return e, nil
}

// UniqueNames gives every player a distinct name, because the wealth table is keyed by name:
// the second "bob" becomes "bob#2".
func UniqueNames(ps []game.Player) []string {
	seen := map[string]bool{}
	out := make([]string, len(ps))
	for i, p := range ps {
		base := p.Name
		if base == "" {
			base = "player_" + strconv.Itoa(i)
		}
		n := base
		for k := 2; seen[n]; k++ {
			n = base + "#" + strconv.Itoa(k)
		}
		seen[n] = true
		out[i] = n
	}
	return out
}

// Artist names an artist the way the seed does.
func Artist(a int) string { return "t" + strconv.Itoa(a) }

// Seats are the players.
func (e *Engine) Seats() []game.Seat {
	s := make([]game.Seat, len(e.players))
	for i, p := range e.players {
		s[i] = game.Seat{Player: i, Name: p.name}
	}
	return s
}

// Setup sends the whole item list once.
func (e *Engine) Setup(seat int, req *arenav1.StartRequest) {
	items := make([]string, len(e.items))
	for i, a := range e.items {
		items[i] = Artist(a)
	}
	names := make([]string, len(e.players))
	for i, p := range e.players {
		names[i] = p.name
	}
	req.Setup = &arenav1.StartRequest_Auction{Auction: &arenav1.AuctionSetup{
		ArtistsNum: int32(e.artists), RequiredCount: int32(e.required), AuctionItems: items,
		PlayerCount: int32(len(e.players)), PlayerNames: names, OwnName: e.players[seat].name,
		StartMoney: StartMoney}}
}

func (e *Engine) refreshPending() {
	e.pending = e.pending[:0]
	if e.done {
		return
	}
	for i, p := range e.players {
		if !p.out {
			e.pending = append(e.pending, i)
		}
	}
}

// Pending is every player still in the auction.
func (e *Engine) Pending() []int {
	if e.done {
		return nil
	}
	return e.pending
}

// Observe tells a seat the previous round only.
func (e *Engine) Observe(seat int, req *arenav1.ActRequest) {
	req.Observation = &arenav1.ActRequest_Auction{Auction: e.observation(seat)}
}

func (e *Engine) observation(seat int) *arenav1.AuctionObservation {
	o := &arenav1.AuctionObservation{
		ItemIndex:   int32(e.round),
		Finished:    e.done,
		WinningBid:  e.lastBid,
		WealthTable: make(map[string]int64, len(e.players)),
		RemainTime:  make(map[string]float64, len(e.players)),
		OwnMoney:    e.players[seat].money,
	}
	if e.lastItem >= 0 {
		o.BidItem = Artist(e.lastItem)
	}
	if e.lastWinner >= 0 {
		o.BidWinner = e.players[e.lastWinner].name
	}
	for _, p := range e.players {
		o.WealthTable[p.name] = p.wealth()
		o.RemainTime[p.name] = max(p.clock, 0).Seconds()
	}
	if e.done {
		if e.winner >= 0 {
			o.GameWinner = e.players[e.winner].name
		}
	} else {
		o.Item = Artist(e.items[e.round])
	}
	return o
}

// wealth is the wealth_table entry: -1 for a disqualified player (seed client's convention).
func (p *player) wealth() int64 {
	if p.out {
		return -1
	}
	return p.money
}

// Apply plays one round: every valid player's sealed bid for item e.round.
func (e *Engine) Apply(answers []game.Answer) error {
	if e.done {
		return fmt.Errorf("auction: apply after the end")
	}
	if len(answers) != len(e.pending) {
		return fmt.Errorf("auction: %w: %d answers for %d pending seats", game.ErrNotPending, len(answers), len(e.pending))
	}
	got := make([]bool, len(e.players))
	for _, a := range answers {
		if a.Seat < 0 || a.Seat >= len(e.players) || e.players[a.Seat].out || got[a.Seat] {
			return fmt.Errorf("auction: %w: seat %d", game.ErrNotPending, a.Seat)
		}
		got[a.Seat] = true
	}
	where := "round " + strconv.Itoa(e.round+1)
	// Bids of the players still valid after this round's faults, with their arrival order.
	type bid struct {
		seat, order int
		amount      int64
	}
	bids := make([]bid, 0, len(answers))
	for _, a := range answers {
		p := &e.players[a.Seat]
		p.clock -= a.Elapsed
		if a.Fault != nil {
			e.disqualify(a.Seat, where, a.Fault.Kind, a.Fault.Detail)
			continue
		}
		amount, kind, detail := e.read(a.Seat, a.Action)
		switch {
		case kind == game.FaultIllegal:
			e.faults = append(e.faults, game.FaultRecord{Seat: a.Seat, Where: where, Kind: kind, Detail: detail,
				Penalty: "bid counts as 0"})
		case kind != game.FaultNone:
			e.disqualify(a.Seat, where, kind, detail)
			continue
		}
		// The runner times out an answer that empties the clock; the engine applies the same
		// rule from Elapsed so that a replay gives the same match.
		if p.clock <= 0 {
			e.disqualify(a.Seat, where, game.FaultTimeout, "its clock ran out")
			continue
		}
		bids = append(bids, bid{a.Seat, a.Order, amount})
	}
	// Highest bid wins; among equal bids the earliest answer (seat breaks a tie of orders, which
	// only a broken runner produces). An all-zero round goes free to the earliest 0.
	slices.SortStableFunc(bids, func(x, y bid) int {
		if x.amount != y.amount {
			if x.amount > y.amount {
				return -1
			}
			return 1
		}
		if x.order != y.order {
			return x.order - y.order
		}
		return x.seat - y.seat
	})
	item := e.items[e.round]
	e.lastItem, e.lastWinner, e.lastBid = item, -1, -1
	e.round++
	if len(bids) > 0 {
		w := bids[0]
		p := &e.players[w.seat]
		p.money -= w.amount
		p.won[item]++
		e.lastWinner, e.lastBid = w.seat, w.amount
		if p.won[item] >= e.required {
			e.finish(w.seat, fmt.Sprintf("%s owns %d works of %s", p.name, p.won[item], Artist(item)))
			return nil
		}
	}
	valid := -1
	left := 0
	for i, p := range e.players {
		if !p.out {
			valid = i
			left++
		}
	}
	switch {
	case left == 0:
		e.nobodyLeft = true
		e.finish(-1, "no valid player left")
	case left == 1 && len(e.players) > 1:
		e.finish(valid, e.players[valid].name+" is the last valid player")
	case e.round >= len(e.items):
		e.finish(-1, fmt.Sprintf("all %d items sold without a winner", len(e.items)))
	}
	e.refreshPending()
	return nil
}

// read turns an answer into a bid. A bid the rules transform to 0 comes back as 0 with
// FaultIllegal; an answer that is not an auction bid at all is garbage.
func (e *Engine) read(seat int, a *arenav1.ActResponse) (int64, game.FaultKind, string) {
	// game.Judge let through only an auction bid.
	b := a.GetAuction().GetBid()
	money := e.players[seat].money
	switch {
	case math.IsNaN(b) || math.IsInf(b, 0):
		return 0, game.FaultIllegal, fmt.Sprintf("bid %v is not a number", b)
	case b != math.Trunc(b):
		return 0, game.FaultIllegal, fmt.Sprintf("bid %v is not a whole number", b)
	case b < 0:
		return 0, game.FaultIllegal, fmt.Sprintf("bid %v is negative", b)
	case b > float64(money):
		return 0, game.FaultIllegal, fmt.Sprintf("bid %v is more than its money (%d)", b, money)
	}
	return int64(b), game.FaultNone, ""
}

func (e *Engine) disqualify(seat int, where string, k game.FaultKind, detail string) {
	p := &e.players[seat]
	p.out = true
	p.outRound = e.round + 1
	e.faults = append(e.faults, game.FaultRecord{Seat: seat, Where: where, Kind: k, Detail: detail,
		Penalty: "disqualified"})
}

func (e *Engine) finish(winner int, reason string) {
	e.done, e.winner, e.reason = true, winner, reason
	e.pending = e.pending[:0]
}

// Done reports the end.
func (e *Engine) Done() bool { return e.done }

// Faults charged so far (game.FaultLog).
func (e *Engine) Faults() []game.FaultRecord { return e.faults }

// Final sends the last round with finished set, and the seat's result.
func (e *Engine) Final(seat int, req *arenav1.EndRequest) {
	req.Observation = &arenav1.EndRequest_Auction{Auction: e.observation(seat)}
	out := e.Outcome()
	req.Result = out.Players[seat].Result.Proto()
	req.Score = out.Players[seat].Score
}

// Rounds played so far.
func (e *Engine) Rounds() int { return e.round }

// Money of a seat now.
func (e *Engine) Money(seat int) int64 { return e.players[seat].money }

// Won is how many works of artist a the seat owns.
func (e *Engine) Won(seat, a int) int { return e.players[seat].won[a] }

// Disqualified reports whether the seat is out of the auction.
func (e *Engine) Disqualified(seat int) bool { return e.players[seat].out }

// ClockLeft is what remains of the seat's chess clock.
func (e *Engine) ClockLeft(seat int) time.Duration { return e.players[seat].clock }

// Items is the artist of every item, in auction order.
func (e *Engine) Items() []int { return e.items }

// Winner is the winning seat, or -1 (draw, no valid player, or not over yet).
func (e *Engine) Winner() int { return e.winner }

// Outcome: the winner scores 1; in a draw every player still valid scores 1/2; everyone
// else (losers, disqualified players) scores 0.
func (e *Engine) Outcome() game.Outcome {
	out := game.Outcome{Faults: e.faults}
	scores := make([]float64, len(e.players))
	results := make([]game.Result, len(e.players))
	draw := e.done && e.winner < 0 && !e.nobodyLeft
	for i, p := range e.players {
		switch {
		case i == e.winner:
			results[i], scores[i] = game.ResultWin, 1
		case draw && !p.out:
			results[i], scores[i] = game.ResultDraw, 0.5
		default:
			results[i] = game.ResultLoss
		}
	}
	ranks := game.Ranks(scores)
	for i := range e.players {
		out.Players = append(out.Players, game.PlayerOutcome{Result: results[i], Score: scores[i], Rank: ranks[i]})
	}
	switch {
	case !e.done:
		out.Summary = fmt.Sprintf("not over after %d rounds", e.round)
	case e.winner >= 0:
		out.Summary = fmt.Sprintf("%s wins: %s, after %d rounds", e.players[e.winner].name, e.reason, e.round)
	case draw:
		out.Summary = "draw: " + e.reason
	default:
		out.Summary = fmt.Sprintf("no winner: %s after %d rounds", e.reason, e.round)
	}
	head := []string{"player", "result", "wealth", "clock left"}
	for a := range e.artists {
		head = append(head, Artist(a))
	}
	out.Table = [][]string{head}
	for i, p := range e.players {
		w := strconv.FormatInt(p.money, 10)
		if p.out {
			w += fmt.Sprintf(" (disqualified in round %d)", p.outRound)
		}
		row := []string{p.name, results[i].String(), w, fmt.Sprintf("%.1fs", max(p.clock, 0).Seconds())}
		for _, n := range p.won {
			row = append(row, strconv.Itoa(n))
		}
		out.Table = append(out.Table, row)
	}
	return out
}
