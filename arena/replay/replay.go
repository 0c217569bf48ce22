package replay

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"reflect"
	"strings"
	"time"

	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"

	"github.com/botarena/arena/arena/game"
	arenav1 "github.com/botarena/arena/proto/arena/v1"
)

// FormatVersion of replay files.
const FormatVersion = 1

// ErrMismatch means a replay did not reproduce its recorded outcome.
var ErrMismatch = errors.New("replay does not reproduce the recorded outcome")

// ErrFormat means a file is not a replay this version can read.
var ErrFormat = errors.New("not a readable replay file")

// Answer is one recorded answer.
type Answer struct {
	Seat  int `json:"seat"`
	Order int `json:"order"`
	// Elapsed is what the move was charged (its wall time, or its CPU time under the CPU
	// clock); Wall and CPU are both measures, when the runner measured the move.
	Elapsed int64           `json:"elapsed_us"`
	Wall    int64           `json:"wall_us,omitempty"`
	CPU     int64           `json:"cpu_us,omitempty"`
	Memory  int64           `json:"memory_bytes,omitempty"`
	Action  json.RawMessage `json:"action,omitempty"`
	Fault   *game.Fault     `json:"fault,omitempty"`
}

// Step is one applied step.
type Step struct {
	N       int      `json:"n"`
	Answers []Answer `json:"answers"`
}

// Record is a whole match.
type Record struct {
	Format  int           `json:"format"`
	Game    string        `json:"game"`
	MatchID string        `json:"match_id"`
	Config  game.Config   `json:"config"`
	Bots    []string      `json:"bots"`
	Started time.Time     `json:"started"`
	Steps   []Step        `json:"steps"`
	Outcome *game.Outcome `json:"outcome,omitempty"`
	// Clock is what a move's time was ("cpu" or "wall"; empty in older records: wall).
	Clock string `json:"clock,omitempty"`
	// Extra holds what the runner measured (per-seat timings, exit reasons).
	Extra map[string]any `json:"extra,omitempty"`
}

var mo = protojson.MarshalOptions{UseProtoNames: true}

// Recorder collects steps; it implements match.Recorder.
type Recorder struct{ Rec *Record }

// NewRecorder starts a record.
func NewRecorder(gameName, matchID string, cfg game.Config, bots []string) *Recorder {
	return &Recorder{Rec: &Record{Format: FormatVersion, Game: gameName, MatchID: matchID, Config: cfg, Bots: bots, Started: time.Now().UTC()}}
}

// Begin records the configuration the engine was built with (the runner fills in each
// player's Class).
func (r *Recorder) Begin(cfg game.Config) { r.Rec.Config = cfg }

// Step records one step's answers.
func (r *Recorder) Step(n int, answers []game.Answer) {
	st := Step{N: n, Answers: make([]Answer, len(answers))}
	for i, a := range answers {
		ra := Answer{Seat: a.Seat, Order: a.Order, Elapsed: a.Elapsed.Microseconds(), Fault: a.Fault,
			Wall: a.Wall.Microseconds(), CPU: a.CPU.Microseconds(), Memory: a.MemoryBytes}
		if a.Action != nil {
			b, err := mo.Marshal(a.Action)
			if err != nil {
				ra.Fault = &game.Fault{Kind: game.FaultGarbage, Detail: "unrecordable answer: " + err.Error()}
			} else {
				ra.Action = b
			}
		}
		st.Answers[i] = ra
	}
	r.Rec.Steps = append(r.Rec.Steps, st)
}

// Write saves a record as compact JSON on one line (a long match has hundreds of thousands of
// answers; `arena replay FILE` prints it readably, turn by turn). The file appears at path
// complete or not at all.
func Write(path string, rec *Record) error {
	f, err := os.CreateTemp(dirOf(path), ".replay-*")
	if err != nil {
		return fmt.Errorf("cannot write replay %s: %w", path, err)
	}
	enc := json.NewEncoder(f)
	if err := enc.Encode(rec); err != nil {
		f.Close()
		os.Remove(f.Name())
		return fmt.Errorf("cannot write replay %s: %w", path, err)
	}
	if err := f.Close(); err != nil {
		os.Remove(f.Name())
		return err
	}
	return os.Rename(f.Name(), path)
}

func dirOf(p string) string {
	if i := strings.LastIndex(p, "/"); i >= 0 {
		return p[:i+1]
	}
	return "."
}

// Read loads a record.
func Read(path string) (*Record, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("cannot open replay: %w", err)
	}
	defer f.Close()
	return Decode(f, path)
}

// Decode reads a record from r; name is used in errors.
func Decode(r io.Reader, name string) (*Record, error) {
	var rec Record
	if err := json.NewDecoder(r).Decode(&rec); err != nil {
		return nil, fmt.Errorf("%w %s: %v (is it a file written by arena play --replay?)", ErrFormat, name, err)
	}
	if rec.Format != FormatVersion || rec.Game == "" {
		return nil, fmt.Errorf("%w %s: format %d, game %q (this arena reads format %d)", ErrFormat, name, rec.Format, rec.Game, FormatVersion)
	}
	return &rec, nil
}

// Visit is called for every step during a replay, after the answers are decoded.
type Visit func(step Step, eng game.Engine, answers []game.Answer)

// Run re-runs the engine on the recorded answers and returns its outcome; it fails with
// ErrMismatch when the record holds an outcome that differs.
func Run(rec *Record, visit Visit) (game.Outcome, error) {
	spec, err := game.Lookup(rec.Game)
	if err != nil {
		return game.Outcome{}, err
	}
	eng, err := spec.NewEngine(rec.Config)
	if err != nil {
		return game.Outcome{}, err
	}
	for _, st := range rec.Steps {
		if eng.Done() {
			return game.Outcome{}, fmt.Errorf("%w: the engine ended before step %d", ErrMismatch, st.N)
		}
		answers := make([]game.Answer, len(st.Answers))
		for i, a := range st.Answers {
			ga := game.Answer{Seat: a.Seat, Order: a.Order, Elapsed: time.Duration(a.Elapsed) * time.Microsecond, Fault: a.Fault}
			if a.Fault == nil {
				var resp arenav1.ActResponse
				if err := protojson.Unmarshal(a.Action, &resp); err != nil {
					return game.Outcome{}, fmt.Errorf("%w: step %d seat %d: %v", ErrFormat, st.N, a.Seat, err)
				}
				ga.Action = &resp
			}
			// A record written before the runner judged wrong-game answers may hold one.
			answers[i] = game.JudgeAnswer(rec.Game, ga)
		}
		if visit != nil {
			visit(st, eng, answers)
		}
		if err := eng.Apply(answers); err != nil {
			return game.Outcome{}, fmt.Errorf("replay step %d: %w", st.N, err)
		}
	}
	if !eng.Done() {
		return game.Outcome{}, fmt.Errorf("%w: the engine is not done after %d steps", ErrMismatch, len(rec.Steps))
	}
	out := eng.Outcome()
	if rec.Outcome != nil {
		a, _ := json.Marshal(out)
		b, _ := json.Marshal(rec.Outcome)
		var x, y any
		_ = json.Unmarshal(a, &x)
		_ = json.Unmarshal(b, &y)
		if !reflect.DeepEqual(x, y) {
			return out, fmt.Errorf("%w: recorded %q, replayed %q", ErrMismatch, rec.Outcome.Summary, out.Summary)
		}
	}
	return out, nil
}

// ActionText is a compact text of an answer for turn-by-turn printing: the action without
// its step (the turn's own number), or FAULT and its kind.
func ActionText(a game.Answer) string {
	if a.Fault != nil {
		return "FAULT " + a.Fault.Kind.String()
	}
	act := a.Action
	if act.GetStep() != 0 {
		act = proto.Clone(act).(*arenav1.ActResponse)
		act.Step = 0
	}
	b, err := protojson.MarshalOptions{}.Marshal(act)
	if err != nil {
		return "?"
	}
	s := string(b)
	s = strings.ReplaceAll(s, " ", "")
	return s
}
