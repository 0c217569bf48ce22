package dynamite

import (
	"fmt"
	"strconv"

	"github.com/botarena/arena/arena/game"
	arenav1 "github.com/botarena/arena/proto/arena/v1"
)

// Spec describes the game; init registers it.
var Spec game.Spec

func init() {
	Spec = game.Spec{
		Name:       "dynamite",
		Summary:    "rock-paper-scissors with dynamite (beats R/P/S) and water balloons (beat dynamite); first to 1000",
		MinPlayers: 2,
		MaxPlayers: 2,
		Params: []game.Param{
			{Name: "target", Default: "1000", Help: "points needed to win"},
			{Name: "rounds", Default: "2500", Help: "round cap; at the cap the higher score wins"},
			{Name: "dynamite", Default: "100", Help: "dynamite per player; one more forfeits"},
		},
		New:   New,
		Legal: RandomLegal,
		// One match of at most 2500 rounds.
		Test: game.TestPlan{MaxSteps: 2500},
		// The seed's three examples and the baseline, which the ladder seeds.
		House: []game.HouseBot{
			{Name: "paper", Strength: game.Fixed},
			{Name: "scissors", Strength: game.Fixed},
			{Name: "dynamite", Strength: game.Random},
			{Name: "beatlast", Strength: game.Strong, Ladder: true},
		},
		Kit:   game.KitPlan{Opponent: "paper", Params: map[string]string{"target": "100", "rounds": "300"}},
		Short: game.ShortMatch{Seed: 7, Params: map[string]string{"target": "40"}, Players: []string{"dynamite", "beatlast"}},
	}
	game.Register(Spec)
}

type move = arenav1.DynamiteMove

const (
	none     = arenav1.DynamiteMove_DYNAMITE_MOVE_UNSPECIFIED
	rock     = arenav1.DynamiteMove_DYNAMITE_MOVE_ROCK
	paper    = arenav1.DynamiteMove_DYNAMITE_MOVE_PAPER
	scissors = arenav1.DynamiteMove_DYNAMITE_MOVE_SCISSORS
	dyn      = arenav1.DynamiteMove_DYNAMITE_MOVE_DYNAMITE
	water    = arenav1.DynamiteMove_DYNAMITE_MOVE_WATER
)

// Beats reports whether a beats b.
func Beats(a, b move) bool {
	switch a {
	case rock:
		return b == scissors || b == water
	case paper:
		return b == rock || b == water
	case scissors:
		return b == paper || b == water
	case dyn:
		return b == rock || b == paper || b == scissors
	case water:
		return b == dyn
	}
	return false
}

// Letter is the seed's one-letter name of a move.
func Letter(m move) string {
	switch m {
	case rock:
		return "R"
	case paper:
		return "P"
	case scissors:
		return "S"
	case dyn:
		return "D"
	case water:
		return "W"
	}
	return "?"
}

// Engine is one dynamite match.
type Engine struct {
	cfg      game.Config
	target   int
	maxRound int
	maxDyn   int

	round   int // rounds played
	score   [2]int
	dynLeft [2]int
	stake   int
	last    [2]move
	done    bool
	forfeit [2]bool
	faults  []game.FaultRecord
	pending []int
}

// New builds an engine.
func New(cfg game.Config) (game.Engine, error) {
	e := &Engine{cfg: cfg, stake: 1, pending: []int{0, 1}}
	var err error
	if e.target, err = Spec.Int(cfg, "target", 1, 1<<30); err != nil {
		return nil, err
	}
	if e.maxRound, err = Spec.Int(cfg, "rounds", 1, 1<<30); err != nil {
		return nil, err
	}
	if e.maxDyn, err = Spec.Int(cfg, "dynamite", 0, 1<<30); err != nil {
		return nil, err
	}
	e.dynLeft = [2]int{e.maxDyn, e.maxDyn}
	return e, nil
}

// Seats are the two players.
func (e *Engine) Seats() []game.Seat {
	return []game.Seat{{Player: 0, Name: e.cfg.Players[0].Name}, {Player: 1, Name: e.cfg.Players[1].Name}}
}

// Setup tells a seat the match's constants.
func (e *Engine) Setup(_ int, req *arenav1.StartRequest) {
	req.Setup = &arenav1.StartRequest_Dynamite{Dynamite: &arenav1.DynamiteSetup{
		TargetScore: int32(e.target), MaxRounds: int32(e.maxRound), DynamitePerPlayer: int32(e.maxDyn)}}
}

// Pending is both seats until the match ends.
func (e *Engine) Pending() []int {
	if e.done {
		return nil
	}
	return e.pending
}

// Observe sends only the previous round, never the history.
func (e *Engine) Observe(seat int, req *arenav1.ActRequest) {
	o := req.GetDynamite()
	if o == nil {
		o = &arenav1.DynamiteObservation{}
		req.Observation = &arenav1.ActRequest_Dynamite{Dynamite: o}
	}
	e.fill(seat, o)
}

func (e *Engine) fill(seat int, o *arenav1.DynamiteObservation) {
	opp := 1 - seat
	o.Round = int32(e.round + 1)
	o.LastOwn, o.LastOpponent = e.last[seat], e.last[opp]
	o.OwnScore, o.OpponentScore = int32(e.score[seat]), int32(e.score[opp])
	o.OwnDynamiteLeft, o.OpponentDynamiteLeft = int32(e.dynLeft[seat]), int32(e.dynLeft[opp])
	o.Stake = int32(e.stake)
}

// Apply plays one round.
func (e *Engine) Apply(answers []game.Answer) error {
	if e.done {
		return fmt.Errorf("dynamite: apply after the end")
	}
	if len(answers) != 2 {
		return fmt.Errorf("dynamite: %d answers, want 2", len(answers))
	}
	var mv [2]move
	var got [2]bool
	for _, a := range answers {
		if a.Seat != 0 && a.Seat != 1 || got[a.Seat] {
			return fmt.Errorf("dynamite: %w: seat %d", game.ErrNotPending, a.Seat)
		}
		got[a.Seat] = true
		s := a.Seat
		if a.Fault != nil {
			e.charge(s, a.Fault.Kind, a.Fault.Detail)
			continue
		}
		// game.Judge let through only a dynamite move.
		m := a.Action.GetDynamite().GetMove()
		switch m {
		case rock, paper, scissors, water:
		case dyn:
			if e.dynLeft[s] == 0 {
				e.charge(s, game.FaultIllegal, fmt.Sprintf("dynamite number %d (only %d allowed)", e.maxDyn+1, e.maxDyn))
				continue
			}
		default:
			e.charge(s, game.FaultIllegal, fmt.Sprintf("%v is not one of R P S D W", m))
			continue
		}
		mv[s] = m
	}
	e.round++
	if e.forfeit[0] || e.forfeit[1] {
		e.done = true
		return nil
	}
	for s := range 2 {
		if mv[s] == dyn {
			e.dynLeft[s]--
		}
	}
	e.last = mv
	switch {
	case Beats(mv[0], mv[1]):
		e.score[0] += e.stake
		e.stake = 1
	case Beats(mv[1], mv[0]):
		e.score[1] += e.stake
		e.stake = 1
	default:
		e.stake++
	}
	if e.score[0] >= e.target || e.score[1] >= e.target || e.round >= e.maxRound {
		e.done = true
	}
	return nil
}

// charge records a fault of the round being played; the text is built only then, so the
// common path allocates nothing.
func (e *Engine) charge(seat int, k game.FaultKind, detail string) {
	where := "round " + strconv.Itoa(e.round+1)
	e.forfeit[seat] = true
	e.faults = append(e.faults, game.FaultRecord{Seat: seat, Where: where, Kind: k, Detail: detail, Penalty: "forfeits the match"})
}

// Done reports the end.
func (e *Engine) Done() bool { return e.done }

// Faults charged so far (game.FaultLog).
func (e *Engine) Faults() []game.FaultRecord { return e.faults }

// Final gives each seat its result and the last round.
func (e *Engine) Final(seat int, req *arenav1.EndRequest) {
	o := &arenav1.DynamiteObservation{}
	e.fill(seat, o)
	req.Observation = &arenav1.EndRequest_Dynamite{Dynamite: o}
	out := e.Outcome()
	req.Result = out.Players[seat].Result.Proto()
	req.Score = out.Players[seat].Score
}

// Rounds played so far.
func (e *Engine) Rounds() int { return e.round }

// DynamiteUsed by seat.
func (e *Engine) DynamiteUsed(seat int) int { return e.maxDyn - e.dynLeft[seat] }

// Outcome of the match.
func (e *Engine) Outcome() game.Outcome {
	res := [2]game.Result{game.ResultDraw, game.ResultDraw}
	how := ""
	switch {
	case e.forfeit[0] && e.forfeit[1]:
		res = [2]game.Result{game.ResultLoss, game.ResultLoss}
		how = "both forfeit"
	case e.forfeit[0]:
		res = [2]game.Result{game.ResultLoss, game.ResultWin}
		how = "by forfeit"
	case e.forfeit[1]:
		res = [2]game.Result{game.ResultWin, game.ResultLoss}
		how = "by forfeit"
	case e.score[0] > e.score[1]:
		res = [2]game.Result{game.ResultWin, game.ResultLoss}
	case e.score[1] > e.score[0]:
		res = [2]game.Result{game.ResultLoss, game.ResultWin}
	}
	n := [2]string{e.cfg.Players[0].Name, e.cfg.Players[1].Name}
	var sum string
	switch {
	case res[0] == game.ResultWin:
		sum = fmt.Sprintf("%s wins %d-%d", n[0], e.score[0], e.score[1])
	case res[1] == game.ResultWin:
		sum = fmt.Sprintf("%s wins %d-%d", n[1], e.score[1], e.score[0])
	case how != "":
		sum = fmt.Sprintf("no winner (%s) at %d-%d", how, e.score[0], e.score[1])
	default:
		sum = fmt.Sprintf("draw %d-%d", e.score[0], e.score[1])
	}
	if how == "by forfeit" {
		sum += " " + how
	}
	sum += fmt.Sprintf(" after %d rounds", e.round)
	out := game.Outcome{Summary: sum, Faults: e.faults}
	ranks := rank(res)
	for s := range 2 {
		out.Players = append(out.Players, game.PlayerOutcome{Result: res[s], Score: float64(e.score[s]), Rank: ranks[s]})
	}
	out.Table = [][]string{{"player", "result", "score", "dynamite used"}}
	for s := range 2 {
		out.Table = append(out.Table, []string{n[s], res[s].String(), strconv.Itoa(e.score[s]), strconv.Itoa(e.DynamiteUsed(s))})
	}
	return out
}

func rank(res [2]game.Result) [2]int {
	switch {
	case res[0] == game.ResultWin:
		return [2]int{1, 2}
	case res[1] == game.ResultWin:
		return [2]int{2, 1}
	}
	return [2]int{1, 1}
}
