package server

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/botarena/arena/arena/botspec"
	_ "github.com/botarena/arena/arena/games/all"
	"github.com/botarena/arena/arena/internal/testenv"
	"github.com/botarena/arena/arena/ladder"
	"github.com/botarena/arena/arena/queue"
	"github.com/botarena/arena/arena/queue/queuetest"
	"github.com/botarena/arena/arena/store"
	"github.com/botarena/arena/arena/tournament"
	"github.com/botarena/arena/arena/upload"
	"github.com/botarena/arena/internal/slack"
)

// env is one real server: the embedded SQLite store, the ladder playing real bot processes in
// the sandbox, and an httptest server.
type env struct {
	t   testing.TB
	st  *store.Store
	lad *ladder.Ladder
	srv *Server
	ts  *httptest.Server
}

type envOptions struct {
	secure    bool
	maxUpload int64
	unpack    upload.Limits
	loginRate int
	jobs      int
	noLadder  bool
	games     []string
	fullGames bool // the games' own parameters (the load benchmark)

	trustedProxies []string // Options.TrustedProxies
	quota          store.Quota
	maxTourn       int
	clock          tournament.Clock // the ladder's clock (arena serve's --clock-mode; zero: wall)
	privateHooks   bool             // Options.AllowPrivateWebhooks (a receiver on 127.0.0.1)
	hookRetry      time.Duration    // Options.WebhookRetry
	hookQueue      int              // Options.WebhookQueue
}

func newEnv(t testing.TB, o envOptions) *env {
	t.Helper()
	if err := testenv.CheckPython("arena_sdk"); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	st, err := store.Open(filepath.Join(dir, "arena.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	if o.jobs == 0 {
		o.jobs = 1
	}
	if o.games == nil {
		o.games = []string{"dynamite"}
	}
	// Short dynamite matches (first to 100 points) keep the tests quick; the game is the same.
	params := map[string]map[string]string{"dynamite": {"target": "100"}}
	if o.fullGames {
		params = nil
	}
	// Every match goes through a real embedded JetStream queue, played by the ladder's own workers.
	q := queuetest.Start(t, queue.Config{})
	lad := &ladder.Ladder{Store: st, Queue: q, Resolver: &botspec.Resolver{Python: testenv.Python()}, Jobs: o.jobs, LocalJobs: o.jobs,
		Games: o.games, Pause: 50 * time.Millisecond, Params: params, Clock: o.clock,
		// TestCollection sees a replaced version collected after one newer upload.
		KeepVersions: 1}
	srv, err := New(context.Background(), st, lad, Options{SecureCookies: o.secure, MaxUpload: o.maxUpload, Unpack: o.unpack,
		LoginRate: o.loginRate, TrustedProxies: o.trustedProxies, Quota: o.quota, MaxTournamentMatches: o.maxTourn,
		AllowPrivateWebhooks: o.privateHooks, WebhookRetry: o.hookRetry, WebhookQueue: o.hookQueue})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(srv.Close)
	ts := httptest.NewServer(srv)
	t.Cleanup(ts.Close)
	if !o.noLadder {
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan struct{})
		go func() { lad.Run(ctx); close(done) }()
		t.Cleanup(func() { cancel(); <-done })
	}
	return &env{t: t, st: st, lad: lad, srv: srv, ts: ts}
}

// client is a browser-like user: a cookie and the CSRF token of its session.
type client struct {
	e      *env
	name   string
	cookie *http.Cookie
	csrf   string
	token  string
}

var noRedirect = &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }, Timeout: time.Minute}

// register makes an account through the form and keeps its session cookie.
func (e *env) register(name string) *client {
	e.t.Helper()
	resp, err := noRedirect.PostForm(e.ts.URL+"/register", url.Values{"name": {name}, "password": {"password-" + name}})
	if err != nil {
		e.t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusSeeOther {
		e.t.Fatalf("register %s: %s", name, resp.Status)
	}
	return e.session(name, "password-"+name, resp)
}

// organiser makes an organiser the one way there is, on the store (what arena user add does),
// and logs in as it.
func (e *env) organiser(name string) *client {
	e.t.Helper()
	hash, err := HashPassword("password-" + name)
	if err != nil {
		e.t.Fatal(err)
	}
	if _, err := e.st.CreateUser(context.Background(), name, hash, store.RoleOrganiser); err != nil {
		e.t.Fatal(err)
	}
	return e.login(name, "password-"+name)
}

// login logs in through the form.
func (e *env) login(name, password string) *client {
	e.t.Helper()
	resp, err := noRedirect.PostForm(e.ts.URL+"/login", url.Values{"name": {name}, "password": {password}})
	if err != nil {
		e.t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusSeeOther {
		e.t.Fatalf("login %s: %s", name, resp.Status)
	}
	return e.session(name, password, resp)
}

// session is the client of a register or login answer: its cookie, the CSRF token of its
// session, and an API token.
func (e *env) session(name, password string, resp *http.Response) *client {
	e.t.Helper()
	c := &client{e: e, name: name}
	for _, ck := range resp.Cookies() {
		if ck.Name == SessionCookie {
			c.cookie = ck
		}
	}
	if c.cookie == nil {
		e.t.Fatalf("%s: no session cookie", name)
	}
	page := c.get("/upload", http.StatusOK)
	m := regexp.MustCompile(`name="csrf" value="([^"]+)"`).FindStringSubmatch(page)
	if m == nil {
		e.t.Fatalf("no CSRF token on the upload page:\n%s", page)
	}
	c.csrf = m[1]
	var tok struct{ Token string }
	c.apiJSON("POST", "/api/v1/tokens", map[string]string{"name": name, "password": password}, http.StatusCreated, &tok)
	c.token = tok.Token
	return c
}

func (c *client) do(req *http.Request, want int) string {
	c.e.t.Helper()
	// Scripts call the API with their token, never the browser's cookie.
	if c.cookie != nil && !strings.HasPrefix(req.URL.Path, "/api/") {
		req.AddCookie(c.cookie)
	}
	resp, err := noRedirect.Do(req)
	if err != nil {
		c.e.t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if want != 0 && resp.StatusCode != want {
		c.e.t.Fatalf("%s %s: %s, want %d\n%s", req.Method, req.URL.Path, resp.Status, want, b)
	}
	return string(b)
}

func (c *client) get(path string, want int) string {
	req, _ := http.NewRequest("GET", c.e.ts.URL+path, nil)
	return c.do(req, want)
}

// apiJSON calls the API with the client's token (none for a nil client token).
func (c *client) apiJSON(method, path string, body any, want int, out any) string {
	c.e.t.Helper()
	var rd io.Reader
	if body != nil {
		b, _ := json.Marshal(body)
		rd = bytes.NewReader(b)
	}
	req, _ := http.NewRequest(method, c.e.ts.URL+path, rd)
	if c.token != "" {
		req.Header.Set("Authorization", "Bearer "+c.token)
	}
	s := c.do(req, want)
	if out != nil {
		if err := json.Unmarshal([]byte(s), out); err != nil {
			c.e.t.Fatalf("%s %s: %v\n%s", method, path, err, s)
		}
	}
	return s
}

// multipartBody is an upload form.
func multipartBody(fields map[string]string, filename string, data []byte) (string, []byte) {
	var buf bytes.Buffer
	w := multipart.NewWriter(&buf)
	for k, v := range fields {
		w.WriteField(k, v)
	}
	if filename != "" {
		f, _ := w.CreateFormFile("file", filename)
		f.Write(data)
	}
	w.Close()
	return w.FormDataContentType(), buf.Bytes()
}

// uploadForm posts the upload form with the session cookie and the given CSRF token.
func (c *client) uploadForm(csrf, game, name, filename string, data []byte, want int) string {
	fields := map[string]string{"game": game, "name": name}
	if csrf != "" {
		fields["csrf"] = csrf
	}
	ct, body := multipartBody(fields, filename, data)
	req, _ := http.NewRequest("POST", c.e.ts.URL+"/upload", bytes.NewReader(body))
	req.Header.Set("Content-Type", ct)
	return c.do(req, want)
}

// uploadAPI uploads with the API token and returns the version.
func (c *client) uploadAPI(game, name, filename string, data []byte, want int) VersionView {
	c.e.t.Helper()
	ct, body := multipartBody(map[string]string{"game": game, "name": name}, filename, data)
	req, _ := http.NewRequest("POST", c.e.ts.URL+"/api/v1/uploads", bytes.NewReader(body))
	req.Header.Set("Content-Type", ct)
	req.Header.Set("Authorization", "Bearer "+c.token)
	s := c.do(req, want)
	var v VersionView
	if want == http.StatusAccepted {
		if err := json.Unmarshal([]byte(s), &v); err != nil {
			c.e.t.Fatal(err)
		}
	}
	return v
}

// waitVersion polls the API until a version's validation ends.
func (c *client) waitVersion(id int64) VersionView {
	c.e.t.Helper()
	// A Go bot's first build may warm the compiler cache for this checkout (a minute or more
	// on a quiet machine, several on a busy one).
	wait := slack.Of(c.e.t, 4*time.Minute)
	deadline := time.Now().Add(wait)
	for time.Now().Before(deadline) {
		var v VersionView
		c.apiJSON("GET", fmt.Sprintf("/api/v1/versions/%d", id), nil, http.StatusOK, &v)
		if v.Status != store.VersionValidating {
			return v
		}
		time.Sleep(100 * time.Millisecond)
	}
	c.e.t.Fatalf("version %d still validating after %v", id, wait)
	return VersionView{}
}

// waitMatches polls the leaderboard until the bot has played n ladder matches.
func (c *client) waitMatches(game, bot string, n int) BoardRow {
	c.e.t.Helper()
	deadline := time.Now().Add(slack.Of(c.e.t, 2*time.Minute))
	for time.Now().Before(deadline) {
		var lb struct{ Leaderboard []BoardRow }
		c.apiJSON("GET", "/api/v1/games/"+game+"/leaderboard", nil, http.StatusOK, &lb)
		for _, r := range lb.Leaderboard {
			if r.Bot == bot && r.Matches >= n {
				return r
			}
		}
		time.Sleep(200 * time.Millisecond)
	}
	c.e.t.Fatalf("%s has not played %d ladder matches in time", bot, n)
	return BoardRow{}
}

// Bots the tests upload.
func exampleBot(t testing.TB) []byte {
	b, err := os.ReadFile("../../examples/python/dynamite/bot.py")
	if err != nil {
		t.Fatal(err)
	}
	return b
}

const crashingBot = `import sys

def make_move(rounds):
    print("about to fail on purpose", file=sys.stderr)
    raise RuntimeError("boom on purpose")
`

func mustContain(t *testing.T, s string, want ...string) {
	t.Helper()
	for _, w := range want {
		if !strings.Contains(s, w) {
			t.Fatalf("missing %q in:\n%s", w, s)
		}
	}
}

func mustNotContain(t *testing.T, s string, bad ...string) {
	t.Helper()
	for _, b := range bad {
		if strings.Contains(s, b) {
			t.Fatalf("unexpected %q in:\n%s", b, s)
		}
	}
}
