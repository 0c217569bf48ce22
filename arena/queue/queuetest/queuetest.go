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
	return StartServer(t, cfg).Queue
}

// Server is an embedded server with the coordinator's queue open on it.
type Server struct {
	Embedded *queue.Embedded
	Queue    *queue.Queue
}

// StartServer is Start, keeping the server to register workers on; a worker the coordinator
// quarantines has its credential disabled, as under arena serve.
func StartServer(t testing.TB, cfg queue.Config) *Server {
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
	if cfg.Quarantine == nil {
		cfg.Quarantine = emb.Quarantine
	}
	q, err := queue.Open(ctx, nc, cfg)
	if err != nil {
		t.Fatal(err)
	}
	return &Server{Embedded: emb, Queue: q}
}

// Worker registers a worker and joins the queue as it, with exactly the rights it has over
// the network (an in-process connection, closed when the test ends).
func (s *Server) Worker(t testing.TB, name string) *queue.Queue {
	t.Helper()
	secret, err := s.Embedded.Registry().Add(name)
	if err == nil {
		err = s.Embedded.Reload()
	}
	if err != nil {
		t.Fatal(err)
	}
	nc, err := s.Embedded.ConnectWorker(secret)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(nc.Close)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	q, err := queue.Join(ctx, nc, name)
	if err != nil {
		t.Fatal(err)
	}
	return q
}
