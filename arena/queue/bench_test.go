package queue

import (
	"bytes"
	"context"
	"sync"
	"testing"
	"time"
)

// Sizes close to a real job (the match, config and three bots by hash) and a real result
// (a dynamite match's outcome, faults, timings and compressed replay).
var (
	benchJob    = bytes.Repeat([]byte("j"), 700)
	benchResult = bytes.Repeat([]byte("r"), 16<<10)
)

// BenchmarkJobRoundTrip: one job at a time through the embedded server's file store:
// publish, a worker takes it, publishes its result and acks, the coordinator receives and
// acks the result. ns/op is the round trip.
func BenchmarkJobRoundTrip(b *testing.B) {
	q := benchQueue(b)
	ctx := context.Background()
	ib, err := q.Listen(ctx, "bench")
	if err != nil {
		b.Fatal(err)
	}
	defer ib.Close()
	b.ResetTimer()
	for i := range b.N {
		id := "bench-" + itoa(i)
		if _, err := q.PublishJob(ctx, "bench", id, benchJob); err != nil {
			b.Fatal(err)
		}
		d, err := q.Next(ctx, 5*time.Second)
		if err != nil || d == nil {
			b.Fatalf("no job: %v", err)
		}
		if _, err := q.PublishResult(ctx, "bench", i, id, benchResult); err != nil {
			b.Fatal(err)
		}
		if err := d.Done(ctx); err != nil {
			b.Fatal(err)
		}
		in := <-ib.C
		in.Ack()
	}
	b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(b.N), "us/roundtrip")
}

// BenchmarkJobThroughput: b.N jobs published at once, taken by 8 workers (each: take,
// publish result, ack), results received by the coordinator; jobs/s is the rate the queue
// itself sustains here, with no match played.
func BenchmarkJobThroughput(b *testing.B) {
	q := benchQueue(b)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	ib, err := q.Listen(ctx, "bench")
	if err != nil {
		b.Fatal(err)
	}
	defer ib.Close()
	b.ResetTimer()
	var wg sync.WaitGroup
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for ctx.Err() == nil {
				d, err := q.Next(ctx, 200*time.Millisecond)
				if err != nil || d == nil {
					continue
				}
				if _, err := q.PublishResult(ctx, "bench", int(d.Seq), "r-"+itoa(int(d.Seq)), benchResult); err == nil {
					_ = d.Done(ctx)
				}
			}
		}()
	}
	for i := range b.N {
		if _, err := q.PublishJob(ctx, "bench", "bench-"+itoa(i), benchJob); err != nil {
			b.Fatal(err)
		}
	}
	for range b.N {
		in := <-ib.C
		in.Ack()
	}
	b.StopTimer()
	cancel()
	wg.Wait()
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "jobs/s")
}

func benchQueue(b *testing.B) *Queue {
	b.Helper()
	emb, err := StartEmbedded(b.TempDir(), "")
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(emb.Shutdown)
	nc, err := emb.Connect("bench")
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(nc.Close)
	q, err := Open(context.Background(), nc, Config{})
	if err != nil {
		b.Fatal(err)
	}
	return q
}

func itoa(i int) string {
	var buf [20]byte
	n := len(buf)
	for {
		n--
		buf[n] = byte('0' + i%10)
		i /= 10
		if i == 0 {
			return string(buf[n:])
		}
	}
}

// BenchmarkPublishJobs: publishing a tournament's jobs, one round trip each (PublishJob)
// against PublishJobs' window of acks in flight; jobs/s is what a coordinator's start costs.
func BenchmarkPublishJobs(b *testing.B) {
	for _, mode := range []string{"one-at-a-time", "windowed"} {
		b.Run(mode, func(b *testing.B) {
			q := benchQueue(b)
			ctx := context.Background()
			jobs := make([]Outgoing, b.N)
			for i := range jobs {
				jobs[i] = Outgoing{ID: "bench-" + itoa(i), Data: benchJob}
			}
			b.ResetTimer()
			if mode == "windowed" {
				if _, err := q.PublishJobs(ctx, "bench", jobs); err != nil {
					b.Fatal(err)
				}
			} else {
				for _, j := range jobs {
					if _, err := q.PublishJob(ctx, "bench", j.ID, j.Data); err != nil {
						b.Fatal(err)
					}
				}
			}
			b.StopTimer()
			if n, err := q.Pending(ctx); err != nil || n != uint64(b.N) {
				b.Fatalf("%d jobs stored of %d (%v)", n, b.N, err)
			}
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "jobs/s")
		})
	}
}
