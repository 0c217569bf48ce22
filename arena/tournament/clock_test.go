package tournament_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/botarena/arena/arena/queue"
	"github.com/botarena/arena/arena/queue/queuetest"
	"github.com/botarena/arena/arena/replay"
	"github.com/botarena/arena/arena/store"
	"github.com/botarena/arena/arena/tournament"
	"github.com/botarena/arena/internal/slack"
)

// TestWorkerDeclinesCPUJobsWithoutCPUClock: a job carries its coordinator's clock. A worker
// that cannot count a bot's CPU time plays a wall-clock job, and declines a CPU-clock job
// (handed back with RetryAfter, the log saying why) until its last delivery, where it answers
// with an infrastructure failure naming the CPU clock, nothing played. A worker that can plays
// it on the CPU clock (its replay says so), and a replay played on another clock than its
// job's is refused.
func TestWorkerDeclinesCPUJobsWithoutCPUClock(t *testing.T) {
	t.Parallel()
	srv := queuetest.StartServer(t, queue.Config{AckWait: 5 * time.Second, MaxDeliver: 3})
	q := srv.Queue
	ctx, cancel := context.WithTimeout(context.Background(), slack.Of(t, 3*time.Minute))
	defer cancel()
	ib, err := q.Listen(ctx, "clk")
	if err != nil {
		t.Fatal(err)
	}
	defer ib.Close()
	job := func(idx int, clock string) tournament.Job {
		j := tournament.Job{Key: "clk", Tournament: "t", Config: tournament.Config{Game: "dynamite", Params: shortDynamite, Deadline: time.Second},
			Match: store.Match{Idx: idx, MatchID: "m", Players: []int{0, 1}, Seed: 7},
			Bots:  []tournament.JobBot{{Name: "a", House: "house-beatlast"}, {Name: "b", House: "house-beatlast"}}}
		j.Config.Clock = clock
		data, _ := json.Marshal(j)
		if _, err := q.PublishJob(ctx, "clk", j.ID(), data); err != nil {
			t.Fatal(err)
		}
		return j
	}
	next := func() tournament.Result {
		t.Helper()
		select {
		case in := <-ib.C:
			r, err := tournament.DecodeResult(in.Result)
			if err != nil {
				t.Fatal(err)
			}
			in.Ack()
			return r
		case <-ctx.Done():
			t.Fatal("no result")
		}
		return tournament.Result{}
	}
	var mu sync.Mutex
	var log []string
	lacking := tournament.WorkOptions{Jobs: 1, RetryDelay: 10 * time.Millisecond,
		CPUClock: func() (bool, string) { return false, "no cgroup counts CPU time here (the test's worker)" },
		Log: func(s string) {
			mu.Lock()
			defer mu.Unlock()
			log = append(log, s)
		}}
	wctx, stop := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() {
		defer close(done)
		tournament.Work(wctx, srv.Worker(t, "lacking"), lacking)
	}()
	wallJob := job(0, "wall")
	wall := next()
	if wall.Infra != "" || wall.Summary == "" {
		t.Fatalf("the wall-clock job was not played: %+v", wall)
	}
	cpuJob := job(1, "cpu")
	r := next()
	stop()
	<-done
	if r.Idx != 1 || !strings.Contains(r.Infra, "CPU clock") || !strings.Contains(r.Infra, "cannot count a bot's CPU time") || r.Replay != nil || r.Delivered != 3 {
		t.Fatalf("the CPU-clock job on a worker without it: %+v", r)
	}
	mu.Lock()
	declined := 0
	for _, l := range log {
		if strings.Contains(l, "declined") && strings.Contains(l, "CPU clock") {
			declined++
		}
	}
	joined := strings.Join(log, "\n")
	mu.Unlock()
	if declined != 2 || !strings.Contains(joined, "it declines jobs on the CPU clock") {
		t.Fatalf("want 2 declines before the last delivery and the start's notice, got %d:\n%s", declined, joined)
	}
	if _, err := tournament.Verify(wallJob, wall); err != nil {
		t.Fatalf("the wall-clock result: %v", err)
	}
	asked := wallJob
	asked.Config.Clock = "cpu"
	if _, err := tournament.Verify(asked, wall); !errors.Is(err, tournament.ErrForged) || !strings.Contains(err.Error(), "clock") {
		t.Fatalf("a wall-clock replay for a CPU-clock job: %v", err)
	}

	// A worker that counts CPU time plays it on the CPU clock.
	ok := lacking
	ok.CPUClock = func() (bool, string) { return true, "" }
	ok.Log = nil
	wctx, stop = context.WithCancel(ctx)
	defer stop()
	go tournament.Work(wctx, srv.Worker(t, "able"), ok)
	cpuJob = job(2, "cpu")
	r = next()
	if r.Infra != "" || r.Summary == "" {
		t.Fatalf("the CPU-clock job on a worker with it: %+v", r)
	}
	rec, err := replay.Decode(strings.NewReader(string(r.Replay)), "result")
	if err != nil || rec.Clock != "cpu" {
		t.Fatalf("its replay's clock: %q %v", rec.Clock, err)
	}
	if _, err := tournament.Verify(cpuJob, r); err != nil {
		t.Fatalf("the CPU-clock result: %v", err)
	}
}
