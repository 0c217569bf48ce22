package server

import (
	"bytes"
	"errors"
	"fmt"
	"net/http"
	"sync"

	"github.com/go-chi/chi/v5"

	"github.com/botarena/arena/arena/replay"
	"github.com/botarena/arena/arena/store"
	"github.com/botarena/arena/arena/viewer"
)

// MaxViewerBytes bounds the replay data one viewer page holds (arena/viewer's own bound).
const MaxViewerBytes = viewer.MaxBytes

// viewerCSP: the page runs only its own inline script (its meta policy names the script's
// hash), and in an opaque origin (sandbox): even a script smuggled in by a bot's text could not
// reach the site's cookies, pages or CSRF tokens.
const viewerCSP = "sandbox allow-scripts; default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:; frame-ancestors 'self'"

// pageViewer serves a ladder match's replay viewer: one self-contained page framed by the
// match page.
func (s *Server) pageViewer(w http.ResponseWriter, r *http.Request) {
	id, ok := idParam(r, "id")
	if !ok {
		s.fail(w, r, http.StatusNotFound, "no such match")
		return
	}
	m, err := s.st.LadderMatchByID(r.Context(), id)
	if err != nil {
		s.internal(w, r, err)
		return
	}
	key := fmt.Sprintf("ladder/%d/%s", id, maskKey(ownedSeats(r, m)))
	if page, ok := s.pagesCache.get(key); ok {
		writeViewer(w, page)
		return
	}
	b, _, err := s.ladderReplay(r, id)
	if err != nil {
		s.internal(w, r, err)
		return
	}
	s.viewer(w, r, key, b)
}

func (s *Server) pageTournamentViewer(w http.ResponseWriter, r *http.Request) {
	view := "none"
	if u, ok := current(r); ok && u.Role == store.RoleOrganiser {
		view = "all"
	}
	key := fmt.Sprintf("tournament/%s/%s/%s", chi.URLParam(r, "id"), chi.URLParam(r, "idx"), view)
	if page, ok := s.pagesCache.get(key); ok {
		writeViewer(w, page)
		return
	}
	b, _, err := s.tournamentView(r)
	if err != nil {
		s.internal(w, r, err)
		return
	}
	s.viewer(w, r, key, b)
}

func (s *Server) viewer(w http.ResponseWriter, r *http.Request, key string, replayJSON []byte) {
	rec, err := replay.Decode(bytes.NewReader(replayJSON), "the match's replay")
	if err != nil {
		s.internal(w, r, err)
		return
	}
	var page bytes.Buffer
	err = viewer.WriteLimit(&page, rec, MaxViewerBytes)
	if errors.Is(err, viewer.ErrTooLarge) {
		s.fail(w, r, http.StatusRequestEntityTooLarge, "this match holds more than one viewer page can show: download the replay and read it with arena replay FILE")
		return
	}
	if err != nil {
		s.internal(w, r, err)
		return
	}
	s.pagesCache.put(key, page.Bytes())
	writeViewer(w, page.Bytes())
}

func writeViewer(w http.ResponseWriter, page []byte) {
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Content-Security-Policy", viewerCSP)
	_, _ = w.Write(page)
}

// pageCache keeps the last viewer pages (a finished match never changes), so a popular match
// is replayed by the engine once, not on every view.
type pageCache struct {
	mu    sync.Mutex
	pages map[string][]byte
	order []string
	bytes int
}

// maxCachedPages bounds the cache (pages are 0.1 to a few MiB).
const maxCachedBytes = 64 << 20

func (c *pageCache) get(k string) ([]byte, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	p, ok := c.pages[k]
	return p, ok
}

func (c *pageCache) put(k string, p []byte) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.pages == nil {
		c.pages = map[string][]byte{}
	}
	if _, ok := c.pages[k]; ok || len(p) > maxCachedBytes/4 {
		return
	}
	c.pages[k] = p
	c.order = append(c.order, k)
	c.bytes += len(p)
	for c.bytes > maxCachedBytes && len(c.order) > 0 {
		old := c.order[0]
		c.order = c.order[1:]
		c.bytes -= len(c.pages[old])
		delete(c.pages, old)
	}
}
