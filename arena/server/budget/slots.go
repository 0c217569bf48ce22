package budget

import (
	"context"
	"errors"
	"time"
)

// ErrBusy is returned when every slot stayed taken for the whole wait, or too many callers
// were already waiting.
var ErrBusy = errors.New("busy")

// Slots lets at most n callers work at once; up to queue more wait, each at most wait.
type Slots struct {
	work  chan struct{}
	queue chan struct{}
	wait  time.Duration
}

// NewSlots makes n slots (at least 1) with a queue of queue waiters and a wait of wait.
func NewSlots(n, queue int, wait time.Duration) *Slots {
	return &Slots{work: make(chan struct{}, max(n, 1)), queue: make(chan struct{}, max(queue, 0)+max(n, 1)), wait: wait}
}

// Acquire takes a slot; the caller must call release once done. It fails with ErrBusy when the
// queue is full or the wait ran out, and with ctx's error when the caller went away.
func (s *Slots) Acquire(ctx context.Context) (release func(), err error) {
	// The queue channel counts workers and waiters together: a full one refuses at once, so a
	// flood costs a channel operation per request, not a goroutine parked per request.
	select {
	case s.queue <- struct{}{}:
	default:
		return nil, ErrBusy
	}
	t := time.NewTimer(s.wait)
	defer t.Stop()
	select {
	case s.work <- struct{}{}:
		return func() { <-s.work; <-s.queue }, nil
	case <-t.C:
		<-s.queue
		return nil, ErrBusy
	case <-ctx.Done():
		<-s.queue
		return nil, ctx.Err()
	}
}

// Cap is the number of slots.
func (s *Slots) Cap() int { return cap(s.work) }
