package server

import (
	"encoding/json"
	"fmt"
	"net/http"
	"sync"
	"time"

	"github.com/botarena/arena/arena/ladder"
)

// broker fans ladder events out to the browsers listening on /events. A slow listener misses
// events rather than holding the ladder up: pages re-read the state on every event anyway.
type broker struct {
	mu   sync.Mutex
	subs map[chan ladder.Event]bool
}

// maxListeners bounds the open event streams.
const maxListeners = 1000

func newBroker() *broker { return &broker{subs: map[chan ladder.Event]bool{}} }

func (b *broker) publish(e ladder.Event) {
	b.mu.Lock()
	defer b.mu.Unlock()
	for c := range b.subs {
		select {
		case c <- e:
		default:
		}
	}
}

// public is what anyone may see of a ladder event: /events is served to everybody, so it
// carries no verdict (a failed validation's quotes the bot's stderr and source, which only
// its author sees). A match's summary is the engine's outcome, public on the match's page;
// an author reads a verdict on their own pages, which re-read themselves on every event.
func public(e ladder.Event) ladder.Event {
	p := ladder.Event{Kind: e.Kind, Game: e.Game, MatchID: e.MatchID, VersionID: e.VersionID, Status: e.Status}
	if e.Kind == ladder.MatchFinished {
		p.Summary = e.Summary
	}
	return p
}

func (b *broker) subscribe() (chan ladder.Event, bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if len(b.subs) >= maxListeners {
		return nil, false
	}
	c := make(chan ladder.Event, 16)
	b.subs[c] = true
	return c, true
}

func (b *broker) unsubscribe(c chan ladder.Event) {
	b.mu.Lock()
	defer b.mu.Unlock()
	delete(b.subs, c)
}

// serveEvents streams ladder events as server-sent events: "match-started", "match-finished"
// and "validated", each with a JSON ladder.Event.
func (s *Server) serveEvents(w http.ResponseWriter, r *http.Request) {
	fl, ok := w.(http.Flusher)
	if !ok {
		s.fail(w, r, http.StatusInternalServerError, "streaming unsupported")
		return
	}
	mine, ok := s.limits.listeners.Take(clientKey(r))
	if !ok {
		w.Header().Set("Retry-After", "30")
		s.fail(w, r, http.StatusTooManyRequests, fmt.Sprintf("%d live pages are open from this address already: close some", s.opt.Budget.ListenersPerClient))
		return
	}
	defer mine()
	c, ok := s.events.subscribe()
	if !ok {
		s.fail(w, r, http.StatusServiceUnavailable, "too many listeners: reload later")
		return
	}
	defer s.events.unsubscribe(c)
	h := w.Header()
	h.Set("Content-Type", "text/event-stream")
	h.Set("Cache-Control", "no-store")
	fmt.Fprint(w, "retry: 2000\n\n")
	fl.Flush()
	ping := time.NewTicker(25 * time.Second)
	defer ping.Stop()
	rc := http.NewResponseController(w)
	for {
		// A listener that stops reading is dropped after one write's time, not kept for ever.
		_ = rc.SetWriteDeadline(time.Now().Add(s.opt.Budget.WriteTime))
		select {
		case <-r.Context().Done():
			return
		case <-ping.C:
			fmt.Fprint(w, ": ping\n\n")
		case e := <-c:
			b, _ := json.Marshal(e)
			fmt.Fprintf(w, "event: %s\ndata: %s\n\n", e.Kind, b)
		}
		fl.Flush()
	}
}
