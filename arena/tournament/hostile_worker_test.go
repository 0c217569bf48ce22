package tournament_test

import (
	"bytes"
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/botarena/arena/arena/game"
	"github.com/botarena/arena/arena/match"
	"github.com/botarena/arena/arena/queue"
	"github.com/botarena/arena/arena/queue/queuetest"
	"github.com/botarena/arena/arena/replay"
	"github.com/botarena/arena/arena/store"
	"github.com/botarena/arena/arena/tournament"
	auctionbots "github.com/botarena/arena/bots/auction"
	dynamitebots "github.com/botarena/arena/bots/dynamite"
	"github.com/botarena/arena/internal/slack"
	"github.com/botarena/arena/sdk"
)

// The hostile-worker suite: a real embedded NATS server, a real coordinator (a queued
// tournament), honest workers (tournament.Work, each with its own credential) and hostile
// ones written here, each with a credential of its own and exactly a worker's rights (the
// refusals of what those rights exclude are in arena/queue's TestWorkerPermissions).

// hostile takes one job off the queue as a worker named name (whatever the job's avoid list
// says) and answers it with what forge makes of it (nil: no result, the job acknowledged
// all the same); it returns the job.
func hostile(t *testing.T, srv *queuetest.Server, name string, forge func(tournament.Job) []byte) tournament.Job {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), slack.Of(t, time.Minute))
	defer cancel()
	w := srv.Worker(t, name)
	d, err := w.Next(ctx, 50*time.Second)
	if err != nil || d == nil {
		t.Fatalf("%s: no job: %v", name, err)
	}
	var j tournament.Job
	if err := json.Unmarshal(d.Data(), &j); err != nil {
		t.Fatal(err)
	}
	if data := forge(j); data != nil {
		if _, err := w.PublishResult(ctx, j.Key, j.Match.Idx, j.ID(), data); err != nil {
			t.Fatalf("%s: publishing its result: %v", name, err)
		}
	}
	// The coordinator may have refused the result and taken the job off the queue already.
	if err := d.Done(ctx); err != nil {
		t.Logf("%s: acking its job: %v", name, err)
	}
	return j
}

// swapped plays a job with each seat's bot replaced by the other's strategy (paper plays
// scissors and wins): a result whose replay reproduces, with answers that are not the bots'.
func swapped(t *testing.T, j tournament.Job) tournament.Result {
	t.Helper()
	bots := make([]sdk.Bot, len(j.Bots))
	for s, b := range j.Bots {
		if b.Name == "paper" {
			bots[s] = dynamitebots.Scissors()
		} else {
			bots[s] = dynamitebots.Paper()
		}
	}
	r, err := tournament.PlayWith(context.Background(), j, bots)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func encode(t *testing.T, r tournament.Result) []byte {
	t.Helper()
	b, err := tournament.EncodeResult(r)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// flipped is an honestly played result whose outcome (record and replay alike) is turned
// round: the replay no longer reproduces it.
func flipped(t *testing.T, j tournament.Job) []byte {
	t.Helper()
	bots := make([]sdk.Bot, len(j.Bots))
	for s, b := range j.Bots {
		if b.Name == "paper" {
			bots[s] = dynamitebots.Paper()
		} else {
			bots[s] = dynamitebots.Scissors()
		}
	}
	r, err := tournament.PlayWith(context.Background(), j, bots)
	if err != nil {
		t.Fatal(err)
	}
	var m match.Result
	if err := json.Unmarshal(r.Finish.Result, &m); err != nil {
		t.Fatal(err)
	}
	ps := m.Outcome.Players
	ps[0].Rank, ps[1].Rank, ps[0].Result, ps[1].Result, ps[0].Score, ps[1].Score = ps[1].Rank, ps[0].Rank, ps[1].Result, ps[0].Result, ps[1].Score, ps[0].Score
	m.Outcome.Summary = "forged: " + m.Outcome.Summary
	r.Finish.Result, _ = json.Marshal(m)
	rec, err := replay.Decode(bytes.NewReader(r.Replay), "replay")
	if err != nil {
		t.Fatal(err)
	}
	rec.Outcome = &m.Outcome
	r.Replay, _ = json.Marshal(rec)
	r.Summary = m.Outcome.Summary
	return encode(t, r)
}

func quarantined(t *testing.T, srv *queuetest.Server) map[string]string {
	t.Helper()
	cs, err := srv.Embedded.Registry().List()
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for _, c := range cs {
		if c.Disabled != "" {
			out[c.Name] = c.Disabled
		}
	}
	return out
}

// TestHostileWorkersRefused: workers that answer their job with a forged outcome (its
// replay turned round, or no replay), with data that is not a result, with a decompression
// bomb, or with nothing at all (the job acknowledged) change nothing: each forger is
// quarantined at its first result (its credential disabled), each refused or lost job is
// published again, an honest worker plays it, every match finishes and the standings are
// those of the tournament played in-process.
func TestHostileWorkersRefused(t *testing.T) {
	t.Parallel()
	cfg := tournament.Config{Game: "dynamite", Params: shortDynamite, Seed: 41, Reps: 3, Deadline: 2 * time.Second,
		StartTimeout: startTimeout(t), Entries: houseBots("paper", "scissors")}
	dir := t.TempDir()
	want := runInProcess(t, filepath.Join(dir, "ref.db"), "ref", cfg)

	ctx := context.Background()
	st, err := store.Open(filepath.Join(dir, "queued.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	id, err := tournament.Create(ctx, st, "hostile", cfg)
	if err != nil {
		t.Fatal(err)
	}
	srv := queuetest.StartServer(t, queue.Config{AckWait: time.Second})
	var mu sync.Mutex
	var notes []string
	type ran struct {
		sum tournament.Summary
		err error
	}
	done := make(chan ran, 1)
	go func() {
		// No local workers: every match is played by a worker with a credential.
		sum, err := tournament.Run(ctx, st, id, tournament.Options{Jobs: 0, Resolver: resolver, Queue: srv.Queue, OnEvent: func(e tournament.Event) {
			if e.Kind == tournament.MatchNote {
				mu.Lock()
				notes = append(notes, e.Summary)
				mu.Unlock()
			}
		}})
		done <- ran{sum, err}
	}()

	forgers := []struct {
		name, why string
		forge     func(tournament.Job) []byte
	}{
		{"flipper", "re-running the engine on its replay", func(j tournament.Job) []byte { return flipped(t, j) }},
		{"no-replay", "without its record or replay", func(j tournament.Job) []byte {
			r := swapped(t, j)
			r.Replay = nil
			return encode(t, r)
		}},
		{"garbage", "cannot be read", func(tournament.Job) []byte { return []byte("\x1f\x8b not a result at all") }},
		{"bomb", "larger than", func(tournament.Job) []byte { return gz(t, make([]byte, 40<<20)) }},
		{"silent", "", func(tournament.Job) []byte { return nil }},
	}
	for _, f := range forgers {
		j := hostile(t, srv, f.name, f.forge)
		t.Logf("%s answered job %s", f.name, j.ID())
		if f.why == "" {
			continue
		}
		end := time.Now().Add(slack.Of(t, time.Minute))
		for quarantined(t, srv)[f.name] == "" {
			if time.Now().After(end) {
				t.Fatalf("%s was not quarantined", f.name)
			}
			time.Sleep(20 * time.Millisecond)
		}
		if why := quarantined(t, srv)[f.name]; !strings.Contains(why, f.why) {
			t.Errorf("%s quarantined for %q, want it to say %q", f.name, why, f.why)
		}
	}
	// A quarantined (or revoked) worker is cut off: its credential no longer opens the server.
	refusedAfterQuarantine(t, srv, "late-forger")

	wctx, stop := context.WithCancel(ctx)
	defer stop()
	go tournament.Work(wctx, srv.Worker(t, "honest"), tournament.WorkOptions{Jobs: 2, Resolver: resolver})
	var r ran
	select {
	case r = <-done:
	case <-time.After(slack.Of(t, 5*time.Minute)):
		t.Fatal("the tournament did not finish: a match waits for ever")
	}
	if r.err != nil || r.sum.Done != r.sum.Total || r.sum.Failed != 0 {
		t.Fatalf("queued run: %+v %v\nnotes: %q", r.sum, r.err, notes)
	}
	got, err := tournament.Compute(ctx, st, id)
	if err != nil {
		t.Fatal(err)
	}
	sameStandings(t, want, got)
	q := quarantined(t, srv)
	if q["honest"] != "" || q["silent"] != "" {
		t.Errorf("quarantined: %q", q)
	}
	all := strings.Join(notes, "\n")
	if !strings.Contains(all, "taken off the queue without a result") {
		t.Errorf("the silent worker's job was not published again: %q", notes)
	}
	// Each stored replay reproduces its match.
	ms, _ := st.Matches(ctx, id)
	for _, m := range ms {
		rp, err := st.Replay(ctx, id, m.Idx)
		if err != nil {
			t.Fatal(err)
		}
		rec, err := replay.Decode(bytes.NewReader(rp), m.MatchID)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := replay.Run(rec, nil); err != nil {
			t.Errorf("match %s: %v", m.MatchID, err)
		}
	}
}

// refusedAfterQuarantine registers a worker and quarantines it as a coordinator would; its
// credential then must not open the server.
func refusedAfterQuarantine(t *testing.T, srv *queuetest.Server, name string) {
	t.Helper()
	secret, err := srv.Embedded.Registry().Add(name)
	if err != nil {
		t.Fatal(err)
	}
	if err := srv.Embedded.Quarantine(name, "test"); err != nil {
		t.Fatal(err)
	}
	if nc, err := srv.Embedded.ConnectWorker(secret); err == nil {
		nc.Close()
		t.Fatal("a quarantined worker connected")
	}
}

// TestAuditCatchesForgedAnswers: a worker that plays its match with bots of its own under
// the real names sends a result that proves itself (its replay reproduces); with every match
// audited, another worker plays it again, they disagree, a third settles it, the forger is
// quarantined and the standings are the honest ones.
func TestAuditCatchesForgedAnswers(t *testing.T) {
	t.Parallel()
	cfg := tournament.Config{Game: "dynamite", Params: shortDynamite, Seed: 43, Reps: 2, Deadline: 2 * time.Second,
		StartTimeout: startTimeout(t), Entries: houseBots("paper", "scissors")}
	dir := t.TempDir()
	want := runInProcess(t, filepath.Join(dir, "ref.db"), "ref", cfg)
	ctx := context.Background()
	st, err := store.Open(filepath.Join(dir, "queued.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	id, err := tournament.Create(ctx, st, "audited", cfg)
	if err != nil {
		t.Fatal(err)
	}
	srv := queuetest.StartServer(t, queue.Config{AckWait: time.Second, Audit: 1})
	var mu sync.Mutex
	var notes []string
	type ran struct {
		sum tournament.Summary
		err error
	}
	done := make(chan ran, 1)
	go func() {
		sum, err := tournament.Run(ctx, st, id, tournament.Options{Jobs: 0, Resolver: resolver, Queue: srv.Queue, OnEvent: func(e tournament.Event) {
			if e.Kind == tournament.MatchNote {
				mu.Lock()
				notes = append(notes, e.Summary)
				mu.Unlock()
			}
		}})
		done <- ran{sum, err}
	}()
	var forged match.Result
	hostile(t, srv, "mallory", func(j tournament.Job) []byte {
		r := swapped(t, j)
		json.Unmarshal(r.Finish.Result, &forged)
		return encode(t, r)
	})
	wctx, stop := context.WithCancel(ctx)
	defer stop()
	for _, name := range []string{"honest1", "honest2"} {
		go tournament.Work(wctx, srv.Worker(t, name), tournament.WorkOptions{Jobs: 1, Resolver: resolver})
	}
	var r ran
	select {
	case r = <-done:
	case <-time.After(slack.Of(t, 5*time.Minute)):
		t.Fatal("the tournament did not finish")
	}
	if r.err != nil || r.sum.Done != r.sum.Total || r.sum.Failed != 0 {
		t.Fatalf("queued run: %+v %v\nnotes: %q", r.sum, r.err, notes)
	}
	got, err := tournament.Compute(ctx, st, id)
	if err != nil {
		t.Fatal(err)
	}
	sameStandings(t, want, got)
	q := quarantined(t, srv)
	if !strings.Contains(q["mallory"], "disagrees") || len(q) != 1 {
		t.Fatalf("quarantined: %q (want mallory alone, for disagreeing); notes: %q", q, notes)
	}
	// The forgery was one the engine accepts: only the audit could catch it.
	if forged.Outcome.Players == nil || forged.Outcome.Players[0].Result == game.ResultDraw {
		t.Fatalf("the forged result %+v", forged.Outcome)
	}
	t.Logf("mallory: %s", q["mallory"])
}

// TestAuditWithOneWorker: with every match audited but one worker online, the audits no
// other worker can take are handed back until the queue gives up on them; the matches are
// then recorded on that worker's result, unaudited, rather than failed.
func TestAuditWithOneWorker(t *testing.T) {
	t.Parallel()
	cfg := tournament.Config{Game: "dynamite", Params: shortDynamite, Seed: 44, Reps: 1, Deadline: 2 * time.Second,
		StartTimeout: startTimeout(t), Entries: houseBots("paper", "scissors")}
	dir := t.TempDir()
	want := runInProcess(t, filepath.Join(dir, "ref.db"), "ref", cfg)
	ctx := context.Background()
	st, err := store.Open(filepath.Join(dir, "queued.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	id, err := tournament.Create(ctx, st, "alone", cfg)
	if err != nil {
		t.Fatal(err)
	}
	srv := queuetest.StartServer(t, queue.Config{AckWait: time.Second, MaxDeliver: 2, Audit: 1})
	wctx, stop := context.WithCancel(ctx)
	defer stop()
	go tournament.Work(wctx, srv.Worker(t, "alone"), tournament.WorkOptions{Jobs: 1, Resolver: resolver})
	var notes []string
	sum, err := tournament.Run(ctx, st, id, tournament.Options{Jobs: 0, Resolver: resolver, Queue: srv.Queue, OnEvent: func(e tournament.Event) {
		if e.Kind == tournament.MatchNote {
			notes = append(notes, e.Summary)
		}
	}})
	if err != nil || sum.Done != sum.Total || sum.Failed != 0 {
		t.Fatalf("queued run: %+v %v\nnotes: %q", sum, err, notes)
	}
	got, err := tournament.Compute(ctx, st, id)
	if err != nil {
		t.Fatal(err)
	}
	sameStandings(t, want, got)
	if !strings.Contains(strings.Join(notes, "\n"), "recorded unaudited") || len(quarantined(t, srv)) != 0 {
		t.Fatalf("notes %q, quarantined %q", notes, quarantined(t, srv))
	}
}

// TestHostileWorkersRefusedAtTables: the same refusals at a table of three (the auction's
// format, the ladder's too): a result whose outcome is rotated among the table's seats, in
// its record alone or in record and replay alike, and one whose replay leaves a seat out,
// are each refused and their worker quarantined; an honest worker plays every table and the
// standings are those of the tournament played in-process.
func TestHostileWorkersRefusedAtTables(t *testing.T) {
	t.Parallel()
	var entries []tournament.Entry
	for _, p := range []string{"bots/auction/cmd/sample", "bots/auction/cmd/collector", "examples/go/auction"} {
		entries = append(entries, tournament.Entry{Name: filepath.Base(filepath.Dir(p)) + "-" + filepath.Base(p), Spec: filepath.Join(root, p), Language: "go"})
	}
	cfg := tournament.Config{Game: "auction", Seed: 43, Reps: 2, Table: 3, Deadline: 2 * time.Second,
		StartTimeout: startTimeout(t), Entries: entries}
	dir := t.TempDir()
	want := runInProcess(t, filepath.Join(dir, "ref.db"), "ref", cfg)

	ctx := context.Background()
	st, err := store.Open(filepath.Join(dir, "queued.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	id, err := tournament.Create(ctx, st, "hostile-tables", cfg)
	if err != nil {
		t.Fatal(err)
	}
	srv := queuetest.StartServer(t, queue.Config{AckWait: time.Second})
	type ran struct {
		sum tournament.Summary
		err error
	}
	done := make(chan ran, 1)
	go func() {
		sum, err := tournament.Run(ctx, st, id, tournament.Options{Jobs: 0, Resolver: resolver, Queue: srv.Queue})
		done <- ran{sum, err}
	}()
	// samples plays the job's table with the house sample bot in every seat.
	samples := func(j tournament.Job) tournament.Result {
		if len(j.Bots) != 3 {
			t.Fatalf("job %s seats %d bots, want the table of 3", j.ID(), len(j.Bots))
		}
		bots := make([]sdk.Bot, len(j.Bots))
		for s := range bots {
			bots[s] = auctionbots.SampleSeeded(uint64(s) + 1)
		}
		r, err := tournament.PlayWith(ctx, j, bots)
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	// rotate turns the table's outcome round: seat s gets seat s+1's result, score and rank.
	rotate := func(r *tournament.Result, inReplay bool) {
		var m match.Result
		if err := json.Unmarshal(r.Finish.Result, &m); err != nil {
			t.Fatal(err)
		}
		ps := m.Outcome.Players
		m.Outcome.Players = append(ps[1:len(ps):len(ps)], ps[0])
		m.Outcome.Summary = "forged: " + m.Outcome.Summary
		r.Finish.Result, _ = json.Marshal(m)
		r.Summary = m.Outcome.Summary
		if inReplay {
			rec, err := replay.Decode(bytes.NewReader(r.Replay), "replay")
			if err != nil {
				t.Fatal(err)
			}
			rec.Outcome = &m.Outcome
			r.Replay, _ = json.Marshal(rec)
		}
	}
	forgers := []struct {
		name, why string
		forge     func(tournament.Job) []byte
	}{
		{"record-rotator", "its record says", func(j tournament.Job) []byte {
			r := samples(j)
			rotate(&r, false)
			return encode(t, r)
		}},
		{"table-rotator", "re-running the engine on its replay", func(j tournament.Job) []byte {
			r := samples(j)
			rotate(&r, true)
			return encode(t, r)
		}},
		{"seat-dropper", "its replay seats 2 players, the match 3", func(j tournament.Job) []byte {
			r := samples(j)
			rec, err := replay.Decode(bytes.NewReader(r.Replay), "replay")
			if err != nil {
				t.Fatal(err)
			}
			rec.Config.Players, rec.Bots = rec.Config.Players[:2], rec.Bots[:2]
			r.Replay, _ = json.Marshal(rec)
			return encode(t, r)
		}},
	}
	for _, f := range forgers {
		j := hostile(t, srv, f.name, f.forge)
		t.Logf("%s answered job %s", f.name, j.ID())
		end := time.Now().Add(slack.Of(t, time.Minute))
		for quarantined(t, srv)[f.name] == "" {
			if time.Now().After(end) {
				t.Fatalf("%s was not quarantined", f.name)
			}
			time.Sleep(20 * time.Millisecond)
		}
		if why := quarantined(t, srv)[f.name]; !strings.Contains(why, f.why) {
			t.Errorf("%s quarantined for %q, want it to say %q", f.name, why, f.why)
		}
	}
	wctx, stop := context.WithCancel(ctx)
	defer stop()
	go tournament.Work(wctx, srv.Worker(t, "honest"), tournament.WorkOptions{Jobs: 2, Resolver: resolver})
	var r ran
	select {
	case r = <-done:
	case <-time.After(slack.Of(t, 5*time.Minute)):
		t.Fatal("the tournament did not finish: a table waits for ever")
	}
	if r.err != nil || r.sum.Done != r.sum.Total || r.sum.Failed != 0 {
		t.Fatalf("queued run: %+v %v", r.sum, r.err)
	}
	got, err := tournament.Compute(ctx, st, id)
	if err != nil {
		t.Fatal(err)
	}
	sameStandings(t, want, got)
	if q := quarantined(t, srv); q["honest"] != "" {
		t.Errorf("the honest worker was quarantined: %q", q["honest"])
	}
}

// startTimeout is a bot's start allowance in these tests: stretched by the slack factor, but
// never past what a worker accepts from a coordinator (tournament.DefaultDeadline), or every
// worker refuses the jobs as asking too much.
func startTimeout(t testing.TB) time.Duration {
	return min(slack.Of(t, 20*time.Second), tournament.DefaultDeadline)
}
