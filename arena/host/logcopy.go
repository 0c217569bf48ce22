package host

import (
	"errors"
	"io"
	"os"
	"sync"
	"time"
)

// logCopy moves a bot's stderr into its log, and can tell when everything the bot wrote
// before a given moment is there (flush). Only the copier itself knows that, between two of its
// reads: a pipe that holds nothing unread may still hold bytes a starved copier has read and
// not yet written (beside busy loops a report quoted a live bot's log before its last line
// reached it).
type logCopy struct {
	src    io.Reader
	dst    io.Writer
	unread func() int
	// wake sets the source's read deadline: flush wakes a copier waiting in its read.
	wake func(time.Time) error

	mu      sync.Mutex
	waiters []chan struct{}
	ended   bool
	// flooded is set once a flush ran out of time: the bot keeps its pipe full, and later
	// flushes (the eleven seats of one process, each report) do not wait again.
	flooded bool
}

// run copies until the source ends.
func (c *logCopy) run() {
	buf := make([]byte, 32<<10)
	for {
		n, err := c.src.Read(buf)
		if n > 0 {
			_, _ = c.dst.Write(buf[:n])
		}
		if err != nil && !errors.Is(err, os.ErrDeadlineExceeded) {
			c.mu.Lock()
			c.ended = true
			c.release()
			c.mu.Unlock()
			return
		}
		c.mu.Lock()
		if len(c.waiters) > 0 {
			// Read on: the deadline that woke this copier would refuse what is left.
			_ = c.wake(time.Time{})
			if c.unread() == 0 {
				c.release() // all that was written before the flush is in the log
			}
		}
		c.mu.Unlock()
	}
}

// release answers every flush waiting (mu held).
func (c *logCopy) release() {
	for _, w := range c.waiters {
		close(w)
	}
	c.waiters = nil
}

// flush returns once what the bot had written to stderr by now is in the log, or after
// limit (a bot that floods its stderr keeps the pipe from ever being empty).
func (c *logCopy) flush(limit time.Duration) {
	w := make(chan struct{})
	c.mu.Lock()
	if c.ended || c.flooded {
		c.mu.Unlock()
		return
	}
	if err := c.wake(time.Now()); err != nil {
		c.mu.Unlock()
		return // a pipe without deadlines: nothing to wake
	}
	c.waiters = append(c.waiters, w)
	c.mu.Unlock()
	select {
	case <-w:
	case <-time.After(limit):
		c.mu.Lock()
		c.flooded = true
		c.mu.Unlock()
	}
}
