package bidding

import (
	"fmt"
	"strconv"

	"github.com/botarena/arena/arena/game"
	arenav1 "github.com/botarena/arena/proto/arena/v1"
)

// Name is the registry name of the game.
const Name = "bidding"

// The board: places 0..lastPlace, the bottle starts in the middle; A's end is lastPlace.
const (
	lastPlace   = 10
	startBottle = 5
)

// Spec is the game as registered.
var Spec = game.Spec{
	Name:       Name,
	Summary:    "sealed bids for a bottle that moves toward each round's winner (2 players, simultaneous)",
	MinPlayers: 2,
	MaxPlayers: 2,
	Params:     params,
	New:        New,
	Legal:      RandomLegal,
	// Twenty games of at most ten rounds each: the match is over within 200 steps.
	Test: game.TestPlan{Params: map[string]string{"games": "20"}, MaxSteps: 20 * 10},
	// Fewer games per ladder match.
	Ladder: map[string]string{"games": "10"},
	House: []game.HouseBot{
		{Name: "random", Strength: game.Random, Ladder: true},
		{Name: "strong", Strength: game.Strong},
	},
	Kit:   game.KitPlan{Opponent: "random", Params: map[string]string{"games": "10"}},
	Short: game.ShortMatch{Seed: 5, Params: map[string]string{"games": "3"}, Players: []string{"strong", "random"}},
}

var params = []game.Param{
	{Name: "games", Default: "100", Help: "games per match; the players swap sides A and B every game"},
	{Name: "start_money", Default: "100", Help: "dollars each player has at the start of every game"},
	{Name: "rounds", Default: "10", Help: "rounds per game; a game still undecided after them is a draw"},
}

func init() { game.Register(Spec) }

type engine struct {
	names      [2]string
	games      int
	startMoney int64
	rounds     int

	game      int // current game, from 1
	a         int // seat playing A in the current game
	round     int // rounds played in the current game
	money     [2]int64
	bottle    int
	advantage int // seat holding the draw advantage
	hasLast   bool
	last      [2]int64 // bids of the previous round
	roundsWon [2]int
	done      bool

	won    [2]int
	lost   [2]int
	drawn  int
	faults []game.FaultRecord
}

var bothSeats = []int{0, 1}

// New builds a bidding match for cfg.
func New(cfg game.Config) (game.Engine, error) {
	if len(cfg.Players) != 2 {
		return nil, fmt.Errorf("%w: bidding needs 2 players, got %d", game.ErrPlayers, len(cfg.Players))
	}
	spec := game.Spec{Name: Name, Params: params} // not Spec itself: Spec refers to New
	games, err := spec.Int(cfg, "games", 1, 1_000_000)
	if err != nil {
		return nil, err
	}
	money, err := spec.Int(cfg, "start_money", 0, 1_000_000_000)
	if err != nil {
		return nil, err
	}
	rounds, err := spec.Int(cfg, "rounds", 1, 1_000_000)
	if err != nil {
		return nil, err
	}
	e := &engine{names: [2]string{cfg.Players[0].Name, cfg.Players[1].Name}, games: games,
		startMoney: int64(money), rounds: rounds}
	e.startGame(1)
	return e, nil
}

// startGame resets the table for game g: seat 0 plays A in odd games, seat 1 in even ones, and
// A holds the draw advantage first.
func (e *engine) startGame(g int) {
	e.game = g
	e.a = (g - 1) % 2
	e.round = 0
	e.money = [2]int64{e.startMoney, e.startMoney}
	e.bottle = startBottle
	e.advantage = e.a
	e.hasLast = false
	e.last = [2]int64{}
	e.roundsWon = [2]int{}
}

func (e *engine) Seats() []game.Seat {
	return []game.Seat{{Player: 0, Name: e.names[0]}, {Player: 1, Name: e.names[1]}}
}

func (e *engine) Setup(seat int, req *arenav1.StartRequest) {
	req.Setup = &arenav1.StartRequest_Bidding{Bidding: &arenav1.BiddingSetup{
		Games: int32(e.games), StartMoney: int32(e.startMoney), MaxRounds: int32(e.rounds),
		OwnName: e.names[seat], OpponentName: e.names[1-seat],
	}}
}

func (e *engine) Pending() []int {
	if e.done {
		return nil
	}
	return bothSeats
}

// side is seat's side in the current game.
func (e *engine) side(seat int) arenav1.BiddingPlayer {
	if seat == e.a {
		return arenav1.BiddingPlayer_BIDDING_PLAYER_A
	}
	return arenav1.BiddingPlayer_BIDDING_PLAYER_B
}

func (e *engine) Observe(seat int, req *arenav1.ActRequest) {
	req.Observation = &arenav1.ActRequest_Bidding{Bidding: e.observation(seat)}
}

func (e *engine) observation(seat int) *arenav1.BiddingObservation {
	o := &arenav1.BiddingObservation{
		Game:           int32(e.game),
		NewGame:        e.round == 0,
		Player:         e.side(seat),
		OwnMoney:       int32(e.money[seat]),
		OpponentMoney:  int32(e.money[1-seat]),
		StartMoney:     int32(e.startMoney),
		BottlePosition: int32(e.bottle),
		HasLast:        e.hasLast,
		RoundsWon:      int32(e.roundsWon[seat]),
		RoundsLost:     int32(e.roundsWon[1-seat]),
		DrawAdvantage:  e.advantage == seat,
		Round:          int32(e.round + 1),
		OpponentName:   e.names[1-seat],
		GamesWon:       int32(e.won[seat]),
		GamesLost:      int32(e.lost[seat]),
		GamesDrawn:     int32(e.drawn),
	}
	if e.hasLast {
		o.LastOwnBid, o.LastOpponentBid = int32(e.last[seat]), int32(e.last[1-seat])
	}
	return o
}

func (e *engine) Apply(answers []game.Answer) error {
	if e.done {
		return fmt.Errorf("%w: the match is over", game.ErrNotPending)
	}
	var got [2]*game.Answer
	for i := range answers {
		s := answers[i].Seat
		if s < 0 || s > 1 || got[s] != nil {
			return fmt.Errorf("%w: bidding wants one answer from each seat; got seat %d twice or out of range", game.ErrNotPending, s)
		}
		got[s] = &answers[i]
	}
	if got[0] == nil || got[1] == nil {
		return fmt.Errorf("%w: bidding wants one answer from each seat, got %d", game.ErrNotPending, len(answers))
	}
	var bids [2]int64
	var kinds [2]game.FaultKind
	var details [2]string
	for s := range 2 {
		bids[s], kinds[s], details[s] = e.check(s, *got[s])
	}
	if kinds[0] != game.FaultNone || kinds[1] != game.FaultNone {
		// The game is abandoned and whoever faulted loses it; when both did, both lose.
		where := "game " + strconv.Itoa(e.game) + ", round " + strconv.Itoa(e.round+1)
		penalty := "game abandoned, loses the game"
		if kinds[0] != game.FaultNone && kinds[1] != game.FaultNone {
			penalty = "game abandoned, both faulted: both lose the game"
		}
		for s := range 2 {
			if kinds[s] != game.FaultNone {
				e.faults = append(e.faults, game.FaultRecord{Seat: s, Where: where, Kind: kinds[s], Detail: details[s], Penalty: penalty})
				e.lost[s]++
			} else {
				e.won[s]++
			}
		}
		e.nextGame()
		return nil
	}
	e.resolve(bids)
	return nil
}

// check turns seat's answer into a valid bid or a fault: a fault from the runner as it came, an
// answer that is not a bid as garbage, a bid the rules forbid as illegal.
func (e *engine) check(seat int, a game.Answer) (int64, game.FaultKind, string) {
	if a.Fault != nil {
		return 0, a.Fault.Kind, a.Fault.Detail
	}
	// game.Judge let through only a bidding action.
	bid, money := a.Action.GetBidding().GetBid(), e.money[seat]
	switch {
	case bid < 0:
		return 0, game.FaultIllegal, fmt.Sprintf("bid %d is negative", bid)
	case bid > money:
		return 0, game.FaultIllegal, fmt.Sprintf("bid %d is more than the %d dollars left", bid, money)
	case bid == 0 && money > 0:
		return 0, game.FaultIllegal, fmt.Sprintf("bid 0 with %d dollars left (the least bid is 1 until the money is gone)", money)
	}
	return bid, game.FaultNone, ""
}

// resolve plays a round of two valid bids.
func (e *engine) resolve(bids [2]int64) {
	var winner int
	switch {
	case bids[0] > bids[1]:
		winner = 0
	case bids[1] > bids[0]:
		winner = 1
	default:
		winner = e.advantage
		e.advantage = 1 - e.advantage
	}
	e.money[winner] -= bids[winner]
	e.roundsWon[winner]++
	if winner == e.a {
		e.bottle++
	} else {
		e.bottle--
	}
	e.round++
	e.hasLast, e.last = true, bids
	switch {
	case e.bottle >= lastPlace:
		e.endGame(e.a)
	case e.bottle <= 0:
		e.endGame(1 - e.a)
	case e.round >= e.rounds:
		e.drawn++
		e.nextGame()
	}
}

// endGame records the current game as won by winner and starts the next one.
func (e *engine) endGame(winner int) {
	e.won[winner]++
	e.lost[1-winner]++
	e.nextGame()
}

func (e *engine) nextGame() {
	if e.game >= e.games {
		e.done = true
		return
	}
	e.startGame(e.game + 1)
}

func (e *engine) Done() bool { return e.done }

// Faults charged so far (game.FaultLog).
func (e *engine) Faults() []game.FaultRecord { return e.faults }

// players is the match result: more games won wins, equal is a draw.
func (e *engine) players() []game.PlayerOutcome {
	return game.ByScore([]float64{float64(e.won[0]), float64(e.won[1])})
}

func (e *engine) Final(seat int, req *arenav1.EndRequest) {
	p := e.players()[seat]
	req.Result = p.Result.Proto()
	req.Score = p.Score
}

func (e *engine) Outcome() game.Outcome {
	out := game.Outcome{Players: e.players(), Faults: e.faults}
	w := 0
	if e.won[1] > e.won[0] {
		w = 1
	}
	tally := fmt.Sprintf("%d-%d", e.won[w], e.won[1-w])
	if e.drawn > 0 {
		tally += fmt.Sprintf(" (%d drawn)", e.drawn)
	}
	if out.Players[0].Result == game.ResultDraw {
		out.Summary = fmt.Sprintf("draw %s over %d games", tally, e.game)
	} else {
		out.Summary = fmt.Sprintf("%s wins %s over %d games", e.names[w], tally, e.game)
	}
	out.Table = [][]string{{"player", "games won", "games lost", "games drawn", "faults"}}
	for s := range 2 {
		n := 0
		for _, f := range e.faults {
			if f.Seat == s {
				n++
			}
		}
		out.Table = append(out.Table, []string{e.names[s], strconv.Itoa(e.won[s]), strconv.Itoa(e.lost[s]),
			strconv.Itoa(e.drawn), strconv.Itoa(n)})
	}
	return out
}
