package bridge

import (
	"bufio"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"google.golang.org/protobuf/proto"

	"github.com/botarena/arena/internal/selfcpu"
	"github.com/botarena/arena/internal/slack"
	arenav1 "github.com/botarena/arena/proto/arena/v1"
	"github.com/botarena/arena/sdk/handshake"
)

// helperEnv makes the test binary a stdio program (go-plugin's helper-process pattern): its
// value names how the program behaves.
const helperEnv = "ARENA_BRIDGE_TEST_PROGRAM"

func TestMain(m *testing.M) {
	if mode := os.Getenv(helperEnv); mode != "" {
		program(mode)
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// program answers every line: rock with the request's step, except where mode says otherwise.
func program(mode string) {
	in := bufio.NewReader(os.Stdin)
	out := bufio.NewWriter(os.Stdout)
	n := 0
	for {
		line, err := in.ReadString('\n')
		if err != nil {
			return
		}
		n++
		var req struct {
			Act *struct {
				Step json.RawMessage `json:"step"`
			} `json:"act"`
		}
		_ = json.Unmarshal([]byte(line), &req)
		switch {
		case mode == "garbage" && n == 2:
			out.WriteString("not json\n")
		case mode == "long" && n == 2:
			out.WriteString(strings.Repeat("x", MaxLine+10) + "\n")
		case mode == "twice" && n == 2:
			fmt.Fprintf(out, "{\"step\":%s,\"dynamite\":{\"move\":\"DYNAMITE_MOVE_ROCK\"}}\n{}\n", req.Act.Step)
			out.Flush()
			time.Sleep(50 * time.Millisecond) // the extra line is in the bridge before the next request
		case mode == "exit" && n == 2:
			fmt.Fprintln(os.Stderr, "bye")
			os.Exit(7)
		case req.Act != nil:
			fmt.Fprintf(out, "{\"step\":%s,\"dynamite\":{\"move\":\"DYNAMITE_MOVE_ROCK\"},\"unknownField\":1}\n", req.Act.Step)
		default:
			out.WriteString("{}\n")
		}
		out.Flush()
	}
}

// logBuf collects the program's and the bridge's log lines.
type logBuf struct {
	mu sync.Mutex
	b  strings.Builder
}

func (l *logBuf) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *logBuf) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

func start(t testing.TB, mode string) (*Program, *logBuf) {
	t.Helper()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	logR, logW, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	log := &logBuf{}
	done := make(chan struct{})
	go func() {
		b := make([]byte, 4096)
		for {
			n, err := logR.Read(b)
			log.Write(b[:n])
			if err != nil {
				close(done)
				return
			}
		}
	}()
	p, err := Start([]string{self}, append(os.Environ(), helperEnv+"="+mode), logW)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		p.stdin.Close()
		<-p.Exited()
		logW.Close()
		<-done
	})
	return p, log
}

func act(step int64) *arenav1.ActRequest {
	return &arenav1.ActRequest{MatchId: "m", Step: step, Observation: &arenav1.ActRequest_Dynamite{Dynamite: &arenav1.DynamiteObservation{Round: int32(step)}}}
}

func move(t *testing.T, h *Handler, step int64) *arenav1.ActResponse {
	t.Helper()
	resp := &arenav1.ActResponse{}
	h.act(act(step), resp)
	return resp
}

func TestAnswers(t *testing.T) {
	t.Parallel()
	p, _ := start(t, "plain")
	h := &Handler{P: p}
	for step := int64(1); step <= 3; step++ {
		resp := move(t, h, step)
		if resp.GetStep() != step || resp.GetDynamite().GetMove() != arenav1.DynamiteMove_DYNAMITE_MOVE_ROCK || resp.Error != nil {
			t.Fatalf("step %d: %v", step, resp)
		}
	}
}

func TestBadLinesAreTheBotsGarbage(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ mode, want string }{
		{"garbage", "stdout line 2 is not an ActResponse"},
		{"long", "stdout line 2 is over 64 KiB"},
	} {
		t.Run(c.mode, func(t *testing.T) {
			t.Parallel()
			p, _ := start(t, c.mode)
			h := &Handler{P: p}
			if r := move(t, h, 1); r.Error != nil {
				t.Fatalf("first move: %v", r)
			}
			r := move(t, h, 2)
			if r.GetStep() != 2 || r.GetError().GetKind() != arenav1.BotErrorKind_BOT_ERROR_KIND_INVALID_ANSWER || !strings.Contains(r.GetError().GetMessage(), c.want) {
				t.Fatalf("bad line answered %v, want garbage with %q", r, c.want)
			}
			// The program lives on, and the lines are in step again.
			if r := move(t, h, 3); r.Error != nil || r.GetStep() != 3 {
				t.Fatalf("after the bad line: %v", r)
			}
		})
	}
}

func TestExtraLineIsDropped(t *testing.T) {
	t.Parallel()
	p, log := start(t, "twice")
	h := &Handler{P: p}
	for step := int64(1); step <= 3; step++ {
		if r := move(t, h, step); r.Error != nil || r.GetStep() != step {
			t.Fatalf("step %d: %v", step, r)
		}
	}
	if !strings.Contains(log.String(), "dropped stdout line 3, written when no request was waiting") {
		t.Fatalf("log does not note the dropped line:\n%s", log.String())
	}
}

func TestExit(t *testing.T) {
	t.Parallel()
	p, _ := start(t, "exit")
	exited := make(chan struct{})
	p.OnExit = func() { close(exited) }
	h := &Handler{P: p}
	move(t, h, 1)
	r := move(t, h, 2)
	select {
	case <-exited:
	case <-time.After(slack.Of(t, 5*time.Second)):
		t.Fatal("OnExit did not run")
	}
	if r.GetError().GetKind() != arenav1.BotErrorKind_BOT_ERROR_KIND_EXCEPTION || p.ExitCode() != 7 || !errors.Is(p.gone(), ErrExited) {
		t.Fatalf("answer %v, exit code %d", r, p.ExitCode())
	}
}

func TestProgramEnv(t *testing.T) {
	t.Parallel()
	got := ProgramEnv([]string{"PLUGIN_UNIX_SOCKET_DIR=/x", "ARENA_BOT_COOKIE=c", "HOME=/h", "ARENA_STDIO=0", "ARENA_LANE_FD=3"})
	if strings.Join(got, " ") != "HOME=/h ARENA_STDIO=1" {
		t.Fatalf("env %v", got)
	}
}

// TestLaneCarriesEveryMove: the bridge answers the host's fast-lane frames (handshake.ServeLane
// on its ActInto) for several seats at once, each answer echoing its request's match, seat
// and step, so every JSON-lines program gets the lane.
func TestLaneCarriesEveryMove(t *testing.T) {
	t.Parallel()
	p, _ := start(t, "plain")
	h := &Handler{P: p}
	// Close-on-exec before any fork sees them (SOCK_CLOEXEC is Linux's only): parallel tests
	// start processes, and one holding the bot's end would keep the lane from closing.
	syscall.ForkLock.RLock()
	fds, err := syscall.Socketpair(syscall.AF_UNIX, syscall.SOCK_STREAM, 0)
	if err == nil {
		syscall.CloseOnExec(fds[0])
		syscall.CloseOnExec(fds[1])
	}
	syscall.ForkLock.RUnlock()
	if err != nil {
		t.Fatal(err)
	}
	host, bot := os.NewFile(uintptr(fds[0]), "host"), os.NewFile(uintptr(fds[1]), "bot")
	served := make(chan error, 1)
	go func() { served <- handshake.ServeLane(bot, h.ActInto) }()
	var out []byte
	for seat := int32(0); seat < 2; seat++ {
		req := act(5)
		req.Seat = seat
		if out, err = handshake.AppendFrame(out, req); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := host.Write(out); err != nil {
		t.Fatal(err)
	}
	seen := map[int32]bool{}
	for range 2 {
		var head [handshake.LaneHeader]byte
		if _, err := io.ReadFull(host, head[:]); err != nil {
			t.Fatal(err)
		}
		body := make([]byte, binary.BigEndian.Uint32(head[:]))
		if _, err := io.ReadFull(host, body); err != nil {
			t.Fatal(err)
		}
		resp := &arenav1.ActResponse{}
		if err := proto.Unmarshal(body, resp); err != nil {
			t.Fatal(err)
		}
		// In any order: requests waiting together are answered at once.
		if resp.GetMatchId() != "m" || resp.GetSeat() > 1 || seen[resp.GetSeat()] || resp.GetStep() != 5 || resp.GetDynamite().GetMove() != arenav1.DynamiteMove_DYNAMITE_MOVE_ROCK {
			t.Fatalf("answer %v (seen %v)", resp, seen)
		}
		seen[resp.GetSeat()] = true
	}
	host.Close()
	if err := <-served; err != nil {
		t.Fatalf("the lane ended with %v, want a quiet end when the host closes it", err)
	}
}

// BenchmarkCall is one act through the bridge to a trivial program and back: the bridge's
// share of a stdio bot's move (compare with sandbox's pipe round trip).
func BenchmarkCall(b *testing.B) {
	p, _ := start(b, "plain")
	h := &Handler{P: p}
	req, resp := act(1), &arenav1.ActResponse{}
	cpu0 := selfcpu.Used()
	b.ResetTimer()
	for i := range b.N {
		req.Step = int64(i + 1)
		h.act(req, resp)
	}
	b.StopTimer()
	// The bridge's own CPU (wall time on a loaded machine is mostly waiting for a core).
	b.ReportMetric(float64(selfcpu.Used()-cpu0)/float64(b.N), "bridge-cpu-ns/op")
}
