// Package compat_test plays bot files written in the style of the five original contests (the
// seed-compatibility layer of the Python SDK, arena_sdk.compat) through the real host, against
// house bots and native SDK bots, and checks that results and faults follow docs/rules/<game>.md.
package compat_test

import (
	"context"
	"fmt"
	"github.com/botarena/arena/arena/internal/testenv"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/botarena/arena/arena/botspec"
	"github.com/botarena/arena/arena/game"
	"github.com/botarena/arena/arena/host"
	"github.com/botarena/arena/arena/match"
	"github.com/botarena/arena/arena/players"

	_ "github.com/botarena/arena/arena/games/all"
	"github.com/botarena/arena/internal/slack"
)

const root = "../.."

var (
	// The seeds' bot files import helper modules beside them: local authoring, as arena play.
	resolver = &botspec.Resolver{Authoring: true}
	// sdkSrc is this checkout's Python SDK: the bots run it rather than whatever copy pip
	// installed last, so the test checks the code next to it.
	sdkSrc string
)

func TestMain(m *testing.M) {
	if err := testenv.CheckPython("grpc, arena_sdk"); err != nil {
		fmt.Fprintf(os.Stderr, "compat: %v\n", err)
		os.Exit(1)
	}
	src, err := filepath.Abs(filepath.Join(root, "sdk/python/src"))
	if err != nil {
		panic(err)
	}
	sdkSrc = src
	dir, err := os.MkdirTemp("", "arena-compat-cache-")
	if err != nil {
		panic(err)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

func bot(rel string) string { return filepath.Join(root, rel) }

func seedBot(rel string) string { return bot(filepath.Join("sdk/python/tests/compat_bots", rel)) }

// launch is players.Launch with the checkout's SDK first on the Python bots' path.
func launch(t *testing.T, bots []string) []*host.Bot { return launchEnv(t, bots, nil) }

// launchEnv is launch with env added to the Python bots' environment.
func launchEnv(t *testing.T, bots []string, env []string) []*host.Bot {
	t.Helper()
	procs := make([]*host.Bot, len(bots))
	for i, a := range bots {
		c, err := resolver.Command(a)
		if err != nil {
			players.CloseAll(procs[:i])
			t.Fatal(err)
		}
		if strings.Contains(a, ".py") {
			c.Env = append(append(c.Env, "PYTHONPATH="+sdkSrc), env...)
			c.ReadOnly = append(c.ReadOnly, sdkSrc)
		}
		p, err := host.Launch(context.Background(), c, host.Options{StartTimeout: slack.Of(t, 20*time.Second)})
		if err != nil {
			players.CloseAll(procs[:i])
			t.Fatalf("launch %s: %v", a, err)
		}
		procs[i] = p
	}
	return procs
}

type played struct {
	res  *match.Result
	logs [][]string
}

func play(t *testing.T, name string, params map[string]string, bots ...string) played {
	t.Helper()
	return playWith(t, name, params, match.Options{Deadline: 2 * time.Second}, nil, bots...)
}

// playWith is play with the match's options (its clock) and env added to the Python bots'
// environment.
func playWith(t *testing.T, name string, params map[string]string, opt match.Options, env []string, bots ...string) played {
	t.Helper()
	spec, err := game.Lookup(name)
	if err != nil {
		t.Fatal(err)
	}
	procs := launchEnv(t, bots, env)
	defer players.CloseAll(procs)
	cfg := game.Config{Seed: 7, Params: params}
	ps := make([]match.Player, len(procs))
	for i, p := range procs {
		ps[i] = players.Process{Bot: p}
		cfg.Players = append(cfg.Players, game.Player{Name: bots[i]})
	}
	opt.MatchID = "compat-" + name
	res, err := match.Run(context.Background(), spec, cfg, ps, opt)
	if err != nil {
		t.Fatal(err)
	}
	// The logs are read once the processes are gone, so that nothing is still in the pipe.
	players.CloseAll(procs)
	var logs [][]string
	for _, p := range procs {
		logs = append(logs, p.Log.Tail(200))
	}
	return played{res: res, logs: logs}
}

func (p played) String() string {
	o := p.res.Outcome
	return fmt.Sprintf("%s\nplayers %+v\nfaults %+v\nlogs %q", o.Summary, o.Players, o.Faults, p.logs)
}

// noFaults fails when any seat was charged a fault.
func noFaults(t *testing.T, p played) {
	t.Helper()
	if len(p.res.Outcome.Faults) != 0 {
		t.Fatalf("faults charged:\n%v", p)
	}
}

// logHas checks that a bot's log kept what the bot printed (never the protocol).
func logHas(t *testing.T, p played, seat int, want string) {
	t.Helper()
	if !strings.Contains(strings.Join(p.logs[seat], "\n"), want) {
		t.Fatalf("log of seat %d lacks %q:\n%v", seat, want, p)
	}
}

// faultWith checks the single fault: seat, kind, and the traceback in its detail.
func faultWith(t *testing.T, p played, seat int, kind game.FaultKind, wants ...string) {
	t.Helper()
	o := p.res.Outcome
	if len(o.Faults) != 1 || o.Faults[0].Seat != seat || o.Faults[0].Kind != kind {
		t.Fatalf("want one %v fault of seat %d:\n%v", kind, seat, p)
	}
	for _, w := range wants {
		if !strings.Contains(o.Faults[0].Detail, w) {
			t.Fatalf("fault detail lacks %q: %q", w, o.Faults[0].Detail)
		}
	}
}

func result(p played, seat int) game.Result { return p.res.Outcome.Players[seat].Result }
