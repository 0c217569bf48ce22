package hostile_test

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/botarena/arena/arena/bounded"
	"github.com/botarena/arena/arena/game"
	"github.com/botarena/arena/arena/games/dynamite"
	"github.com/botarena/arena/arena/host"
	"github.com/botarena/arena/arena/internal/testenv"
	"github.com/botarena/arena/arena/match"
	"github.com/botarena/arena/arena/players"
	"github.com/botarena/arena/bots/hostile/attack"
	"github.com/botarena/arena/internal/selfcpu"
	"github.com/botarena/arena/internal/slack"
)

// The figures of the host under attack (README, Performance). Each is a median over several
// runs, clean and attacked runs interleaved so that load on the machine hits both alike; only
// the bounds are asserted (2x memory, 1.5x per move), which hold with a wide margin.
// `go test -v -run TestUnderAttack ./arena/hostile` prints them.

const attackRuns = 3

// attackGames is each match's games: a fault each against bigerror. 100 rather than 200 halves
// the test's CPU (22 CPU-seconds); 400 faults of unbounded text would still be 400 MiB.
const attackGames = 100

// The host's peak RSS during a finger tournament (the real arena binary) against a bot that
// answers every move with a BotError as large as the message limit allows, next to the same
// tournament with a quiet bot in its place.
func TestUnderAttackMemory(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	bin, err := testenv.BuildArena(root, dir)
	if err != nil {
		t.Fatal(err)
	}
	run := func(i int, bot string) (hwm, store int64) {
		db := filepath.Join(dir, fmt.Sprintf("t%d-%s.db", i, filepath.Base(bot)))
		cmd := exec.Command(bin, "tournament", "finger", filepath.Join(root, bot), filepath.Join(root, "bots/finger/cmd/strong"),
			"--games", strconv.Itoa(attackGames), "--reps", "2", "--jobs", "2", "--plain", "--store", db, "--seed", "7")
		var out strings.Builder
		cmd.Stdout, cmd.Stderr = &out, &out
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		done := make(chan error, 1)
		go func() { done <- cmd.Wait() }()
		// VmHWM only grows: the last reading before the exit is the peak (to 20 ms).
		tick := time.NewTicker(20 * time.Millisecond)
		defer tick.Stop()
		for {
			select {
			case err := <-done:
				if err != nil {
					t.Fatalf("%s: %v\n%s", bot, err, out.String())
				}
				fi, err := os.Stat(db)
				if err != nil {
					t.Fatal(err)
				}
				return hwm, fi.Size()
			case <-tick.C:
				if v := vmHWM(cmd.Process.Pid); v > 0 {
					hwm = v
				}
			}
		}
	}
	var clean, attacked, cleanStore, attackedStore []int64
	for i := 0; i < attackRuns; i++ {
		h, s := run(i, "bots/finger/cmd/random")
		clean, cleanStore = append(clean, h), append(cleanStore, s)
		h, s = run(i, "bots/hostile/bigerror")
		attacked, attackedStore = append(attacked, h), append(attackedStore, s)
	}
	c, a := median(clean), median(attacked)
	t.Logf("host peak RSS, finger tournament (4 matches of %d games, 2 jobs): clean %.1f MiB, against %d KiB of fault text per move %.1f MiB (%.2fx); runs %v / %v KiB",
		attackGames, mib(c), attack.MaxText>>10, mib(a), float64(a)/float64(c), kib(clean), kib(attacked))
	t.Logf("store size: clean %.1f MiB, attacked %.1f MiB", mib(median(cleanStore)), mib(median(attackedStore)))
	// 4 x attackGames faults with their replays: a few KiB each, not 1 MiB.
	faults := int64(4 * attackGames)
	if st := median(attackedStore); st > faults*(bounded.Detail+2<<10) {
		t.Errorf("the store holds %.1f MiB for %d faults: their text is not bounded", mib(st), faults)
	}
	if a > 2*c {
		t.Errorf("host peak RSS under attack %.1f MiB is over 2x the clean %.1f MiB", mib(a), mib(c))
	}
}

// An innocent bot's time per move while its opponent floods go-plugin's broker and stdio
// streams (bots/hostile/sideflood), next to the same match against its quiet twin
// (bots/hostile/rawquiet: the same hand-served gRPC bot, which moves on gRPC as sideflood
// does, where an SDK bot would move on the fast lane and make the two differ by path). What is
// asserted is the host's own CPU per move (this test process: the host never opens those
// streams, so a flood must cost it nothing): CPU time does not swing with the machine's load
// the way wall time does, and two loaded runs gave wall ratios of 0.4x to 13x between runs of
// the same match. The innocent bot's wall time per move is printed beside it.
// Not parallel: it runs before this package's parallel tests, so its CPU is its own.
func TestUnderAttackOpponentMoves(t *testing.T) {
	ctx := context.Background()
	perMove := func(opponent string) (wall, hostCPU time.Duration) {
		bots := []string{filepath.Join(root, opponent), filepath.Join(root, house)}
		procs, err := players.Launch(ctx, resolver, bots, host.Options{StartTimeout: slack.Of(t, 30*time.Second)})
		if err != nil {
			t.Fatal(err)
		}
		defer players.CloseAll(procs)
		cfg := game.Config{Seed: 3, Params: map[string]string{"rounds": "2500"}}
		ps := make([]match.Player, len(procs))
		for i, p := range procs {
			ps[i] = players.Process{Bot: p}
			cfg.Players = append(cfg.Players, game.Player{Name: bots[i]})
		}
		cpu0 := selfcpu.Used()
		res, err := match.Run(ctx, dynamite.Spec, cfg, ps, match.Options{MatchID: "figures", Deadline: 2 * time.Second})
		cpu := selfcpu.Used() - cpu0
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range res.Outcome.Faults {
			t.Fatalf("a fault spoils the figure: %+v", f)
		}
		st := res.Stats[1]
		return st.Total / time.Duration(st.Moves), cpu / time.Duration(st.Moves)
	}
	var clean, attacked, cleanCPU, attackedCPU []time.Duration
	for i := 0; i < 2*attackRuns-1; i++ {
		w, c := perMove("bots/hostile/rawquiet")
		clean, cleanCPU = append(clean, w), append(cleanCPU, c)
		w, c = perMove("bots/hostile/sideflood")
		attacked, attackedCPU = append(attacked, w), append(attackedCPU, c)
	}
	c, a := median(clean), median(attacked)
	t.Logf("innocent bot's mean time per move, dynamite to 1000 points: against a quiet bot %v, against a side-stream flooder %v (%.2fx); runs %v / %v",
		c, a, float64(a)/float64(c), clean, attacked)
	cc, ac := median(cleanCPU), median(attackedCPU)
	t.Logf("host CPU per innocent move: against a quiet bot %v, against the flooder %v (%.2fx); runs %v / %v",
		cc, ac, float64(ac)/float64(cc), cleanCPU, attackedCPU)
	// The target is 1.5x, stretched by the slack factor for what load still does to CPU time
	// (caches, frequency); reading the flood would cost the host many times a move's CPU.
	slack.Ratio(t, "the host's CPU per move under a side-stream flood beside in peace", ac, cc, 1.5)
}

func median[T int64 | time.Duration](xs []T) T {
	s := slices.Clone(xs)
	slices.Sort(s)
	return s[len(s)/2]
}

func mib(b int64) float64 { return float64(b) / (1 << 20) }

func kib(xs []int64) []int64 {
	out := make([]int64, len(xs))
	for i, x := range xs {
		out[i] = x >> 10
	}
	return out
}

// vmHWM is a process's peak resident set size in bytes (0 once it is gone).
func vmHWM(pid int) int64 {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0
	}
	for _, l := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(l, "VmHWM:"); ok {
			n, _ := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")), 10, 64)
			return n << 10
		}
	}
	return 0
}
