package host_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/botarena/arena/arena/game"
	"github.com/botarena/arena/arena/games/dynamite"
	"github.com/botarena/arena/arena/host"
	"github.com/botarena/arena/arena/internal/proctable"
	"github.com/botarena/arena/arena/match"
	"github.com/botarena/arena/arena/players"
	"github.com/botarena/arena/internal/slack"
)

var binDir string

// TestMain builds the test bots and a house bot once.
func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "arena-host-test-")
	if err != nil {
		panic(err)
	}
	binDir = dir
	pkgs := map[string]string{"paper": "../../bots/dynamite/cmd/paper"}
	for _, n := range []string{"sleeper", "exiter", "panicker", "silent", "version2", "garbage", "stopper", "lanehostile"} {
		pkgs[n] = "./testdata/" + n
	}
	for name, pkg := range pkgs {
		out, err := exec.Command("go", "build", "-o", filepath.Join(dir, name), pkg).CombinedOutput()
		if err != nil {
			fmt.Fprintf(os.Stderr, "building %s: %v\n%s", pkg, err, out)
			os.Exit(1)
		}
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

func command(name string) host.Command {
	return host.Command{Name: name, Path: filepath.Join(binDir, name)}
}

func launch(t *testing.T, name string) *host.Bot {
	t.Helper()
	return launchOn(t, command(name), false)
}

// launchOn launches c, its moves over gRPC only when grpc is set (else on the fast lane, which
// every Go bot announces), and checks which lane it got.
func launchOn(t *testing.T, c host.Command, grpc bool) *host.Bot {
	t.Helper()
	b, err := host.Launch(context.Background(), c, host.Options{StartTimeout: slack.Of(t, 5*time.Second), GRPCOnly: grpc})
	if err != nil {
		t.Fatalf("launch %s: %v", c.Name, err)
	}
	t.Cleanup(b.Close)
	if b.OnLane() == grpc {
		t.Fatalf("%s: on the fast lane %v, want %v (lanes announced: %q)", c.Name, b.OnLane(), !grpc, b.Desc.GetLanes())
	}
	return b
}

// bothLanes runs f once with every move on the fast lane and once over gRPC: timeouts,
// faults and their texts are the same on both.
func bothLanes(t *testing.T, f func(t *testing.T, launch func(t *testing.T, name string) *host.Bot)) {
	for _, grpc := range []bool{false, true} {
		name := "lane"
		if grpc {
			name = "grpc"
		}
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			f(t, func(t *testing.T, bot string) *host.Bot { return launchOn(t, command(bot), grpc) })
		})
	}
}

// playDynamite plays one match of a against b. deadline is what an honest bot gets to answer each move: an allowance, stretched by the slack
// factor (beside busy loops paper once took over 300 ms).
func playDynamite(t *testing.T, a, b *host.Bot, deadline time.Duration) *match.Result {
	t.Helper()
	deadline = slack.Of(t, deadline)
	cfg := game.Config{Seed: 1, Players: []game.Player{{Name: a.Name}, {Name: b.Name}}}
	res, err := match.Run(context.Background(), dynamite.Spec, cfg,
		[]match.Player{players.Process{Bot: a}, players.Process{Bot: b}}, match.Options{MatchID: "m", Deadline: deadline})
	if err != nil {
		t.Fatal(err)
	}
	return res
}

func TestSleeperLosesByTimeoutAndMatchEndsPromptly(t *testing.T) {
	t.Parallel()
	bothLanes(t, func(t *testing.T, launch func(t *testing.T, name string) *host.Bot) {
		slp, pap := launch(t, "sleeper"), launch(t, "paper")
		pid := slp.Pid()
		t0 := time.Now()
		res := playDynamite(t, slp, pap, 300*time.Millisecond)
		// The sleeper sleeps an hour: a match over within minutes did not wait for it, however
		// loaded the machine (a tighter bound would time the machine, not the host).
		if !slack.Within(t, "the match after a 300ms timeout (did it wait for the sleeper?)", time.Since(t0), 0, 150*time.Second) {
			t.FailNow()
		}
		o := res.Outcome
		if o.Players[0].Result != game.ResultLoss || o.Players[1].Result != game.ResultWin {
			t.Fatalf("outcome %+v", o.Players)
		}
		if len(o.Faults) != 1 || o.Faults[0].Kind != game.FaultTimeout || o.Faults[0].Where != "round 3" {
			t.Fatalf("faults %+v", o.Faults)
		}
		slp.Close()
		proctable.AssertGone(t, pid)
	})
}

func TestExitMidMatchLosesWithStderrInReport(t *testing.T) {
	t.Parallel()
	bothLanes(t, func(t *testing.T, launch func(t *testing.T, name string) *host.Bot) {
		ex, pap := launch(t, "exiter"), launch(t, "paper")
		pid := ex.Pid()
		res := playDynamite(t, ex, pap, time.Second)
		o := res.Outcome
		if o.Players[0].Result != game.ResultLoss || len(o.Faults) != 1 {
			t.Fatalf("outcome %+v faults %+v", o.Players, o.Faults)
		}
		f := o.Faults[0]
		if f.Kind != game.FaultCrash || f.Where != "round 5" || !strings.Contains(f.Detail, "about to die in round 5") ||
			!strings.Contains(f.Detail, "exited with status 3") {
			t.Fatalf("fault %+v", f)
		}
		ex.Close()
		proctable.AssertGone(t, pid)
	})
}

func TestPanicInMoveLosesWithTraceback(t *testing.T) {
	t.Parallel()
	bothLanes(t, func(t *testing.T, launch func(t *testing.T, name string) *host.Bot) {
		pn, pap := launch(t, "panicker"), launch(t, "paper")
		pid := pn.Pid()
		res := playDynamite(t, pn, pap, time.Second)
		o := res.Outcome
		if o.Players[0].Result != game.ResultLoss || len(o.Faults) != 1 {
			t.Fatalf("outcome %+v faults %+v", o.Players, o.Faults)
		}
		if f := o.Faults[0]; f.Kind != game.FaultCrash || !strings.Contains(f.Detail, "deliberate failure in round 4") || f.Where != "round 4" {
			t.Fatalf("fault %+v", f)
		}
		pn.Close()
		proctable.AssertGone(t, pid)
	})
}

func TestStoppedSignalIgnoringBotIsKilledWithItsChildren(t *testing.T) {
	t.Parallel()
	bothLanes(t, func(t *testing.T, launch func(t *testing.T, name string) *host.Bot) {
		st, pap := launch(t, "stopper"), launch(t, "paper")
		pid := st.Pid()
		if len(proctable.Of(pid)) < 2 {
			t.Fatalf("stopper should have a child: %v", proctable.Of(pid))
		}
		res := playDynamite(t, st, pap, 300*time.Millisecond)
		if f := res.Outcome.Faults; len(f) != 1 || f[0].Kind != game.FaultTimeout {
			t.Fatalf("faults %+v", f)
		}
		t0 := time.Now()
		st.Close()
		slack.Within(t, "Close", time.Since(t0), 0, 500*time.Millisecond) // no grace period for a stopped tree
		proctable.AssertGone(t, pid)
	})
}

func TestStartFailures(t *testing.T) {
	t.Parallel()
	cases := []struct {
		bot  string
		want error
		text string
	}{
		{"silent", host.ErrNoHandshake, "never printed a handshake"},
		{"version2", host.ErrVersion, "protocol \"2\""},
		{"garbage", host.ErrBadHandshake, "malformed handshake"},
	}
	for _, c := range cases {
		t.Run(c.bot, func(t *testing.T) {
			t.Parallel()
			b, err := host.Launch(context.Background(), command(c.bot), host.Options{StartTimeout: 700 * time.Millisecond})
			if err == nil {
				b.Close()
				t.Fatal("launch succeeded")
			}
			if !errors.Is(err, c.want) || !strings.Contains(err.Error(), c.text) || !strings.Contains(err.Error(), c.bot) {
				t.Fatalf("error %q, want %v mentioning %q and the bot", err, c.want, c.text)
			}
			var se *host.StartError
			if !errors.As(err, &se) {
				t.Fatalf("not a StartError: %T", err)
			}
			proctable.AssertGone(t, se.Pid)
		})
	}
}

func TestLogKeepsHeadAndTail(t *testing.T) {
	t.Parallel()
	l := host.NewLog(10, 20)
	for i := range 100 {
		fmt.Fprintf(l, "line %d\n", i)
	}
	s := l.String()
	if !strings.HasPrefix(s, "line 0\nlin") || !strings.Contains(s, "bytes dropped") || !strings.HasSuffix(s, "line 99\n") {
		t.Fatalf("log %q", s)
	}
	if tail := l.Tail(2); len(tail) != 2 || tail[1] != "line 99" {
		t.Fatalf("tail %q", tail)
	}
	mark := l.Total()
	if tail := l.TailSince(mark, 5); len(tail) != 0 {
		t.Fatalf("nothing written since the mark, got %q", tail)
	}
	fmt.Fprintf(l, "next match\n")
	if tail := l.TailSince(mark, 5); len(tail) != 1 || tail[0] != "next match" {
		t.Fatalf("since the mark: %q", tail)
	}
}

func launchB(name string) (*host.Bot, error) {
	return host.Launch(context.Background(), command(name), host.Options{StartTimeout: 5 * time.Second})
}
