package coin

import (
	"fmt"
	"math/rand/v2"
	"strconv"

	"github.com/botarena/arena/arena/game"
	arenav1 "github.com/botarena/arena/proto/arena/v1"
)

// Spec describes the game; init registers it.
var Spec game.Spec

func init() {
	Spec = game.Spec{
		Name:       "coin",
		Summary:    "both players call a seeded coin each round; a point per correct call",
		MinPlayers: 2,
		MaxPlayers: 2,
		Params:     []game.Param{{Name: "rounds", Default: "10", Help: "rounds in the match"}},
		New:        New,
		Legal:      RandomLegal,
		Test:       game.TestPlan{MaxSteps: 100},
		House:      []game.HouseBot{{Name: "flip", Strength: game.Strong, Ladder: true}},
		Kit:        game.KitPlan{Opponent: "flip", Params: map[string]string{"rounds": "10"}},
		Short:      game.ShortMatch{Seed: 3, Params: map[string]string{"rounds": "6"}, Players: []string{"flip", "flip"}},
	}
	game.Register(Spec)
}

const (
	heads = arenav1.CoinSide_COIN_SIDE_HEADS
	tails = arenav1.CoinSide_COIN_SIDE_TAILS
)

// Engine is one coin match.
type Engine struct {
	cfg     game.Config
	coin    *rand.Rand
	rounds  int
	round   int // rounds played
	last    arenav1.CoinSide
	score   [2]int
	forfeit [2]bool
	faults  []game.FaultRecord
}

// New builds an engine; the coin is drawn from the match's seed.
func New(cfg game.Config) (game.Engine, error) {
	e := &Engine{cfg: cfg, coin: rand.New(rand.NewPCG(cfg.Seed, 0))}
	var err error
	if e.rounds, err = Spec.Int(cfg, "rounds", 1, 1000); err != nil {
		return nil, err
	}
	return e, nil
}

// Seats are the two players.
func (e *Engine) Seats() []game.Seat {
	return []game.Seat{{Player: 0, Name: e.cfg.Players[0].Name}, {Player: 1, Name: e.cfg.Players[1].Name}}
}

// Setup tells a seat the number of rounds.
func (e *Engine) Setup(_ int, req *arenav1.StartRequest) {
	req.Setup = &arenav1.StartRequest_Coin{Coin: &arenav1.CoinSetup{Rounds: int32(e.rounds)}}
}

// Pending is both seats until the match ends.
func (e *Engine) Pending() []int {
	if e.Done() {
		return nil
	}
	return []int{0, 1}
}

func (e *Engine) observation(seat int) *arenav1.CoinObservation {
	return &arenav1.CoinObservation{Round: int32(e.round + 1), LastCoin: e.last,
		OwnScore: int32(e.score[seat]), OpponentScore: int32(e.score[1-seat])}
}

// Observe sends the previous round only.
func (e *Engine) Observe(seat int, req *arenav1.ActRequest) {
	req.Observation = &arenav1.ActRequest_Coin{Coin: e.observation(seat)}
}

// Apply plays one round: a fault or a call without a side forfeits.
func (e *Engine) Apply(answers []game.Answer) error {
	if e.Done() {
		return fmt.Errorf("coin: apply after the end")
	}
	var call [2]arenav1.CoinSide
	for _, a := range answers {
		if a.Seat != 0 && a.Seat != 1 {
			return fmt.Errorf("coin: %w: seat %d", game.ErrNotPending, a.Seat)
		}
		where := "round " + strconv.Itoa(e.round+1)
		switch c := a.Action.GetCoin().GetCall(); {
		case a.Fault != nil:
			e.charge(a.Seat, where, a.Fault.Kind, a.Fault.Detail)
		case c != heads && c != tails:
			e.charge(a.Seat, where, game.FaultIllegal, fmt.Sprintf("%v is neither heads nor tails", c))
		default:
			call[a.Seat] = c
		}
	}
	e.round++
	e.last = heads + arenav1.CoinSide(e.coin.IntN(2))
	for s := range 2 {
		if call[s] == e.last {
			e.score[s]++
		}
	}
	return nil
}

func (e *Engine) charge(seat int, where string, k game.FaultKind, detail string) {
	e.forfeit[seat] = true
	e.faults = append(e.faults, game.FaultRecord{Seat: seat, Where: where, Kind: k, Detail: detail, Penalty: "forfeits the match"})
}

// Done: the last round is played, or a seat forfeited.
func (e *Engine) Done() bool { return e.round >= e.rounds || e.forfeit[0] || e.forfeit[1] }

// Faults charged so far (game.FaultLog).
func (e *Engine) Faults() []game.FaultRecord { return e.faults }

// Final gives each seat the last round and its result.
func (e *Engine) Final(seat int, req *arenav1.EndRequest) {
	req.Observation = &arenav1.EndRequest_Coin{Coin: e.observation(seat)}
	out := e.Outcome()
	req.Result = out.Players[seat].Result.Proto()
	req.Score = out.Players[seat].Score
}

// Outcome of the match: a forfeit loses; else the higher score wins.
func (e *Engine) Outcome() game.Outcome {
	res := [2]game.Result{game.ResultDraw, game.ResultDraw}
	switch {
	case e.forfeit[0] && e.forfeit[1]:
		res = [2]game.Result{game.ResultLoss, game.ResultLoss}
	case e.forfeit[0] || (!e.forfeit[1] && e.score[1] > e.score[0]):
		res = [2]game.Result{game.ResultLoss, game.ResultWin}
	case e.forfeit[1] || e.score[0] > e.score[1]:
		res = [2]game.Result{game.ResultWin, game.ResultLoss}
	}
	out := game.Outcome{Summary: fmt.Sprintf("%s %d-%d %s after %d rounds", e.cfg.Players[0].Name, e.score[0], e.score[1], e.cfg.Players[1].Name, e.round),
		Faults: e.faults, Table: [][]string{{"player", "result", "score"}}}
	for s := range 2 {
		rank := 1
		if res[s] == game.ResultLoss && res[1-s] != game.ResultLoss {
			rank = 2
		}
		out.Players = append(out.Players, game.PlayerOutcome{Result: res[s], Score: float64(e.score[s]), Rank: rank})
		out.Table = append(out.Table, []string{e.cfg.Players[s].Name, res[s].String(), strconv.Itoa(e.score[s])})
	}
	return out
}

// RandomLegal calls a random side, for the contract suite and fuzzing.
func RandomLegal(r *rand.Rand, req *arenav1.ActRequest) *arenav1.ActResponse {
	if req.GetCoin() == nil {
		return nil
	}
	return &arenav1.ActResponse{Step: req.GetStep(), Action: &arenav1.ActResponse_Coin{Coin: &arenav1.CoinAction{Call: heads + arenav1.CoinSide(r.IntN(2))}}}
}
