package hostile_test

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"github.com/botarena/arena/arena/internal/testenv"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/botarena/arena/arena/botspec"
	"github.com/botarena/arena/arena/bounded"
	"github.com/botarena/arena/arena/game"
	"github.com/botarena/arena/arena/games/dynamite"
	"github.com/botarena/arena/arena/host"
	"github.com/botarena/arena/arena/internal/proctable"
	"github.com/botarena/arena/arena/match"
	"github.com/botarena/arena/arena/players"
	"github.com/botarena/arena/internal/slack"
	"github.com/botarena/arena/sandbox"
)

const root = "../.."

// absRoot is root as an absolute path, taken before any test changes the working directory.
var absRoot, _ = filepath.Abs(root)

var resolver = &botspec.Resolver{}

func TestMain(m *testing.M) {
	sandbox.Init()
	if err := testenv.CheckPython("arena_sdk"); err != nil {
		fmt.Fprintf(os.Stderr, "hostile: %v\n", err)
		os.Exit(1)
	}
	// A secret in the host's temp dir, where bots' work dirs live too.
	secret := "/tmp/arena-hostile-secret"
	if err := os.WriteFile(secret, []byte("hunter2"), 0o644); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	code := m.Run()
	os.Remove(secret)
	os.Exit(code)
}

// house is the well-behaved opponent of every hostile bot.
const house = "bots/dynamite/cmd/scissors"

// outcome of one hostile match.
type outcome struct {
	res  *match.Result
	log  string // the hostile bot's kept stderr
	why  string // why the hostile bot's process is gone
	uids []int
}

// play runs one match of a hostile bot (seat 0) against the house bot, then checks that no
// process of either is left, by the process table.
func play(t *testing.T, hostile string, deadline time.Duration, limits sandbox.Limits, rounds string) outcome {
	t.Helper()
	return playStarting(t, 15*time.Second, hostile, deadline, limits, rounds)
}

// playStarting is play with the bots' start-up allowance (before slack).
func playStarting(t *testing.T, start time.Duration, hostile string, deadline time.Duration, limits sandbox.Limits, rounds string) outcome {
	t.Helper()
	ctx := context.Background()
	if !filepath.IsAbs(hostile) {
		hostile = filepath.Join(absRoot, hostile)
	}
	bots := []string{hostile, filepath.Join(absRoot, house)}
	procs, err := players.Launch(ctx, resolver, bots, host.Options{StartTimeout: slack.Of(t, start), Limits: limits})
	if err != nil {
		t.Fatal(err)
	}
	defer players.CloseAll(procs)
	var inits, uids []int
	for _, p := range procs {
		inits = append(inits, p.Pid())
		uids = append(uids, treeUIDs(p.Pid())...)
	}
	if rounds == "" {
		rounds = "40"
	}
	cfg := game.Config{Seed: 5, Params: map[string]string{"rounds": rounds}}
	ps := make([]match.Player, len(procs))
	for i, p := range procs {
		ps[i] = players.Process{Bot: p}
		cfg.Players = append(cfg.Players, game.Player{Name: bots[i]})
	}
	res, err := match.Run(ctx, dynamite.Spec, cfg, ps, match.Options{MatchID: "hostile", Deadline: deadline})
	if err != nil {
		t.Fatal(err)
	}
	players.CloseAll(procs)
	o := outcome{res: res, log: procs[0].Log.String(), uids: uids}
	o.why = procs[0].Why()
	for _, pid := range inits {
		proctable.AssertGone(t, pid)
	}
	for _, uid := range uids {
		proctable.WaitGone(t, fmt.Sprintf("uid %d", uid), func() []string { return proctable.WithUID(uid) })
	}
	return o
}

// treeUIDs finds the host uids the sandbox's processes run as (the init's children).
func treeUIDs(initPid int) []int {
	var out []int
	for _, kid := range proctable.Children(initPid) {
		if uid := proctable.UIDOf(strconv.Itoa(kid)); uid > 0 {
			out = append(out, uid)
		}
	}
	return out
}

// Every hostile bot strikes in round 3 and must lose by the right fault there, or, where the
// attack is only a probe, play on with every attempt blocked.
func TestHostileBots(t *testing.T) {
	t.Parallel()
	type tc struct {
		bot    string
		fault  game.FaultKind // FaultNone: the probe fails quietly and the match goes on
		detail string         // in the fault's detail
		limits sandbox.Limits
		// anyRound: the fault may come in any round (limits that take time to reach).
		anyRound bool
		// orTimeout: the limit may take longer to reach than the move deadline (a memory bomb
		// on a machine that swaps): then the deadline stops the bot first, and a timeout is the
		// right charge. The sandbox's own tests check the limit itself, without a deadline.
		orTimeout bool
		// orProcessLimit: a bomb may fill its process limit before the deadline, and the
		// sandbox's init shares that limit: when it can then not go on, a crash at the
		// process limit is the right charge (CI beside four busy loops, 3 December).
		orProcessLimit bool
		rounds         string
		// deadline: the move deadline, when not 1 s × slack. A flood needs time for its bytes
		// to cross the pipe: with every lane compiling at the start of a CI run, the Python
		// flood's 4 MiB had not arrived within 2 s and the deadline charged it first.
		deadline time.Duration
		// also: more text the fault's detail must hold.
		also []string
	}
	g := func(name string) string { return "bots/hostile/" + name }
	py := func(name string) string { return "bots/hostile/python/" + name + ".py" }
	cases := []tc{
		{bot: g("busyloop"), fault: game.FaultTimeout},
		{bot: g("sleeper"), fault: game.FaultTimeout},
		{bot: g("stopper"), fault: game.FaultTimeout, anyRound: true}, // a self-SIGSTOP may land just after the round-3 answer left
		{bot: g("noterm"), fault: game.FaultTimeout},
		{bot: g("forkbomb"), fault: game.FaultTimeout, limits: sandbox.Limits{Processes: 48}, orProcessLimit: true},
		{bot: g("threadbomb"), fault: game.FaultCrash, limits: sandbox.Limits{Processes: 48}},
		{bot: g("setsid"), fault: game.FaultCrash, detail: "exited with status 0"},
		{bot: g("orphan"), fault: game.FaultCrash, detail: "exited with status 0"},
		{bot: g("memory"), fault: game.FaultCrash, detail: "memory limit", limits: sandbox.Limits{MemoryBytes: 128 << 20}, orTimeout: true},
		{bot: g("memsplit"), fault: game.FaultCrash, detail: "memory limit", limits: sandbox.Limits{MemoryBytes: 128 << 20}, orTimeout: true},
		{bot: g("flood"), fault: game.FaultCrash, detail: "output limit", limits: sandbox.Limits{OutputBytes: 1 << 20}, deadline: 10 * time.Second},
		{bot: g("tracer"), fault: game.FaultCrash, detail: "forbidden system call"},
		{bot: g("idleburn"), fault: game.FaultCrash, detail: "cpu limit", limits: sandbox.Limits{CPUSeconds: 1}, anyRound: true, rounds: "2500"},
		{bot: g("disk"), limits: sandbox.Limits{DiskBytes: 8 << 20}},
		{bot: g("fds"), limits: sandbox.Limits{OpenFiles: 128}},
		{bot: g("secrets")},
		{bot: g("writer")},
		{bot: g("network")},
		{bot: g("sockets")},
		{bot: g("killer")},
		{bot: py("busyloop"), fault: game.FaultTimeout},
		{bot: py("stopper"), fault: game.FaultTimeout, anyRound: true},
		{bot: py("forkbomb"), fault: game.FaultTimeout, limits: sandbox.Limits{Processes: 64}, orProcessLimit: true},
		{bot: py("threadbomb"), fault: game.FaultTimeout, limits: sandbox.Limits{Processes: 64}, orProcessLimit: true},
		{bot: py("memory"), fault: game.FaultCrash, detail: "memory limit", limits: sandbox.Limits{MemoryBytes: 160 << 20}, orTimeout: true},
		{bot: py("escape"), fault: game.FaultCrash, detail: "exited with status 0"},
		{bot: py("flood"), fault: game.FaultCrash, detail: "output limit", limits: sandbox.Limits{OutputBytes: 1 << 20}, deadline: 10 * time.Second},
		{bot: py("tracer"), fault: game.FaultCrash, detail: "forbidden system call"},
		{bot: py("read_secrets")},
		{bot: py("net_probe")},
		// Attacks on the host through what it reads: every text is bounded, every flood charged.
		{bot: g("bigerror"), fault: game.FaultCrash, detail: "bytes cut", also: []string{"raised: head E", "tail", "end of stack"}},
		{bot: g("bigstatus"), fault: game.FaultCrash},
		{bot: g("slowstart"), fault: game.FaultTimeout, detail: "(Start)", anyRound: true},
		{bot: g("slowend"), fault: game.FaultTimeout, detail: "(End)", anyRound: true},
		{bot: g("sideflood")},
		{bot: g("streamflood"), fault: game.FaultGarbage, detail: "answered step -1 to request 3"},
		{bot: g("pingflood"), fault: game.FaultCrash, detail: "connection flood", also: []string{"HTTP/2 control frames (the last a PING)", "over the limit of"}},
		{bot: py("bigexception"), fault: game.FaultCrash, detail: "bytes cut", also: []string{"Traceback (most recent call last):", "ValueError: head xxx", "xxx tail"}},
		{bot: py("deeptrace"), fault: game.FaultCrash, detail: "Traceback (most recent call last):",
			also: []string{"deeptrace.py\", line 23, in move", "copy.deepcopy(nested(300))", "deeptrace.py\", line 10, in __deepcopy__",
				"frames cut", "ValueError: cannot copy the poison pill"}},
	}
	for _, c := range cases {
		c := c
		t.Run(strings.TrimPrefix(c.bot, "bots/hostile/"), func(t *testing.T) {
			t.Parallel()
			deadline := cmp.Or(c.deadline, time.Second)
			o := play(t, c.bot, slack.Of(t, deadline), c.limits, c.rounds) // 2 s by default: at 700 ms a loaded CI machine let the deadline beat the output and CPU limits
			out := o.res.Outcome
			for _, f := range out.Faults {
				if len(f.Detail) > bounded.Detail+1024 {
					t.Errorf("a fault of %d bytes was kept (bound %d): %.300q", len(f.Detail), bounded.Detail, f.Detail)
				}
			}
			// The house bot is never charged and always ends up at least level.
			for _, f := range out.Faults {
				if f.Seat != 0 {
					t.Errorf("the house bot was charged: %+v", f)
				}
			}
			if out.Players[1].Result == game.ResultLoss {
				t.Errorf("the house bot lost: %+v", out.Players)
			}
			if strings.Contains(o.log, "SUCCEEDED") {
				t.Errorf("an attack got through:\n%s", o.log)
			}
			if c.fault == game.FaultNone {
				if len(out.Faults) != 0 {
					t.Fatalf("a probing bot was charged: %+v\nlog:\n%s", out.Faults, tail(o.log))
				}
				if !strings.Contains(o.log, "blocked") {
					t.Fatalf("no attempt reported:\n%s", tail(o.log))
				}
				return
			}
			if len(out.Faults) != 1 {
				t.Fatalf("faults %+v, want one %v (bot gone: %s)\nlog:\n%s", out.Faults, c.fault, o.why, tail(o.log))
			}
			f := out.Faults[0]
			if c.orTimeout && f.Kind == game.FaultTimeout && f.Where == "round 3" {
				t.Logf("the deadline stopped the bot before its limit did: %+v", f)
			} else if c.orProcessLimit && f.Kind == game.FaultCrash && f.Where == "round 3" && strings.Contains(f.Detail, sandbox.KindProcessLimit+": ") {
				t.Logf("the bomb filled its process limit before the deadline: %+v", f)
			} else if f.Kind != c.fault || (f.Where != "round 3" && !c.anyRound) || !strings.Contains(f.Detail, c.detail) {
				t.Fatalf("fault %+v, want %v in round 3 with %q\nlog:\n%s", f, c.fault, c.detail, tail(o.log))
			}
			for _, a := range c.also {
				if !strings.Contains(f.Detail, a) {
					t.Errorf("fault detail lacks %q:\n%s", a, f.Detail)
				}
			}
			if out.Players[0].Result != game.ResultLoss {
				t.Fatalf("the hostile bot did not lose: %+v", out.Players)
			}
		})
	}
}

// Lying and garbage handshakes are clear start errors naming the bot, and leave nothing.
func TestHostileHandshakes(t *testing.T) {
	t.Parallel()
	for _, name := range []string{"liar", "badcert", "garbage"} {
		name := name
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			arg := filepath.Join(root, "bots/hostile", name)
			if _, err := resolver.Prepare(arg); err != nil { // the build is not what is timed
				t.Fatal(err)
			}
			t0 := time.Now()
			const startTimeout = 5 * time.Second
			procs, err := players.Launch(context.Background(), resolver, []string{arg},
				host.Options{StartTimeout: startTimeout, Limits: sandbox.Limits{OutputBytes: 1 << 20}})
			if err == nil {
				players.CloseAll(procs)
				t.Fatal("a bot with a bad handshake started")
			}
			var se *host.StartError
			if !errors.As(err, &se) || !strings.Contains(err.Error(), name) {
				t.Fatalf("start error %T: %v", err, err)
			}
			// At worst the start timeout (the bad handshake need not even wait for it) and the
			// sandbox's teardown: never a hang.
			slack.Within(t, "refusing the handshake", time.Since(t0), startTimeout, 3*time.Second)
			assertNoSandboxOf(t, arg)
		})
	}
}

// assertNoSandboxOf checks that no process runs the given bot's binary any more.
func assertNoSandboxOf(t *testing.T, arg string) {
	t.Helper()
	p, err := resolver.Prepare(arg)
	if err != nil || len(p.Command.Mounts) == 0 {
		t.Fatalf("prepare %s: %v", arg, err)
	}
	art := p.Command.Mounts[0].Host + "/"
	proctable.WaitGone(t, arg, func() []string {
		var left []string
		ents, _ := os.ReadDir("/proc")
		for _, e := range ents {
			if _, err := strconv.Atoi(e.Name()); err != nil {
				continue
			}
			exe, _ := os.Readlink("/proc/" + e.Name() + "/exe")
			if strings.HasPrefix(exe, art) {
				left = append(left, e.Name()+" "+exe)
			}
		}
		return left
	})
}

func tail(s string) string {
	if len(s) > 3000 {
		return "..." + s[len(s)-3000:]
	}
	return s
}
