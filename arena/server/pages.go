package server

import (
	"bytes"
	"errors"
	"fmt"
	"html/template"
	"math"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"
	"unicode"

	"github.com/go-chi/chi/v5"

	"github.com/botarena/arena/arena/store"
	"github.com/botarena/arena/arena/tournament"
)

func (s *Server) parseTemplates() error {
	funcs := template.FuncMap{
		"rating": ratingText,
		"f1":     func(f float64) string { return strconv.FormatFloat(f, 'f', 1, 64) },
		"ms":     func(d time.Duration) string { return fmt.Sprintf("%.1f ms", float64(d)/float64(time.Millisecond)) },
		"us": func(total time.Duration, moves int) string {
			if moves == 0 {
				return "-"
			}
			return fmt.Sprintf("%.0f µs", float64(total)/float64(moves)/1e3)
		},
		"when":  func(t time.Time) string { return t.UTC().Format("2006-01-02 15:04:05") },
		"vs":    seatNames,
		"plot":  ratingPlot,
		"pct":   func(a, b int) int { return a * 100 / max(b, 1) },
		"add":   func(a, b int) int { return a + b },
		"lower": strings.ToLower,
		"list":  func(xs ...string) []string { return xs },
		"day":   day,
	}
	layout, err := assets.ReadFile("assets/layout.html")
	if err != nil {
		return err
	}
	names, err := assets.ReadDir("assets")
	if err != nil {
		return err
	}
	s.pages = map[string]*template.Template{}
	for _, n := range names {
		name, ok := strings.CutSuffix(n.Name(), ".html")
		if !ok || name == "layout" {
			continue
		}
		body, err := assets.ReadFile("assets/" + n.Name())
		if err != nil {
			return err
		}
		t, err := template.New("layout").Funcs(funcs).Parse(string(layout))
		if err == nil {
			_, err = t.New("body").Parse(string(body))
		}
		if err == nil {
			err = parseParts(t)
		}
		if err != nil {
			return fmt.Errorf("template %s: %w", n.Name(), err)
		}
		s.pages[name] = t
	}
	return nil
}

// render writes a page; data is a map whose "Title" names the page.
func (s *Server) render(w http.ResponseWriter, r *http.Request, page string, data map[string]any) {
	t := s.pages[page]
	if t == nil {
		http.Error(w, "no page "+page, http.StatusInternalServerError)
		return
	}
	u, logged := current(r)
	data["User"], data["LoggedIn"], data["CSRF"] = u, logged, csrfToken(r)
	data["Organiser"] = logged && u.Role == store.RoleOrganiser
	var buf bytes.Buffer
	if err := t.Execute(&buf, data); err != nil {
		s.opt.Logger.Printf("render %s: %v", page, err)
		http.Error(w, "internal error", http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	_, _ = w.Write(buf.Bytes())
}

func (s *Server) pageGames(w http.ResponseWriter, r *http.Request) {
	gs, err := s.games(r.Context())
	if err != nil {
		s.internal(w, r, err)
		return
	}
	ts, err := s.st.Tournaments(r.Context())
	if err != nil {
		s.internal(w, r, err)
		return
	}
	s.render(w, r, "games", map[string]any{"Title": "Games", "Games": gs, "Tournaments": ts, "Announcement": s.announcement(r.Context())})
}

func (s *Server) pageGame(w http.ResponseWriter, r *http.Request) {
	g := chi.URLParam(r, "game")
	if !knownGame(g) {
		s.fail(w, r, http.StatusNotFound, fmt.Sprintf("no game %q: see the games on the front page", g))
		return
	}
	ctx := r.Context()
	rows, err := s.leaderboard(ctx, g)
	if err != nil {
		s.internal(w, r, err)
		return
	}
	running, err := s.st.LadderMatches(ctx, store.MatchFilter{Game: g, Status: store.LadderRunning, Limit: 20})
	if err != nil {
		s.internal(w, r, err)
		return
	}
	recent, err := s.st.LadderMatches(ctx, store.MatchFilter{Game: g, Kind: store.KindLadder, Status: store.LadderDone, Limit: 10})
	if err != nil {
		s.internal(w, r, err)
		return
	}
	all, err := s.st.Tournaments(ctx)
	if err != nil {
		s.internal(w, r, err)
		return
	}
	var ts []store.Tournament
	for _, t := range all {
		if t.Game == g {
			ts = append(ts, t)
		}
	}
	s.render(w, r, "game", map[string]any{"Title": g + " leaderboard", "Game": g, "Rows": rows, "Running": running, "Recent": recent,
		"Tournaments": ts, "Live": true, "Front": s.gameFront(g)})
}

func (s *Server) pageMatch(w http.ResponseWriter, r *http.Request) {
	id, ok := idParam(r, "id")
	if !ok {
		s.fail(w, r, http.StatusNotFound, "no such match")
		return
	}
	mv, err := s.matchView(r.Context(), r, id)
	if err != nil {
		s.internal(w, r, err)
		return
	}
	s.render(w, r, "match", map[string]any{"Title": fmt.Sprintf("Match %d", id), "M": mv, "Live": mv.Status == store.LadderRunning})
}

func (s *Server) pageBot(w http.ResponseWriter, r *http.Request) {
	id, ok := idParam(r, "id")
	if !ok {
		s.fail(w, r, http.StatusNotFound, "no such bot")
		return
	}
	bv, err := s.botView(r.Context(), r, id)
	if err != nil {
		s.internal(w, r, err)
		return
	}
	s.render(w, r, "bot", map[string]any{"Title": bv.Bot.Name, "B": bv, "Live": true})
}

func (s *Server) pageTournaments(w http.ResponseWriter, r *http.Request) {
	ts, err := s.st.Tournaments(r.Context())
	if err != nil {
		s.internal(w, r, err)
		return
	}
	s.render(w, r, "tournaments", map[string]any{"Title": "Tournaments", "Tournaments": ts})
}

func (s *Server) pageTournament(w http.ResponseWriter, r *http.Request) {
	id, ok := idParam(r, "id")
	if !ok {
		s.fail(w, r, http.StatusNotFound, "no such tournament")
		return
	}
	st, err := tournament.Compute(r.Context(), s.st, id)
	if err != nil {
		s.internal(w, r, err)
		return
	}
	s.render(w, r, "tournament", map[string]any{"Title": st.Tournament, "T": st, "Live": st.Status == "running"})
}

func (s *Server) pageTournamentMatch(w http.ResponseWriter, r *http.Request) {
	id, ok1 := idParam(r, "id")
	idx, err := strconv.Atoi(chi.URLParam(r, "idx"))
	if !ok1 || err != nil {
		s.fail(w, r, http.StatusNotFound, "no such match")
		return
	}
	st, err := tournament.Compute(r.Context(), s.st, id)
	if err != nil {
		s.internal(w, r, err)
		return
	}
	var m *tournament.MatchRow
	for i := range st.Matches {
		if st.Matches[i].Idx == idx {
			m = &st.Matches[i]
		}
	}
	if m == nil {
		s.fail(w, r, http.StatusNotFound, "no such match in this tournament")
		return
	}
	faults, err := s.st.Faults(r.Context(), id, -1)
	if err != nil {
		s.internal(w, r, err)
		return
	}
	var mine []store.Fault
	for _, f := range faults {
		if f.MatchIdx == idx {
			// A tournament's bots are the organiser's command-line entries: no web author owns
			// them, so fault details (stderr quotes) are shown only to organisers.
			if u, ok := current(r); !ok || u.Role != store.RoleOrganiser {
				f.Detail = ""
			}
			mine = append(mine, f)
		}
	}
	s.render(w, r, "tmatch", map[string]any{"Title": m.MatchID, "T": st, "M": m, "Faults": mine})
}

func (s *Server) pageRegister(w http.ResponseWriter, r *http.Request) {
	s.render(w, r, "register", map[string]any{"Title": "Register"})
}

func (s *Server) postRegister(w http.ResponseWriter, r *http.Request) {
	name, pw := strings.TrimSpace(r.PostFormValue("name")), r.PostFormValue("password")
	u, err := s.register(r.Context(), name, pw)
	if errors.Is(err, errBusy) {
		s.busy(w, r, err.Error())
		return
	}
	if err != nil {
		w.WriteHeader(http.StatusBadRequest)
		if errors.Is(err, store.ErrExists) {
			w.WriteHeader(http.StatusConflict)
		}
		s.render(w, r, "register", map[string]any{"Title": "Register", "Error": err.Error(), "Name": name})
		return
	}
	if err := s.startSession(w, r, u); err != nil {
		s.internal(w, r, err)
		return
	}
	http.Redirect(w, r, "/upload", http.StatusSeeOther)
}

func (s *Server) pageLogin(w http.ResponseWriter, r *http.Request) {
	s.render(w, r, "login", map[string]any{"Title": "Log in", "Next": safeNext(r.URL.Query().Get("next"))})
}

// safeNext keeps a redirect target on this site: a path of printable characters that
// starts with one slash. Browsers drop tabs and newlines from a URL and read '\' as '/', so
// "/\t/evil.example" would be "//evil.example", another site.
func safeNext(p string) string {
	if !strings.HasPrefix(p, "/") || strings.HasPrefix(p, "//") || strings.ContainsFunc(p, func(c rune) bool {
		return c <= ' ' || c == 0x7f || c == '\\' || unicode.IsControl(c) || unicode.IsSpace(c)
	}) {
		return "/me"
	}
	if u, err := url.Parse(p); err != nil || u.Scheme != "" || u.Host != "" || u.User != nil {
		return "/me"
	}
	return p
}

func (s *Server) postLogin(w http.ResponseWriter, r *http.Request) {
	name, pw := strings.TrimSpace(r.PostFormValue("name")), r.PostFormValue("password")
	u, err := s.checkPassword(r.Context(), name, pw)
	if errors.Is(err, errBusy) {
		s.busy(w, r, err.Error())
		return
	}
	if err != nil {
		code := http.StatusUnauthorized
		if errors.Is(err, errTooManyFailures) {
			code = http.StatusTooManyRequests
		}
		if errors.Is(err, errDisabled) {
			code = http.StatusForbidden
		}
		w.WriteHeader(code)
		s.render(w, r, "login", map[string]any{"Title": "Log in", "Error": err.Error(), "Name": name, "Next": safeNext(r.PostFormValue("next"))})
		return
	}
	s.endSession(w, r)
	if err := s.startSession(w, r, u); err != nil {
		s.internal(w, r, err)
		return
	}
	http.Redirect(w, r, safeNext(r.PostFormValue("next")), http.StatusSeeOther)
}

func (s *Server) postLogout(w http.ResponseWriter, r *http.Request) {
	s.endSession(w, r)
	http.Redirect(w, r, "/", http.StatusSeeOther)
}

func (s *Server) pageUpload(w http.ResponseWriter, r *http.Request) {
	u, ok := s.needUser(w, r)
	if !ok {
		return
	}
	gs, _ := s.games(r.Context())
	mine, _ := s.st.WebBots(r.Context(), "", u.ID)
	s.render(w, r, "upload", map[string]any{"Title": "Upload a bot", "Games": gs, "Mine": mine, "MaxMiB": s.opt.MaxUpload >> 20})
}

func (s *Server) postUpload(w http.ResponseWriter, r *http.Request) {
	u, ok := s.needUser(w, r)
	if !ok {
		return
	}
	game, name, filename, data, err := s.readUpload(w, r)
	if err == nil {
		var v store.Version
		if v, err = s.accept(r.Context(), u, game, name, filename, data); err == nil {
			http.Redirect(w, r, fmt.Sprintf("/bots/%d#v%d", v.BotID, v.N), http.StatusSeeOther)
			return
		}
	}
	var b *badInput
	if !errors.As(err, &b) {
		s.internal(w, r, err)
		return
	}
	gs, _ := s.games(r.Context())
	w.WriteHeader(b.code)
	s.render(w, r, "upload", map[string]any{"Title": "Upload a bot", "Games": gs, "Error": b.msg, "Game": game, "Name": name, "MaxMiB": s.opt.MaxUpload >> 20})
}

func (s *Server) pageOrganiser(w http.ResponseWriter, r *http.Request) {
	if _, ok := s.needOrganiser(w, r); !ok {
		return
	}
	gs, _ := s.games(r.Context())
	bots, _ := s.st.WebBots(r.Context(), "", 0)
	note, _ := s.st.Announcement(r.Context())
	s.render(w, r, "organiser", map[string]any{"Title": "Organiser", "Games": gs, "Bots": bots, "Stopped": s.stopped.Load(), "Announcement": note})
}

// ratingPlot draws a bot's mu and mu - 3 sigma over its ladder matches as an inline SVG.
func ratingPlot(points []store.RatingPoint) template.HTML {
	if len(points) == 0 {
		return ""
	}
	const w, h, pad = 600.0, 160.0, 24.0
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, p := range points {
		lo = min(lo, p.Mu-3*p.Sigma)
		hi = max(hi, p.Mu)
	}
	if hi-lo < 1 {
		hi, lo = hi+0.5, lo-0.5
	}
	x := func(i int) float64 {
		if len(points) == 1 {
			return w / 2
		}
		return pad + float64(i)*(w-2*pad)/float64(len(points)-1)
	}
	y := func(v float64) float64 { return h - pad - (v-lo)*(h-2*pad)/(hi-lo) }
	var mu, ord strings.Builder
	for i, p := range points {
		fmt.Fprintf(&mu, "%.1f,%.1f ", x(i), y(p.Mu))
		fmt.Fprintf(&ord, "%.1f,%.1f ", x(i), y(p.Mu-3*p.Sigma))
	}
	last := points[len(points)-1]
	return template.HTML(fmt.Sprintf(`<svg class="plot" viewBox="0 0 %.0f %.0f" role="img" aria-label="rating over %d matches">`+
		`<polyline class="mu" points="%s"/><polyline class="ord" points="%s"/>`+
		`<text x="4" y="14">%.1f</text><text x="4" y="%.0f">%.1f</text>`+
		`<text x="%.0f" y="14" text-anchor="end">mu %.1f, mu-3σ %.1f after %d matches</text></svg>`,
		w, h, len(points), mu.String(), ord.String(), hi, h-6, lo, w-4, last.Mu, last.Mu-3*last.Sigma, len(points)))
}
