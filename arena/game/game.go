package game

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	arenav1 "github.com/botarena/arena/proto/arena/v1"
)

// Sentinel errors; wrap them with %w and test them with errors.Is.
var (
	// ErrUnknownGame means no game of that name is registered.
	ErrUnknownGame = errors.New("unknown game")
	// ErrPlayers means the number of players does not fit the game.
	ErrPlayers = errors.New("wrong number of players")
	// ErrParam means a game parameter is unknown or malformed.
	ErrParam = errors.New("bad game parameter")
	// ErrNotPending means an answer came for a seat that was not asked.
	ErrNotPending = errors.New("answer for a seat that was not asked")
)

// FaultKind classifies what went wrong with a seat's answer.
type FaultKind int

// Fault kinds. The runner produces Timeout, Crash and Garbage; the engine adds Illegal.
const (
	FaultNone FaultKind = iota
	// FaultTimeout: no answer within the move deadline or the seat's clock.
	FaultTimeout
	// FaultCrash: the process died, the connection broke, or the bot's own code raised.
	FaultCrash
	// FaultGarbage: an answer of the wrong shape (wrong game, not a move at all).
	FaultGarbage
	// FaultIllegal: a well-formed move the rules forbid.
	FaultIllegal
)

var faultNames = [...]string{"none", "timeout", "crash", "garbage", "illegal"}

func (k FaultKind) String() string {
	if k < 0 || int(k) >= len(faultNames) {
		return "fault(" + strconv.Itoa(int(k)) + ")"
	}
	return faultNames[k]
}

// ParseFaultKind is the inverse of FaultKind.String.
func ParseFaultKind(s string) (FaultKind, error) {
	for i, n := range faultNames {
		if n == s {
			return FaultKind(i), nil
		}
	}
	return FaultNone, fmt.Errorf("unknown fault kind %q", s)
}

// MarshalText makes fault kinds readable in JSON replays.
func (k FaultKind) MarshalText() ([]byte, error) { return []byte(k.String()), nil }

// UnmarshalText reads what MarshalText wrote.
func (k *FaultKind) UnmarshalText(b []byte) error {
	v, err := ParseFaultKind(string(b))
	*k = v
	return err
}

// Fault is what the runner observed instead of a usable answer.
type Fault struct {
	Kind   FaultKind `json:"kind"`
	Detail string    `json:"detail,omitempty"`
}

// Answer is one seat's answer to one request. Exactly one of Action and Fault is set.
type Answer struct {
	Seat int `json:"seat"`
	// Action is the bot's response; the engine checks that the right game case is set.
	Action *arenav1.ActResponse `json:"-"`
	Fault  *Fault               `json:"fault,omitempty"`
	// Order is the arrival rank of this answer among the answers of the same step (0 first).
	Order int `json:"order"`
	// Elapsed is the time the answer was charged: in a game with a clock of its own (the
	// auction's chess clock) what that clock is charged, its wall time under either clock
	// mode; elsewhere its wall time, or under the CPU clock (match.ClockCPU) the CPU time its
	// bot used.
	Elapsed time.Duration `json:"elapsed_ns"`
	// Wall, CPU and MemoryBytes are the move's wall time, the bot's CPU time during the move
	// and its memory after it, when the runner measures moves (0 otherwise). Engines must not
	// use them: they are not replayed.
	Wall        time.Duration `json:"wall_ns,omitempty"`
	CPU         time.Duration `json:"cpu_ns,omitempty"`
	MemoryBytes int64         `json:"memory_bytes,omitempty"`
}

// FaultRecord is a fault as the engine charged it: who, where in the game, what, and the penalty.
type FaultRecord struct {
	Seat    int       `json:"seat"`
	Where   string    `json:"where"`
	Kind    FaultKind `json:"kind"`
	Detail  string    `json:"detail,omitempty"`
	Penalty string    `json:"penalty"`
}

// Result of a player in a finished match.
type Result int

// Results.
const (
	ResultNone Result = iota
	ResultWin
	ResultLoss
	ResultDraw
)

func (r Result) String() string {
	switch r {
	case ResultWin:
		return "win"
	case ResultLoss:
		return "loss"
	case ResultDraw:
		return "draw"
	}
	return "none"
}

// Proto converts to the wire enum.
func (r Result) Proto() arenav1.Result {
	switch r {
	case ResultWin:
		return arenav1.Result_RESULT_WIN
	case ResultLoss:
		return arenav1.Result_RESULT_LOSS
	case ResultDraw:
		return arenav1.Result_RESULT_DRAW
	}
	return arenav1.Result_RESULT_UNSPECIFIED
}

// MarshalText makes results readable in JSON.
func (r Result) MarshalText() ([]byte, error) { return []byte(r.String()), nil }

// UnmarshalText reads what MarshalText wrote.
func (r *Result) UnmarshalText(b []byte) error {
	for _, v := range []Result{ResultNone, ResultWin, ResultLoss, ResultDraw} {
		if v.String() == string(b) {
			*r = v
			return nil
		}
	}
	return fmt.Errorf("unknown result %q", b)
}

// PlayerOutcome is one player's result. Rank 1 is best; equal ranks are ties.
type PlayerOutcome struct {
	Result Result  `json:"result"`
	Score  float64 `json:"score"`
	Rank   int     `json:"rank"`
}

// Outcome is the result of a finished match.
type Outcome struct {
	// Players is indexed like Config.Players.
	Players []PlayerOutcome `json:"players"`
	// Summary is one line, e.g. "alice wins 1000-734 after 1812 rounds".
	Summary string `json:"summary"`
	// Table is a readable per-game table; its first row is the header.
	Table [][]string `json:"table,omitempty"`
	// Faults charged during the match, in order.
	Faults []FaultRecord `json:"faults,omitempty"`
}

// Player is a participant as the engine knows it.
type Player struct {
	Name string `json:"name"`
	// Class is what the bot calls itself (its Describe name), for games whose bots see each
	// other's class names (realtv's PlayerContext.name); empty when unknown.
	Class string `json:"class,omitempty"`
}

// Config fixes a match.
type Config struct {
	Seed    uint64            `json:"seed"`
	Players []Player          `json:"players"`
	Params  map[string]string `json:"params,omitempty"`
}

// Seat is one place at the table. In most games seats and players are the same; in realtv a
// player (a script) holds eleven seats (its instances), all served by one bot process.
type Seat struct {
	Player int    `json:"player"`
	Name   string `json:"name"`
}

// Engine runs one match. It is not safe for concurrent use.
type Engine interface {
	// Seats lists every seat; seat indexes are positions in this slice. Fixed for the match.
	Seats() []Seat
	// Setup fills req.Setup (and nothing else) with what seat is told when it opens.
	Setup(seat int, req *arenav1.StartRequest)
	// Pending lists the seats that must answer now, in ascending order; empty once Done.
	// The slice is valid until the next Apply.
	Pending() []int
	// Observe fills req.Observation with what seat sees for its pending move.
	Observe(seat int, req *arenav1.ActRequest)
	// Apply takes one answer (or fault) for every pending seat, in any order.
	Apply(answers []Answer) error
	// Done reports whether the match is over.
	Done() bool
	// Final fills req.Observation (may leave it nil) and req.Result and Score for seat at the end.
	Final(seat int, req *arenav1.EndRequest)
	// Outcome is valid once Done.
	Outcome() Outcome
}

// FaultLog is implemented by engines that can list the faults charged so far, before the
// match is done (Outcome is valid only once Done). The replay viewer uses it to show each fault
// at the move that caused it. The slice is owned by the engine: read it, never keep it.
type FaultLog interface {
	Faults() []FaultRecord
}

// Param documents one game parameter.
type Param struct {
	Name    string `json:"name"`
	Default string `json:"default"`
	Help    string `json:"help"`
}

// Spec describes a game for the registry and the command line.
type Spec struct {
	Name       string
	Summary    string
	MinPlayers int
	// MaxPlayers is 0 for no upper bound.
	MaxPlayers int
	Params     []Param
	// ClockMs is the default per-seat total clock (0 = none). The runner enforces it; the
	// param "clock" (seconds) overrides it where a game lists it; Spec.Clock reads both.
	ClockMs int64
	New     func(cfg Config) (Engine, error)
	// Legal answers a request with a random legal move drawn from r (nil when the request is
	// not this game's); the contract suite and the fuzz target play with it.
	Legal func(r *rand.Rand, req *arenav1.ActRequest) *arenav1.ActResponse
	// Test keeps the contract suite's matches small.
	Test TestPlan
	// Ladder are the parameters of the game's ladder and smoke matches (arena serve), which
	// must be short enough that a ladder turns over; nil plays the game's defaults.
	Ladder map[string]string
	// LadderTable is how many players sit at one ladder match: 0 (or 2) plays pairs; more is
	// the game's own format as a table (the auction's m players, a realtv contest of scripts,
	// each of which the engine seats as its instances). The ladder seats fewer only when the
	// game has fewer authors. LadderSeats reads it.
	LadderTable int
	// Ranking says how a tournament orders the bots.
	Ranking Ranking
	// House are the game's house bots (one marked Ladder); see HouseBot.
	House []HouseBot
	// Kit is the match every kit's example bot plays in the kit tests.
	Kit KitPlan
	// Short is the short match the viewer's and the re-run tests play.
	Short ShortMatch
}

// LadderSeats is how many players the ladder seats at one match of the game: LadderTable, or
// two (a pair) when it is unset, never more than MaxPlayers allows.
func (s Spec) LadderSeats() int {
	n := max(s.LadderTable, 2)
	if s.MaxPlayers > 0 {
		n = min(n, s.MaxPlayers)
	}
	return n
}

// TestPlan is how the contract suite (arena/game/gametest) plays a game.
type TestPlan struct {
	// Players are the player counts to try (default: MinPlayers).
	Players []int
	// Params keep matches short.
	Params map[string]string
	// MaxSteps is the cap no match may pass (a safety net: the game's own cap must end it first).
	MaxSteps int
}

// Ranking is how standings order a game's bots.
type Ranking int

// Rankings.
const (
	// RankByRating orders by the rating (two players: Bradley-Terry; more: OpenSkill's
	// ordinal), ties broken by the game's own total.
	RankByRating Ranking = iota
	// RankByTotal orders by the game's own total score (a realtv contest), ties broken by
	// the rating.
	RankByTotal
)

var (
	regMu    sync.RWMutex
	registry = map[string]Spec{}
)

// Register adds a game; engines call it from init. Registering a name twice panics.
func Register(s Spec) {
	regMu.Lock()
	defer regMu.Unlock()
	if _, dup := registry[s.Name]; dup {
		panic("game: registered twice: " + s.Name)
	}
	registry[s.Name] = s
}

// Lookup finds a registered game.
func Lookup(name string) (Spec, error) {
	regMu.RLock()
	defer regMu.RUnlock()
	s, ok := registry[name]
	if !ok {
		return Spec{}, fmt.Errorf("%w %q (known games: %s)", ErrUnknownGame, name, strings.Join(namesLocked(), ", "))
	}
	return s, nil
}

// Names lists the registered games, sorted.
func Names() []string {
	regMu.RLock()
	defer regMu.RUnlock()
	return namesLocked()
}

func namesLocked() []string {
	names := make([]string, 0, len(registry))
	for n := range registry {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// NewEngine checks the player count and parameters against the spec, then builds the engine.
func (s Spec) NewEngine(cfg Config) (Engine, error) {
	n := len(cfg.Players)
	if n < s.MinPlayers || (s.MaxPlayers > 0 && n > s.MaxPlayers) {
		want := fmt.Sprintf("%d to %d", s.MinPlayers, s.MaxPlayers)
		if s.MaxPlayers == 0 {
			want = fmt.Sprintf("at least %d", s.MinPlayers)
		} else if s.MinPlayers == s.MaxPlayers {
			want = strconv.Itoa(s.MinPlayers)
		}
		return nil, fmt.Errorf("%w: %s needs %s players, got %d", ErrPlayers, s.Name, want, n)
	}
	for k := range cfg.Params {
		if !s.hasParam(k) {
			return nil, fmt.Errorf("%w: %s has no parameter %q (it has: %s)", ErrParam, s.Name, k, s.paramNames())
		}
	}
	return s.New(cfg)
}

func (s Spec) hasParam(k string) bool {
	for _, p := range s.Params {
		if p.Name == k {
			return true
		}
	}
	return false
}

func (s Spec) paramNames() string {
	if len(s.Params) == 0 {
		return "none"
	}
	var names []string
	for _, p := range s.Params {
		names = append(names, p.Name)
	}
	return strings.Join(names, ", ")
}

// Int reads an integer parameter with its default from the spec, checking [lo, hi].
func (s Spec) Int(cfg Config, name string, lo, hi int) (int, error) {
	v, ok := cfg.Params[name]
	if !ok {
		for _, p := range s.Params {
			if p.Name == name {
				v = p.Default
			}
		}
	}
	n, err := strconv.Atoi(strings.TrimSpace(v))
	if err != nil {
		return 0, fmt.Errorf("%w: %s %s=%q is not a whole number", ErrParam, s.Name, name, v)
	}
	if n < lo || n > hi {
		return 0, fmt.Errorf("%w: %s %s=%d is out of range %d..%d", ErrParam, s.Name, name, n, lo, hi)
	}
	return n, nil
}

// Clock is a match's per-seat total clock (0: none): the parameter "clock" in seconds,
// fractions allowed, in (0, 1000000], where the game lists it; else the game's ClockMs. It is
// the clock's one parser: the runner and the engine read the same duration from it.
func (s Spec) Clock(cfg Config) (time.Duration, error) {
	v, ok := cfg.Params["clock"]
	if !ok || !s.hasParam("clock") {
		return time.Duration(s.ClockMs) * time.Millisecond, nil
	}
	secs, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
	d := time.Duration(secs * float64(time.Second))
	if err != nil || math.IsNaN(secs) || secs <= 0 || secs > 1e6 || d <= 0 {
		return 0, fmt.Errorf("%w: %s clock=%q is not a number of seconds in (0, 1000000]", ErrParam, s.Name, v)
	}
	return d, nil
}

// ByScore is the usual outcome of a match decided by score (games won, points): the single
// highest score wins, a shared highest score draws, everyone else loses; ranks as Ranks.
func ByScore(scores []float64) []PlayerOutcome {
	ranks := Ranks(scores)
	top := 0
	for _, r := range ranks {
		if r == 1 {
			top++
		}
	}
	out := make([]PlayerOutcome, len(scores))
	for i, sc := range scores {
		res := ResultLoss
		switch {
		case ranks[i] == 1 && top == 1:
			res = ResultWin
		case ranks[i] == 1:
			res = ResultDraw
		}
		out[i] = PlayerOutcome{Result: res, Score: sc, Rank: ranks[i]}
	}
	return out
}

// Ranks turns scores (higher is better) into competition ranks: 1, 2, 2, 4.
func Ranks(scores []float64) []int {
	ranks := make([]int, len(scores))
	for i, si := range scores {
		r := 1
		for _, sj := range scores {
			if sj > si {
				r++
			}
		}
		ranks[i] = r
	}
	return ranks
}
