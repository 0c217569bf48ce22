package realtv

import (
	"fmt"
	"math/rand/v2"
	"strconv"

	"github.com/botarena/arena/arena/game"
	arenav1 "github.com/botarena/arena/proto/arena/v1"
)

// The seed's constants.
const (
	PlayersPerIsland    = 12
	InstancesPerPlayer  = 11 // strengths 0..10
	ScoreForTrial       = 3
	ScoreForLastMan     = 100
	ScoreForAllTraitors = 100
	DifficultyA         = 7
	DifficultyB         = -3
	// FillerName is the class name filler bots show (the original engine's BotPareto).
	FillerName = "BotPareto"
	// IDLength and IDAlphabet shape instance ids, as the original Player.__init__ drew them.
	IDLength   = 10
	IDAlphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
)

// unit is one point: scores are kept as integers of 1/unit points. unit = lcm(1..12), so the
// 100 points of a failed trial split exactly among the up to 12 traitors of an island.
const unit = 27720

// Points converts an exact score to points.
func Points(units int64) float64 { return float64(units) / unit }

// Difficulty of a trial with n players.
func Difficulty(n int) int { return DifficultyA*n + DifficultyB }

// Spec describes the game; init registers it.
var Spec game.Spec

func init() {
	Spec = game.Spec{
		Name: "realtv",
		Summary: "Real TV island contest: each script plays 11 instances (strengths 0..10) over many phases " +
			"of islands of 12; vote, betray, pass trials, be the last one standing",
		MinPlayers: 1,
		MaxPlayers: 0,
		Params: []game.Param{
			{Name: "phases", Default: "100", Help: "phases in the contest (each instance visits one island per phase)"},
		},
		New:   New,
		Legal: RandomLegal,
		// Ten phases keep the suite quick and still ask every seat again after step 7 (each phase
		// opens with a vote of every instance), which EveryFaultKindHandled needs. An island lasts
		// at most 11 days of two votes each.
		Test: game.TestPlan{Players: []int{1, 2, 5}, Params: map[string]string{"phases": "10"}, MaxSteps: 10 * 22},
		// Fewer phases per ladder match.
		Ladder: map[string]string{"phases": "5"},
		// A ladder match is a contest of up to six scripts (66 instances: six islands a
		// phase, with few filler bots), not a pair whose 22 instances mostly meet fillers.
		LadderTable: 6,
		// A contest ranks scripts by the total score of their instances.
		Ranking: game.RankByTotal,
		House: []game.HouseBot{
			{Name: "likesthemstrong", Strength: game.Fixed},
			{Name: "filler", Strength: game.Random, Ladder: true},
			{Name: "schemer", Strength: game.Strong},
		},
		Kit:   game.KitPlan{Opponent: "likesthemstrong", Params: map[string]string{"phases": "10"}},
		Short: game.ShortMatch{Seed: 2, Params: map[string]string{"phases": "3"}, Players: []string{"likesthemstrong", "schemer"}},
	}
	game.Register(Spec)
}

type status uint8

const (
	active status = iota
	betrayer
	eliminated
)

type stage uint8

const (
	stageFirst stage = iota // waiting for the day's elimination votes
	stageTie                // waiting for the tie votes
	stageOver               // the island has ended
)

// instance is one seat: a script's instance with a fixed strength.
type instance struct {
	player   int
	strength int
	id       string
	score    int64 // exact, in units
	// where it is this phase
	island, member int
	// statistics for the table
	won, trials, betrayals, eliminated, bounties, islands int
	lastDetail                                            string
}

// member is a player on an island: an instance (seat >= 0) or a filler bot (seat -1).
type member struct {
	seat     int
	id       string
	name     string
	strength int
	filler   int64 // a filler's own score, in units (instances keep theirs in instance.score)
	status   status
	dayScore int64 // score at the start of the day, as contexts show it
	// votes on this island, one entry per day. Observations share these messages, so an entry
	// is never changed once an observation may hold it: the tie vote replaces the day's entry.
	votes []*arenav1.RealtvVotes
}

type island struct {
	index   int
	members []member
	day     int
	stage   stage
	ties    []int // member indexes of the current tie
}

// Engine runs one contest.
type Engine struct {
	cfg    game.Config
	phases int
	names  []string // script names, made unique
	r      *rand.Rand
	ids    map[string]bool
	inst   []instance
	seats  []game.Seat

	phase     int
	islands   []*island
	totalBots int
	done      bool

	pending   []int
	isPending []bool
	faults    []game.FaultRecord
	outcome   *game.Outcome // cached once done
}

// New builds a contest.
func New(cfg game.Config) (game.Engine, error) {
	phases, err := Spec.Int(cfg, "phases", 1, 1_000_000)
	if err != nil {
		return nil, err
	}
	e := &Engine{cfg: cfg, phases: phases, r: rand.New(rand.NewPCG(cfg.Seed, 0x7ea1_7)), ids: map[string]bool{}}
	e.names = uniqueNames(cfg.Players)
	for p := range cfg.Players {
		for s := range InstancesPerPlayer {
			e.inst = append(e.inst, instance{player: p, strength: s, id: e.newID()})
			e.seats = append(e.seats, game.Seat{Player: p, Name: e.names[p] + " STR=" + strconv.Itoa(s)})
		}
	}
	e.isPending = make([]bool, len(e.inst))
	e.startPhase()
	return e, nil
}

// classOf is the class name other players see for script p: what the bot calls itself when
// known (docs/rules/realtv.md: a PlayerContext holds the class name), else its display name.
func (e *Engine) classOf(p int) string {
	if c := e.cfg.Players[p].Class; c != "" {
		return c
	}
	return e.names[p]
}

func uniqueNames(ps []game.Player) []string {
	seen := map[string]bool{}
	out := make([]string, len(ps))
	for i, p := range ps {
		base := p.Name
		if base == "" {
			base = "script" + strconv.Itoa(i)
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

// newID draws an id of 10 upper-case letters and digits, unique in the contest.
func (e *Engine) newID() string {
	var b [IDLength]byte
	for {
		for i := range b {
			b[i] = IDAlphabet[e.r.IntN(len(IDAlphabet))]
		}
		if id := string(b[:]); !e.ids[id] {
			e.ids[id] = true
			return id
		}
	}
}

// Seats are the instances: seat p*11+s is script p's instance of strength s.
func (e *Engine) Seats() []game.Seat { return e.seats }

// Setup tells an instance who it is.
func (e *Engine) Setup(seat int, req *arenav1.StartRequest) {
	in := &e.inst[seat]
	req.Setup = &arenav1.StartRequest_Realtv{Realtv: &arenav1.RealtvSetup{
		Id: in.id, Name: e.classOf(in.player), Strength: int32(in.strength), Phases: int32(e.phases),
		PlayersPerIsland: PlayersPerIsland, Instance: int32(in.strength)}}
}

// Pending is every active instance of every island still running.
func (e *Engine) Pending() []int {
	if e.done {
		return nil
	}
	return e.pending
}

// Observe gives an instance its island's context (at most 12 players).
func (e *Engine) Observe(seat int, req *arenav1.ActRequest) {
	in := &e.inst[seat]
	isl := e.islands[in.island]
	o := &arenav1.RealtvObservation{
		Decision:          arenav1.RealtvDecision_REALTV_DECISION_ELIMINATION,
		IslandIndex:       int32(isl.index),
		Game:              &arenav1.RealtvGameContext{TotalBots: int32(e.totalBots), TotalHumans: int32(len(e.inst)), PhaseIndex: int32(e.phase)},
		ActivePlayers:     map[string]*arenav1.RealtvPlayer{},
		Betrayers:         map[string]*arenav1.RealtvPlayer{},
		EliminatedPlayers: map[string]*arenav1.RealtvPlayer{},
		OwnScore:          Points(in.score),
		OwnId:             in.id,
		Day:               int32(isl.day),
	}
	ctx := make([]*arenav1.RealtvPlayer, len(isl.members))
	for m := range isl.members {
		mb := &isl.members[m]
		p := &arenav1.RealtvPlayer{Id: mb.id, Name: mb.name, Strength: int32(mb.strength), Score: Points(mb.dayScore),
			PreviousMoves: mb.votes}
		ctx[m] = p
		switch mb.status {
		case active:
			o.ActivePlayers[mb.id] = p
		case betrayer:
			o.Betrayers[mb.id] = p
		case eliminated:
			o.EliminatedPlayers[mb.id] = p
		}
	}
	if isl.stage == stageTie {
		o.Decision = arenav1.RealtvDecision_REALTV_DECISION_TIE
		o.CurrentTies = make(map[string]*arenav1.RealtvPlayer, len(isl.ties))
		for _, m := range isl.ties {
			o.CurrentTies[isl.members[m].id] = ctx[m]
		}
	}
	req.Observation = &arenav1.ActRequest_Realtv{Realtv: o}
}

// Apply takes one vote from every pending instance and advances every island by one vote.
func (e *Engine) Apply(answers []game.Answer) error {
	if e.done {
		return fmt.Errorf("realtv: apply after the end")
	}
	if len(answers) != len(e.pending) {
		return fmt.Errorf("realtv: %w: %d answers for %d pending seats", game.ErrNotPending, len(answers), len(e.pending))
	}
	got := make(map[int]*game.Answer, len(answers))
	for i := range answers {
		a := &answers[i]
		if a.Seat < 0 || a.Seat >= len(e.inst) || !e.isPending[a.Seat] || got[a.Seat] != nil {
			return fmt.Errorf("realtv: %w: seat %d", game.ErrNotPending, a.Seat)
		}
		got[a.Seat] = a
	}
	for _, isl := range e.islands {
		switch isl.stage {
		case stageFirst:
			e.resolveFirst(isl, got)
		case stageTie:
			e.resolveTie(isl, got)
		}
		e.playFillersOnly(isl)
	}
	over := true
	for _, isl := range e.islands {
		over = over && isl.stage == stageOver
	}
	if over {
		e.phase++
		if e.phase >= e.phases {
			e.done = true
		} else {
			e.startPhase()
			return nil
		}
	}
	e.refreshPending()
	return nil
}

// Done reports the end of the contest.
func (e *Engine) Done() bool { return e.done }

// Faults charged so far (game.FaultLog).
func (e *Engine) Faults() []game.FaultRecord { return e.faults }

// Score of an instance now, in points.
func (e *Engine) Score(seat int) float64 { return Points(e.inst[seat].score) }

// ID of an instance.
func (e *Engine) ID(seat int) string { return e.inst[seat].id }

// Phase being played, from 0.
func (e *Engine) Phase() int { return e.phase }
