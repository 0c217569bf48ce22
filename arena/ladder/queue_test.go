package ladder_test

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/botarena/arena/arena/game"
	_ "github.com/botarena/arena/arena/games/all"
	"github.com/botarena/arena/arena/internal/testenv"
	"github.com/botarena/arena/arena/ladder"
	"github.com/botarena/arena/arena/match"
	"github.com/botarena/arena/arena/queue"
	"github.com/botarena/arena/arena/queue/queuetest"
	"github.com/botarena/arena/arena/rating"
	"github.com/botarena/arena/arena/store"
	"github.com/botarena/arena/arena/tournament"
	"github.com/botarena/arena/internal/slack"
	"github.com/botarena/arena/sandbox"
)

var root, arenaBin string

var (
	reDone = regexp.MustCompile(`job ladder-\S+ done: `)
	reURL  = regexp.MustCompile(`NATS listening on (tls://\S+) `)
	reCmd  = regexp.MustCompile(`arena worker (--nats \S+ --nats-ca \S+ --credentials \S+)`)
)

func TestMain(m *testing.M) {
	sandbox.Init()
	var err error
	if root, err = testenv.ModuleRoot(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	dir, err := os.MkdirTemp("", "arena-ladder-test")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	if arenaBin, err = testenv.BuildArena(root, dir); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// startArena runs an arena command in the checkout (the uploaded Go bot builds against it).
func startArena(t *testing.T, args ...string) *testenv.Proc {
	t.Helper()
	cmd := exec.Command(arenaBin, args...)
	cmd.Dir = root
	return testenv.Start(t, args[0], cmd)
}

// natsFlags waits for the server's line naming the URL workers use, gives a worker its
// credential (arena worker add, as the organiser does) and returns the flags of the command
// it prints: URL, certificate and credential file, no secret on the command line.
func natsFlags(t *testing.T, p *testenv.Proc, db, name string) []string {
	t.Helper()
	p.WaitFor(reURL, 1, 0, time.Minute)
	cmd := exec.Command(arenaBin, "worker", "add", name, "--store", db, "--out", filepath.Join(t.TempDir(), name+".creds"))
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("arena worker add %s: %v\n%s", name, err, out)
	}
	m := reCmd.FindSubmatch(out)
	if m == nil {
		t.Fatalf("arena worker add printed no command:\n%s", out)
	}
	return strings.Fields(string(m[1]))
}

func within(t *testing.T, d time.Duration, what string, ok func() bool) {
	t.Helper()
	d = slack.Of(t, d)
	end := time.Now().Add(d)
	for !ok() {
		if time.Now().After(end) {
			t.Fatalf("not within %v: %s", d, what)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// TestLadderThroughWorkers: arena serve plays nothing itself (--local-jobs 0): its
// validation waits on the queue until an arena worker process takes it; the worker builds the
// upload, plays the smoke match and the ladder matches. Mid-match the server and the worker are
// killed with SIGKILL; the restarted server publishes its running matches again, a new worker
// plays them, and every ladder match is recorded exactly once.
func TestLadderThroughWorkers(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	db := filepath.Join(dir, "arena.db")
	st, err := store.Open(db)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	ada, err := st.CreateUser(ctx, "ada", "!", store.RoleAuthor)
	if err != nil {
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
		ms, err := st.LadderMatches(ctx, store.MatchFilter{Game: "dynamite", Kind: store.KindLadder, Status: status, Limit: 1 << 20})
		if err != nil {
			t.Fatal(err)
		}
		return ms
	}
	serve := func() *testenv.Proc {
		return startArena(t, "serve", "--addr", "127.0.0.1:0", "--store", db, "--nats-listen", "127.0.0.1:0",
			"--local-jobs", "0", "--jobs", "2", "--ack-wait", "2s")
	}

	srv := serve()
	nats := natsFlags(t, srv, db, "w1")
	// Nobody plays yet: the smoke match waits on the queue.
	time.Sleep(2 * time.Second)
	if got := version(); got.Status != store.VersionValidating {
		t.Fatalf("validated with no worker: %s %q", got.Status, got.Verdict)
	}
	w1 := startArena(t, append([]string{"worker", "--jobs", "1"}, nats...)...)
	within(t, 3*time.Minute, "the upload validated by the worker", func() bool { return version().Status != store.VersionValidating })
	if got := version(); got.Status != store.VersionOK || !strings.Contains(got.Verdict, "passed") {
		t.Fatalf("verdict: %s %q\nlog:\n%s", got.Status, got.Verdict, got.Log)
	}
	within(t, 2*time.Minute, "ladder matches played by the worker", func() bool { return len(matches(store.LadderDone)) >= 2 })

	// Mid-match, the server and the worker are killed. The worker is stopped first, so a match
	// is running when the server dies: the worker's own, or the next one, waiting for it.
	if err := w1.Cmd.Process.Signal(syscall.SIGSTOP); err != nil {
		t.Fatal(err)
	}
	within(t, time.Minute, "a ladder match running", func() bool { return len(matches(store.LadderRunning)) > 0 })
	srv.Kill9()
	w1.Kill9()
	left := matches(store.LadderRunning)
	done := len(matches(store.LadderDone))
	if len(left) == 0 {
		t.Fatal("no ladder match left running by the killed server")
	}
	t.Logf("killed with %d ladder matches done, %d running", done, len(left))

	// The restarted server publishes them again; a new worker plays them and more.
	srv = serve()
	w2 := startArena(t, append([]string{"worker", "--jobs", "1"}, natsFlags(t, srv, db, "w2")...)...)
	within(t, 2*time.Minute, "the interrupted matches recorded after the restart", func() bool {
		for _, m := range left {
			if got, err := st.LadderMatchByID(ctx, m.ID); err != nil || got.Status == store.LadderRunning {
				return false
			}
		}
		return len(matches(store.LadderDone)) >= done+len(left)+2
	})
	srv.Kill9()
	w2.Kill9()

	for _, m := range left {
		if got, _ := st.LadderMatchByID(ctx, m.ID); got.Status != store.LadderDone {
			t.Fatalf("interrupted match %d: %s %q", m.ID, got.Status, got.Error)
		}
	}
	if failed := matches(store.LadderError); len(failed) > 0 {
		t.Fatalf("%d ladder matches failed; the first: %q", len(failed), failed[0].Error)
	}
	all := matches(store.LadderDone)
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
	played := len(reDone.FindAllString(w1.Output()+w2.Output(), -1))
	if played < len(all) {
		t.Fatalf("%d ladder matches recorded, the workers report %d jobs done", len(all), played)
	}
	t.Logf("%d ladder matches, each recorded once; the workers report %d jobs done", len(all), played)
}

// forge takes the next job off the queue as a hostile worker would (whatever the job's
// avoid list says) and answers it, under the job's id and nonce, with a result made by
// change from an honest-looking record.
func forge(t *testing.T, q *queue.Queue, change func(*tournament.Result, *match.Result), raw []byte) tournament.Job {
	t.Helper()
	ctx := context.Background()
	d, err := q.Next(ctx, 30*time.Second)
	if err != nil || d == nil {
		t.Fatalf("no job on the queue: %v", err)
	}
	var j tournament.Job
	if err := json.Unmarshal(d.Data(), &j); err != nil {
		t.Fatal(err)
	}
	mr := match.Result{Seats: []game.Seat{{Player: 0}, {Player: 1}}, Outcome: game.Outcome{Summary: "forged",
		Players: []game.PlayerOutcome{{Result: game.ResultWin, Rank: 1}, {Result: game.ResultLoss, Rank: 2}}}}
	r := tournament.Result{Key: j.Key, Idx: j.Match.Idx, Attempt: j.Attempt, Job: j.ID(), Nonce: j.Nonce, Worker: "forger", Replay: json.RawMessage(`{}`)}
	var b bytes.Buffer
	if raw != nil {
		b.Write(raw)
	} else {
		change(&r, &mr)
		if r.Finish.Result == nil {
			r.Finish.Result, _ = json.Marshal(mr)
		}
		zw := gzip.NewWriter(&b)
		json.NewEncoder(zw).Encode(r)
		zw.Close()
	}
	if _, err := q.PublishResult(ctx, j.Key, j.Match.Idx, j.ID(), b.Bytes()); err != nil {
		t.Fatalf("publishing the forged result of job %s (%d bytes): %v", j.ID(), b.Len(), err)
	}
	// The coordinator may have refused the result and taken the job off the queue already.
	if err := d.Done(ctx); err != nil {
		t.Logf("acking job %s: %v", j.ID(), err)
	}
	return j
}

// TestForgedLadderResults: a worker is a way in. Results that are not a record of their match
// (an unreadable replay, a fault charged to a bot who is not in it, no replay, data that is
// not a result, a decompression bomb) are refused, none of them holds the match or its slot: each forger is quarantined (its credential disabled), its match published
// again for another worker, no rating moves and no bot is charged, until an honest worker
// plays the match and it is recorded once.
func TestForgedLadderResults(t *testing.T) {
	ctx := context.Background()
	st, err := store.Open(filepath.Join(t.TempDir(), "arena.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	srv := queuetest.StartServer(t, queue.Config{AckWait: 5 * time.Second})
	q := srv.Queue
	house, _ := st.CreateUser(ctx, "house", "!", store.RoleAuthor)
	ada, _ := st.CreateUser(ctx, "ada", "!", store.RoleAuthor)
	lad := &ladder.Ladder{Store: st, Queue: q, Jobs: 1, Games: []string{"dynamite"}, Pause: 20 * time.Millisecond}
	if err := lad.SeedHouse(ctx, house.ID); err != nil {
		t.Fatal(err)
	}
	b, _ := st.EnsureBot(ctx, ada.ID, "dynamite", "paper", "")
	v, _ := st.AddVersion(ctx, b.ID, rating.DefaultMu, rating.DefaultSigma)
	if err := st.SetVersionDir(ctx, v.ID, filepath.Join(root, "bots/dynamite/cmd/paper"), "go"); err != nil {
		t.Fatal(err)
	}
	if err := st.SetVerdict(ctx, v.ID, store.VersionOK, "passed (set by the test)", "", ""); err != nil {
		t.Fatal(err)
	}
	lad.Stopped = func() bool { return false }
	rctx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() { lad.Run(rctx); close(done) }()
	defer func() { cancel(); <-done }()

	forgeries := []struct {
		want   string
		change func(*tournament.Result, *match.Result)
	}{
		{"not a readable replay", func(_ *tournament.Result, m *match.Result) {
			m.Outcome.Players = append(m.Outcome.Players, game.PlayerOutcome{Rank: 3})
		}},
		{"who is not in match", func(r *tournament.Result, _ *match.Result) {
			r.Finish.Faults = []store.Fault{{MatchIdx: r.Idx, BotIdx: 7, Kind: "crash"}}
			r.Finish.Result = json.RawMessage(`{"outcome":{"players":[{"rank":1},{"rank":2}]}}`)
		}},
		{"without its record or replay", func(r *tournament.Result, _ *match.Result) { r.Replay = nil }},
		// Not a result at all, and a decompression bomb: the match still gets its answer.
		{"cannot be read", nil},
		{"larger than", nil},
	}
	var mid int64
	for i, f := range forgeries {
		name := fmt.Sprintf("forger%d", i)
		var raw []byte
		switch f.want {
		case "cannot be read":
			raw = []byte("not gzip")
		case "larger than":
			var b bytes.Buffer
			zw := gzip.NewWriter(&b)
			zw.Write(make([]byte, 40<<20))
			zw.Close()
			raw = b.Bytes()
		}
		j := forge(t, srv.Worker(t, name), f.change, raw)
		if mid == 0 {
			mid = int64(j.Match.Idx)
		} else if int64(j.Match.Idx) != mid || j.Round != i {
			t.Fatalf("forgery %d answered match %d round %d, want match %d round %d (published again)", i, j.Match.Idx, j.Round, mid, i)
		}
		within(t, 30*time.Second, name+" quarantined", func() bool {
			cs, _ := srv.Embedded.Registry().List()
			for _, c := range cs {
				if c.Name == name && strings.Contains(c.Disabled, f.want) {
					return true
				}
			}
			return false
		})
		if m, _ := st.LadderMatchByID(ctx, mid); m.Status != store.LadderRunning {
			t.Fatalf("after a refused result the match is %s %q, want running (published again)", m.Status, m.Error)
		}
	}
	if got, _ := st.VersionByID(ctx, v.ID); got.Matches != 0 || got.Mu != rating.DefaultMu {
		t.Fatalf("a forged result moved the version: %+v", got)
	}
	// An honest worker plays it; it is recorded once, with ratings moved once.
	hctx, stop := context.WithCancel(ctx)
	defer stop()
	go tournament.Work(hctx, srv.Worker(t, "honest"), tournament.WorkOptions{Jobs: 1})
	var m store.LadderMatch
	within(t, 2*time.Minute, "the match recorded from the honest worker", func() bool {
		m, _ = st.LadderMatchByID(ctx, mid)
		return m.Status != store.LadderRunning
	})
	if m.Status != store.LadderDone {
		t.Fatalf("match %d: %s %q", mid, m.Status, m.Error)
	}
	if got, _ := st.VersionByID(ctx, v.ID); got.Matches < 1 || got.Faults != 0 {
		faults, _ := st.MatchFaults(ctx, mid)
		t.Fatalf("the version after the honest match: %+v\nthe match's faults: %+v", got, faults)
	}
}
