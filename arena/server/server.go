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
	"sync"
	"sync/atomic"
	"time"

	"github.com/go-chi/chi/v5"
	"github.com/go-chi/chi/v5/middleware"
	"github.com/go-chi/httprate"

	"github.com/botarena/arena/arena/ladder"
	"github.com/botarena/arena/arena/names"
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
	// LoginRate is how many login attempts one address may make per minute (default 10).
	LoginRate int
	// AccountLoginFailures is how many failed logins one account name may have in LoginWindow,
	// from any number of addresses, before its logins are refused (default 10).
	AccountLoginFailures int
	// TokenLife is how long a new API token works (default TokenLife, 90 days).
	TokenLife time.Duration
	// TrustedProxies are the addresses (CIDR or IP) of reverse proxies whose X-Forwarded-For
	// names the client; from any other peer the header is ignored. None by default: the
	// client is the peer.
	TrustedProxies []string
	// Logger for request errors (default: the standard logger).
	Logger *log.Logger
	// Budget bounds requests, clients and costly work (zero fields: defaults).
	Budget Budget
	// Quota bounds each author's uploads: versions validating at once (default
	// MaxValidating), versions holding files (DefaultMaxVersions) and their bytes
	// (DefaultMaxStored).
	Quota store.Quota
	// MaxTournamentMatches bounds an organiser's tournament (default
	// DefaultMaxTournamentMatches).
	MaxTournamentMatches int
	// AllowPrivateWebhooks lets webhook URLs point at loopback and private addresses (serve
	// --webhooks-private); refused otherwise (webhooks.go).
	AllowPrivateWebhooks bool
	// WebhookRetry is the first wait before a failed delivery is tried again (default 1 s,
	// doubling); WebhookQueue bounds the deliveries waiting (default 256).
	WebhookRetry time.Duration
	WebhookQueue int
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
	limits     limits
	// renders and hashes count replays decoded for viewer pages and passwords hashed (the
	// hostile-web tests read them).
	renders, hashes atomic.Int64
	// failures counts failed logins per account.
	failures *failures
	// running holds the organiser's tournaments this process plays, by id (tournaments.go).
	runningMu sync.Mutex
	running   map[int64]*organised
	// hooks delivers the authors' webhooks (webhooks.go).
	hooks *notifier
}

// New builds a server over an open store and a ladder (not yet running). It seeds the house
// user and bots.
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
	if opt.AccountLoginFailures <= 0 {
		opt.AccountLoginFailures = 10
	}
	if opt.TokenLife <= 0 {
		opt.TokenLife = TokenLife
	}
	proxies, err := trustedPrefixes(opt.TrustedProxies)
	if err != nil {
		return nil, err
	}
	opt.TrustedProxies = proxies
	if opt.Logger == nil {
		opt.Logger = log.Default()
	}
	opt.Budget = opt.Budget.withDefaults()
	if opt.Quota.Validating <= 0 {
		opt.Quota.Validating = MaxValidating
	}
	if opt.Quota.Versions <= 0 {
		opt.Quota.Versions = DefaultMaxVersions
	}
	if opt.Quota.Bytes <= 0 {
		opt.Quota.Bytes = DefaultMaxStored
	}
	if opt.MaxTournamentMatches <= 0 {
		opt.MaxTournamentMatches = DefaultMaxTournamentMatches
	}
	if err := os.MkdirAll(filepath.Join(opt.DataDir, "versions"), 0o700); err != nil {
		return nil, fmt.Errorf("data folder %s: %w: give a writable --data folder", opt.DataDir, err)
	}
	s := &Server{st: st, lad: lad, opt: opt, events: newBroker(), limits: newLimits(opt.Budget), failures: newFailures(opt.AccountLoginFailures),
		running: map[int64]*organised{}}
	if lad.DataDir == "" {
		lad.DataDir = opt.DataDir // the ladder collects the files of versions nobody plays
	}
	if paused, err := st.Setting(ctx, pausedSetting); err != nil {
		return nil, err
	} else if paused == "true" {
		s.stopped.Store(true)
	}
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
	if err := s.noteOrganisers(ctx); err != nil {
		return nil, err
	}
	s.hooks = newNotifier(s)
	prev := lad.OnEvent
	lad.OnEvent = func(e ladder.Event) {
		if prev != nil {
			prev(e)
		}
		s.events.publish(public(e))
		s.hooks.event(e)
	}
	lad.Stopped = s.stopped.Load
	s.handler = s.routes()
	return s, nil
}

// houseUser owns the house bots.
const houseUser = names.House

// ServeHTTP serves every page and API call.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) { s.handler.ServeHTTP(w, r) }

func (s *Server) routes() http.Handler {
	r := chi.NewRouter()
	// The client is the peer address, or what a trusted proxy says it is (Options.TrustedProxies).
	// The budget comes before anything reads a body: authenticate reads headers only, forms
	// parses the body once within the budget's bound, and the CSRF check reads that form.
	r.Use(middleware.Recoverer, middleware.ClientIPFromRemoteAddr)
	if len(s.opt.TrustedProxies) > 0 {
		r.Use(middleware.ClientIPFromXFF(s.opt.TrustedProxies...))
	}
	r.Use(s.requestBudget, s.authenticate, s.forms, s.auditOrganiser)
	r.Get("/static/{name}", s.serveStatic)
	byClient := func(r *http.Request) (string, error) {
		return httprate.CanonicalizeIP(middleware.GetClientIP(r.Context())), nil
	}
	loginLimit := httprate.LimitBy(s.opt.LoginRate, time.Minute, byClient,
		httprate.WithLimitHandler(func(w http.ResponseWriter, r *http.Request) {
			s.fail(w, r, http.StatusTooManyRequests, "too many login attempts from this address: wait a minute and try again")
		}))

	// One count for the form and the API.
	registerLimit := s.registerLimits()

	// Pages.
	r.Group(func(r chi.Router) {
		r.Use(s.csrf)
		r.Get("/", s.pageGames)
		r.Get("/games/{game}", s.pageGame)
		r.Get("/games/{game}/matches", s.pageMatchList)
		s.frontRoutes(r)
		r.Get("/matches/{id}", s.pageMatch)
		r.Get("/matches/{id}/viewer", s.pageViewer)
		r.Get("/matches/{id}/replay.json", s.downloadReplay)
		r.Get("/bots/{id}", s.pageBot)
		r.Get("/bots/{id}/compare", s.pageCompare)
		r.Get("/tournaments", s.pageTournaments)
		r.Get("/tournaments/{id}", s.pageTournament)
		r.Get("/tournaments/{id}/matches/{idx}", s.pageTournamentMatch)
		r.Get("/tournaments/{id}/matches/{idx}/viewer", s.pageTournamentViewer)
		r.Get("/register", s.pageRegister)
		r.With(registerLimit).Post("/register", s.postRegister)
		r.Get("/login", s.pageLogin)
		r.With(loginLimit).Post("/login", s.postLogin)
		r.Post("/logout", s.postLogout)
		r.Post("/logout/everywhere", s.postLogoutEverywhere)
		r.Get("/upload", s.pageUpload)
		r.Post("/upload", s.postUpload)
		r.Get("/me", s.pageMe)
		r.With(loginLimit).Post("/me/tokens", s.postToken)
		r.Post("/me/tokens/{id}/revoke", s.postRevokeToken)
		r.With(loginLimit).Post("/me/password", s.postPassword)
		r.Post("/bots/{id}/disable", s.postDisable(true))
		r.Post("/bots/{id}/enable", s.postDisable(false))
		r.Post("/bots/{id}/pin", s.postPin)
		r.Post("/matches/{id}/replay", s.postReplayMatch)
		r.Get("/organiser", s.pageOrganiser)
		r.Post("/organiser/tournaments", s.postTournament)
		r.Post("/organiser/ladder", s.postLadderSwitch)
		r.Post("/organiser/tournaments/{id}/cancel", s.postCancelTournament)
		s.adminPages(r)
	})
	r.Get("/events", s.serveEvents)
	r.NotFound(func(w http.ResponseWriter, r *http.Request) {
		s.fail(w, r, http.StatusNotFound, "no such page: start from the games on the front page")
	})

	r.Route("/api/v1", func(r chi.Router) {
		r.Use(s.csrf)
		r.Get("/games", s.apiGames)
		r.Get("/games/{game}/leaderboard", s.apiLeaderboard)
		r.Get("/games/{game}/matches", s.apiMatchList)
		r.Get("/matches/{id}", s.apiMatch)
		r.Get("/matches/{id}/replay", s.downloadReplay)
		r.Get("/matches/{id}/logs", s.apiMatchLogs)
		r.Get("/bots/{id}", s.apiBot)
		r.Get("/bots/{id}/compare", s.apiCompare)
		r.Get("/versions/{id}", s.apiVersion)
		r.Get("/versions/{id}/files", s.apiVersionFiles)
		r.Get("/tournaments", s.apiTournaments)
		r.Get("/tournaments/{id}", s.apiTournament)
		r.Get("/tournaments/{id}/matches/{idx}/replay", s.apiTournamentReplay)
		r.With(registerLimit).Post("/users", s.apiRegister)
		r.With(loginLimit).Post("/tokens", s.apiToken)
		r.Get("/tokens", s.apiTokens)
		r.Delete("/tokens/{id}", s.apiRevokeToken)
		r.Get("/me", s.apiMe)
		r.With(loginLimit).Post("/me/password", s.apiPassword)
		r.Post("/me/logout", s.apiLogoutEverywhere)
		r.Post("/uploads", s.apiUpload)
		r.Post("/bots/{id}/disable", s.postDisable(true))
		r.Post("/bots/{id}/enable", s.postDisable(false))
		r.Post("/bots/{id}/pin", s.postPin)
		r.Post("/matches/{id}/replay", s.postReplayMatch)
		r.Post("/tournaments", s.postTournament)
		r.Post("/tournaments/{id}/cancel", s.postCancelTournament)
		r.Get("/ladder", s.apiLadder)
		r.Post("/ladder", s.postLadderSwitch)
		s.adminAPI(r)
		r.NotFound(func(w http.ResponseWriter, r *http.Request) {
			s.fail(w, r, http.StatusNotFound, "no such API call: see docs/api.md")
		})
	})
	// Cross-origin unsafe requests (a form on another site posting here) are refused by the
	// browser's own Sec-Fetch-Site and Origin headers, before any handler; the per-session
	// token in s.csrf covers browsers that send neither.
	// Security headers go on first, so that every answer has them: the cross-origin check's
	// refusals, the budget's and net/http's own included.
	return securityHeaders(http.NewCrossOriginProtection().Handler(r))
}

// securityHeaders sets the site's policy on every answer, error pages included; the viewer's
// page replaces it with its own (writeViewer).
func securityHeaders(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("Referrer-Policy", "same-origin")
		h.Set("Cross-Origin-Opener-Policy", "same-origin")
		// Pages run only the server's own static script.
		h.Set("Content-Security-Policy", siteCSP)
		h.Set("X-Frame-Options", "SAMEORIGIN")
		next.ServeHTTP(w, r)
	})
}

const siteCSP = "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; frame-ancestors 'self'; form-action 'self'"

// static files: the style sheet and the live-update script (the templates beside them in
// assets/ are not served).
var static = map[string]string{"style.css": "text/css; charset=utf-8", "live.js": "text/javascript; charset=utf-8",
	"scroll.js": "text/javascript; charset=utf-8"}

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
