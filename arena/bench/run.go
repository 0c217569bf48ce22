package bench

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"runtime"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/botarena/arena/arena/botspec"
	"github.com/botarena/arena/arena/host"
	"github.com/botarena/arena/arena/match"
	"github.com/botarena/arena/arena/players"
)

// Config tunes a run.
type Config struct {
	// Quick runs every measurement briefly (for tests); the figures are noisier and the
	// matches shorter (their names say how many rounds).
	Quick bool
	// Root is the repository root (the bots are built from it); default: found from the
	// working directory.
	Root string
	// Self is the binary re-executed as the unix-socket echo helper (with HelperArg);
	// default: os.Executable().
	Self string
	// Python is the interpreter for Python bots (default $ARENA_PYTHON or python3).
	Python string
	// Log receives one progress line per step (nil: none).
	Log io.Writer
	// Only runs just these steps (Steps names them; empty: all). The floor, the build and the
	// peer always run: every other figure is relative to them.
	Only []string
}

// Steps are the bench's steps, in the order they run.
var Steps = []string{"floor", "build", "peer", "moves", "start-up", "languages", "matches", "payload", "memory", "scaling"}

// sizes are the repetition counts of one run.
type sizes struct {
	floor, goMoves, pyMoves, goStarts, pyStarts int
	rounds, goMatches, pyMatches, inMatches     int
	leakA, leakB, leakRounds                    int
	scaleTotal, scaleInTotal                    int
	fingerGames, fingerIn                       int
}

func sizesFor(quick bool) sizes {
	if quick {
		return sizes{floor: 300, goMoves: 100, pyMoves: 100, goStarts: 1, pyStarts: 1,
			rounds: 100, goMatches: 1, pyMatches: 1, inMatches: 2,
			leakA: 10, leakB: 100, leakRounds: 50, scaleTotal: 2, scaleInTotal: 4, fingerGames: 20, fingerIn: 1}
	}
	return sizes{floor: 20000, goMoves: 3000, pyMoves: 2000, goStarts: 5, pyStarts: 3,
		rounds: 2500, goMatches: 3, pyMatches: 1, inMatches: 20,
		leakA: 100, leakB: 1000, leakRounds: 2500, scaleTotal: 4, scaleInTotal: 40, fingerGames: 1000, fingerIn: 3}
}

type runner struct {
	cfg Config
	sz  sizes
	rep *Report
	l   *launcher
	// pipe is the floor every time figure is divided by.
	pipe time.Duration
	// goP50 is the Go per-move p50 (for the match target).
	goP50 time.Duration
	// goPeer and pyPeer are the anchors (nil where a peer could not run).
	goPeer, pyPeer *peerFigures
	pyErr          error
	// parts holds each launch's start-up breakdown, by bot.
	parts map[string][]host.Startup
}

// Run measures everything and returns the report. A figure that cannot be measured (no
// Python SDK, no finger bots) is reported as missing with the reason; only a failure of the
// arena itself is an error.
func Run(ctx context.Context, cfg Config) (*Report, error) {
	start := time.Now()
	if cfg.Root == "" {
		wd, _ := os.Getwd()
		root, err := FindRoot(wd)
		if err != nil {
			return nil, err
		}
		cfg.Root = root
	}
	if cfg.Self == "" {
		self, err := os.Executable()
		if err != nil {
			return nil, fmt.Errorf("bench: cannot find its own binary for the echo helper: %w", err)
		}
		cfg.Self = self
	}
	r := &runner{parts: map[string][]host.Startup{}, cfg: cfg, sz: sizesFor(cfg.Quick), rep: &Report{Quick: cfg.Quick, Machine: machine(cfg.Python)},
		l: &launcher{root: cfg.Root, res: &botspec.Resolver{Python: cfg.Python}}}
	steps := []struct {
		name string
		fn   func(context.Context) error
	}{
		{"floor", r.floor},
		{"build", r.build},
		{"peer", r.peer},
		{"moves", r.moves},
		{"start-up", r.startup},
		{"languages", r.languages},
		{"matches", r.matches},
		{"payload", r.payload},
		{"memory", r.memory},
		{"scaling", r.scaling},
	}
	for _, name := range cfg.Only {
		if !slices.Contains(Steps, name) {
			return nil, fmt.Errorf("bench: no step %q: the steps are %s", name, strings.Join(Steps, ", "))
		}
	}
	defer func() { r.goPeer.close(); r.pyPeer.close() }()
	r.rep.Machine.Load[0] = loadAvg()
	for _, s := range steps {
		if len(cfg.Only) > 0 && !slices.Contains(append([]string{"floor", "build", "peer"}, cfg.Only...), s.name) {
			continue
		}
		t0 := time.Now()
		if err := s.fn(ctx); err != nil {
			return nil, fmt.Errorf("bench %s: %w", s.name, err)
		}
		r.logf("%s: %v", s.name, time.Since(t0).Round(time.Millisecond))
	}
	r.rep.Took = time.Since(start)
	r.rep.Machine.Load[1] = loadAvg()
	return r.rep, nil
}

func (r *runner) logf(format string, args ...any) {
	if r.cfg.Log != nil {
		fmt.Fprintf(r.cfg.Log, "bench: "+format+"\n", args...)
	}
}

func machine(python string) Machine {
	m := Machine{CPUs: runtime.NumCPU(), GoVersion: runtime.Version()}
	if b, err := os.ReadFile("/proc/cpuinfo"); err == nil {
		for _, line := range strings.Split(string(b), "\n") {
			if v, ok := strings.CutPrefix(line, "model name"); ok {
				m.CPUModel = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(v), ":"))
				break
			}
		}
	}
	if python == "" {
		python = os.Getenv("ARENA_PYTHON")
	}
	if python == "" {
		python = "python3"
	}
	if out, err := exec.Command(python, "--version").CombinedOutput(); err == nil {
		m.Python = strings.TrimSpace(string(out))
	}
	return m
}

// loadAvg is the 1-minute load average ("?" where /proc/loadavg is missing).
func loadAvg() string {
	b, err := os.ReadFile("/proc/loadavg")
	if f := strings.Fields(string(b)); err == nil && len(f) > 0 {
		return f[0]
	}
	return "?"
}

// add appends a figure; time figures (unit ns) get their ratio to the pipe floor.
func (r *runner) add(f Figure) {
	if f.Unit == "ns" && r.pipe > 0 && f.Missing == "" {
		f.FloorX = f.Value / float64(r.pipe)
	}
	r.rep.Figures = append(r.rep.Figures, f)
}

func (r *runner) dur(section, name string, d time.Duration, note string) {
	r.add(Figure{Section: section, Name: name, Value: float64(d), Unit: "ns", Note: note})
}

func (r *runner) missing(section, name, why string) {
	r.add(Figure{Section: section, Name: name, Missing: why})
}

// target marks the last figure with a target and whether it holds.
func (r *runner) target(text string, holds bool) {
	f := &r.rep.Figures[len(r.rep.Figures)-1]
	f.Target, f.Holds = text, &holds
}

func (r *runner) floor(context.Context) error {
	p, err := PipeEcho()
	if err != nil {
		return err
	}
	ps, err := measureEcho(p, r.sz.floor)
	p.Close()
	if err != nil {
		return fmt.Errorf("pipe: %w", err)
	}
	r.pipe = ps.P50()
	r.rep.PipeFloor = r.pipe
	r.dur("floor", "pipe round trip p50", ps.P50(), "1 byte to /bin/cat and back")
	r.dur("floor", "pipe round trip p99", ps.P99(), "")
	u, err := UnixEcho(r.cfg.Self)
	if err != nil {
		return err
	}
	us, err := measureEcho(u, r.sz.floor)
	u.Close()
	if err != nil {
		return fmt.Errorf("unix socket: %w", err)
	}
	r.dur("floor", "unix socket round trip p50", us.P50(), "1 byte to a Go echo process and back")
	r.dur("floor", "unix socket round trip p99", us.P99(), "")
	return nil
}

// build compiles the Go bot and checks Python before anything is timed.
func (r *runner) build(context.Context) error {
	if _, err := r.l.res.Command(r.l.root + "/" + GoBot); err != nil {
		return err
	}
	return nil
}

func (r *runner) moves(ctx context.Context) error {
	type cpu struct{ host, bot time.Duration }
	measure := func(rel string, n int, opt host.Options) (Sample, int64, cpu, error) {
		b, err := r.l.launchWith(ctx, rel, opt)
		if err != nil {
			return nil, 0, cpu{}, err
		}
		defer b.Close()
		m, err := NewMover(ctx, b)
		if err != nil {
			return nil, 0, cpu{}, err
		}
		defer m.Close()
		h0, b0 := selfCPU(), cpuTime(b.Pid())
		s, err := measureMoves(ctx, m, n)
		moves := time.Duration(m.n)
		c := cpu{(selfCPU() - h0) / moves, (cpuTime(b.Pid()) - b0) / moves}
		return s, rssTree(b.Pid()), c, err
	}
	cpuFigures := func(who string, c cpu, botTarget time.Duration, peer *peerFigures) {
		r.dur("move", who+" CPU per move, host", c.host, "all host threads / moves (warm-up included)")
		if peer != nil {
			r.vsPeer(peer, peer.hostCPU)
			r.peerTarget(1.5)
		}
		r.dur("move", who+" CPU per move, bot", c.bot, "bot process tree / moves (10 ms ticks)")
		if peer != nil {
			r.vsPeer(peer, peer.botCPU)
		}
		if botTarget > 0 {
			r.target("<= "+fmtDur(botTarget), c.bot <= botTarget)
		}
	}
	gs, grss, gcpu, err := measure(GoBot, r.sz.goMoves, host.Options{})
	if err != nil {
		return err
	}
	r.goP50 = gs.P50()
	r.dur("move", "Go bot p50", gs.P50(), "dynamite move the engine built, host.Seat.Act")
	r.vsPeerP50(r.goPeer)
	r.peerTarget(1.5)
	r.dur("move", "Go bot p99", gs.P99(), "")
	r.vsPeerP99(r.goPeer)
	cpuFigures("Go bot", gcpu, 0, r.goPeer)
	// The CPU clock's own cost: the same moves through host.Seat.ActCPU (two cgroup reads
	// and a poll timer per move).
	if cs, err := r.cpuClockMoves(ctx, r.sz.goMoves); err != nil {
		r.missing("move", "Go bot p50, CPU clock", firstLine(err.Error()))
	} else {
		r.dur("move", "Go bot p50, CPU clock", cs.P50(), "same moves through Seat.ActCPU (cgroup reads around each move)")
		r.vsPeerP50(r.goPeer)
	}
	ps, prss, pcpu, err := measure(PythonBot, r.sz.pyMoves, host.Options{})
	if err != nil {
		r.pyErr = fmt.Errorf("Python bot %s: %s", PythonBot, firstLine(err.Error()))
		r.missing("move", "Python bot p50", r.pyErr.Error())
		r.missing("move", "Python bot p99", r.pyErr.Error())
		r.missing("move", "Python bot CPU per move, host", r.pyErr.Error())
		r.missing("move", "Python bot CPU per move, bot", r.pyErr.Error())
	} else {
		r.dur("move", "Python bot p50", ps.P50(), "")
		r.vsPeerP50(r.pyPeer)
		r.peerTarget(2)
		r.dur("move", "Python bot p99", ps.P99(), "")
		r.vsPeerP99(r.pyPeer)
		cpuFigures("Python bot", pcpu, 150*time.Microsecond, r.pyPeer)
	}
	// The same moves without the sandbox's layers (host.Options.Unconfined), to show its cost.
	bare := host.Options{Unconfined: true}
	if us, _, _, err := measure(GoBot, r.sz.goMoves, bare); err != nil {
		r.missing("move", "Go bot p50, no sandbox", firstLine(err.Error()))
	} else {
		r.dur("move", "Go bot p50, no sandbox", us.P50(), "same moves, every isolation layer off")
		r.vsPeerP50(r.goPeer)
	}
	if r.pyErr != nil {
		r.missing("move", "Python bot p50, no sandbox", r.pyErr.Error())
	} else if us, _, _, err := measure(PythonBot, r.sz.pyMoves, bare); err != nil {
		r.missing("move", "Python bot p50, no sandbox", firstLine(err.Error()))
	} else {
		r.dur("move", "Python bot p50, no sandbox", us.P50(), "same moves, every isolation layer off")
		r.vsPeerP50(r.pyPeer)
	}
	r.add(Figure{Section: "memory", Name: "host RSS", Value: float64(rss(os.Getpid())), Unit: "B", Note: "after the move benchmarks"})
	r.add(Figure{Section: "memory", Name: "Go bot RSS", Value: float64(grss), Unit: "B", Note: "bot process tree, after its moves"})
	if r.pyErr == nil {
		r.add(Figure{Section: "memory", Name: "Python bot RSS", Value: float64(prss), Unit: "B", Note: "bot process tree, after its moves"})
	} else {
		r.missing("memory", "Python bot RSS", r.pyErr.Error())
	}
	return nil
}

// startOnce launches a bot and plays its first move: ready is Launch (spawn, handshake, TLS,
// Describe), first is ready plus Open and one move.
func (r *runner) startOnce(ctx context.Context, rel string) (ready, first time.Duration, err error) {
	return r.startOnceWith(ctx, rel, host.Options{})
}

func (r *runner) startOnceWith(ctx context.Context, rel string, opt host.Options) (ready, first time.Duration, err error) {
	t0 := time.Now()
	b, err := r.l.launchWith(ctx, rel, opt)
	if err != nil {
		return 0, 0, err
	}
	defer b.Close()
	ready = time.Since(t0)
	if !opt.Unconfined {
		r.parts[rel] = append(r.parts[rel], b.Startup)
	}
	m, err := NewMover(ctx, b)
	if err != nil {
		return 0, 0, err
	}
	defer m.Close()
	if _, err := m.Move(ctx); err != nil {
		return 0, 0, err
	}
	return ready, time.Since(t0), nil
}

// unconfinedReady times launches without the sandbox's layers, to show the sandbox's cost.
func (r *runner) unconfinedReady(ctx context.Context, name, rel string, n int) {
	var smp Sample
	for range n {
		ready, _, err := r.startOnceWith(ctx, rel, host.Options{Unconfined: true})
		if err != nil {
			r.missing("start-up", name, firstLine(err.Error()))
			return
		}
		smp = append(smp, ready)
	}
	r.dur("start-up", name, smp.P50(), "every isolation layer off")
}

// startupParts reports the median of each part of the launches of one kind of bot.
func (r *runner) startupParts(label, rel string) {
	parts := r.parts[rel]
	for _, p := range []struct {
		name, note string
		get        func(host.Startup) time.Duration
	}{
		{"spawn + sandbox", "namespaces, mounts, cgroups, seccomp, exec", func(s host.Startup) time.Duration { return s.Spawn }},
		{"to handshake", "runtime and SDK start-up until the handshake line", func(s host.Startup) time.Duration { return s.Handshake }},
		{"connect", "go-plugin checks and the gRPC dial", func(s host.Startup) time.Duration { return s.Connect }},
		{"TLS + Describe", "the first call: TLS handshake and Describe", func(s host.Startup) time.Duration { return s.Describe }},
	} {
		var smp Sample
		for _, s := range parts {
			smp = append(smp, p.get(s))
		}
		r.dur("start-up", label+" ready: "+p.name, smp.P50(), p.note)
	}
}

func (r *runner) startup(ctx context.Context) error {
	spawn, err := timeCommand(ctx, r.sz.goStarts*4, "/bin/true")
	if err != nil {
		return err
	}
	r.dur("start-up", "spawn /bin/true", spawn.P50(), "fork+exec+wait: the spawn share of a start")
	var gr, gf Sample
	for range r.sz.goStarts {
		a, b, err := r.startOnce(ctx, GoBot)
		if err != nil {
			return err
		}
		gr, gf = append(gr, a), append(gf, b)
	}
	r.dur("start-up", "Go bot ready", gr.P50(), "spawn + sandbox + handshake + TLS + Describe")
	r.startupParts("Go bot", GoBot)
	r.dur("start-up", "Go bot first answer", gf.P50(), "ready + Start + stream + first move")
	r.unconfinedReady(ctx, "Go bot ready, no sandbox", GoBot, r.sz.goStarts)
	grpcImport, gerr := timeCommand(ctx, r.sz.pyStarts, r.python(), "-c", "import grpc")
	if gerr != nil {
		r.missing("start-up", "python3 -c 'import grpc'", firstLine(gerr.Error()))
	} else {
		r.dur("start-up", "python3 -c 'import grpc'", grpcImport.P50(), "")
	}
	if r.pyErr != nil {
		r.missing("start-up", "Python bot ready", r.pyErr.Error())
		r.missing("start-up", "Python bot first answer", r.pyErr.Error())
		r.missing("start-up", "Python ready / import grpc", r.pyErr.Error())
		return nil
	}
	var pr, pf Sample
	for range r.sz.pyStarts {
		a, b, err := r.startOnce(ctx, PythonBot)
		if err != nil {
			return err
		}
		pr, pf = append(pr, a), append(pf, b)
	}
	r.dur("start-up", "Python bot ready", pr.P50(), "spawn + sandbox + interpreter + SDK + handshake + TLS + Describe")
	r.startupParts("Python bot", PythonBot)
	r.dur("start-up", "Python bot first answer", pf.P50(), "")
	r.unconfinedReady(ctx, "Python bot ready, no sandbox", PythonBot, r.sz.pyStarts)
	if gerr == nil {
		x := float64(pr.P50()) / float64(grpcImport.P50())
		r.add(Figure{Section: "start-up", Name: "Python ready / import grpc", Value: x, Unit: "x"})
		r.target("<= 1.2x", x <= 1.2)
	} else {
		r.missing("start-up", "Python ready / import grpc", "no python3 -c 'import grpc' figure")
	}
	return nil
}

// cpuClockMoves times n Go moves through the CPU clock's Seat.ActCPU.
func (r *runner) cpuClockMoves(ctx context.Context, n int) (Sample, error) {
	b, err := r.l.launchWith(ctx, GoBot, host.Options{})
	if err != nil {
		return nil, err
	}
	defer b.Close()
	m, err := NewMover(ctx, b)
	if err != nil {
		return nil, err
	}
	defer m.Close()
	m.CPU = true
	return measureMoves(ctx, m, n)
}

// pythonLoop times one match of two PythonBots played by a plain loop in one Python process.
// Both files are the arena's own (its example bot and the bench's loop), not submissions.
func (r *runner) pythonLoop(ctx context.Context, rounds int) (time.Duration, error) {
	reps := max(3, r.sz.inMatches/4)
	out, err := exec.CommandContext(ctx, r.python(), r.cfg.Root+"/"+PythonLoop, r.cfg.Root+"/"+PythonBot,
		fmt.Sprint(rounds), fmt.Sprint(reps)).CombinedOutput()
	if err != nil {
		return 0, fmt.Errorf("%s: %v: %s", PythonLoop, err, out)
	}
	sec, err := strconv.ParseFloat(strings.TrimSpace(string(out)), 64)
	if err != nil {
		return 0, fmt.Errorf("%s printed %q, not seconds", PythonLoop, out)
	}
	return time.Duration(sec * float64(time.Second)), nil
}

func (r *runner) python() string {
	if r.cfg.Python != "" {
		return r.cfg.Python
	}
	if p := os.Getenv("ARENA_PYTHON"); p != "" {
		return p
	}
	return "python3"
}

func (r *runner) matches(ctx context.Context) error {
	rounds := r.sz.rounds
	name := func(who string) string { return fmt.Sprintf("dynamite %d rounds, %s", rounds, who) }
	// peerRound is the peer's time per round measured beside the last series (0: no peer).
	var peerRound time.Duration
	rate := func(who string, mr MatchRate, note string, peer *peerFigures) {
		if peer != nil && peerRound > 0 {
			note += fmt.Sprintf("; x peer: against two peer matches beside it, %s a round", fmtDur(peerRound))
		}
		r.add(Figure{Section: "matches", Name: name(who), Value: mr.PerSecond(), Unit: "/s",
			Note: fmt.Sprintf("%s; %d matches, %v each (p50)", note, mr.Matches, fmtDur(mr.PerMatch.P50()))})
		if peer != nil && peerRound > 0 {
			r.vsPeer(peer, peerRound*time.Duration(rounds))
		}
	}
	series := func(rel string, n int, peer *peerFigures) (MatchRate, error) {
		bs, err := r.l.launchN(ctx, rel, 2)
		if err != nil {
			return MatchRate{}, err
		}
		defer players.CloseAll(bs)
		var mr MatchRate
		play := func() (err error) {
			mr, err = playSeries(ctx, players.Process{Bot: bs[0]}, players.Process{Bot: bs[1]}, n, rounds)
			return err
		}
		peerRound = 0
		if peer == nil {
			return mr, play()
		}
		peerRound, err = peer.beside(rounds, play)
		return mr, err
	}
	gm, err := series(GoBot, r.sz.goMatches, r.goPeer)
	if err != nil {
		return err
	}
	rate("Go vs Go", gm, "bots started before the clock", r.goPeer)
	x := float64(gm.PerMatch.P50()) / (float64(rounds) * float64(r.goP50))
	r.add(Figure{Section: "matches", Name: "Go match / (rounds x move p50)", Value: x, Unit: "x",
		Note: fmt.Sprintf("move p50 inside the match %s (both seats at once)", fmtDur(gm.Moves.P50()))})
	r.target("<= 1.3x", x <= 1.3)
	if r.pyErr != nil {
		r.missing("matches", name("Python vs Python"), r.pyErr.Error())
	} else {
		pm, err := series(PythonBot, r.sz.pyMatches, r.pyPeer)
		if err != nil {
			return err
		}
		rate("Python vs Python", pm, "bots started before the clock", r.pyPeer)
		// The ceiling a user of the original harness compares with: the same two bots in one
		// Python process, played by a plain loop (bots/bench/python/inprocess.py).
		loop, err := r.pythonLoop(ctx, rounds)
		if err != nil {
			r.missing("matches", name("Python in-process loop"), firstLine(err.Error()))
		} else {
			r.dur("matches", name("Python in-process loop"), loop, "the same two bots in one Python process, no gRPC ("+PythonLoop+")")
			if r.pyPeer != nil && peerRound > 0 {
				r.vsPeer(r.pyPeer, peerRound*time.Duration(rounds))
			}
			x := float64(pm.PerMatch.P50()) / float64(loop)
			r.add(Figure{Section: "matches", Name: "Python match / in-process loop", Value: x, Unit: "x"})
			r.target("<= 4x", x <= 4)
		}
	}
	a, b := InProcessPair()
	var im MatchRate
	play := func() (err error) {
		im, err = playSeries(ctx, a, b, r.sz.inMatches, rounds)
		return err
	}
	if peerRound = 0; r.goPeer != nil {
		peerRound, err = r.goPeer.beside(rounds, play)
	} else {
		err = play()
	}
	if err != nil {
		return err
	}
	rate("in-process house bots (ceiling)", im, "players.InProcess: no process, no plugin", r.goPeer)
	return r.fingerMatches(ctx)
}

func (r *runner) payload(context.Context) error {
	sz, err := PayloadSizes(10, 2500)
	if err != nil {
		return err
	}
	r.add(Figure{Section: "payload", Name: "ActRequest at round 10", Value: float64(sz[10]), Unit: "B", Note: "proto.Size of the stream message"})
	r.add(Figure{Section: "payload", Name: "ActRequest at round 2500", Value: float64(sz[2500]), Unit: "B"})
	d := sz[2500] - sz[10]
	r.add(Figure{Section: "payload", Name: "growth 10 -> 2500", Value: float64(d), Unit: "B"})
	r.target("within a few bytes", d <= 8 && d >= -8)
	return nil
}

// memory plays in-process matches and compares the host after leakA and after leakB of them.
func (r *runner) memory(ctx context.Context) error {
	a, b := InProcessPair()
	read := func() (int64, uint64) {
		runtime.GC()
		debug.FreeOSMemory()
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		return rss(os.Getpid()), ms.HeapAlloc
	}
	var rssA, rssB int64
	var heapA, heapB uint64
	for i := 1; i <= r.sz.leakB; i++ {
		if _, _, err := PlayDynamite(ctx, a, b, r.sz.leakRounds); err != nil {
			return err
		}
		if i == r.sz.leakA {
			rssA, heapA = read()
		}
	}
	rssB, heapB = read()
	what := fmt.Sprintf("in-process matches of %d rounds", r.sz.leakRounds)
	r.add(Figure{Section: "memory", Name: fmt.Sprintf("host RSS after %d matches", r.sz.leakA), Value: float64(rssA), Unit: "B", Note: what})
	r.add(Figure{Section: "memory", Name: fmt.Sprintf("host RSS after %d matches", r.sz.leakB), Value: float64(rssB), Unit: "B"})
	r.add(Figure{Section: "memory", Name: fmt.Sprintf("host heap after %d matches", r.sz.leakA), Value: float64(heapA), Unit: "B", Note: "live Go heap after GC"})
	r.add(Figure{Section: "memory", Name: fmt.Sprintf("host heap after %d matches", r.sz.leakB), Value: float64(heapB), Unit: "B"})
	grow := float64(heapB) - float64(heapA)
	r.add(Figure{Section: "memory", Name: "heap growth", Value: grow, Unit: "B"})
	r.target("no leak (< 1 MiB)", grow < 1<<20)
	return nil
}

func (r *runner) scaling(ctx context.Context) error {
	rounds := r.sz.rounds
	run := func(jobs, total int, pair func() (match.Player, match.Player, func(), error)) (MatchRate, error) {
		return Scale(ctx, jobs, total, rounds, pair)
	}
	both := func(label string, total int, pair func() (match.Player, match.Player, func(), error)) error {
		one, err := run(1, total, pair)
		if err != nil {
			return err
		}
		two, err := run(2, total, pair)
		if err != nil {
			return err
		}
		r.add(Figure{Section: "scaling", Name: label + ", 1 worker", Value: one.PerSecond(), Unit: "/s",
			Note: fmt.Sprintf("%d dynamite matches of %d rounds", total, rounds)})
		r.add(Figure{Section: "scaling", Name: label + ", 2 workers", Value: two.PerSecond(), Unit: "/s"})
		x := two.PerSecond() / one.PerSecond()
		r.add(Figure{Section: "scaling", Name: label + ", 2 / 1 workers", Value: x, Unit: "x"})
		r.target(">= 1.8x", x >= 1.8)
		return nil
	}
	if err := both("Go bots", r.sz.scaleTotal, r.l.processPair(ctx, GoBot)); err != nil {
		return err
	}
	return both("in-process", r.sz.scaleInTotal, func() (match.Player, match.Player, func(), error) {
		a, b := InProcessPair()
		return a, b, func() {}, nil
	})
}
