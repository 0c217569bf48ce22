package finger

import (
	"errors"
	"fmt"
	"strconv"

	"github.com/botarena/arena/arena/game"
	arenav1 "github.com/botarena/arena/proto/arena/v1"
)

// Name is the registry name of the game.
const Name = "finger"

// Spec is the game as registered.
var Spec = game.Spec{
	Name:       Name,
	Summary:    "hit the opponent's hands or switch your fingers; lose both hands and you lose (2 players, alternating)",
	MinPlayers: 2,
	MaxPlayers: 2,
	Params:     params,
	New:        New,
	Legal:      RandomLegal,
	// Twenty games keep the suite quick; each game is capped at max_rounds moves, so the match at
	// 20*5000 steps.
	Test: game.TestPlan{Params: map[string]string{"games": "20"}, MaxSteps: 20 * 5000},
	// Fewer games per ladder match.
	Ladder: map[string]string{"games": "10"},
	House: []game.HouseBot{
		{Name: "random", Strength: game.Random, Ladder: true},
		{Name: "strong", Strength: game.Strong},
	},
	Kit: game.KitPlan{Opponent: "random", Params: map[string]string{"games": "20"}},
	// The random player crashes in the second game.
	Short: game.ShortMatch{Seed: 3, Params: map[string]string{"games": "4"}, Players: []string{"strong", "random"}, CrashFrom: 12},
}

var params = []game.Param{
	{Name: "games", Default: "1000", Help: "games per match; who starts alternates from game to game"},
	{Name: "max_rounds", Default: "5000", Help: "a game still undecided after this many moves is lost by both players"},
}

func init() { game.Register(Spec) }

// outcome of one game, per seat.
const (
	undecided = iota
	won
	bothLost
)

// played is one move of the current game as it was played. It holds plain values, not the
// answer's message: the runner and in-process bots may reuse answer messages.
type played struct {
	seat        int
	move        arenav1.FingerMove
	left, right int32
}

type engine struct {
	names     [2]string
	games     int
	maxRounds int

	game    int // current game, from 1
	starter int // seat that started the current game
	toMove  int
	round   int // moves played in the current game
	hands   [2]Hands
	moves   []played // moves of the current game
	seen    [2]int   // moves[:seen[s]] were shown to seat s
	pending [1]int
	done    bool

	won      [2]int
	bothLost int
	faults   []game.FaultRecord
}

// New builds a finger match for cfg.
func New(cfg game.Config) (game.Engine, error) {
	if len(cfg.Players) != 2 {
		return nil, fmt.Errorf("%w: finger needs 2 players, got %d", game.ErrPlayers, len(cfg.Players))
	}
	spec := game.Spec{Name: Name, Params: params} // not Spec itself: Spec refers to New
	games, err := spec.Int(cfg, "games", 1, 1_000_000)
	if err != nil {
		return nil, err
	}
	maxRounds, err := spec.Int(cfg, "max_rounds", 1, 1_000_000)
	if err != nil {
		return nil, err
	}
	e := &engine{names: [2]string{cfg.Players[0].Name, cfg.Players[1].Name}, games: games, maxRounds: maxRounds}
	e.startGame(1)
	return e, nil
}

// startGame resets the board for game g; seat 0 starts the odd games, seat 1 the even ones.
func (e *engine) startGame(g int) {
	e.game = g
	e.starter = (g - 1) % 2
	e.toMove = e.starter
	e.round = 0
	e.hands = [2]Hands{{1, 1}, {1, 1}}
	e.moves = e.moves[:0]
	e.seen = [2]int{}
}

func (e *engine) Seats() []game.Seat {
	return []game.Seat{{Player: 0, Name: e.names[0]}, {Player: 1, Name: e.names[1]}}
}

func (e *engine) Setup(seat int, req *arenav1.StartRequest) {
	req.Setup = &arenav1.StartRequest_Finger{Finger: &arenav1.FingerSetup{
		Games: int32(e.games), MaxRounds: int32(e.maxRounds),
		OwnName: e.names[seat], OpponentName: e.names[1-seat],
	}}
}

func (e *engine) Pending() []int {
	if e.done {
		return nil
	}
	e.pending[0] = e.toMove
	return e.pending[:]
}

func (e *engine) Observe(seat int, req *arenav1.ActRequest) {
	me, opp := e.hands[seat], e.hands[1-seat]
	o := &arenav1.FingerObservation{
		Game:           int32(e.game),
		NewGame:        e.firstRequest(seat),
		StartingPlayer: e.names[e.starter],
		Started:        e.starter == seat,
		Round:          int32(e.round + 1),
		OwnLeft:        me[left], OwnRight: me[right],
		OpponentLeft: opp[left], OpponentRight: opp[right],
		GamesWon:      int32(e.won[seat]),
		GamesLost:     int32(e.won[1-seat]),
		GamesBothLost: int32(e.bothLost),
	}
	if recent := e.moves[e.seen[seat]:]; len(recent) > 0 {
		o.Recent = make([]*arenav1.FingerHistoryEntry, len(recent))
		for i, m := range recent {
			a := &arenav1.FingerAction{Move: m.move}
			if m.move == arenav1.FingerMove_FINGER_MOVE_SWITCH {
				a.SwitchLeft, a.SwitchRight = m.left, m.right
			}
			o.Recent[i] = &arenav1.FingerHistoryEntry{Player: e.names[m.seat], Action: a, Own: m.seat == seat}
		}
	}
	req.Observation = &arenav1.ActRequest_Finger{Finger: o}
}

// firstRequest reports whether seat has not yet moved in the current game: the starter before
// move 1, the other seat before move 2.
func (e *engine) firstRequest(seat int) bool {
	if seat == e.starter {
		return e.round == 0
	}
	return e.round <= 1
}

func (e *engine) Apply(answers []game.Answer) error {
	if e.done {
		return fmt.Errorf("%w: the match is over", game.ErrNotPending)
	}
	if len(answers) != 1 || answers[0].Seat != e.toMove {
		return fmt.Errorf("%w: finger wants exactly one answer, from seat %d; got %d answers", game.ErrNotPending, e.toMove, len(answers))
	}
	seat := e.toMove
	e.seen[seat] = len(e.moves)
	a, kind, detail := classify(answers[0])
	if kind == game.FaultNone {
		me, opp, err := play(e.hands[seat], e.hands[1-seat], a)
		if err == nil {
			e.hands[seat], e.hands[1-seat] = me, opp
			e.moves = append(e.moves, played{seat: seat, move: a.GetMove(), left: a.GetSwitchLeft(), right: a.GetSwitchRight()})
			e.round++
			switch {
			case !opp.alive():
				e.endGame(seat)
			case e.round >= e.maxRounds:
				e.endGame(-1)
			default:
				e.toMove = 1 - seat
			}
			return nil
		}
		kind, detail = game.FaultIllegal, err.Error()
		if merr := (*moveError)(nil); errors.As(err, &merr) && merr.garbage {
			kind = game.FaultGarbage
		}
	}
	e.faults = append(e.faults, game.FaultRecord{
		Seat: seat, Where: "game " + strconv.Itoa(e.game) + ", round " + strconv.Itoa(e.round+1),
		Kind: kind, Detail: detail, Penalty: "loses the game",
	})
	e.endGame(1 - seat)
	return nil
}

// classify turns an answer into a finger action or a fault.
func classify(a game.Answer) (*arenav1.FingerAction, game.FaultKind, string) {
	if a.Fault != nil {
		return nil, a.Fault.Kind, a.Fault.Detail
	}
	// game.Judge let through only a finger action.
	f := a.Action.GetFinger()
	return f, game.FaultNone, ""
}

// endGame records the current game as won by winner (-1: both lose) and starts the next one.
func (e *engine) endGame(winner int) {
	if winner < 0 {
		e.bothLost++
	} else {
		e.won[winner]++
	}
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
	n := e.won[0] + e.won[1] + e.bothLost
	w := 0
	if e.won[1] > e.won[0] {
		w = 1
	}
	tally := fmt.Sprintf("%d-%d", e.won[w], e.won[1-w])
	if e.bothLost > 0 {
		tally += fmt.Sprintf(" (%d lost by both)", e.bothLost)
	}
	if out.Players[0].Result == game.ResultDraw {
		out.Summary = fmt.Sprintf("draw %s over %d games", tally, n)
	} else {
		out.Summary = fmt.Sprintf("%s wins %s over %d games", e.names[w], tally, n)
	}
	out.Table = [][]string{{"player", "games won", "games lost", "both lost", "faults"}}
	for s := range 2 {
		n := 0
		for _, f := range e.faults {
			if f.Seat == s {
				n++
			}
		}
		out.Table = append(out.Table, []string{e.names[s], strconv.Itoa(e.won[s]), strconv.Itoa(e.won[1-s]),
			strconv.Itoa(e.bothLost), strconv.Itoa(n)})
	}
	return out
}
