package tournament_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/botarena/arena/arena/queue"
	"github.com/botarena/arena/arena/queue/queuetest"
	"github.com/botarena/arena/arena/store"
	"github.com/botarena/arena/arena/tournament"
	"github.com/botarena/arena/internal/slack"
	"github.com/botarena/arena/sandbox"
)

// TestWorkerRefusesJobsAboveItsLimits: whoever publishes a job, a worker plays it only
// within its own maxima (the coordinator's limits for the coordinator's own workers, --max-*
// for arena worker): a job asking for 3 GiB, 4096 processes or 90 s a move is refused with a
// result that says so, and nothing of it runs; one within them is played.
func TestWorkerRefusesJobsAboveItsLimits(t *testing.T) {
	t.Parallel()
	srv := queuetest.StartServer(t, queue.Config{AckWait: 2 * time.Second})
	q := srv.Queue
	ctx, cancel := context.WithTimeout(context.Background(), slack.Of(t, 3*time.Minute))
	defer cancel()
	ib, err := q.Listen(ctx, "pol")
	if err != nil {
		t.Fatal(err)
	}
	defer ib.Close()
	base := tournament.Job{Key: "pol", Tournament: "t", Config: tournament.Config{Game: "dynamite", Params: shortDynamite, Deadline: time.Second},
		Match: store.Match{MatchID: "m", Players: []int{0, 1}, Seed: 7},
		Bots:  []tournament.JobBot{{Name: "a", House: "house-beatlast"}, {Name: "b", House: "house-beatlast"}}}
	cases := []struct {
		name   string
		change func(*tournament.Job)
		refuse string
	}{
		{"3 GiB", func(j *tournament.Job) { j.Limits.MemoryBytes = 3 << 30 }, "memory"},
		{"4096 processes", func(j *tournament.Job) { j.Limits.Processes = 4096 }, "processes"},
		{"no CPU limit", func(j *tournament.Job) { j.Limits.CPUSeconds = -1 }, "CPU seconds"},
		{"90 s a move", func(j *tournament.Job) { j.Config.Deadline = 90 * time.Second }, "for a move"},
		{"within", func(j *tournament.Job) { j.Limits.MemoryBytes = 256 << 20 }, ""},
	}
	for i, c := range cases {
		j := base
		j.Match.Idx = i
		c.change(&j)
		data, _ := json.Marshal(j)
		if _, err := q.PublishJob(ctx, "pol", j.ID(), data); err != nil {
			t.Fatal(err)
		}
	}
	wctx, stop := context.WithCancel(ctx)
	defer stop()
	go tournament.Work(wctx, srv.Worker(t, "w"), tournament.WorkOptions{Jobs: 1,
		Most: tournament.Policy{Limits: sandbox.Limits{MemoryBytes: 512 << 20, Processes: 128}, Deadline: 10 * time.Second}})
	for range cases {
		select {
		case in := <-ib.C:
			r, err := tournament.DecodeResult(in.Result)
			if err != nil {
				t.Fatal(err)
			}
			c := cases[r.Idx]
			switch {
			case c.refuse == "" && (r.Infra != "" || r.Summary == ""):
				t.Errorf("%s: not played: %q", c.name, r.Infra)
			case c.refuse != "" && (!strings.Contains(r.Infra, "more than this worker allows") || !strings.Contains(r.Infra, c.refuse) || r.Replay != nil):
				t.Errorf("%s: %q (played: %q)", c.name, r.Infra, r.Summary)
			default:
				t.Logf("%s: %s%s", c.name, r.Infra, r.Summary)
			}
			in.Ack()
		case <-ctx.Done():
			t.Fatal("not every job was answered")
		}
	}
}
