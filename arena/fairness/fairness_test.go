package fairness_test

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/botarena/arena/arena/botspec"
	"github.com/botarena/arena/arena/game"
	"github.com/botarena/arena/arena/games/dynamite"
	"github.com/botarena/arena/arena/host"
	"github.com/botarena/arena/arena/internal/testenv"
	"github.com/botarena/arena/arena/match"
	"github.com/botarena/arena/arena/players"
	"github.com/botarena/arena/arena/replay"
	"github.com/botarena/arena/sandbox"
)

const root = "../.."

var resolver = &botspec.Resolver{}

func TestMain(m *testing.M) {
	sandbox.Init()
	if err := testenv.CheckPython("arena_sdk"); err != nil {
		fmt.Fprintf(os.Stderr, "fairness: %v\n", err)
		os.Exit(1)
	}
	os.Exit(m.Run())
}

// The budget of every move in these tests: long enough that the host's poll interval and the
// kernel's accounting lag are small beside it, short enough that a match takes seconds.
const budget = 50 * time.Millisecond

// wallFactor keeps the wall cap (the backstop) out of the way of a bot slowed by the hog: on
// a machine loaded this much, 3x would stop the honest bot by its wall time, which is the
// unfairness the CPU clock removes; the spinner must be stopped by its CPU time long before.
const wallFactor = 40

// requireCPUClock fails (never skips) where cgroups cannot count a bot's CPU time.
func requireCPUClock(t *testing.T) {
	t.Helper()
	if l, _ := sandbox.Probe().Layer(sandbox.LayerCPU); !l.Active {
		t.Fatalf("the CPU clock needs the sandbox's cgroup cpu layer, which is missing here: %s (run as root with cgroups; 'arena sandbox check')", l.Detail)
	}
}

// hog starts two busy processes per core, outside every bot, and stops them when the test ends.
func hog(t *testing.T) {
	t.Helper()
	for range 2 * runtime.NumCPU() {
		c := exec.Command("/bin/sh", "-c", "while :; do :; done")
		c.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
		if err := c.Start(); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() {
			_ = syscall.Kill(-c.Process.Pid, syscall.SIGKILL)
			_ = c.Wait()
		})
	}
}

// play runs one dynamite match of bot (seat 0) against a house bot on the CPU clock.
func play(t *testing.T, bot string, rounds int) (*match.Result, *replay.Record) {
	t.Helper()
	ctx := context.Background()
	bots := []string{filepath.Join(root, bot), filepath.Join(root, "bots/dynamite/cmd/scissors")}
	procs, err := players.Launch(ctx, resolver, bots, host.Options{StartTimeout: 60 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer players.CloseAll(procs)
	cfg := game.Config{Seed: 3, Params: map[string]string{"rounds": fmt.Sprint(rounds)}}
	ps := make([]match.Player, len(procs))
	for i, p := range procs {
		ps[i] = players.Process{Bot: p}
		cfg.Players = append(cfg.Players, game.Player{Name: bots[i]})
	}
	rec := replay.NewRecorder(dynamite.Spec.Name, "fair", cfg, bots)
	res, err := match.Run(ctx, dynamite.Spec, cfg, ps, match.Options{MatchID: "fair", Deadline: budget,
		Clock: match.ClockCPU, WallFactor: wallFactor, Recorder: rec})
	if err != nil {
		t.Fatal(err)
	}
	return res, rec.Rec
}

// seat0 is every recorded answer of seat 0.
func seat0(rec *replay.Record) []replay.Answer {
	var out []replay.Answer
	for _, s := range rec.Steps {
		for _, a := range s.Answers {
			if a.Seat == 0 {
				out = append(out, a)
			}
		}
	}
	return out
}

func TestCPUClockUnderLoad(t *testing.T) {
	t.Parallel()
	requireCPUClock(t)
	langs := []struct{ name, spend, spin string }{
		{"go", "bots/bench/cmd/spend", "bots/bench/cmd/spin"},
		{"python", "bots/bench/python/spend.py", "bots/bench/python/spin.py"},
	}
	// Build (and cache) every bot before the hog starts: the test is about moves, and a
	// build under the hog only costs minutes.
	var all []string
	for _, l := range langs {
		all = append(all, filepath.Join(root, l.spend), filepath.Join(root, l.spin))
	}
	procs, err := players.Launch(context.Background(), resolver, all, host.Options{StartTimeout: 60 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	players.CloseAll(procs)
	hog(t)
	// Each case runs as its own subtest, all under the one hog.
	t.Run("group", func(t *testing.T) {
		for _, lang := range langs {
			t.Run(lang.name+"/60% of the budget is never a timeout", func(t *testing.T) {
				t.Parallel()
				const rounds = 20
				res, rec := play(t, lang.spend, rounds)
				if n := len(res.Outcome.Faults); n > 0 {
					t.Fatalf("%d faults, first: %+v", n, res.Outcome.Faults[0])
				}
				moves := seat0(rec)
				if len(moves) != rounds {
					t.Fatalf("%d moves of seat 0, want %d", len(moves), rounds)
				}
				slow := 0
				for i, a := range moves {
					cpu, wall := time.Duration(a.CPU)*time.Microsecond, time.Duration(a.Wall)*time.Microsecond
					if a.Elapsed != a.CPU {
						t.Errorf("move %d charged %d us, its CPU time was %d us", i+1, a.Elapsed, a.CPU)
					}
					// The bot spends 60 % by its own count; the cgroup sees that and a little more.
					if cpu < budget/2 || cpu > budget {
						t.Errorf("move %d: CPU %v, want about 60%% of %v", i+1, cpu, budget)
					}
					if wall > budget {
						slow++
					}
				}
				// The hog must actually have slowed the bot, or the test shows nothing: on wall
				// time these moves would have been timeouts.
				if slow == 0 {
					t.Errorf("no move took longer than its budget of %v in wall time: the hog did not load the machine", budget)
				}
				t.Logf("%d of %d moves took more wall time than their budget, none was charged more than it", slow, rounds)
			})
			t.Run(lang.name+"/a busy loop is charged and stopped by its CPU budget", func(t *testing.T) {
				t.Parallel()
				res, rec := play(t, lang.spin, 10)
				f := res.Outcome.Faults
				if len(f) != 1 || f[0].Seat != 0 || f[0].Kind != game.FaultTimeout || !strings.Contains(f[0].Detail, "of CPU time, over its budget") {
					t.Fatalf("faults %+v, want one CPU timeout of seat 0", f)
				}
				moves := seat0(rec)
				last := moves[len(moves)-1]
				if len(moves) != 3 || last.Fault == nil {
					t.Fatalf("seat 0 answered %d times (last %+v), want a timeout in round 3", len(moves), last)
				}
				cpu, wall := time.Duration(last.CPU)*time.Microsecond, time.Duration(last.Wall)*time.Microsecond
				if last.Elapsed != last.CPU || cpu < budget {
					t.Errorf("charged %d us, CPU %v: want its CPU time, at least the budget %v", last.Elapsed, cpu, budget)
				}
				// Stopped by its CPU time (the fault says so), before the wall cap. The overshoot is
				// what the spinner burns while the host's poll waits for a core (the host runs beside
				// the hog too): a few ms on a quiet machine, tens to hundreds when a whole test suite
				// shares it, so it is printed, not asserted.
				if wall >= wallFactor*budget {
					t.Errorf("stopped after %v of CPU time and %v of wall time: want it stopped by its CPU budget %v, before the wall cap %v",
						cpu, wall, budget, wallFactor*budget)
				}
				t.Logf("stopped after %v of CPU time (%.1fx its budget; %v of wall time)", cpu, float64(cpu)/float64(budget), wall)
			})
		}
	})
}
