package queuetest

import (
	"context"
	"testing"
	"time"

	"github.com/botarena/arena/arena/queue"
)

// Start runs an embedded NATS server for one test and opens the queue on it; both stop when
// the test ends (after everything the test registered to clean up later).
func Start(t testing.TB, cfg queue.Config) *queue.Queue {
	t.Helper()
	emb, err := queue.StartEmbedded(t.TempDir(), "")
	if err != nil {
		t.Fatal(err)
	}
	nc, err := emb.Connect("test")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { nc.Close(); emb.Shutdown() })
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	q, err := queue.Open(ctx, nc, cfg)
	if err != nil {
		t.Fatal(err)
	}
	return q
}
