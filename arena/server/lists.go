package server

import (
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/go-chi/chi/v5"

	"github.com/botarena/arena/arena/names"
	"github.com/botarena/arena/arena/store"
)

// Lists (matches, bots, users, the audit log) are paged by a cursor on the id, never an offset:
// a link to "older than match 812" shows the same matches however many are played meanwhile.
// Every filter is checked before the store is asked, and a wrong one is answered 400 naming it.

// MaxPage is the most rows a list answers at once; DefaultPage when limit is not given.
const (
	MaxPage     = 200
	DefaultPage = 50
)

// listQuery reads a list's query string: only the named parameters, each at most once and of
// bounded length.
type listQuery struct {
	q   url.Values
	err error
}

func readListQuery(r *http.Request, allowed ...string) *listQuery {
	lq := &listQuery{}
	if len(r.URL.RawQuery) > 2048 {
		lq.err = bad(http.StatusBadRequest, "the query is too long (over 2048 characters): give fewer or shorter filters")
		return lq
	}
	// Parsed strictly: Go's lenient r.URL.Query() drops what it cannot read (a ';', a bad
	// escape), which would silently widen the list instead of refusing the filter.
	q, err := url.ParseQuery(r.URL.RawQuery)
	if err != nil {
		lq.err = bad(http.StatusBadRequest, "the query cannot be read (%v): separate filters with '&' and escape values", err)
		return lq
	}
	lq.q = q
	for k, vs := range lq.q {
		if !slices.Contains(allowed, k) {
			lq.err = bad(http.StatusBadRequest, "unknown filter %q: this list takes %s (see docs/api.md)", k, strings.Join(allowed, ", "))
			return lq
		}
		if len(vs) > 1 {
			lq.err = bad(http.StatusBadRequest, "filter %q given %d times: give it once", k, len(vs))
			return lq
		}
	}
	return lq
}

func (lq *listQuery) fail(format string, args ...any) {
	if lq.err == nil {
		lq.err = bad(http.StatusBadRequest, format, args...)
	}
}

// oneOf reads a parameter that must be one of choices (or absent).
func (lq *listQuery) oneOf(name string, choices ...string) string {
	v := lq.q.Get(name)
	if v != "" && !slices.Contains(choices, v) {
		lq.fail("%s=%q: give one of %s", name, clip(v), strings.Join(choices, ", "))
		return ""
	}
	return v
}

// id reads a positive id (absent: 0).
func (lq *listQuery) id(name string) int64 {
	v := lq.q.Get(name)
	if v == "" {
		return 0
	}
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil || n <= 0 {
		lq.fail("%s=%q: give a positive whole number (an id)", name, clip(v))
		return 0
	}
	return n
}

// name reads a user or bot name (1 to 40 letters, digits, '.', '_', '-').
func (lq *listQuery) name(param string) string {
	v := lq.q.Get(param)
	if v != "" && !names.Valid(v) {
		lq.fail("%s=%q: a name has 1 to 40 letters, digits, '.', '_' or '-'", param, clip(v))
		return ""
	}
	return v
}

// limit reads the page size: 1 to MaxPage, DefaultPage when absent.
func (lq *listQuery) limit() int {
	v := lq.q.Get("limit")
	if v == "" {
		return DefaultPage
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < 1 || n > MaxPage {
		lq.fail("limit=%q: give a page size from 1 to %d", clip(v), MaxPage)
		return DefaultPage
	}
	return n
}

// dates reads from and to: a day (2026-12-02, UTC) or an RFC 3339 time; to is exclusive, and a
// day given as to includes that whole day.
func (lq *listQuery) dates() (from, to time.Time) {
	parse := func(name string, endOfDay bool) time.Time {
		v := lq.q.Get(name)
		if v == "" {
			return time.Time{}
		}
		if d, err := time.Parse(time.DateOnly, v); err == nil {
			if endOfDay {
				d = d.AddDate(0, 0, 1)
			}
			return d
		}
		t, err := time.Parse(time.RFC3339, v)
		if err != nil {
			lq.fail("%s=%q: give a day (2026-12-02) or an RFC 3339 time (2026-12-02T15:04:05Z)", name, clip(v))
		}
		return t
	}
	from, to = parse("from", false), parse("to", true)
	if !from.IsZero() && !to.IsZero() && !from.Before(to) {
		lq.fail("from is not before to: give from earlier than to")
	}
	return from, to
}

// cursors reads before and after (at most one of them).
func (lq *listQuery) cursors() (before, after int64) {
	before, after = lq.id("before"), lq.id("after")
	if before > 0 && after > 0 {
		lq.fail("give before or after, not both: before pages back from an id, after forward")
	}
	return before, after
}

// clip shortens a bad value quoted back in an error.
func clip(v string) string {
	if len(v) > 40 {
		return v[:40] + "…"
	}
	return v
}

// matchParams are the filters of a match list.
var matchParams = []string{"kind", "status", "bot", "bot_name", "author", "result", "from", "to", "before", "after", "limit"}

// matchQuery reads a game's match list filters.
func matchQuery(r *http.Request, game string) (store.MatchFilter, error) {
	lq := readListQuery(r, matchParams...)
	if lq.err != nil {
		return store.MatchFilter{}, lq.err
	}
	f := store.MatchFilter{Game: game, Kind: lq.oneOf("kind", store.KindLadder, store.KindSmoke),
		Status: lq.oneOf("status", store.LadderRunning, store.LadderDone, store.LadderError)}
	f.Seat = store.SeatFilter{BotID: lq.id("bot"), Bot: lq.name("bot_name"), Author: lq.name("author"), Result: lq.oneOf("result", "win", "draw", "loss")}
	if f.Seat.Result != "" && f.Seat.BotID == 0 && f.Seat.Bot == "" && f.Seat.Author == "" {
		lq.fail("result needs whose result: give bot, bot_name or author with it")
	}
	f.From, f.To = lq.dates()
	f.Before, f.After = lq.cursors()
	f.Limit = lq.limit()
	return f, lq.err
}

// page is a list's links to the pages beside it ("" where there is none): stable, since they
// carry the filters and a cursor on the id.
type page struct {
	Older string `json:"older,omitempty"`
	Newer string `json:"newer,omitempty"`
}

// pageLinks makes the links of a page whose rows have ids (newest first) from a request for
// limit rows with cursors before and after; base is the list's path.
func pageLinks(r *http.Request, base string, ids []int64, limit int, before, after int64) page {
	link := func(cursor string, id int64) string {
		q := r.URL.Query()
		q.Del("before")
		q.Del("after")
		q.Set(cursor, strconv.FormatInt(id, 10))
		return base + "?" + q.Encode()
	}
	var p page
	if len(ids) == 0 {
		// Past either end: the way back is the cursor itself.
		if before > 0 {
			p.Newer = link("after", before-1)
		}
		if after > 0 {
			p.Older = link("before", after+1)
		}
		return p
	}
	first, last := ids[0], ids[len(ids)-1]
	if len(ids) == limit || after > 0 {
		p.Older = link("before", last)
	}
	if before > 0 || (after > 0 && len(ids) == limit) {
		p.Newer = link("after", first)
	}
	return p
}

// idsOf lists the ids of a page's rows, in order, for pageLinks.
func idsOf[T any](rows []T, id func(T) int64) []int64 {
	ids := make([]int64, len(rows))
	for i, row := range rows {
		ids[i] = id(row)
	}
	return ids
}

// backPage is a page of a list read only from its newest row back (the audit log, the users):
// its rows (never nil: an empty list is [] in JSON) and its links, none to a newer page.
func backPage[T any](r *http.Request, rows []T, id func(T) int64, limit int, before int64) ([]T, page) {
	if rows == nil {
		rows = []T{}
	}
	p := pageLinks(r, r.URL.Path, idsOf(rows, id), limit, before, 0)
	p.Newer = ""
	return rows, p
}

// matchList answers a game's filtered match list with its page links, or the error to send.
func (s *Server) matchList(r *http.Request) (string, store.MatchFilter, []store.LadderMatch, page, error) {
	g := chi.URLParam(r, "game")
	if !knownGame(g) {
		return g, store.MatchFilter{}, nil, page{}, bad(http.StatusNotFound, "no game %q: GET /api/v1/games lists them", g)
	}
	f, err := matchQuery(r, g)
	if err != nil {
		return g, f, nil, page{}, err
	}
	ms, err := s.st.LadderMatches(r.Context(), f)
	if err != nil {
		return g, f, nil, page{}, err
	}
	if ms == nil {
		ms = []store.LadderMatch{}
	}
	return g, f, ms, pageLinks(r, r.URL.Path, idsOf(ms, func(m store.LadderMatch) int64 { return m.ID }), f.Limit, f.Before, f.After), nil
}

func (s *Server) apiMatchList(w http.ResponseWriter, r *http.Request) {
	_, _, ms, p, err := s.matchList(r)
	if err != nil {
		s.answer(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"matches": ms, "pages": p})
}

func (s *Server) pageMatchList(w http.ResponseWriter, r *http.Request) {
	g, f, ms, p, err := s.matchList(r)
	if err != nil {
		s.answer(w, r, err)
		return
	}
	s.render(w, r, "matches", map[string]any{"Title": g + " matches", "Game": g, "Matches": ms, "Filter": f, "Pages": p})
}

// botParams are the filters of the bot list.
var botParams = []string{"game", "name", "author", "from", "to", "before", "after", "limit"}

// BotRow is a bot in a list.
type BotRow struct {
	store.WebBot
	// Link is its page.
	Link string `json:"link"`
}

func (s *Server) botList(r *http.Request) (store.BotFilter, []BotRow, page, error) {
	lq := readListQuery(r, botParams...)
	if lq.err != nil {
		return store.BotFilter{}, nil, page{}, lq.err
	}
	f := store.BotFilter{Game: lq.q.Get("game"), Name: lq.q.Get("name"), Author: lq.name("author")}
	if f.Game != "" && !knownGame(f.Game) {
		lq.fail("game=%q: no such game (GET /api/v1/games lists them)", clip(f.Game))
	}
	// A part of a name: the name's own letters only, so nothing in it reads as a pattern.
	if f.Name != "" && !names.Valid(f.Name) {
		lq.fail("name=%q: give part of a bot name (letters, digits, '.', '_' or '-', at most 40)", clip(f.Name))
	}
	f.From, f.To = lq.dates()
	f.Before, f.After = lq.cursors()
	f.Limit = lq.limit()
	if lq.err != nil {
		return f, nil, page{}, lq.err
	}
	bots, err := s.st.BotPage(r.Context(), f)
	if err != nil {
		return f, nil, page{}, err
	}
	rows := make([]BotRow, len(bots))
	for i, b := range bots {
		rows[i] = BotRow{WebBot: b, Link: fmt.Sprintf("/bots/%d", b.ID)}
	}
	return f, rows, pageLinks(r, r.URL.Path, idsOf(rows, func(b BotRow) int64 { return b.ID }), f.Limit, f.Before, f.After), nil
}

func (s *Server) apiBotList(w http.ResponseWriter, r *http.Request) {
	_, rows, p, err := s.botList(r)
	if err != nil {
		s.answer(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"bots": rows, "pages": p})
}

func (s *Server) pageBotList(w http.ResponseWriter, r *http.Request) {
	f, rows, p, err := s.botList(r)
	if err != nil {
		s.answer(w, r, err)
		return
	}
	gs, err := s.games(r.Context())
	if err != nil {
		s.internal(w, r, err)
		return
	}
	s.render(w, r, "bots", map[string]any{"Title": "Bots", "Bots": rows, "Filter": f, "Pages": p, "Games": gs,
		"FromDay": day(f.From), "ToDay": day(f.To.AddDate(0, 0, -1))})
}

// day is a date for a form's date field ("" for none).
func day(t time.Time) string {
	if t.IsZero() || t.Year() < 2 {
		return ""
	}
	return t.UTC().Format(time.DateOnly)
}
