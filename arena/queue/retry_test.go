package queue

import (
	"context"
	"testing"
	"time"

	"github.com/botarena/arena/internal/slack"
)

// TestRetryAfterHoldsTheJob: a job handed back with a delay is not handed out again before
// it (a worker that declines it cannot take it back at once, and neither can any other),
// while one handed back with a short delay comes back as its next delivery. Counts only: the
// long delay is far beyond the test's own waits.
func TestRetryAfterHoldsTheJob(t *testing.T) {
	q := open(t, Config{AckWait: time.Minute, MaxDeliver: 5})
	ctx, cancel := context.WithTimeout(context.Background(), slack.Of(t, time.Minute))
	defer cancel()
	for _, id := range []string{"held", "soon"} {
		if _, err := q.PublishJob(ctx, "k", id, []byte(id)); err != nil {
			t.Fatal(err)
		}
	}
	delays := map[string]time.Duration{"held": time.Hour, "soon": 50 * time.Millisecond}
	for range 2 {
		d, err := q.Next(ctx, 5*time.Second)
		if err != nil || d == nil {
			t.Fatalf("first delivery: %v, %v", d, err)
		}
		if d.Delivered != 1 {
			t.Fatalf("job %s: delivery %d, want 1", d.Data(), d.Delivered)
		}
		if err := d.RetryAfter(delays[string(d.Data())]); err != nil {
			t.Fatal(err)
		}
	}
	d, err := q.Next(ctx, 5*time.Second)
	if err != nil || d == nil {
		t.Fatalf("the job handed back for 50ms did not come back: %v, %v", d, err)
	}
	if string(d.Data()) != "soon" || d.Delivered != 2 {
		t.Fatalf("got job %q at delivery %d, want soon at delivery 2", d.Data(), d.Delivered)
	}
	if err := d.Done(ctx); err != nil {
		t.Fatal(err)
	}
	// The other one is held by the server: no worker gets it, yet it is still queued.
	for range 3 {
		if d, err := q.Next(ctx, 300*time.Millisecond); err != nil || d != nil {
			t.Fatalf("a job handed back for an hour was handed out again: %v, %v", d, err)
		}
	}
	if n, err := q.Pending(ctx); err != nil || n != 1 {
		t.Fatalf("pending %d (%v), want the held job still queued", n, err)
	}
}
