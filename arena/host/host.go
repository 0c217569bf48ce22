package host

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/hashicorp/go-hclog"
	"github.com/hashicorp/go-plugin"
	"github.com/hashicorp/go-plugin/runner"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/botarena/arena/arena/bounded"
	"github.com/botarena/arena/arena/game"
	arenav1 "github.com/botarena/arena/proto/arena/v1"
	"github.com/botarena/arena/sandbox"
	"github.com/botarena/arena/sdk/handshake"
)

// Defaults for Options and for the seat calls.
const (
	DefaultStartTimeout = 10 * time.Second
	// DefaultSeatStart and DefaultSeatEnd bound a seat's Start and End calls (the process is
	// already running; these are the bot's own hooks).
	DefaultSeatStart = 3 * time.Second
	DefaultSeatEnd   = 3 * time.Second
	DefaultLogHead   = 16 << 10
	DefaultLogTail   = 64 << 10
)

// Bounds on what a bot may send over its connection. A larger message or status ends the
// call with an error, which the runner charges as the bot's fault.
const (
	// MaxMessage is the largest response the host reads: a thousand times any real answer
	// (the SDKs keep their error reports under 64 KiB), and small enough that a bot sending
	// the largest message on every move leaves the host's peak memory within 2x (measured:
	// 2.6x at 4 MiB).
	MaxMessage = 1 << 20
	// MaxHeaderList bounds a response's headers and trailers, where a gRPC status travels:
	// grpc-go would otherwise accept 16 MiB of status message on every call.
	MaxHeaderList = 64 << 10
)

// sideStreams are go-plugin's broker and stdio streams, which go-plugin's client opens on
// every connection. The host uses neither (it reads stderr raw and brokers nothing), and a
// bot can flood an open one without limit (measured: 1.4 GB of host memory through the
// broker, 16 s of host CPU through empty stdio messages), so they are never opened.
var sideStreams = map[string]bool{
	"/plugin.GRPCBroker/StartStream": true,
	"/plugin.GRPCStdio/StreamStdio":  true,
}

// refuseSideStreams fails the side streams before anything is sent: go-plugin treats
// Unimplemented as a plugin without them (stdio) or ends its loop (broker).
func refuseSideStreams(ctx context.Context, desc *grpc.StreamDesc, cc *grpc.ClientConn, method string,
	streamer grpc.Streamer, opts ...grpc.CallOption) (grpc.ClientStream, error) {
	if sideStreams[method] {
		return nil, status.Error(codes.Unimplemented, "not used by the arena host")
	}
	return streamer(ctx, desc, cc, method, opts...)
}

// Errors of a running bot: the arena's one set (game.ErrTimeout, game.ErrDead), which the
// runner tests for as they come.
var (
	// ErrTimeout means a seat did not answer within its deadline; the bot has been killed.
	ErrTimeout = game.ErrTimeout
	// ErrDead means the bot process is gone (crashed, killed, or closed).
	ErrDead = game.ErrDead
)

// ErrMissingFiles means a bot's files (its snapshot or artefact in the files store) were gone
// when it was launched: the arena's failure, never the bot's (a caller rebuilds them or records
// an infrastructure failure, and charges no bot).
var ErrMissingFiles = errors.New("the bot's files are missing from the files store")

// missing names the first folder c mounts that is not there.
func missing(c Command) error {
	for _, m := range c.Mounts {
		if _, err := os.Stat(m.Host); err != nil {
			return fmt.Errorf("bot %s: %w: %s (shown to it at %s) is gone: an infrastructure failure, not the bot's", c.Name, ErrMissingFiles, m.Host, m.At)
		}
	}
	return nil
}

// EnvAllow is the short list of host variables a bot inherits; everything else is dropped.
var EnvAllow = []string{"LANG", "LC_ALL", "TZ"}

// Command is how to start one bot process.
type Command struct {
	// Name labels the bot in every report (usually the path the user gave).
	Name string
	Path string
	Args []string
	Dir  string
	Env  []string
	// ReadOnly lists host paths the bot needs to read at their own paths (its runtime).
	ReadOnly []string
	// Mounts show host paths read-only at paths of their own (its snapshot at /bot).
	Mounts []sandbox.Mount
	// Files names the bot's own files in its reports: a path under /bot in the stderr lines
	// of a bot that died before it was ready becomes Files/path ("." for the path relative to
	// its folder, as in an upload). Empty for a command whose /bot is not the author's files.
	Files string
	// Live, when set, gets a copy of everything the bot writes (stderr, stray stdout) as the
	// host reads it (arena play --logs): no more than the log sees, which the sandbox's output
	// limit bounds.
	Live io.Writer
	// Front says Path is the arena's own stdio bridge in front of the bot's program: its CPU
	// time is not charged to the bot (sandbox.Spec.Front).
	Front bool
}

// WorkInside is where a bot sees its private work dir (socket dir, TMPDIR, HOME), so no path
// of the arena's state shows in its view.
const WorkInside = "/run/bot"

// workPaths translates between a bot's work dir on the host and inside its sandbox.
type workPaths struct{ host, inside string }

func (w workPaths) toInside(p string) string {
	if rel, ok := under(p, w.host); ok {
		return filepath.Join(w.inside, rel)
	}
	return p
}

func (w workPaths) toHost(p string) (string, bool) {
	rel, ok := under(p, w.inside)
	if !ok {
		return "", false
	}
	return filepath.Join(w.host, rel), true
}

// under reports whether p is dir or below it, and p relative to dir.
func under(p, dir string) (string, bool) {
	if !filepath.IsAbs(p) {
		return "", false
	}
	rel, err := filepath.Rel(dir, filepath.Clean(p))
	if err != nil || rel == ".." || strings.HasPrefix(rel, "../") {
		return "", false
	}
	return rel, true
}

// Options tune a launch.
type Options struct {
	StartTimeout time.Duration
	// WorkRoot holds each bot's private directory (socket, TMPDIR); default os.TempDir().
	WorkRoot string
	// Limits for the sandbox (zero fields take the sandbox's defaults; the sandbox itself
	// enforces the output limit on stdout and stderr together).
	Limits sandbox.Limits
	// Strict refuses to start a bot when a sandbox layer is missing on this machine.
	Strict bool
	// Unconfined runs the bot without the sandbox's isolation layers (see sandbox.Spec); only
	// for measuring what the sandbox costs.
	Unconfined bool
	// GoPluginAutoMTLS uses go-plugin's own AutoMTLS (a P-521 client key) instead of the
	// host's P-256 mutual TLS; see clientTLS. Kept for comparison in benchmarks.
	GoPluginAutoMTLS bool
	// LogHead and LogTail cap the kept stderr.
	LogHead, LogTail int
	// GRPCOnly offers no bot the fast lane: every move goes over gRPC, as for a bot that does
	// not announce the lane (tests play both; ARENA_MOVES=grpc in the environment does the same).
	GRPCOnly bool
}

func (o Options) withDefaults() Options {
	if o.StartTimeout <= 0 {
		o.StartTimeout = DefaultStartTimeout
	}
	if o.LogHead <= 0 {
		o.LogHead = DefaultLogHead
	}
	if o.LogTail <= 0 {
		o.LogTail = DefaultLogTail
	}
	if os.Getenv(LaneEnvOff) == "grpc" {
		o.GRPCOnly = true
	}
	return o
}

// Startup is where a launch spent its time.
type Startup struct {
	// Spawn: building the sandbox and starting the program in it.
	Spawn time.Duration
	// Handshake: from the program running to its handshake line (runtime and SDK start-up).
	Handshake time.Duration
	// Connect: go-plugin's checks and the gRPC dial.
	Connect time.Duration
	// Describe: the first call, which includes the TLS handshake.
	Describe time.Duration
}

// Total is the whole launch.
func (s Startup) Total() time.Duration { return s.Spawn + s.Handshake + s.Connect + s.Describe }

// Bot is one running bot process.
type Bot struct {
	Name string
	Desc *arenav1.DescribeResponse
	Log  *Log
	// Startup breaks down the launch.
	Startup Startup

	client  *plugin.Client
	rn      *procRunner
	svc     arenav1.BotServiceClient
	workDir string
	files   string

	ctx    context.Context
	cancel context.CancelFunc

	closeOnce sync.Once
	dead      atomic.Bool
	mu        sync.Mutex
	why       string
	started   time.Time
	// mark is the CPU reading the next move is charged from (see ActCPU); parts the named
	// processes' CPU times at the same answer (see partsSince).
	mark  cpuMark
	parts atomic.Pointer[sandbox.CPUParts]
	// lane is the host's end of the fast lane, once the bot has announced it (nil: gRPC).
	lane *lane
}

// Launch starts a bot and waits for its handshake and Describe. The error names the bot, says
// what went wrong and shows its last stderr lines.
func Launch(ctx context.Context, c Command, opt Options) (*Bot, error) {
	if err := missing(c); err != nil {
		return nil, err
	}
	opt = opt.withDefaults()
	root := opt.WorkRoot
	if root == "" {
		root = os.TempDir()
	}
	workDir, err := os.MkdirTemp(root, "arena-bot-")
	if err != nil {
		return nil, fmt.Errorf("bot %s: cannot make its work directory: %w", c.Name, err)
	}
	sockDir := filepath.Join(workDir, "sock")
	tmpDir := filepath.Join(workDir, "tmp")
	for _, d := range []string{sockDir, tmpDir} {
		if err := os.Mkdir(d, 0o755); err != nil {
			_ = os.RemoveAll(workDir)
			return nil, fmt.Errorf("bot %s: %w", c.Name, err)
		}
	}
	b := &Bot{Name: c.Name, Log: NewLog(opt.LogHead, opt.LogTail), workDir: workDir, started: time.Now()}
	b.Log.Live = c.Live
	b.files = c.Files
	b.mark.v.Store(-1)
	b.ctx, b.cancel = context.WithCancel(context.Background())
	// The sandbox counts what the process writes to its own stdout and stderr; a Go bot's
	// prints travel instead through go-plugin's stdio stream into this log, so the same
	// output limit is enforced here too.
	limit := opt.Limits.OutputBytes
	if limit == 0 {
		limit = sandbox.DefaultOutputBytes
	}
	if limit > 0 {
		b.Log.Limit = limit
		b.Log.OnLimit = func() {
			go b.KillFor(sandbox.KindOutputLimit, "wrote more than "+bounded.Size(limit)+" to stdout and stderr")
		}
	}

	cfg := &plugin.ClientConfig{
		HandshakeConfig:  handshake.Config,
		Plugins:          handshake.Plugins(nil),
		AllowedProtocols: []plugin.Protocol{plugin.ProtocolGRPC},
		AutoMTLS:         opt.GoPluginAutoMTLS,
		SkipHostEnv:      true,
		// The launch's own limits are launchWatch's; go-plugin's is only its backstop.
		StartTimeout:     (StallFactor + 1) * opt.StartTimeout,
		Logger:           hclog.NewNullLogger(),
		SyncStdout:       b.Log,
		SyncStderr:       b.Log,
		UnixSocketConfig: &plugin.UnixSocketConfig{TempDir: workDir},
		GRPCDialOptions: []grpc.DialOption{
			grpc.WithDefaultCallOptions(grpc.MaxCallRecvMsgSize(MaxMessage)),
			grpc.WithMaxHeaderListSize(MaxHeaderList),
			grpc.WithChainStreamInterceptor(refuseSideStreams),
			// Fixed windows turn off bandwidth-delay probing (pings on every message).
			grpc.WithInitialWindowSize(1 << 20), grpc.WithInitialConnWindowSize(1 << 20),
		},
	}
	cfg.GRPCDialOptions = append(cfg.GRPCDialOptions, guardFrames(cfg, b.flooded)) // frames.go
	var clientPEM string
	if !opt.GoPluginAutoMTLS {
		tc, pemText, err := clientTLS()
		if err != nil {
			_ = os.RemoveAll(workDir)
			return nil, fmt.Errorf("bot %s: cannot make its TLS certificate: %w", c.Name, err)
		}
		cfg.TLSConfig, clientPEM = tc, pemText
	}
	// The fast lane is offered to every process: the bot's end is inherited (never a path the
	// host dials), and the host uses it only once the bot announces it in Describe.
	var offered *lane
	var botEnd *os.File
	if !opt.GRPCOnly {
		if offered, botEnd, err = newLane(); err != nil {
			_ = os.RemoveAll(workDir)
			return nil, fmt.Errorf("bot %s: %w", c.Name, err)
		}
		defer func() {
			if b.lane == nil {
				offered.close()
			}
		}()
	}
	cfg.RunnerFunc = func(_ hclog.Logger, cmd *exec.Cmd, socketDir string) (runner.Runner, error) {
		spec := sandbox.Spec{
			Name: c.Name, Path: c.Path, Args: append([]string{c.Path}, c.Args...), Dir: c.Dir,
			ReadOnly: c.ReadOnly, Mounts: c.Mounts, WorkDir: workDir, WorkAt: WorkInside,
			Limits: opt.Limits, Strict: opt.Strict, Unconfined: opt.Unconfined, Front: c.Front,
		}
		if botEnd != nil {
			spec.Files = []*os.File{botEnd}
		}
		// The bot sees its work dir at WorkInside where the sandbox can move it there: every
		// path the host names to it (go-plugin's socket dir among them) is translated.
		paths := workPaths{host: workDir, inside: sandbox.WorkPathInside(spec)}
		env := make([]string, 0, len(cmd.Env))
		for _, kv := range cmd.Env {
			k, v, _ := strings.Cut(kv, "=")
			env = append(env, k+"="+paths.toInside(v))
		}
		env = sandbox.Env(EnvAllow, env...)
		if clientPEM != "" {
			env = append(env, "PLUGIN_CLIENT_CERT="+clientPEM)
		}
		env = append(env, c.Env...)
		if botEnd != nil {
			env = append(env, fmt.Sprintf("%s=%d", handshake.LaneEnv, laneFD))
		}
		in := paths.toInside(tmpDir)
		env = append(env, "HOME="+in, "TMPDIR="+in, "PATH=/usr/local/bin:/usr/bin:/bin")
		spec.Env = env
		b.rn = &procRunner{
			allow:     opt.StartTimeout,
			name:      c.Name,
			socketDir: socketDir,
			paths:     paths,
			log:       b.Log,
			spec:      spec,
			files:     c.Files,
		}
		return b.rn, nil
	}
	b.client = plugin.NewClient(cfg)
	t0 := time.Now()
	rpc, err := b.client.Client()
	if botEnd != nil {
		_ = botEnd.Close() // the bot holds its own copy now (or never started)
	}
	if err == nil && b.rn != nil {
		err = b.rn.watch.tripErr() // tripped after the handshake
	}
	if err != nil {
		if b.rn != nil {
			b.rn.watch.done()
		}
		b.Close()
		if merr := missing(c); merr != nil {
			return nil, merr // removed while it started
		}
		var se *StartError
		if errors.As(err, &se) {
			return nil, se
		}
		return nil, b.launchErr("cannot connect", err)
	}
	defer b.rn.watch.done()
	raw, err := rpc.Dispense(handshake.PluginName)
	if err != nil {
		return nil, b.launchErr("no bot service", err)
	}
	b.svc = raw.(arenav1.BotServiceClient)
	tConnected := time.Now()
	b.Startup.Spawn = b.rn.spawned.Sub(t0)
	b.Startup.Handshake = b.rn.handshook.Sub(b.rn.spawned)
	b.Startup.Connect = tConnected.Sub(b.rn.handshook)
	go func() {
		// Notice a bot that dies on its own.
		<-b.rn.exited
		b.markDead(b.rn.proc.Reason().String())
		b.cancel()
	}()
	// Describe is held by the launch's watch (its allowance, counted since the process ran);
	// the context only ends it when the watch trips or the backstop passes.
	dctx, cancel := context.WithTimeout(ctx, (StallFactor+1)*opt.StartTimeout)
	defer cancel()
	go func() {
		select {
		case <-b.rn.watch.tripped:
			cancel()
		case <-dctx.Done():
		}
	}()
	b.Desc, err = b.svc.Describe(dctx, &arenav1.DescribeRequest{HostVersion: handshake.Version})
	b.Startup.Describe = time.Since(tConnected)
	if terr := b.rn.watch.tripErr(); terr != nil {
		b.Close()
		return nil, &StartError{Bot: c.Name, Err: terr, Msg: fmt.Sprintf("bot %s: %v%s", c.Name, terr, causeText(b.Log, b.files)), Pid: b.rn.proc.Pid()}
	}
	if err != nil {
		return nil, b.launchErr("did not answer Describe", err)
	}
	b.Desc = boundDesc(b.Desc)
	if offered != nil && len(b.Desc.Lanes) > 0 {
		offered.bot, b.lane = b, offered
	}
	return b, nil
}

// boundDesc keeps what the host shows of a bot's Describe answer: one line per field, a few
// games. These names reach tables, the store and other bots (Real TV class names).
func boundDesc(d *arenav1.DescribeResponse) *arenav1.DescribeResponse {
	out := &arenav1.DescribeResponse{Name: bounded.OneLine(d.GetName(), bounded.Name),
		Author: bounded.OneLine(d.GetAuthor(), bounded.Name), Version: bounded.OneLine(d.GetVersion(), bounded.Name),
		Sdk: bounded.OneLine(d.GetSdk(), bounded.Name), Lanes: lanes(d)}
	for i, g := range d.GetGames() {
		if i == bounded.Games {
			break
		}
		out.Games = append(out.Games, bounded.OneLine(g, bounded.Name))
	}
	return out
}

// botError is an error whose text came from a bot (a gRPC status message), cut to size; it
// keeps the original's status code and errors.Is chain only through the code.
type botError struct {
	msg  string
	code codes.Code
}

func (e *botError) Error() string { return e.msg }

// GRPCStatus keeps status.Code working on a cut error.
func (e *botError) GRPCStatus() *status.Status { return status.New(e.code, e.msg) }

// botErr cuts the text of an error that may quote the bot, dropping the original so the
// bot's bytes are not kept alive by it.
func botErr(err error) error {
	if err == nil {
		return nil
	}
	if s := err.Error(); len(s) > bounded.Message {
		return &botError{msg: bounded.Text(s, bounded.Message), code: status.Code(err)}
	}
	return err
}

// exitGrace is how long a failed launch waits for the process to end on its own: a stdio
// bot's bridge exits just after its program, which broke the connection first.
const exitGrace = time.Second

// launchErr closes a bot whose launch failed after its process started and says why. A
// process that ended is reported by how it ended and its own last stderr lines (a syntax
// error, a missing module), never by the connection error its death caused (EOF, a broken
// pipe in the TLS handshake: whichever the race gave).
func (b *Bot) launchErr(what string, err error) error {
	exited := false
	if b.rn != nil && b.rn.exited != nil {
		select {
		case <-b.rn.exited:
			exited = true
		case <-time.After(exitGrace):
		}
	}
	b.Close()
	if exited {
		how := b.rn.proc.Reason().String()
		return &StartError{Bot: b.Name, Err: ErrExited, Pid: b.rn.proc.Pid(),
			Msg: fmt.Sprintf("bot %s: %v (%s)%s", b.Name, ErrExited, how, causeText(b.Log, b.files))}
	}
	return fmt.Errorf("bot %s: %s: %w%s", b.Name, what, botErr(err), causeText(b.Log, b.files))
}

// OnLane reports whether the bot's moves travel on the fast lane (it announced the lane the
// host offered); otherwise they go over gRPC.
func (b *Bot) OnLane() bool { return b.lane != nil }

// Pid of the bot's main process (0 if none).
func (b *Bot) Pid() int {
	if b.rn == nil || b.rn.proc == nil {
		return 0
	}
	return b.rn.proc.Pid()
}

// Alive reports whether the bot can still be asked.
func (b *Bot) Alive() bool { return !b.dead.Load() }

// Why says why the bot is gone ("" while alive).
func (b *Bot) Why() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.why
}

func (b *Bot) markDead(why string) {
	b.mu.Lock()
	if b.why == "" {
		b.why = why
	}
	b.mu.Unlock()
	b.dead.Store(true)
}

// KillFor stops the bot, recording a sandbox exit kind (sandbox.KindTimeLimit...) and why.
func (b *Bot) KillFor(kind, why string) {
	b.markDead(kind + ": " + why)
	if b.rn != nil && b.rn.proc != nil {
		_ = b.rn.proc.KillFor(kind, why)
	}
	b.Close()
}

// Kill stops the bot for a reason (kept for reports); it returns once the tree is gone.
func (b *Bot) Kill(why string) {
	b.markDead(why)
	b.Close()
}

func (b *Bot) kill() {
	if b.rn != nil && b.rn.proc != nil {
		_ = b.rn.proc.Kill()
	}
}

// Close kills the whole process tree first, then lets go-plugin clean up (which then has no
// live process to wait for), and removes the work directory.
func (b *Bot) Close() {
	b.closeOnce.Do(func() {
		b.markDead("closed by the arena")
		b.cancel()
		b.kill()
		if b.rn != nil && b.rn.exited != nil {
			<-b.rn.exited
			// The tree is gone: what it wrote last is still in the pipes; keep it.
			b.rn.drained(500 * time.Millisecond)
		}
		b.client.Kill()
		if b.lane != nil {
			b.lane.close()
		}
		_ = os.RemoveAll(b.workDir)
	})
}

// FlushLog returns once what the bot has written to stderr so far is in its Log, or after
// logFlushCap: a report that quotes a live bot's log reads it after this (the host's copier
// may not have run yet on a busy machine).
func (b *Bot) FlushLog() {
	if b.rn != nil && b.rn.stderr != nil {
		b.rn.stderr.flush(logFlushCap)
	}
}

// logFlushCap bounds FlushLog: a bot that floods its stderr never lets the pipe be empty.
const logFlushCap = 5 * time.Second

// Usage is the bot's resource use; valid once it has exited.
func (b *Bot) Usage() sandbox.Usage {
	if b.rn == nil || b.rn.proc == nil {
		return sandbox.Usage{}
	}
	return b.rn.proc.Usage()
}

// Snapshot reads the bot's CPU time so far and its memory now (cheap: a few small reads).
func (b *Bot) Snapshot() (time.Duration, int64) {
	if b.rn == nil || b.rn.proc == nil {
		return 0, 0
	}
	sn := b.rn.proc.Snapshot()
	return sn.CPU, sn.MemoryBytes
}

// ErrRefused means the bot answered Start with a refusal.
var ErrRefused = errors.New("refused the seat")

// Open starts a seat on this bot and opens its move stream. A Start that overruns timeout
// kills the bot (as a move would) and returns ErrTimeout.
func (b *Bot) Open(ctx context.Context, req *arenav1.StartRequest, timeout time.Duration) (*Seat, error) {
	if !b.Alive() {
		return nil, fmt.Errorf("%w: %s", ErrDead, b.Why())
	}
	if timeout <= 0 {
		timeout = DefaultSeatStart
	}
	sctx, cancel := context.WithTimeout(ctx, timeout)
	resp, err := b.svc.Start(sctx, req)
	timedOut := overran(sctx, err) && ctx.Err() == nil
	cancel()
	if timedOut {
		b.KillFor(sandbox.KindTimeLimit, fmt.Sprintf("Start took longer than %v", timeout))
		return nil, fmt.Errorf("%w: Start took longer than %v", ErrTimeout, timeout)
	}
	return b.opened(req, resp, err)
}

// OpenCPU is Open under the CPU clock: Start is charged the bot's CPU time against cpu and its
// own time (wall time minus its threads' run-queue delay) against wall, as a move is, and a
// Start the machine stalls returns ErrStalled. Where no cgroup counts CPU it is Open(cpu).
func (b *Bot) OpenCPU(ctx context.Context, req *arenav1.StartRequest, cpu, wall time.Duration) (*Seat, error) {
	if !b.Alive() {
		return nil, fmt.Errorf("%w: %s", ErrDead, b.Why())
	}
	if !b.MeasuresCPU() {
		return b.Open(ctx, req, cpu)
	}
	proc := b.rn.proc
	c0, _ := proc.CPUTime()
	sctx, cancel := context.WithCancel(ctx)
	var w clockWatch
	w.begin(proc, c0, cpu, wall, cancel, false)
	resp, err := b.svc.Start(sctx, req)
	u := w.end()
	cancel()
	if err != nil && u.Cause == CauseNone && ctx.Err() == nil {
		switch {
		case u.CPU >= cpu:
			u.Cause = CauseCPU
		case u.Own >= wall:
			u.Cause = CauseWait
		}
	}
	switch u.Cause {
	case CauseCPU:
		why := fmt.Sprintf("Start used %v of CPU time, over its allowance of %v (%s)", round(u.CPU), cpu, u.Figures())
		b.KillFor(sandbox.KindTimeLimit, why)
		return nil, fmt.Errorf("%w: %s", ErrTimeout, why)
	case CauseWait:
		why := fmt.Sprintf("Start took longer than its wall-time cap of %v on its own time (%s)", wall, u.Figures())
		b.KillFor(sandbox.KindTimeLimit, why)
		return nil, fmt.Errorf("%w: %s", ErrTimeout, why)
	case CauseMachine:
		why := fmt.Sprintf("the machine stalled its Start (%s)", u.Figures())
		b.Kill("stopped by the arena: " + why + "; charged to no bot")
		return nil, fmt.Errorf("%w: %s", ErrStalled, why)
	}
	if err == nil {
		b.mark.set(c0 + u.CPU)
		b.markParts()
	}
	return b.opened(req, resp, err)
}

// opened finishes Open once Start has answered: a refusal, or the seat's move stream.
func (b *Bot) opened(req *arenav1.StartRequest, resp *arenav1.StartResponse, err error) (*Seat, error) {
	if err != nil {
		return nil, b.callErr(err)
	}
	if resp.GetError() != "" {
		return nil, fmt.Errorf("%w: %s", ErrRefused, bounded.Lines(resp.GetError(), bounded.Trace))
	}
	s := &Seat{bot: b, match: req.GetMatchId(), seat: req.GetSeat()}
	s.ctx, s.cancel = context.WithCancel(b.ctx)
	if b.lane != nil {
		return s, nil // its moves travel on the fast lane
	}
	st, err := b.svc.ActStream(s.ctx)
	if err != nil {
		s.cancel()
		return nil, b.callErr(err)
	}
	s.stream = st
	s.timer = time.AfterFunc(time.Hour, s.expire)
	s.timer.Stop()
	return s, nil
}

// overran reports whether a call ended by its deadline: the host's timer may fire second, after
// the bot's side has already enforced the deadline it was sent and reset the stream.
func overran(ctx context.Context, err error) bool {
	return errors.Is(ctx.Err(), context.DeadlineExceeded) || status.Code(err) == codes.DeadlineExceeded
}

func (b *Bot) callErr(err error) error {
	if !b.Alive() {
		return fmt.Errorf("%w: %s", ErrDead, b.Why())
	}
	return fmt.Errorf("%w: %v", ErrDead, botErr(err))
}

// Seat is one open seat: one stream, one move at a time.
type Seat struct {
	bot    *Bot
	match  string
	seat   int32
	ctx    context.Context
	cancel context.CancelFunc
	stream grpc.BidiStreamingClient[arenav1.ActStreamRequest, arenav1.ActStreamResponse]
	timer  *time.Timer
	timed  atomic.Bool
	in     arenav1.ActStreamRequest
	// watch polls a move's CPU time under the CPU clock (ActCPU).
	watch clockWatch
	// move is the seat's move on the fast lane (Post), reused move after move.
	move Move
}

func (s *Seat) expire() {
	s.timed.Store(true)
	s.cancel()
}

// Act sends one request and waits at most timeout for the answer, in the caller's goroutine.
// On timeout the bot is killed (a bot that hangs once would hang again) and ErrTimeout returned.
func (s *Seat) Act(req *arenav1.ActRequest, timeout time.Duration) (*arenav1.ActResponse, error) {
	if !s.bot.Alive() {
		return nil, fmt.Errorf("%w: %s", ErrDead, s.bot.Why())
	}
	if s.OnLane() {
		resp, _, err := s.actLane(req, timeout, timeout, false)
		return resp, err
	}
	s.in.Act = req
	s.timer.Reset(timeout)
	err := s.stream.Send(&s.in)
	var out *arenav1.ActStreamResponse
	if err == nil {
		out, err = s.stream.Recv()
	}
	stopped := s.timer.Stop()
	if s.timed.Load() || (!stopped && err != nil) {
		s.bot.KillFor(sandbox.KindTimeLimit, fmt.Sprintf("no answer within %v", timeout))
		return nil, ErrTimeout
	}
	if err != nil {
		return nil, s.broken(err)
	}
	return out.GetAct(), nil
}

// broken turns a failed call into ErrDead, with how the bot ended where it did.
func (s *Seat) broken(err error) error {
	switch status.Code(err) {
	case codes.ResourceExhausted, codes.Internal:
		// The host refused what it read (over the size limits, not protobuf): the bot is
		// alive and sent it on purpose or by a bug; no need to wait for an exit.
		s.bot.Kill("sent an answer the host refuses: " + botErr(err).Error())
	default:
		// Give the exit watcher a moment so the report says how the process ended, and the
		// log its last words (the fault's text quotes its tail at once; beside busy loops the
		// host's copier had not yet run, and a crash lost its stderr line).
		select {
		case <-s.bot.rn.exited:
			s.bot.rn.drained(500 * time.Millisecond)
			s.bot.markDead(s.bot.rn.proc.Reason().String())
		case <-time.After(time.Second):
		}
		if s.bot.Alive() {
			s.bot.Kill("broken connection: " + botErr(err).Error())
		}
	}
	return fmt.Errorf("%w: %s", ErrDead, s.bot.Why())
}

// Snapshot reads the bot's CPU time and memory (see Bot.Snapshot).
func (s *Seat) Snapshot() (time.Duration, int64) { return s.bot.Snapshot() }

// End closes the seat. An End that overruns timeout kills the bot and returns ErrTimeout;
// other errors (a bot already gone) are returned as they are: the match is decided, and the
// runner only records them.
func (s *Seat) End(req *arenav1.EndRequest, timeout time.Duration) error {
	if s.stream != nil {
		_ = s.stream.CloseSend()
	}
	defer s.cancel()
	if !s.bot.Alive() {
		return nil
	}
	if timeout <= 0 {
		timeout = DefaultSeatEnd
	}
	ctx, cancel := context.WithTimeout(s.bot.ctx, timeout)
	defer cancel()
	if _, err := s.bot.svc.End(ctx, req); err != nil {
		if overran(ctx, err) && s.bot.ctx.Err() == nil {
			s.bot.KillFor(sandbox.KindTimeLimit, fmt.Sprintf("End took longer than %v", timeout))
			return fmt.Errorf("%w: End took longer than %v", ErrTimeout, timeout)
		}
		return s.bot.callErr(err)
	}
	return nil
}

var _ io.Writer = (*Log)(nil)
