package tournament_test

import (
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/botarena/arena/arena/queue"
	"github.com/botarena/arena/arena/queue/queuetest"
	"github.com/botarena/arena/arena/store"
	"github.com/botarena/arena/arena/tournament"
	"github.com/botarena/arena/internal/slack"
)

// startQueue runs an embedded NATS server (no port) for one test and opens the queue on it.
func startQueue(t *testing.T, cfg queue.Config) *queue.Queue { return queuetest.Start(t, cfg) }

// deterministic bots only (see TestSmallTournamentDeterministic).
func deterministicBots() []tournament.Entry {
	es := houseBots("paper", "scissors")
	return append(es, tournament.Entry{Name: "frequency", Spec: pythonBot, Language: "python"})
}

func sameStandings(t *testing.T, want, got *tournament.Standings) {
	t.Helper()
	if len(want.Rows) != len(got.Rows) || want.Done != got.Done {
		t.Fatalf("%d rows, %d done; want %d rows, %d done", len(got.Rows), got.Done, len(want.Rows), want.Done)
	}
	for i := range want.Rows {
		a, b := want.Rows[i], got.Rows[i]
		a.MeanMoveUs, b.MeanMoveUs, a.MaxMoveUs, b.MaxMoveUs = 0, 0, 0, 0
		if !reflect.DeepEqual(a, b) {
			t.Errorf("row %d differs:\nwant %+v\ngot  %+v", i, a, b)
		}
	}
	for i := range want.Matches {
		if want.Matches[i].Summary != got.Matches[i].Summary {
			t.Errorf("match %d: %q, want %q", i, got.Matches[i].Summary, want.Matches[i].Summary)
		}
	}
}

func gz(t *testing.T, b []byte) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	zw.Write(b)
	zw.Close()
	return buf.Bytes()
}

// TestQueueSameStandingsForgedResultsDiscarded: a tournament played through JetStream by
// two local workers, and again by one, ends with the standings of the in-process run with the
// same seed, while
// results that are not gzip, a decompression bomb, one charging a fault to a bot not in the
// match and one for another tournament are discarded, each with a note, and change nothing.
func TestQueueSameStandingsForgedResultsDiscarded(t *testing.T) {
	t.Parallel()
	cfg := tournament.Config{Game: "dynamite", Params: shortDynamite, Seed: 99, Reps: 1, Deadline: 2 * time.Second,
		StartTimeout: startTimeout(t), Entries: deterministicBots()}
	dir := t.TempDir()
	want := runInProcess(t, filepath.Join(dir, "a.db"), "ref", cfg)

	ctx := context.Background()
	st, err := store.Open(filepath.Join(dir, "b.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	id, err := tournament.Create(ctx, st, "queued", cfg)
	if err != nil {
		t.Fatal(err)
	}
	q := startQueue(t, queue.Config{AckWait: 2 * time.Second})
	tr, _ := st.FindTournament(ctx, "queued")
	key := tournament.QueueKey(st.Path, tr)
	forged := [][]byte{
		[]byte("not gzip at all"),
		gz(t, make([]byte, 70<<20)),
		// With the job's id and nonce, as a worker holding it has them.
		gz(t, []byte(`{"key":"`+key+`","idx":2,"attempt":0,"job":"`+key+`-2-0","nonce":"`+q.Nonce(key+"-2-0")+`","worker":"forger","finish":{"Result":{},"Faults":[{"match_idx":2,"bot_idx":99,"seat":0,"where":"","kind":"crash","penalty":"loss"}]},"replay":{}}`)),
		gz(t, []byte(`{"key":"someone-else","idx":3,"attempt":0,"finish":{"Result":{}},"replay":{}}`)),
	}
	for i, f := range forged {
		if _, err := q.PublishResult(ctx, key, i, "forged-"+string(rune('a'+i)), f); err != nil {
			t.Fatal(err)
		}
	}
	var mu sync.Mutex
	var notes []string
	sum, err := tournament.Run(ctx, st, id, tournament.Options{Jobs: 2, Resolver: resolver, Queue: q, OnEvent: func(e tournament.Event) {
		if e.Kind == tournament.MatchNote {
			mu.Lock()
			notes = append(notes, e.Summary)
			mu.Unlock()
		}
	}})
	if err != nil || sum.Done != sum.Total || sum.Played != sum.Total {
		t.Fatalf("queued run: %+v %v", sum, err)
	}
	// Each forged result is refused (its match published again) or set aside, with a note.
	all := strings.Join(notes, "\n")
	for _, part := range []string{"not gzip", "larger than", "not in match", "not of the job out now"} {
		if !strings.Contains(all, part) {
			t.Errorf("no note says %q: %q", part, notes)
		}
	}
	got, err := tournament.Compute(ctx, st, id)
	if err != nil {
		t.Fatal(err)
	}
	sameStandings(t, want, got)
	ms, _ := st.Matches(ctx, id)
	for _, m := range ms {
		if m.Attempts != 1 {
			t.Errorf("match %s recorded %d times", m.MatchID, m.Attempts)
		}
	}

	// And on one worker.
	one, err := store.Open(filepath.Join(dir, "c.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer one.Close()
	id, err = tournament.Create(ctx, one, "one worker", cfg)
	if err != nil {
		t.Fatal(err)
	}
	if sum, err := tournament.Run(ctx, one, id, tournament.Options{Jobs: 1, Resolver: resolver, Queue: q}); err != nil || sum.Played != sum.Total {
		t.Fatalf("one worker: %+v %v", sum, err)
	}
	got, err = tournament.Compute(ctx, one, id)
	if err != nil {
		t.Fatal(err)
	}
	sameStandings(t, want, got)
}

// TestExhaustedJobIsInfrastructureFailure: jobs whose workers take them and go silent are
// handed out MaxDeliver times, then recorded as infrastructure failures charged to no bot;
// --resume plays them.
func TestExhaustedJobIsInfrastructureFailure(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	st, err := store.Open(filepath.Join(t.TempDir(), "t.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	cfg := tournament.Config{Game: "dynamite", Params: shortDynamite, Seed: 5, Reps: 1, Entries: houseBots("paper", "scissors")}
	id, err := tournament.Create(ctx, st, "silent", cfg)
	if err != nil {
		t.Fatal(err)
	}
	q := startQueue(t, queue.Config{AckWait: 300 * time.Millisecond, MaxDeliver: 2})
	wctx, stop := context.WithCancel(ctx)
	var wg sync.WaitGroup
	wg.Add(1)
	go func() { // a worker cut off after taking each job
		defer wg.Done()
		for wctx.Err() == nil {
			_, _ = q.Next(wctx, 200*time.Millisecond)
		}
	}()
	rctx, cancel := context.WithTimeout(ctx, slack.Of(t, 60*time.Second))
	defer cancel()
	sum, err := tournament.Run(rctx, st, id, tournament.Options{Jobs: 0, Resolver: resolver, Queue: q})
	stop()
	wg.Wait()
	if !errors.Is(err, tournament.ErrIncomplete) || sum.Failed != 2 || sum.Done != 0 {
		t.Fatalf("run: %+v %v; want both matches failed", sum, err)
	}
	ms, _ := st.Matches(ctx, id)
	for _, m := range ms {
		if m.Status != store.StatusError || !strings.Contains(m.Error, "infrastructure failure, charged to no bot") {
			t.Fatalf("match %s: %s %q", m.MatchID, m.Status, m.Error)
		}
	}
	if fs, err := st.Faults(ctx, id, -1); err != nil || len(fs) != 0 {
		t.Fatalf("faults charged: %+v %v", fs, err)
	}
	sum, err = tournament.Run(rctx, st, id, tournament.Options{Jobs: 1, Resolver: resolver, Queue: q})
	if err != nil || sum.Done != 2 {
		t.Fatalf("resume: %+v %v", sum, err)
	}
	s, _ := tournament.Compute(ctx, st, id)
	if s.Rows[0].Bot != "scissors" || s.Rows[0].Wins != 2 {
		t.Fatalf("standings after resume: %+v", s.Rows)
	}
}

// TestTamperedFilesRefused: the object named by a bot's hash holds other files (another
// bot's); every worker refuses them before building or running anything, and the matches are
// infrastructure failures charged to no bot.
func TestTamperedFilesRefused(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	st, err := store.Open(filepath.Join(t.TempDir(), "t.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	// A bot of its own (no other test fetches its hash, so no worker has it yet).
	own := filepath.Join(t.TempDir(), "paper")
	src, err := os.ReadFile(filepath.Join(root, "bots/dynamite/cmd/paper/main.go"))
	if err != nil {
		t.Fatal(err)
	}
	os.Mkdir(own, 0o755)
	if err := os.WriteFile(filepath.Join(own, "main.go"), append(src, fmt.Sprintf("\n// %s %d\n", t.Name(), time.Now().UnixNano())...), 0o644); err != nil {
		t.Fatal(err)
	}
	es := append([]tournament.Entry{{Name: "paper", Spec: own, Language: "go"}}, houseBots("scissors")...)
	cfg := tournament.Config{Game: "dynamite", Params: shortDynamite, Seed: 5, Reps: 1, Entries: es}
	id, err := tournament.Create(ctx, st, "tampered", cfg)
	if err != nil {
		t.Fatal(err)
	}
	bots, _ := st.Bots(ctx, id)
	q := startQueue(t, queue.Config{AckWait: 2 * time.Second})
	// scissors' files under paper's name.
	if err := q.PutFiles(ctx, bots[0].Hash, filepath.Join(root, "bots/dynamite/cmd/scissors")); err != nil {
		t.Fatal(err)
	}
	rctx, cancel := context.WithTimeout(ctx, slack.Of(t, 60*time.Second))
	defer cancel()
	// The worker is on a machine of its own (its own files store): it fetches the bot's files.
	// One sharing this machine's store finds the coordinator's snapshot by its hash instead.
	wctx, stop := context.WithCancel(ctx)
	worked := make(chan error, 1)
	go func() {
		worked <- tournament.Work(wctx, q, tournament.WorkOptions{Files: filepath.Join(t.TempDir(), "files"), Name: "elsewhere"})
	}()
	defer func() { stop(); <-worked }()
	sum, err := tournament.Run(rctx, st, id, tournament.Options{Jobs: 0, Resolver: resolver, Queue: q})
	if !errors.Is(err, tournament.ErrIncomplete) || sum.Failed != 2 {
		t.Fatalf("run: %+v %v; want both matches refused", sum, err)
	}
	ms, _ := st.Matches(ctx, id)
	for _, m := range ms {
		if !strings.Contains(m.Error, "infrastructure failure") || !strings.Contains(m.Error, "refused") || !strings.Contains(m.Error, bots[0].Hash[:12]) {
			t.Fatalf("match %s: %s %q", m.MatchID, m.Status, m.Error)
		}
	}
	if fs, _ := st.Faults(ctx, id, -1); len(fs) != 0 {
		t.Fatalf("faults charged: %+v", fs)
	}
}

// TestHeartbeatsKeepLongMatches: with MaxDeliver 1 a job whose ack wait ran out even once is
// an infrastructure failure; matches several times longer than the ack wait are all recorded,
// so the worker's heartbeats kept every one of them.
func TestHeartbeatsKeepLongMatches(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	st, err := store.Open(filepath.Join(t.TempDir(), "t.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	// Half a second: heartbeats come every 125ms, so a busy machine (the suite runs tests in
	// parallel) does not lose a lease by a late heartbeat.
	const ackWait = 500 * time.Millisecond
	// The bot sleeps 3ms a move and loses every round to paper: each match lasts 1000 rounds,
	// at least 3s on any machine, six ack waits.
	bot := filepath.Join(t.TempDir(), "sleeper.py")
	src := `import time

from arena_sdk import dynamite


class Sleeper(dynamite.Bot):
    name = "sleeper"

    def move(self, state: dynamite.State) -> str:
        time.sleep(0.003)
        return dynamite.ROCK
`
	if err := os.WriteFile(bot, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	es := append([]tournament.Entry{{Name: "sleeper", Spec: bot, Language: "python"}}, houseBots("paper")...)
	cfg := tournament.Config{Game: "dynamite", Seed: 5, Reps: 1, Entries: es}
	id, err := tournament.Create(ctx, st, "long", cfg)
	if err != nil {
		t.Fatal(err)
	}
	q := startQueue(t, queue.Config{AckWait: ackWait, MaxDeliver: 1})
	rctx, cancel := context.WithTimeout(ctx, slack.Of(t, 120*time.Second))
	defer cancel()
	sum, err := tournament.Run(rctx, st, id, tournament.Options{Jobs: 1, Resolver: resolver, Queue: q})
	if err != nil || sum.Played != 2 {
		t.Fatalf("run: %+v %v", sum, err)
	}
	ms, _ := st.Matches(ctx, id)
	var longest time.Duration
	for _, m := range ms {
		longest = max(longest, m.Duration)
	}
	if longest < 3*ackWait {
		t.Fatalf("the longest match took %v, not enough above the ack wait %v to show anything", longest, ackWait)
	}
	t.Logf("longest match %v, ack wait %v", longest, ackWait)
}

// TestFreshReachesWorkers: --fresh travels with each job. The bot throws paper (and loses to
// scissors) in the first match its process plays, rock (and wins) in every later one, so its
// wins count the matches it played in a process it had played in before.
func TestFreshReachesWorkers(t *testing.T) {
	t.Parallel()
	bot := filepath.Join(t.TempDir(), "firstloses.py")
	src := `from arena_sdk import dynamite

played = 0


class FirstLoses(dynamite.Bot):
    name = "firstloses"

    def __init__(self) -> None:
        global played
        played += 1
        self.throw = dynamite.PAPER if played == 1 else dynamite.ROCK

    def move(self, state: dynamite.State) -> str:
        return self.throw
`
	if err := os.WriteFile(bot, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	es := append([]tournament.Entry{{Name: "firstloses", Spec: bot, Language: "python"}}, houseBots("scissors")...)
	for _, fresh := range []bool{true, false} {
		ctx := context.Background()
		st, err := store.Open(filepath.Join(t.TempDir(), "t.db"))
		if err != nil {
			t.Fatal(err)
		}
		defer st.Close()
		cfg := tournament.Config{Game: "dynamite", Params: shortDynamite, Seed: 1, Reps: 2, Entries: es}
		id, err := tournament.Create(ctx, st, "fresh", cfg)
		if err != nil {
			t.Fatal(err)
		}
		q := startQueue(t, queue.Config{})
		sum, err := tournament.Run(ctx, st, id, tournament.Options{Jobs: 1, Resolver: resolver, Queue: q, Fresh: fresh})
		if err != nil || sum.Played != 4 {
			t.Fatalf("fresh=%v: %+v %v", fresh, sum, err)
		}
		s, err := tournament.Compute(ctx, st, id)
		if err != nil {
			t.Fatal(err)
		}
		var wins int
		for _, r := range s.Rows {
			if r.Bot == "firstloses" {
				wins = r.Wins
			}
		}
		// One worker slot: pooled, the bot's one process plays all four matches.
		if want := map[bool]int{true: 0, false: 3}[fresh]; wins != want {
			t.Fatalf("fresh=%v: firstloses won %d of 4, want %d", fresh, wins, want)
		}
	}
}
