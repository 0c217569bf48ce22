package gametest

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/botarena/arena/arena/game"
	"github.com/botarena/arena/arena/match"
	"github.com/botarena/arena/arena/replay"
	arenav1 "github.com/botarena/arena/proto/arena/v1"
)

var update = flag.Bool("update", false, "rewrite the golden playthroughs (testdata/*.golden) from the engines as they play now")

// Updating says whether the test run rewrites golden files (-update) instead of comparing.
func Updating() bool { return *update }

// Playthrough is one recorded match of a golden test: fixed players, seed and parameters.
type Playthrough struct {
	// Name names the file: testdata/<Name>.golden in the test's package.
	Name   string
	Seed   uint64
	Params map[string]string
	// Players play in this order; each is named by its Label. They must be deterministic
	// given the match (seeded, in-process bots), or the file changes from run to run.
	Players []match.Player
}

// Golden plays p through the real runner, writes its replay as text (replay.Text: every turn
// and the outcome in full, after re-running the engine on the record), with what each seat
// observed ahead of each turn's answers, and compares that with
// testdata/<p.Name>.golden. With -update it rewrites the file instead. A difference fails the
// test with a line diff of the two texts.
func Golden(t *testing.T, spec game.Spec, p Playthrough) {
	t.Helper()
	got, err := PlaythroughText(spec, p)
	if err != nil {
		t.Fatalf("%s: %v", p.Name, err)
	}
	path := filepath.Join("testdata", p.Name+".golden")
	if err := CheckGolden(path, got, *update); err != nil {
		t.Errorf("%v", err)
	} else if *update {
		t.Logf("wrote %s (%d lines)", path, bytes.Count(got, []byte{'\n'}))
	}
}

// rewrite is how a golden file is written again: by the test that compares it, with -update.
const rewrite = "run the test that reads it with -update (go test -run TestGolden -update in a game's package; for arena/games/<game>/testdata/short.golden, go test -run TestEveryGame -update ./arena/games/all)"

// ErrGolden means a text differs from its golden file (or the file is missing).
var ErrGolden = errors.New("golden file differs")

// CheckGolden compares got with the file at path; with update it writes the file instead.
// A difference is an error wrapping ErrGolden that holds the line diff and how to accept it.
func CheckGolden(path string, got []byte, update bool) error {
	if update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			return err
		}
		return os.WriteFile(path, got, 0o644)
	}
	want, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("%w: %s is missing: %s", ErrGolden, path, rewrite)
	}
	if err != nil {
		return err
	}
	if !bytes.Equal(got, want) {
		return fmt.Errorf("%w: %s: the playthrough changed (- golden file, + now); if the change is intended, %s and commit the file\n%s",
			ErrGolden, path, rewrite, Diff(string(want), string(got)))
	}
	return nil
}

// PlaythroughText plays p and returns the text Golden compares.
func PlaythroughText(spec game.Spec, p Playthrough) ([]byte, error) {
	cfg := game.Config{Seed: p.Seed, Params: p.Params}
	var names []string
	for _, pl := range p.Players {
		cfg.Players = append(cfg.Players, game.Player{Name: pl.Label()})
		names = append(names, pl.Label())
	}
	id := "golden-" + p.Name
	rec := replay.NewRecorder(spec.Name, id, cfg, names)
	var seen observations
	watched := make([]match.Player, len(p.Players))
	for i, pl := range p.Players {
		watched[i] = seen.watch(pl)
	}
	res, err := match.Run(context.Background(), spec, cfg, watched, match.Options{MatchID: id, Recorder: rec})
	if err != nil {
		return nil, err
	}
	// Wall times are not part of a playthrough: the text is replayed with every answer taking
	// no time, so that a loaded machine cannot move a chess clock (the auction's table shows
	// it). Its outcome must still be the live match's, bar that table.
	for i := range rec.Rec.Steps {
		for j := range rec.Rec.Steps[i].Answers {
			a := &rec.Rec.Steps[i].Answers[j]
			a.Elapsed, a.CPU, a.Memory = 0, 0, 0
		}
	}
	// Through the file format, as `arena replay FILE` reads it.
	b, err := json.Marshal(rec.Rec)
	if err != nil {
		return nil, err
	}
	back, err := replay.Decode(bytes.NewReader(b), id)
	if err != nil {
		return nil, err
	}
	var out bytes.Buffer
	clock, err := spec.Clock(cfg)
	if err != nil {
		return nil, err
	}
	o, err := replay.TextWith(&out, back, seen.before(&out, clock == 0))
	if err != nil {
		return nil, err
	}
	if seen.err != nil {
		return nil, seen.err
	}
	live, again := fmt.Sprintf("%s %+v %+v", res.Outcome.Summary, res.Outcome.Players, res.Outcome.Faults),
		fmt.Sprintf("%s %+v %+v", o.Summary, o.Players, o.Faults)
	if live != again {
		return nil, fmt.Errorf("%w: the match played %s; its replay %s", replay.ErrMismatch, live, again)
	}
	return out.Bytes(), nil
}

// CrashFrom wraps p so that every seat it opens crashes from step on: its Act fails as a
// broken bot's would, and the runner charges the game's crash rule.
func CrashFrom(p match.Player, step int64) match.Player {
	return wrapAct(p, func(c match.Conn, req *arenav1.ActRequest, timeout time.Duration) (*arenav1.ActResponse, error) {
		if req.GetStep() >= step {
			return nil, fmt.Errorf("%w: crashed on purpose from step %d", match.ErrDead, step)
		}
		return c.Act(req, timeout)
	})
}

// actFunc answers req for the seat c, which it may ask itself.
type actFunc func(c match.Conn, req *arenav1.ActRequest, timeout time.Duration) (*arenav1.ActResponse, error)

// wrapAct wraps p so that every seat it opens answers through act.
func wrapAct(p match.Player, act actFunc) match.Player { return &wrapped{Player: p, act: act} }

type wrapped struct {
	match.Player
	act actFunc
}

func (w *wrapped) Open(ctx context.Context, req *arenav1.StartRequest, timeout time.Duration) (match.Conn, error) {
	conn, err := w.Player.Open(ctx, req, timeout)
	if err != nil {
		return nil, err
	}
	return &wrappedConn{Conn: conn, act: w.act}, nil
}

type wrappedConn struct {
	match.Conn
	act actFunc
}

func (c *wrappedConn) Act(req *arenav1.ActRequest, timeout time.Duration) (*arenav1.ActResponse, error) {
	return c.act(c.Conn, req, timeout)
}

// Inline keeps an in-process seat asked in order (answer order decides ties in some games).
func (c *wrappedConn) Inline() bool {
	in, ok := c.Conn.(interface{ Inline() bool })
	return ok && in.Inline()
}

// maxDiffLines bounds what Diff prints: the first changes tell what happened.
const maxDiffLines = 60

// Diff is a line diff of want and got: changed lines with three lines of context around
// each change, "-" for want's, "+" for got's, and the line numbers of every hunk; at most
// maxDiffLines lines, then a count of the changed lines left out.
func Diff(want, got string) string {
	a, b := splitLines(want), splitLines(got)
	// Trim the common head and tail, then diff the middle by longest common subsequence.
	pre := 0
	for pre < len(a) && pre < len(b) && a[pre] == b[pre] {
		pre++
	}
	suf := 0
	for suf < len(a)-pre && suf < len(b)-pre && a[len(a)-1-suf] == b[len(b)-1-suf] {
		suf++
	}
	ma, mb := a[pre:len(a)-suf], b[pre:len(b)-suf]
	type op struct {
		kind byte // ' ', '-', '+'
		ai   int  // line index in a (for ' ' and '-')
		bi   int  // line index in b (for ' ' and '+')
	}
	var ops []op
	for i := range pre {
		ops = append(ops, op{' ', i, i})
	}
	if len(ma)*len(mb) > 4_000_000 {
		// Too big to align: show both sides as replaced.
		for i := range ma {
			ops = append(ops, op{'-', pre + i, 0})
		}
		for j := range mb {
			ops = append(ops, op{'+', 0, pre + j})
		}
	} else {
		// lcs[i][j] is the length of the longest common subsequence of ma[i:] and mb[j:].
		lcs := make([][]int, len(ma)+1)
		for i := range lcs {
			lcs[i] = make([]int, len(mb)+1)
		}
		for i := len(ma) - 1; i >= 0; i-- {
			for j := len(mb) - 1; j >= 0; j-- {
				if ma[i] == mb[j] {
					lcs[i][j] = lcs[i+1][j+1] + 1
				} else {
					lcs[i][j] = max(lcs[i+1][j], lcs[i][j+1])
				}
			}
		}
		i, j := 0, 0
		for i < len(ma) || j < len(mb) {
			switch {
			case i < len(ma) && j < len(mb) && ma[i] == mb[j]:
				ops = append(ops, op{' ', pre + i, pre + j})
				i++
				j++
			case i < len(ma) && (j == len(mb) || lcs[i+1][j] >= lcs[i][j+1]):
				ops = append(ops, op{'-', pre + i, 0})
				i++
			default:
				ops = append(ops, op{'+', 0, pre + j})
				j++
			}
		}
	}
	for k := range suf {
		ops = append(ops, op{' ', len(a) - suf + k, len(b) - suf + k})
	}
	// Print the changes with their context.
	const context = 3
	keep := make([]bool, len(ops))
	for k, o := range ops {
		if o.kind != ' ' {
			for c := max(0, k-context); c <= min(len(ops)-1, k+context); c++ {
				keep[c] = true
			}
		}
	}
	var sb strings.Builder
	printed := 0
	for k := 0; k < len(ops); k++ {
		if !keep[k] {
			continue
		}
		if printed == maxDiffLines {
			rest := 0
			for _, o := range ops[k:] {
				if o.kind != ' ' {
					rest++
				}
			}
			fmt.Fprintf(&sb, "... and %d more changed lines\n", rest)
			break
		}
		printed++
		if k == 0 || !keep[k-1] {
			// A new hunk: where it starts on each side.
			al, bl := 0, 0
			for _, o := range ops[k:] {
				if o.kind != '+' && al == 0 {
					al = o.ai + 1
				}
				if o.kind != '-' && bl == 0 {
					bl = o.bi + 1
				}
				if al != 0 && bl != 0 {
					break
				}
			}
			fmt.Fprintf(&sb, "@@ golden line %d, now line %d @@\n", al, bl)
		}
		o := ops[k]
		line := ""
		if o.kind == '+' {
			line = b[o.bi]
		} else {
			line = a[o.ai]
		}
		fmt.Fprintf(&sb, "%c %s\n", o.kind, line)
	}
	return sb.String()
}

func splitLines(s string) []string {
	s = strings.TrimSuffix(s, "\n")
	if s == "" {
		return nil
	}
	return strings.Split(s, "\n")
}
