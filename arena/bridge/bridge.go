package bridge

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"strings"
	"sync"
	"syscall"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"

	arenav1 "github.com/botarena/arena/proto/arena/v1"
	"github.com/botarena/arena/sdk/handshake"
)

// MaxLine bounds one answer line (without its newline). A move's action is at most 1 KiB and
// the host keeps a few KiB of an error's text, so a longer line is never a useful answer.
const MaxLine = 64 << 10

// Program is the stdio program behind the bridge: one request at a time on its stdin, one
// answer line from its stdout for each. Its stdout is read only while a request waits, on the
// caller's goroutine: no hand-off between goroutines on a move.
type Program struct {
	cmd *exec.Cmd
	log io.Writer

	mu    sync.Mutex // one request at a time; guards everything below
	stdin *os.File
	out   []byte // the request being written
	br    *bufio.Reader
	lines int  // lines read from stdout so far
	skip  bool // the rest of an over-long line is still to be dropped

	exited chan struct{}
	status error // the program's exit, once exited is closed

	// OnExit, when set, runs once the program has exited (Main ends the bridge with it, so
	// the host sees the bot die and reports a crash with the bot's last stderr lines).
	OnExit   func()
	exitOnce sync.Once
}

// Start starts argv with env, stdin and stdout piped to the bridge and stderr to log (the
// bot's log, which the host reads).
func Start(argv, env []string, log *os.File) (*Program, error) {
	inR, inW, err := pipe()
	if err != nil {
		return nil, err
	}
	outR, outW, err := pipe()
	if err != nil {
		inR.Close()
		inW.Close()
		return nil, err
	}
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Env, cmd.Stdin, cmd.Stdout, cmd.Stderr = env, inR, outW, log
	if err := cmd.Start(); err != nil {
		inR.Close()
		inW.Close()
		outR.Close()
		outW.Close()
		return nil, fmt.Errorf("start the bot's program %s: %w%s", argv[0], err, interpreterMissing(argv[0], err))
	}
	inR.Close()
	outW.Close()
	p := &Program{cmd: cmd, log: log, stdin: inW, br: bufio.NewReaderSize(outR, MaxLine+2), exited: make(chan struct{})}
	go func() {
		p.status = cmd.Wait()
		close(p.exited)
	}()
	return p, nil
}

// Exited is closed when the program has exited; Status then says how.
func (p *Program) Exited() <-chan struct{} { return p.exited }

// Status is how the program ended (nil for status 0), once Exited is closed.
func (p *Program) Status() error { return p.status }

// ExitCode is the bridge's own exit code for the program's end: its status, or 128+signal.
func (p *Program) ExitCode() int {
	var ee *exec.ExitError
	if !errors.As(p.status, &ee) {
		return 1 // it ended on its own with status 0, which a bot never does mid-match
	}
	if ws, ok := ee.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		return 128 + int(ws.Signal())
	}
	if c := ee.ExitCode(); c > 0 {
		return c
	}
	return 1
}

// ErrExited means the program exited (or closed its stdout) before it answered.
var ErrExited = errors.New("the bot's program exited")

// errTooLong is a line that passed MaxLine; the rest of it is dropped before the next read.
var errTooLong = errors.New("line too long")

// badLine is an answer that is not one: the fault's reason, in the bot author's terms.
type badLine struct{ reason string }

func (b *badLine) Error() string { return b.reason }

var (
	marshal   = protojson.MarshalOptions{}
	unmarshal = protojson.UnmarshalOptions{DiscardUnknown: true}
)

// Call writes req as one line and reads the answer into resp. A line that is not resp's
// message is a *badLine; an exit or a closed stdout is ErrExited.
func (p *Program) Call(req *arenav1.StdioRequest, resp proto.Message) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	if err := p.dropStale(); err != nil {
		return err
	}
	var err error
	if p.out, err = marshal.MarshalAppend(p.out[:0], req); err != nil {
		return fmt.Errorf("encode the request: %w", err)
	}
	p.out = append(p.out, '\n')
	if _, err := p.stdin.Write(p.out); err != nil {
		return p.gone()
	}
	text, err := p.readLine()
	switch {
	case errors.Is(err, errTooLong):
		return &badLine{fmt.Sprintf("stdout line %d is over %d KiB, so it is not %s (one compact JSON object per line)", p.lines, MaxLine>>10, messageName(resp))}
	case err != nil:
		return p.gone()
	}
	if err := unmarshal.Unmarshal(text, resp); err != nil {
		return &badLine{fmt.Sprintf("stdout line %d is not %s: %v: %s", p.lines, messageName(resp), err, quote(text))}
	}
	return nil
}

// messageName is "an ActResponse", "a StartResponse": what a bad line should have been.
func messageName(m proto.Message) string {
	return withArticle(string(m.ProtoReflect().Descriptor().Name()))
}

// readLine reads one line of at most MaxLine bytes without its line end. The text is valid
// until the next read.
func (p *Program) readLine() ([]byte, error) {
	b, err := p.br.ReadSlice('\n')
	switch {
	case err == nil:
		p.lines++
		return trimEOL(b), nil
	case errors.Is(err, bufio.ErrBufferFull):
		p.lines++
		p.skip = true
		return nil, errTooLong
	default:
		return nil, err
	}
}

func trimEOL(b []byte) []byte {
	b = b[:len(b)-1]
	if len(b) > 0 && b[len(b)-1] == '\r' {
		b = b[:len(b)-1]
	}
	return b
}

// dropStale finishes dropping an over-long line, then drops the complete lines the program
// wrote while no request was waiting (those already read into the buffer), and says so in its
// log.
func (p *Program) dropStale() error {
	for p.skip {
		_, err := p.br.ReadSlice('\n')
		if err != nil && !errors.Is(err, bufio.ErrBufferFull) {
			return p.gone()
		}
		p.skip = errors.Is(err, bufio.ErrBufferFull)
	}
	for p.br.Buffered() > 0 {
		b, _ := p.br.Peek(p.br.Buffered())
		if !bytes.Contains(b, []byte{'\n'}) {
			return nil
		}
		text, err := p.readLine()
		if err != nil {
			return nil
		}
		fmt.Fprintf(p.log, "arena-bridge: dropped stdout line %d, written when no request was waiting: %s\n", p.lines, quote(text))
	}
	return nil
}

// gone waits for the program's end, runs OnExit and returns ErrExited. A program that
// closes its stdout has not answered and will not; it is waited for.
func (p *Program) gone() error {
	<-p.exited
	if p.OnExit != nil {
		p.exitOnce.Do(p.OnExit)
	}
	return fmt.Errorf("%w: %s", ErrExited, exitText(p.status))
}

// withArticle is "an ActResponse", "a StartResponse".
func withArticle(name string) string {
	if strings.ContainsAny(name[:1], "AEIOU") {
		return "an " + name
	}
	return "a " + name
}

// quote shows the start of a bad line.
func quote(b []byte) string {
	const n = 120
	if len(b) > n {
		return fmt.Sprintf("%q...", b[:n])
	}
	return fmt.Sprintf("%q", b)
}

// Handler serves BotService by asking the program.
type Handler struct {
	arenav1.UnimplementedBotServiceServer
	P *Program
}

// Describe asks the program who it is; a bad answer fails the launch.
func (h *Handler) Describe(_ context.Context, req *arenav1.DescribeRequest) (*arenav1.DescribeResponse, error) {
	resp := &arenav1.DescribeResponse{}
	if err := h.P.Call(&arenav1.StdioRequest{Call: &arenav1.StdioRequest_Describe{Describe: req}}, resp); err != nil {
		return nil, status.Errorf(codes.FailedPrecondition, "the bot's answer to describe: %v", err)
	}
	if resp.Sdk == "" {
		resp.Sdk = "stdio"
	}
	return resp, nil
}

// Start opens a seat; a bad answer refuses it.
func (h *Handler) Start(_ context.Context, req *arenav1.StartRequest) (*arenav1.StartResponse, error) {
	resp := &arenav1.StartResponse{}
	if err := h.P.Call(&arenav1.StdioRequest{Call: &arenav1.StdioRequest_Start{Start: req}}, resp); err != nil {
		return &arenav1.StartResponse{Error: "the bot's answer to start: " + err.Error()}, nil
	}
	return resp, nil
}

// Act answers one move.
func (h *Handler) Act(_ context.Context, req *arenav1.ActRequest) (*arenav1.ActResponse, error) {
	resp := &arenav1.ActResponse{}
	h.act(req, resp)
	return resp, nil
}

// act asks the program for one move; what is not an answer becomes the bot's error.
func (h *Handler) act(req *arenav1.ActRequest, resp *arenav1.ActResponse) {
	resp.Reset()
	err := h.P.Call(&arenav1.StdioRequest{Call: &arenav1.StdioRequest_Act{Act: req}}, resp)
	var bad *badLine
	switch {
	case err == nil:
	case errors.As(err, &bad):
		resp.Reset()
		resp.Step = req.GetStep()
		resp.Error = &arenav1.BotError{Kind: arenav1.BotErrorKind_BOT_ERROR_KIND_INVALID_ANSWER, Message: bad.reason}
	default:
		resp.Reset()
		resp.Step = req.GetStep()
		resp.Error = &arenav1.BotError{Kind: arenav1.BotErrorKind_BOT_ERROR_KIND_EXCEPTION, Message: err.Error()}
	}
}

// ActInto answers one move into resp: the bridge speaks the host's fast lane when offered
// (handshake.Serve), so every JSON-lines program gets it.
func (h *Handler) ActInto(req *arenav1.ActRequest, resp *arenav1.ActResponse) { h.act(req, resp) }

// ActStream answers moves on one stream until the host closes it.
func (h *Handler) ActStream(stream arenav1.BotService_ActStreamServer) error {
	return handshake.ActStream(stream, h.act)
}

// End closes a seat; the answer is only read, to keep the lines in step.
func (h *Handler) End(_ context.Context, req *arenav1.EndRequest) (*arenav1.EndResponse, error) {
	if err := h.P.Call(&arenav1.StdioRequest{Call: &arenav1.StdioRequest_End{End: req}}, &arenav1.EndResponse{}); err != nil {
		fmt.Fprintf(h.P.log, "arena-bridge: the bot's answer to end: %v\n", err)
	}
	return &arenav1.EndResponse{}, nil
}

// ProgramEnv is the program's environment: the bot's, without the plugin protocol's
// variables (the bridge does the handshake) and the lane's (the bridge speaks it), with
// ARENA_STDIO=1.
func ProgramEnv(env []string) []string {
	var out []string
	for _, e := range env {
		if strings.HasPrefix(e, "PLUGIN_") || strings.HasPrefix(e, handshake.CookieKey+"=") || strings.HasPrefix(e, "ARENA_STDIO=") ||
			strings.HasPrefix(e, handshake.LaneEnv+"=") {
			continue
		}
		out = append(out, e)
	}
	return append(out, "ARENA_STDIO=1")
}

// Main runs the bridge in front of argv until the host kills it, or until the program exits
// (then with the program's exit code, so that the host reports a crash).
func Main(argv []string) int {
	if os.Getenv(handshake.CookieKey) != handshake.CookieValue {
		fmt.Fprintln(os.Stderr, "arena-bridge runs a stdio bot for the arena host, which starts it. To try a program by hand, pipe JSON lines into it (docs/protocol.md section 11), or play it: arena play <game> <bot> <another bot>")
		return 1
	}
	// The lane's descriptor is the bridge's own: close-on-exec before the program starts.
	_ = handshake.LaneFromEnv()
	p, err := Start(argv, ProgramEnv(os.Environ()), os.Stderr)
	if err != nil {
		fmt.Fprintf(os.Stderr, "arena-bridge: %v\n", err)
		return 1
	}
	stderr := os.Stderr // go-plugin replaces os.Stderr while it serves
	p.OnExit = func() {
		fmt.Fprintf(stderr, "arena-bridge: the bot's program exited (%v)\n", exitText(p.Status()))
		os.Exit(p.ExitCode())
	}
	go func() { _ = p.gone() }()
	handshake.Serve(&Handler{P: p})
	return 0
}

func exitText(err error) string {
	if err == nil {
		return "status 0"
	}
	return err.Error()
}

// interpreterMissing explains the "no such file" of a script that is there: the kernel could
// not find the interpreter its #! line names, which the bot's sandbox does not hold.
func interpreterMissing(program string, err error) string {
	if !errors.Is(err, fs.ErrNotExist) {
		return ""
	}
	f, ferr := os.Open(program)
	if ferr != nil {
		return ""
	}
	defer f.Close()
	head := make([]byte, 256)
	n, _ := io.ReadFull(f, head)
	line, _, _ := bytes.Cut(head[:n], []byte("\n"))
	if !bytes.HasPrefix(line, []byte("#!")) {
		return ""
	}
	return fmt.Sprintf(" (the file is there, but its interpreter %q is not in the bot's sandbox, which holds only the bot's files and its language's runtime: "+
		"make the program a binary, or give a language the arena runs in bot.json, docs/protocol.md section 12)", strings.TrimSpace(string(line[2:])))
}
