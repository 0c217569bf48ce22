package e2e_test

import (
	"context"
	"fmt"
	"github.com/botarena/arena/arena/internal/testenv"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/botarena/arena/arena/botspec"
	"github.com/botarena/arena/arena/game"
	"github.com/botarena/arena/arena/games/dynamite"
	"github.com/botarena/arena/arena/host"
	"github.com/botarena/arena/arena/internal/proctable"
	"github.com/botarena/arena/arena/match"
	"github.com/botarena/arena/arena/players"
	"github.com/botarena/arena/arena/replay"
	"github.com/botarena/arena/internal/slack"
)

const root = "../.."

var resolver = &botspec.Resolver{}

func TestMain(m *testing.M) {
	if err := testenv.CheckPython("arena_sdk"); err != nil {
		fmt.Fprintf(os.Stderr, "e2e: %v\n", err)
		os.Exit(1)
	}
	dir, err := os.MkdirTemp("", "arena-e2e-cache-")
	if err != nil {
		panic(err)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

type played struct {
	res  *match.Result
	rec  *replay.Record
	pids []int
}

func play(t *testing.T, deadline time.Duration, params map[string]string, bots ...string) played {
	t.Helper()
	ctx := context.Background()
	procs, err := players.Launch(ctx, resolver, bots, host.Options{StartTimeout: slack.Of(t, 20*time.Second)})
	if err != nil {
		t.Fatal(err)
	}
	defer players.CloseAll(procs)
	cfg := game.Config{Seed: 11, Params: params}
	ps := make([]match.Player, len(procs))
	var pids []int
	for i, p := range procs {
		ps[i] = players.Process{Bot: p}
		pids = append(pids, p.Pid())
		cfg.Players = append(cfg.Players, game.Player{Name: bots[i]})
	}
	rec := replay.NewRecorder("dynamite", "e2e", cfg, bots)
	res, err := match.Run(ctx, dynamite.Spec, cfg, ps, match.Options{MatchID: "e2e", Deadline: deadline, Recorder: rec})
	if err != nil {
		t.Fatal(err)
	}
	rec.Rec.Outcome = &res.Outcome
	players.CloseAll(procs)
	for _, pid := range pids {
		proctable.AssertGone(t, pid)
	}
	return played{res: res, rec: rec.Rec, pids: pids}
}

func bot(rel string) string { return filepath.Join(root, rel) }

// The result must follow the rules: checked by replaying the record through the engine, and by
// the rules' own arithmetic on the outcome.
func checkDynamiteResult(t *testing.T, p played) {
	t.Helper()
	out, err := replay.Run(p.rec, nil)
	if err != nil {
		t.Fatalf("replay: %v", err)
	}
	o := p.res.Outcome
	if out.Summary != o.Summary {
		t.Fatalf("replayed %q, played %q", out.Summary, o.Summary)
	}
	s0, s1 := o.Players[0].Score, o.Players[1].Score
	switch {
	case len(o.Faults) > 0:
	case p.res.Steps < 2500 && s0 < 1000 && s1 < 1000:
		t.Fatalf("match ended after %d rounds at %v-%v", p.res.Steps, s0, s1)
	case s0 > s1 && o.Players[0].Result != game.ResultWin, s1 > s0 && o.Players[1].Result != game.ResultWin:
		t.Fatalf("higher score did not win: %+v", o.Players)
	}
	for _, row := range o.Table[1:] {
		if n, _ := strconv.Atoi(row[3]); n > 100 {
			t.Fatalf("more than 100 dynamite used without forfeit: %v", row)
		}
	}
}

func TestGoAgainstPythonBothSeatOrders(t *testing.T) {
	t.Parallel()
	goBot, pyBot := bot("bots/dynamite/cmd/beatlast"), bot("examples/python/dynamite/bot.py")
	for _, order := range [][2]string{{goBot, pyBot}, {pyBot, goBot}} {
		p := play(t, time.Second, nil, order[0], order[1])
		if len(p.res.Outcome.Faults) != 0 {
			t.Fatalf("%v: faults %+v", order, p.res.Outcome.Faults)
		}
		checkDynamiteResult(t, p)
	}
}

func TestPython101stDynamiteForfeits(t *testing.T) {
	t.Parallel()
	p := play(t, time.Second, nil, bot("arena/e2e/testdata/dynamite101.py"), bot("bots/dynamite/cmd/paper"))
	o := p.res.Outcome
	if o.Players[0].Result != game.ResultLoss || p.res.Steps != 101 || len(o.Faults) != 1 || o.Faults[0].Kind != game.FaultIllegal {
		t.Fatalf("after %d rounds: %+v faults %+v", p.res.Steps, o.Players, o.Faults)
	}
	checkDynamiteResult(t, p)
}

func TestPythonRaiseLosesWithTraceback(t *testing.T) {
	t.Parallel()
	p := play(t, time.Second, nil, bot("bots/dynamite/cmd/paper"), bot("arena/e2e/testdata/raiser.py"))
	o := p.res.Outcome
	if o.Players[1].Result != game.ResultLoss || len(o.Faults) != 1 {
		t.Fatalf("%+v faults %+v", o.Players, o.Faults)
	}
	f := o.Faults[0]
	if f.Kind != game.FaultCrash || f.Where != "round 5" || !strings.Contains(f.Detail, "deliberate failure in round 5") ||
		!strings.Contains(f.Detail, "raiser.py") {
		t.Fatalf("fault %+v", f)
	}
}

func TestPythonExitLosesWithLastStderrLines(t *testing.T) {
	t.Parallel()
	p := play(t, time.Second, nil, bot("arena/e2e/testdata/exits.py"), bot("bots/dynamite/cmd/paper"))
	o := p.res.Outcome
	if o.Players[0].Result != game.ResultLoss || len(o.Faults) != 1 {
		t.Fatalf("%+v faults %+v", o.Players, o.Faults)
	}
	if f := o.Faults[0]; f.Kind != game.FaultCrash || f.Where != "round 4" || !strings.Contains(f.Detail, "exits: leaving now") ||
		!strings.Contains(f.Detail, "status 7") {
		t.Fatalf("fault %+v", f)
	}
}

func TestPythonSleepLosesByTimeoutPromptly(t *testing.T) {
	t.Parallel()
	const deadline = 400 * time.Millisecond
	p := play(t, deadline, nil, bot("arena/e2e/testdata/sleepy.py"), bot("bots/dynamite/cmd/scissors"))
	o := p.res.Outcome
	if o.Players[0].Result != game.ResultLoss || len(o.Faults) != 1 || o.Faults[0].Kind != game.FaultTimeout {
		t.Fatalf("%+v faults %+v", o.Players, o.Faults)
	}
	// The sleepy bot sleeps far past the deadline: the match ends at the deadline, not at its waking.
	slack.Within(t, "the match with a 400ms deadline", p.res.Duration, deadline, time.Second)
}

func TestUnknownAndMissingBotsGetClearErrors(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	notExec := filepath.Join(dir, "bot.bin")
	os.WriteFile(notExec, []byte("#!/bin/sh\n"), 0o644)
	emptyDir := filepath.Join(dir, "empty")
	os.Mkdir(emptyDir, 0o755)
	cases := map[string]string{
		filepath.Join(dir, "nope.py"): "no such bot file",
		notExec:                       "chmod +x",
		emptyDir:                      "Go package",
	}
	for arg, want := range cases {
		_, err := resolver.Command(arg)
		if err == nil || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), filepath.Base(arg)) {
			t.Errorf("%s: error %v, want it to say %q and name the path", arg, err, want)
		}
	}
}
