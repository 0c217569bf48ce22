package server

import (
	"context"
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"html/template"
	"log"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/go-chi/chi/v5"
	"github.com/go-chi/chi/v5/middleware"
	"github.com/go-chi/httprate"

	"github.com/botarena/arena/arena/ladder"
	"github.com/botarena/arena/arena/store"
	"github.com/botarena/arena/arena/upload"
)

// The pages' templates and static files.
//
//go:embed assets
var assets embed.FS

// Options configure a server.
type Options struct {
	// DataDir holds every uploaded version's files (default: the store's path + ".files").
	DataDir string
	// SecureCookies marks the session cookie Secure (HTTPS only); off for plain-HTTP local use.
	SecureCookies bool
	// MaxUpload bounds an upload request's body (default 16 MiB).
	MaxUpload int64
	// Unpack bounds what an upload may unpack to (default upload.DefaultLimits).
	Unpack upload.Limits
	// Organisers are user names that get the organiser role (at start and when they register).
	Organisers []string
	// LoginRate is how many login attempts one address may make per minute (default 10).
	LoginRate int
	// Logger for request errors (default: the standard logger).
	Logger *log.Logger
}

// Server is arena serve's HTTP side: pages, the JSON API, accounts, uploads, live events.
type Server struct {
	st      *store.Store
	lad     *ladder.Ladder
	opt     Options
	pages   map[string]*template.Template
	events  *broker
	stopped atomic.Bool // the organiser paused the ladder
	handler http.Handler
	// pagesCache keeps rendered viewer pages.
	pagesCache pageCache
}

// New builds a server over an open store and a ladder (not yet running). It seeds the house
// user and bots and gives the organisers their role.
func New(ctx context.Context, st *store.Store, lad *ladder.Ladder, opt Options) (*Server, error) {
	if opt.DataDir == "" {
		opt.DataDir = st.Path + ".files"
	}
	if opt.MaxUpload <= 0 {
		opt.MaxUpload = 16 << 20
	}
	if opt.LoginRate <= 0 {
		opt.LoginRate = 10
	}
	if opt.Logger == nil {
		opt.Logger = log.Default()
	}
	if err := os.MkdirAll(filepath.Join(opt.DataDir, "versions"), 0o700); err != nil {
		return nil, fmt.Errorf("data folder %s: %w: give a writable --data folder", opt.DataDir, err)
	}
	s := &Server{st: st, lad: lad, opt: opt, events: newBroker()}
	if err := s.parseTemplates(); err != nil {
		return nil, err
	}
	house, err := st.UserByName(ctx, houseUser)
	if errors.Is(err, store.ErrNotFound) {
		// Nobody can log in as the house: its password hash is not a hash.
		house, err = st.CreateUser(ctx, houseUser, "!", store.RoleAuthor)
	}
	if err != nil {
		return nil, err
	}
	if err := lad.SeedHouse(ctx, house.ID); err != nil {
		return nil, err
	}
	for _, o := range opt.Organisers {
		if err := st.SetRole(ctx, o, store.RoleOrganiser); err != nil && !errors.Is(err, store.ErrNotFound) {
			return nil, err
		}
	}
	prev := lad.OnEvent
	lad.OnEvent = func(e ladder.Event) {
		if prev != nil {
			prev(e)
		}
		s.events.publish(e)
	}
	lad.Stopped = s.stopped.Load
	s.handler = s.routes()
	return s, nil
}

// houseUser owns the house bots.
const houseUser = "house"

// ServeHTTP serves every page and API call.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) { s.handler.ServeHTTP(w, r) }

func (s *Server) routes() http.Handler {
	r := chi.NewRouter()
	// The server faces its clients directly (no trusted proxy): the client is the peer address.
	r.Use(middleware.Recoverer, middleware.ClientIPFromRemoteAddr, securityHeaders, s.authenticate)
	r.Get("/static/{name}", s.serveStatic)
	byClient := func(r *http.Request) (string, error) {
		return httprate.CanonicalizeIP(middleware.GetClientIP(r.Context())), nil
	}
	loginLimit := httprate.LimitBy(s.opt.LoginRate, time.Minute, byClient,
		httprate.WithLimitHandler(func(w http.ResponseWriter, r *http.Request) {
			s.fail(w, r, http.StatusTooManyRequests, "too many login attempts from this address: wait a minute and try again")
		}))

	// Pages.
	r.Group(func(r chi.Router) {
		r.Use(s.csrf)
		r.Get("/", s.pageGames)
		r.Get("/games/{game}", s.pageGame)
		r.Get("/games/{game}/matches", s.pageMatches)
		r.Get("/matches/{id}", s.pageMatch)
		r.Get("/matches/{id}/viewer", s.pageViewer)
		r.Get("/matches/{id}/replay.json", s.downloadReplay)
		r.Get("/bots/{id}", s.pageBot)
		r.Get("/tournaments", s.pageTournaments)
		r.Get("/tournaments/{id}", s.pageTournament)
		r.Get("/tournaments/{id}/matches/{idx}", s.pageTournamentMatch)
		r.Get("/tournaments/{id}/matches/{idx}/viewer", s.pageTournamentViewer)
		r.Get("/register", s.pageRegister)
		r.Post("/register", s.postRegister)
		r.Get("/login", s.pageLogin)
		r.With(loginLimit).Post("/login", s.postLogin)
		r.Post("/logout", s.postLogout)
		r.Get("/upload", s.pageUpload)
		r.Post("/upload", s.postUpload)
		r.Get("/me", s.pageMe)
		r.Post("/me/tokens", s.postToken)
		r.Post("/bots/{id}/disable", s.postDisable(true))
		r.Post("/bots/{id}/enable", s.postDisable(false))
		r.Post("/matches/{id}/replay", s.postReplayMatch)
		r.Get("/organiser", s.pageOrganiser)
		r.Post("/organiser/tournaments", s.postTournament)
		r.Post("/organiser/ladder", s.postLadderSwitch)
	})
	r.Get("/events", s.serveEvents)
	r.NotFound(func(w http.ResponseWriter, r *http.Request) {
		s.fail(w, r, http.StatusNotFound, "no such page: start from the games on the front page")
	})

	r.Route("/api/v1", func(r chi.Router) {
		r.Use(s.csrf)
		r.Get("/games", s.apiGames)
		r.Get("/games/{game}/leaderboard", s.apiLeaderboard)
		r.Get("/games/{game}/matches", s.apiMatches)
		r.Get("/matches/{id}", s.apiMatch)
		r.Get("/matches/{id}/replay", s.downloadReplay)
		r.Get("/matches/{id}/logs", s.apiMatchLogs)
		r.Get("/bots/{id}", s.apiBot)
		r.Get("/versions/{id}", s.apiVersion)
		r.Get("/versions/{id}/files", s.apiVersionFiles)
		r.Get("/tournaments", s.apiTournaments)
		r.Get("/tournaments/{id}", s.apiTournament)
		r.Get("/tournaments/{id}/matches/{idx}/replay", s.apiTournamentReplay)
		r.Post("/users", s.apiRegister)
		r.With(loginLimit).Post("/tokens", s.apiToken)
		r.Get("/me", s.apiMe)
		r.Post("/uploads", s.apiUpload)
		r.Post("/bots/{id}/disable", s.postDisable(true))
		r.Post("/bots/{id}/enable", s.postDisable(false))
		r.Post("/matches/{id}/replay", s.postReplayMatch)
		r.Post("/tournaments", s.postTournament)
		r.Get("/ladder", s.apiLadder)
		r.Post("/ladder", s.postLadderSwitch)
		r.NotFound(func(w http.ResponseWriter, r *http.Request) {
			s.fail(w, r, http.StatusNotFound, "no such API call: see docs/api.md")
		})
	})
	// Cross-origin unsafe requests (a form on another site posting here) are refused by the
	// browser's own Sec-Fetch-Site and Origin headers, before any handler; the per-session
	// token in s.csrf covers browsers that send neither.
	return http.NewCrossOriginProtection().Handler(r)
}

func securityHeaders(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("Referrer-Policy", "same-origin")
		if !strings.HasSuffix(r.URL.Path, "/viewer") {
			// The viewer is one self-contained page with inline script and a policy of its own
			// (viewer.go); everything else runs only the server's own static script.
			h.Set("Content-Security-Policy", "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; frame-ancestors 'self'; form-action 'self'")
			h.Set("X-Frame-Options", "SAMEORIGIN")
		}
		next.ServeHTTP(w, r)
	})
}

// static files: the style sheet and the live-update script (the templates beside them in
// assets/ are not served).
var static = map[string]string{"style.css": "text/css; charset=utf-8", "live.js": "text/javascript; charset=utf-8"}

func (s *Server) serveStatic(w http.ResponseWriter, r *http.Request) {
	name := chi.URLParam(r, "name")
	ct, ok := static[name]
	if !ok {
		s.fail(w, r, http.StatusNotFound, "no such file")
		return
	}
	b, err := assets.ReadFile("assets/" + name)
	if err != nil {
		s.internal(w, r, err)
		return
	}
	w.Header().Set("Content-Type", ct)
	w.Header().Set("Cache-Control", "public, max-age=300")
	_, _ = w.Write(b)
}

// isAPI reports whether a request is a JSON API call.
func isAPI(r *http.Request) bool { return strings.HasPrefix(r.URL.Path, "/api/") }

// fail answers an error: JSON for the API, a page otherwise. msg names the problem and the fix.
func (s *Server) fail(w http.ResponseWriter, r *http.Request, code int, msg string) {
	if isAPI(r) || r.URL.Path == "/events" {
		writeJSON(w, code, map[string]any{"error": msg, "status": code})
		return
	}
	w.WriteHeader(code)
	s.render(w, r, "error", map[string]any{"Title": http.StatusText(code), "Code": code, "Message": msg})
}

// internal logs an unexpected error and answers 500 without its details.
func (s *Server) internal(w http.ResponseWriter, r *http.Request, err error) {
	if errors.Is(err, store.ErrNotFound) {
		s.fail(w, r, http.StatusNotFound, err.Error())
		return
	}
	if errors.Is(err, context.Canceled) {
		return
	}
	s.opt.Logger.Printf("%s %s: %v", r.Method, r.URL.Path, err)
	s.fail(w, r, http.StatusInternalServerError, "internal error (logged on the server)")
}

func writeJSON(w http.ResponseWriter, code int, v any) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(code)
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	_ = enc.Encode(v)
}

func idParam(r *http.Request, name string) (int64, bool) {
	id, err := strconv.ParseInt(chi.URLParam(r, name), 10, 64)
	return id, err == nil && id > 0
}
