package ladder_test

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/botarena/arena/arena/botspec"
	"github.com/botarena/arena/arena/ladder"
	"github.com/botarena/arena/arena/queue"
	"github.com/botarena/arena/arena/rating"
	"github.com/botarena/arena/arena/store"
	"github.com/botarena/arena/sandbox"
)

var root, arenaBin string

var reDone = regexp.MustCompile(`job ladder-\S+ done: `)

func TestMain(m *testing.M) {
	sandbox.Init()
	out, err := exec.Command("go", "env", "GOMOD").Output()
	if err != nil {
		fmt.Fprintln(os.Stderr, "go env GOMOD:", err)
		os.Exit(1)
	}
	root = filepath.Dir(strings.TrimSpace(string(out)))
	dir, err := os.MkdirTemp("", "arena-ladder-test")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	arenaBin = filepath.Join(dir, "arena")
	build := exec.Command("go", "build", "-o", arenaBin, "./arena/cmd/arena")
	build.Dir = root
	if b, err := build.CombinedOutput(); err != nil {
		fmt.Fprintf(os.Stderr, "building arena: %v\n%s", err, b)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// worker is an arena worker process; its output is kept for the test.
type worker struct {
	cmd  *exec.Cmd
	mu   sync.Mutex
	out  strings.Builder
	done chan struct{}
}

func startWorker(t *testing.T, url string) *worker {
	t.Helper()
	w := &worker{cmd: exec.Command(arenaBin, "worker", "--nats", url, "--jobs", "1"), done: make(chan struct{})}
	w.cmd.Dir = root // the uploaded Go bot builds against this checkout
	pr, pw := io.Pipe()
	w.cmd.Stdout, w.cmd.Stderr = pw, pw
	if err := w.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { _ = w.cmd.Wait(); pw.Close() }()
	go func() {
		defer close(w.done)
		sc := bufio.NewScanner(pr)
		for sc.Scan() {
			w.mu.Lock()
			w.out.WriteString(sc.Text() + "\n")
			w.mu.Unlock()
		}
	}()
	t.Cleanup(func() {
		_ = w.cmd.Process.Kill()
		<-w.done
		if t.Failed() {
			t.Logf("worker %d output:\n%s", w.cmd.Process.Pid, w.output())
		}
	})
	return w
}

func (w *worker) output() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.out.String()
}

func within(t *testing.T, d time.Duration, what string, ok func() bool) {
	t.Helper()
	end := time.Now().Add(d)
	for !ok() {
		if time.Now().After(end) {
			t.Fatalf("not within %v: %s", d, what)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// TestLadderThroughWorkers: the server's ladder plays nothing itself (LocalJobs 0): its
// validation waits on the queue until an arena worker process takes it; the worker builds the
// upload, plays the smoke match and the ladder matches; the worker is killed with SIGKILL and
// the ladder restarted mid-match, and every ladder match is recorded exactly once.
func TestLadderThroughWorkers(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	st, err := store.Open(filepath.Join(dir, "arena.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	emb, err := queue.StartEmbedded(filepath.Join(dir, "nats"), "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer emb.Shutdown()
	nc, err := emb.Connect("test coordinator")
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	q, err := queue.Open(ctx, nc, queue.Config{AckWait: 2 * time.Second, MaxDeliver: 5})
	if err != nil {
		t.Fatal(err)
	}
	newLadder := func(stopped bool) *ladder.Ladder {
		return &ladder.Ladder{Store: st, Queue: q, Jobs: 2, Games: []string{"dynamite"}, Pause: 50 * time.Millisecond,
			Params:   map[string]map[string]string{"dynamite": {"target": "100"}},
			Resolver: &botspec.Resolver{Module: root}, Stopped: func() bool { return stopped }}
	}
	run := func(l *ladder.Ladder) (stop func()) {
		rctx, cancel := context.WithCancel(ctx)
		done := make(chan error, 1)
		go func() { done <- l.Run(rctx) }()
		return func() {
			cancel()
			if err := <-done; err != nil {
				t.Errorf("ladder: %v", err)
			}
		}
	}
	house, err := st.CreateUser(ctx, "house", "!", store.RoleAuthor)
	if err != nil {
		t.Fatal(err)
	}
	ada, err := st.CreateUser(ctx, "ada", "!", store.RoleAuthor)
	if err != nil {
		t.Fatal(err)
	}
	first := newLadder(false)
	if err := first.SeedHouse(ctx, house.ID); err != nil {
		t.Fatal(err)
	}
	up := filepath.Join(dir, "upload")
	src, err := os.ReadFile(filepath.Join(root, "bots/dynamite/cmd/paper/main.go"))
	if err != nil {
		t.Fatal(err)
	}
	os.Mkdir(up, 0o755)
	// A build of its own (the comment changes the hash), so the worker's build is exercised.
	if err := os.WriteFile(filepath.Join(up, "main.go"), append(src, fmt.Sprintf("\n// %s %d\n", t.Name(), time.Now().UnixNano())...), 0o644); err != nil {
		t.Fatal(err)
	}
	b, err := st.EnsureBot(ctx, ada.ID, "dynamite", "paper", "")
	if err != nil {
		t.Fatal(err)
	}
	v, err := st.AddVersion(ctx, b.ID, rating.DefaultMu, rating.DefaultSigma)
	if err != nil {
		t.Fatal(err)
	}
	if err := st.SetVersionDir(ctx, v.ID, up, "go"); err != nil {
		t.Fatal(err)
	}
	version := func() store.Version {
		got, err := st.VersionByID(ctx, v.ID)
		if err != nil {
			t.Fatal(err)
		}
		return got
	}
	matches := func(status string) []store.LadderMatch {
		ms, err := st.LadderMatches(ctx, store.MatchFilter{Kind: store.KindLadder, Status: status, Limit: 1 << 20})
		if err != nil {
			t.Fatal(err)
		}
		return ms
	}

	stop := run(first)
	// Nobody plays here: the smoke match is a job waiting on the queue.
	within(t, 20*time.Second, "the smoke match published as a job", func() bool {
		n, err := q.Pending(ctx)
		return err == nil && n >= 1
	})
	time.Sleep(time.Second)
	if got := version(); got.Status != store.VersionValidating {
		t.Fatalf("validated with no worker: %s %q", got.Status, got.Verdict)
	}
	w1 := startWorker(t, emb.URL())
	within(t, 3*time.Minute, "the upload validated by the worker", func() bool { return version().Status != store.VersionValidating })
	if got := version(); got.Status != store.VersionOK || !strings.Contains(got.Verdict, "passed") {
		t.Fatalf("verdict: %s %q\nlog:\n%s", got.Status, got.Verdict, got.Log)
	}
	within(t, time.Minute, "ladder matches played by the worker", func() bool { return len(matches(store.LadderDone)) >= 2 })

	// The server stops (its matches stay running) and the worker is killed mid-match.
	within(t, 30*time.Second, "a ladder match running", func() bool { return len(matches(store.LadderRunning)) > 0 })
	stop()
	if err := w1.cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	<-w1.done
	left := len(matches(store.LadderRunning))
	if left == 0 {
		t.Fatal("no ladder match left running by the stopped server")
	}
	done := len(matches(store.LadderDone))
	t.Logf("stopped with %d ladder matches done, %d running", done, left)

	// A restarted server publishes them again; a new worker plays them and more.
	stop = run(newLadder(false))
	w2 := startWorker(t, emb.URL())
	within(t, time.Minute, "ladder matches after the restart", func() bool { return len(matches(store.LadderDone)) >= done+left+2 })
	stop()
	// Paused (no new matches), a last start finishes what is running.
	stop = run(newLadder(true))
	within(t, time.Minute, "every running match finished", func() bool { return len(matches(store.LadderRunning)) == 0 })
	stop()

	all := matches(store.LadderDone)
	if failed := matches(store.LadderError); len(failed) > 0 {
		t.Fatalf("%d ladder matches failed; the first: %q", len(failed), failed[0].Error)
	}
	seats := 0
	for _, m := range all {
		seats += len(m.Seats)
	}
	counted := 0
	for _, id := range []int64{v.ID} {
		got, _ := st.VersionByID(ctx, id)
		counted += got.Wins + got.Draws + got.Losses
	}
	hb, err := st.BotByName(ctx, "dynamite", "house-beatlast")
	if err != nil {
		t.Fatal(err)
	}
	hvs, _ := st.Versions(ctx, hb.ID)
	for _, hv := range hvs {
		counted += hv.Wins + hv.Draws + hv.Losses
	}
	if counted != seats {
		t.Fatalf("%d ladder matches with %d seats, but the versions count %d results: a match recorded twice or not at all", len(all), seats, counted)
	}
	played := len(reDone.FindAllString(w1.output()+w2.output(), -1))
	if played < len(all) {
		t.Fatalf("%d ladder matches recorded, the workers report %d jobs done:\n%s\n%s", len(all), played, w1.output(), w2.output())
	}
	t.Logf("%d ladder matches, each recorded once; the workers report %d jobs done", len(all), played)
}
