package server

import (
	"bytes"
	"errors"
	"fmt"
	"net/http"
	"strconv"
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

// MaxViewerReplay bounds the stored replay a viewer page is made from: a larger one is not
// decoded at all (decoding takes several times its size in memory), and the answer is cached
// like a page.
const MaxViewerReplay = MaxViewerBytes

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
	mine := ownedSeats(r, m)
	// Keyed by the parsed id: "7", "07" and "+7" are one page.
	s.viewer(w, r, fmt.Sprintf("ladder/%d/%s", id, maskKey(mine)), func() ([]byte, error) {
		return s.st.LadderReplay(r.Context(), id)
	}, func(raw []byte) ([]byte, error) { return redact(raw, mine) })
}

func (s *Server) pageTournamentViewer(w http.ResponseWriter, r *http.Request) {
	id, ok := idParam(r, "id")
	idx, err := strconv.Atoi(chi.URLParam(r, "idx"))
	if !ok || err != nil || idx < 0 {
		s.fail(w, r, http.StatusNotFound, "no such match")
		return
	}
	organiser := false
	if u, ok := current(r); ok && u.Role == store.RoleOrganiser {
		organiser = true
	}
	s.viewer(w, r, fmt.Sprintf("tournament/%d/%d/%t", id, idx, organiser), func() ([]byte, error) {
		return s.st.Replay(r.Context(), id, idx)
	}, func(raw []byte) ([]byte, error) {
		if organiser {
			return raw, nil
		}
		return redact(raw, nil)
	})
}

// viewer answers the page under key from the cache, or makes it from the stored replay (load)
// as the requester may see it (view), in one of the render slots; the page or a lasting
// failure (a replay too large or undecodable) is cached, so each is made once.
func (s *Server) viewer(w http.ResponseWriter, r *http.Request, key string, load func() ([]byte, error), view func([]byte) ([]byte, error)) {
	if p, ok := s.pagesCache.get(key); ok {
		s.writeCached(w, r, p)
		return
	}
	release, err := s.limits.renders.Acquire(r.Context())
	if err != nil {
		s.busy(w, r, "other replays are being prepared: try again in a few seconds")
		return
	}
	defer release()
	if p, ok := s.pagesCache.get(key); ok { // made while this request waited
		s.writeCached(w, r, p)
		return
	}
	raw, err := load()
	if err != nil {
		s.internal(w, r, err) // not cached: a running match's replay is coming
		return
	}
	p := s.makeViewer(raw, view)
	if p.code == http.StatusInternalServerError {
		s.opt.Logger.Printf("%s %s: %s", r.Method, r.URL.Path, p.err)
	}
	s.pagesCache.put(key, p)
	s.writeCached(w, r, p)
}

// makeViewer makes a page, or the failure to answer instead.
func (s *Server) makeViewer(raw []byte, view func([]byte) ([]byte, error)) cachedPage {
	tooLarge := cachedPage{code: http.StatusRequestEntityTooLarge,
		msg: "this match holds more than one viewer page can show: download the replay and read it with arena replay FILE"}
	if len(raw) > MaxViewerReplay {
		return tooLarge
	}
	s.renders.Add(1)
	shown, err := view(raw)
	if err != nil {
		return cachedPage{code: http.StatusInternalServerError, msg: "this match's replay cannot be read (logged on the server)", err: err}
	}
	rec, err := replay.Decode(bytes.NewReader(shown), "the match's replay")
	if err != nil {
		return cachedPage{code: http.StatusInternalServerError, msg: "this match's replay cannot be read (logged on the server)", err: err}
	}
	var page bytes.Buffer
	err = viewer.WriteLimit(&page, rec, MaxViewerBytes)
	if errors.Is(err, viewer.ErrTooLarge) {
		return tooLarge
	}
	if err != nil {
		return cachedPage{code: http.StatusInternalServerError, msg: "this match's replay cannot be shown (logged on the server)", err: err}
	}
	return cachedPage{code: http.StatusOK, page: page.Bytes()}
}

func (s *Server) writeCached(w http.ResponseWriter, r *http.Request, p cachedPage) {
	if p.code != http.StatusOK {
		s.fail(w, r, p.code, p.msg)
		return
	}
	writeViewer(w, p.page)
}

func writeViewer(w http.ResponseWriter, page []byte) {
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	// The page's own policy replaces the site's; its frame-ancestors replaces X-Frame-Options.
	w.Header().Set("Content-Security-Policy", viewerCSP)
	w.Header().Del("X-Frame-Options")
	_, _ = w.Write(page)
}

// cachedPage is a viewer page, or the failure answered instead of one.
type cachedPage struct {
	code int
	page []byte
	msg  string
	err  error // for the log, once
}

// pageCache keeps the last viewer pages (a finished match never changes), so a popular match
// is replayed by the engine once, not on every view.
type pageCache struct {
	mu    sync.Mutex
	pages map[string]cachedPage
	order []string
	bytes int
}

// maxCachedBytes bounds the cache (pages are 0.1 to a few MiB, MaxViewerBytes at most: the
// largest is cached too, or it would be made again on every request).
const maxCachedBytes = 2*MaxViewerBytes + 32<<20

func (c *pageCache) get(k string) (cachedPage, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	p, ok := c.pages[k]
	return p, ok
}

func (c *pageCache) put(k string, p cachedPage) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.pages == nil {
		c.pages = map[string]cachedPage{}
	}
	if _, ok := c.pages[k]; ok {
		return
	}
	c.pages[k] = p
	c.order = append(c.order, k)
	c.bytes += p.size()
	for c.bytes > maxCachedBytes && len(c.order) > 0 {
		old := c.order[0]
		c.order = c.order[1:]
		c.bytes -= c.pages[old].size()
		delete(c.pages, old)
	}
}

// size counts a failure as a small page, so failures too leave the cache in time.
func (p cachedPage) size() int { return len(p.page) + len(p.msg) + 1024 }
