package bench

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"strings"
	"testing"

	"github.com/botarena/arena/arena/botspec"
	"github.com/botarena/arena/arena/host"
	"github.com/botarena/arena/arena/players"
)

// TestMain lets the test binary serve as the bench's echo helper, as the arena binary does.
func TestMain(m *testing.M) {
	if len(os.Args) > 1 && os.Args[1] == HelperArg {
		if err := Helper(os.Args[2:]); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// root is the repository the bots are built from; ARENA_BENCH_ROOT overrides it.
func root(tb testing.TB) string {
	if r := os.Getenv("ARENA_BENCH_ROOT"); r != "" {
		return r
	}
	r, err := FindRoot(".")
	if err != nil {
		tb.Fatal(err)
	}
	return r
}

// testLauncher builds bots into botspec's default cache: not under /tmp, which the sandbox
// replaces with the bot's private directory, so a bot binary there cannot start.
func testLauncher(tb testing.TB) *launcher {
	return &launcher{root: root(tb), res: &botspec.Resolver{}}
}

// wantFigures is every figure a run must report, measured or with the reason it is missing.
var wantFigures = map[string][]string{
	"peer": {"Go peer p50", "Go peer p99", "Go peer CPU per move, host", "Go peer CPU per move, bot", "Go peer dynamite 100 rounds",
		"Python peer p50", "Python peer p99", "Python peer CPU per move, host", "Python peer CPU per move, bot",
		"Python peer dynamite 100 rounds"},
	"floor": {"pipe round trip p50", "pipe round trip p99", "unix socket round trip p50", "unix socket round trip p99"},
	"move": {"Go bot p50", "Go bot p99", "Go bot CPU per move, host", "Go bot CPU per move, bot", "Python bot p50",
		"Python bot p99", "Python bot CPU per move, host", "Python bot CPU per move, bot", "Go bot p50, no sandbox",
		"Python bot p50, no sandbox", "Go bot p50, CPU clock"},
	"start-up": {"spawn /bin/true", "Go bot ready", "Go bot ready: spawn + sandbox", "Go bot ready: to handshake",
		"Go bot ready: connect", "Go bot ready: TLS + Describe", "Go bot first answer", "Go bot ready, no sandbox", "python3 -c 'import grpc'",
		"Python bot ready", "Python bot ready: spawn + sandbox", "Python bot ready: to handshake", "Python bot ready: connect",
		"Python bot ready: TLS + Describe", "Python bot first answer", "Python bot ready, no sandbox",
		"Python ready / import grpc"},
	"matches": {"dynamite 100 rounds, Go vs Go", "Go match / (rounds x move p50)", "dynamite 100 rounds, Python vs Python",
		"dynamite 100 rounds, in-process house bots (ceiling)", "finger 20 games, Go random vs Go random",
		"finger 20 games, Python vs Python", "finger 20 games, in-process house bots (ceiling)",
		"dynamite 100 rounds, Python in-process loop", "Python match / in-process loop"},
	"languages": {"Go stdio bot p50", "Go stdio bot ready", "JavaScript stdio bot p50", "JavaScript stdio bot ready",
		"C++ stdio bot p50", "C++ stdio bot ready", "Rust stdio bot p50", "Rust stdio bot ready", "Java stdio bot p50",
		"Java stdio bot ready", "TypeScript native bot p50", "TypeScript native bot ready", "stdio bridge adds per move"},
	"payload": {"ActRequest at round 10", "ActRequest at round 2500", "growth 10 -> 2500"},
	"memory": {"host RSS", "Go bot RSS", "Python bot RSS", "host RSS after 10 matches", "host RSS after 100 matches",
		"host heap after 10 matches", "host heap after 100 matches", "heap growth"},
	"scaling": {"Go bots, 1 worker", "Go bots, 2 workers", "Go bots, 2 / 1 workers",
		"in-process, 1 worker", "in-process, 2 workers", "in-process, 2 / 1 workers"},
}

// TestQuickBench runs the quick bench and checks that the report has every figure, each either
// measured (a positive number, time figures with their ratio to the floor) or missing with a
// reason, and that the table and the JSON show them. It checks no timing targets: those flake.
func TestQuickBench(t *testing.T) {
	var log bytes.Buffer
	rep, err := Run(context.Background(), Config{Quick: true, Root: root(t), Log: &log})
	if err != nil {
		t.Fatalf("bench: %v\n%s", err, log.String())
	}
	var table, js bytes.Buffer
	if err := rep.WriteTable(&table); err != nil {
		t.Fatal(err)
	}
	if err := rep.WriteJSON(&js); err != nil {
		t.Fatal(err)
	}
	var back Report
	if err := json.Unmarshal(js.Bytes(), &back); err != nil {
		t.Fatalf("JSON does not parse back: %v", err)
	}
	// Figures that are the difference of two others.
	differences := map[string]bool{"heap growth": true, "growth 10 -> 2500": true, "stdio bridge adds per move": true}
	n := 0
	for section, names := range wantFigures {
		for _, name := range names {
			n++
			f, ok := rep.Find(section, name)
			if !ok {
				t.Errorf("figure %s / %s missing from the report", section, name)
				continue
			}
			if _, ok := back.Find(section, name); !ok {
				t.Errorf("figure %s / %s missing from the JSON", section, name)
			}
			if !strings.Contains(table.String(), name) {
				t.Errorf("figure %s / %s missing from the table", section, name)
			}
			switch {
			case f.Missing != "":
				t.Logf("%s / %s not measured: %s", section, name, f.Missing)
			case differences[name]:
				// The difference of two noisy figures: any sign in a quick run, but a number.
				if math.IsNaN(f.Value) || math.IsInf(f.Value, 0) {
					t.Errorf("%s / %s = %v %s: want a number", section, name, f.Value, f.Unit)
				}
			case f.Unit == "ns" && !strings.Contains(name, "CPU") && (f.Value <= 0 || f.FloorX <= 0):
				t.Errorf("%s / %s = %v ns, floor x %v: want both positive", section, name, f.Value, f.FloorX)
			case f.Unit != "ns" && f.Value <= 0:
				t.Errorf("%s / %s = %v %s: want positive", section, name, f.Value, f.Unit)
			}
		}
	}
	if len(rep.Figures) != n {
		t.Errorf("report has %d figures, the test knows %d: update wantFigures", len(rep.Figures), n)
	}
	// The floor and the Go figures need nothing but this repository: they must be measured.
	for _, k := range [][2]string{{"floor", "pipe round trip p50"}, {"move", "Go bot p50"}, {"start-up", "Go bot ready"},
		{"matches", "dynamite 100 rounds, Go vs Go"}, {"payload", "ActRequest at round 2500"}} {
		if f, _ := rep.Find(k[0], k[1]); f.Missing != "" {
			t.Errorf("%s / %s not measured: %s", k[0], k[1], f.Missing)
		}
	}
	// Every kit language is on this machine (CI installs what is missing): each must be measured.
	for _, name := range wantFigures["languages"] {
		if f, _ := rep.Find("languages", name); f.Missing != "" {
			t.Errorf("languages / %s not measured: %s", name, f.Missing)
		}
	}
	t.Logf("\n%s", table.String())
}

// TestPeerAnchor runs a short bench of the moves alone and checks the anchor: both peers
// measured in the sandbox, every move figure with its multiple of the right peer, the issue's
// targets beside them, and the table showing it all. It checks no ratio's size: that is the
// benchmark's claim, printed, never asserted.
func TestPeerAnchor(t *testing.T) {
	var log bytes.Buffer
	rep, err := Run(context.Background(), Config{Quick: true, Root: root(t), Log: &log, Only: []string{"moves"}})
	if err != nil {
		t.Fatalf("bench: %v\n%s", err, log.String())
	}
	for _, name := range wantFigures["peer"] {
		f, ok := rep.Find("peer", name)
		switch {
		case !ok:
			t.Errorf("no figure peer / %s", name)
		case f.Missing != "":
			t.Errorf("peer / %s not measured: %s", name, f.Missing)
		case f.Value <= 0 && !strings.Contains(name, "CPU per move, bot"):
			// A peer's own CPU per move can round to 0 where only /proc's ticks count it.
			t.Errorf("peer / %s = %v %s: want positive", name, f.Value, f.Unit)
		}
	}
	if rep.PeerGo <= 0 || rep.PeerPython <= 0 {
		t.Errorf("report anchors: Go %v, Python %v: want both measured", rep.PeerGo, rep.PeerPython)
	}
	for _, c := range []struct{ name, peer, target string }{
		{"Go bot p50", "Go peer", "<= 1.5x Go peer"},
		{"Go bot p99", "Go peer", ""},
		{"Go bot CPU per move, host", "Go peer", "<= 1.5x Go peer"},
		{"Go bot p50, CPU clock", "Go peer", ""},
		{"Go bot p50, no sandbox", "Go peer", ""},
		{"Python bot p50", "Python peer", "<= 2x Python peer"},
		{"Python bot CPU per move, host", "Python peer", "<= 1.5x Python peer"},
		{"Python bot p50, no sandbox", "Python peer", ""},
	} {
		f, ok := rep.Find("move", c.name)
		if !ok || f.Missing != "" {
			t.Errorf("move / %s not measured: %+v", c.name, f)
			continue
		}
		if f.Peer != c.peer || f.PeerX <= 0 || math.IsInf(f.PeerX, 0) {
			t.Errorf("move / %s: %vx %q, want a positive multiple of the %s", c.name, f.PeerX, f.Peer, c.peer)
		}
		if f.Target != c.target || (c.target != "" && f.Holds == nil) {
			t.Errorf("move / %s: target %q (holds %v), want %q", c.name, f.Target, f.Holds, c.target)
		}
	}
	if _, ok := rep.Find("matches", "dynamite 100 rounds, Go vs Go"); ok {
		t.Errorf("Only: moves ran the matches too")
	}
	var table bytes.Buffer
	if err := rep.WriteTable(&table); err != nil {
		t.Fatal(err)
	}
	f, _ := rep.Find("move", "Go bot p50")
	for _, want := range []string{"peer (a line to a minimal stdio bot", "x peer", f.peerX(),
		"<= 1.5x Go peer", "floor (pipe round trip p50, for reference)"} {
		if !strings.Contains(table.String(), want) {
			t.Errorf("table lacks %q:\n%s", want, table.String())
		}
	}
	t.Logf("\n%s", table.String())
}

func TestPayloadDoesNotGrow(t *testing.T) {
	t.Parallel()
	sz, err := PayloadSizes(10, 2500)
	if err != nil {
		t.Fatal(err)
	}
	if d := sz[2500] - sz[10]; d > 8 || d < -8 || sz[10] == 0 {
		t.Errorf("ActRequest is %d B at round 10 and %d B at round 2500: want equal within 8 B", sz[10], sz[2500])
	}
}

func TestSampleQuantile(t *testing.T) {
	t.Parallel()
	tests := []struct {
		s    Sample
		q    float64
		want int64
	}{
		{nil, 0.5, 0},
		{Sample{5}, 0.99, 5},
		{Sample{3, 1, 2}, 0.5, 2},
		{Sample{1, 2, 3, 4, 5, 6, 7, 8, 9, 10}, 0.99, 10},
		{Sample{1, 2, 3, 4, 5, 6, 7, 8, 9, 10}, 0, 1},
	}
	for _, tt := range tests {
		if got := tt.s.Quantile(tt.q); int64(got) != tt.want {
			t.Errorf("%v.Quantile(%v) = %v, want %v", tt.s, tt.q, int64(got), tt.want)
		}
	}
}

func benchEcho(b *testing.B, start func() (*Echo, error)) {
	e, err := start()
	if err != nil {
		b.Fatal(err)
	}
	defer e.Close()
	b.ResetTimer()
	for b.Loop() {
		if err := e.RoundTrip(); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkPipeRoundTrip(b *testing.B) { benchEcho(b, PipeEcho) }

func BenchmarkUnixRoundTrip(b *testing.B) {
	self, err := os.Executable()
	if err != nil {
		b.Fatal(err)
	}
	benchEcho(b, func() (*Echo, error) { return UnixEcho(self) })
}

func launchOrSkip(b *testing.B, rel string) *host.Bot {
	bot, err := testLauncher(b).launch(context.Background(), rel)
	if err != nil {
		if strings.HasSuffix(rel, ".py") {
			b.Skipf("Python bot %s cannot start (is the SDK installed? pip install ./sdk/python): %v", rel, err)
		}
		b.Fatal(err)
	}
	return bot
}

func benchMove(b *testing.B, rel string) { benchMoveClock(b, rel, false) }

func benchMoveClock(b *testing.B, rel string, cpu bool) {
	bot := launchOrSkip(b, rel)
	defer bot.Close()
	ctx := context.Background()
	m, err := NewMover(ctx, bot)
	if err != nil {
		b.Fatal(err)
	}
	defer m.Close()
	m.CPU = cpu
	var s Sample
	for b.Loop() {
		d, err := m.Move(ctx)
		if err != nil {
			b.Fatal(err)
		}
		s = append(s, d)
	}
	b.ReportMetric(float64(s.P50().Nanoseconds()), "p50-ns")
	b.ReportMetric(float64(s.P99().Nanoseconds()), "p99-ns")
}

func BenchmarkGoMove(b *testing.B)     { benchMove(b, GoBot) }
func BenchmarkPythonMove(b *testing.B) { benchMove(b, PythonBot) }

// BenchmarkGoMoveCPUClock is BenchmarkGoMove through the CPU clock (Seat.ActCPU).
func BenchmarkGoMoveCPUClock(b *testing.B) { benchMoveClock(b, GoBot, true) }

func benchStart(b *testing.B, rel string) {
	launchOrSkip(b, rel).Close() // builds the bot, checks it starts
	r := &runner{l: testLauncher(b), parts: map[string][]host.Startup{}}
	for b.Loop() {
		if _, _, err := r.startOnce(context.Background(), rel); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkGoStartup(b *testing.B)     { benchStart(b, GoBot) }
func BenchmarkPythonStartup(b *testing.B) { benchStart(b, PythonBot) }

func benchDynamite(b *testing.B, rel string) {
	a, c := launchOrSkip(b, rel), launchOrSkip(b, rel)
	defer players.CloseAll([]*host.Bot{a, c})
	for b.Loop() {
		if _, _, err := PlayDynamite(context.Background(), players.Process{Bot: a}, players.Process{Bot: c}, 2500); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkDynamiteMatchGo(b *testing.B)     { benchDynamite(b, GoBot) }
func BenchmarkDynamiteMatchPython(b *testing.B) { benchDynamite(b, PythonBot) }

func BenchmarkDynamiteMatchInProcess(b *testing.B) {
	x, y := InProcessPair()
	for b.Loop() {
		if _, _, err := PlayDynamite(context.Background(), x, y, 2500); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkFingerMatchGo(b *testing.B) {
	x, y := launchOrSkip(b, GoFingerBot), launchOrSkip(b, GoFingerBot)
	defer players.CloseAll([]*host.Bot{x, y})
	for b.Loop() {
		if _, err := PlayFinger(context.Background(), players.Process{Bot: x}, players.Process{Bot: y}, 1000); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkPayload(b *testing.B) {
	var sz map[int]int
	for b.Loop() {
		var err error
		if sz, err = PayloadSizes(10, 2500); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(sz[10]), "B-round10")
	b.ReportMetric(float64(sz[2500]), "B-round2500")
}

func benchScale(b *testing.B, jobs int) {
	l := testLauncher(b)
	launchOrSkip(b, GoBot).Close()
	for b.Loop() {
		if _, err := Scale(context.Background(), jobs, 4, 2500, l.processPair(context.Background(), GoBot)); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkScaleGo1(b *testing.B) { benchScale(b, 1) }
func BenchmarkScaleGo2(b *testing.B) { benchScale(b, 2) }
