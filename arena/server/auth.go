package server

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/alexedwards/argon2id"

	"github.com/botarena/arena/arena/names"
	"github.com/botarena/arena/arena/store"
)

// SessionCookie names the session cookie.
const SessionCookie = "arena_session"

// SessionLife is how long a login lasts.
const SessionLife = 14 * 24 * time.Hour

// MinPassword is the shortest password accepted.
const MinPassword = 8

// TokenLife is how long a new API token works unless its maker asks for less.
const TokenLife = 90 * 24 * time.Hour

// LoginWindow is the window of the per-account login limit (Options.AccountLoginFailures).
const LoginWindow = 15 * time.Minute

type ctxKey int

const (
	userKey ctxKey = iota
	csrfKey
	viaTokenKey
)

func randomToken() string {
	b := make([]byte, 32)
	_, _ = rand.Read(b)
	return base64.RawURLEncoding.EncodeToString(b)
}

// hashToken is how session and API tokens are stored: a leaked store holds no usable token.
func hashToken(t string) string {
	h := sha256.Sum256([]byte(t))
	return hex.EncodeToString(h[:])
}

// current returns the logged-in user, if any.
func current(r *http.Request) (store.User, bool) {
	u, ok := r.Context().Value(userKey).(store.User)
	return u, ok
}

func csrfToken(r *http.Request) string {
	t, _ := r.Context().Value(csrfKey).(string)
	return t
}

// authenticate finds the user from the session cookie or an "Authorization: Bearer" API token.
func (s *Server) authenticate(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ctx := r.Context()
		if auth := r.Header.Get("Authorization"); strings.HasPrefix(auth, "Bearer ") {
			u, err := s.st.TokenUser(ctx, hashToken(strings.TrimPrefix(auth, "Bearer ")))
			if err != nil {
				s.fail(w, r, http.StatusUnauthorized, "unknown, expired or revoked API token: make one on /me or with POST /api/v1/tokens")
				return
			}
			ctx = context.WithValue(context.WithValue(ctx, userKey, u), viaTokenKey, true)
		} else if c, err := r.Cookie(SessionCookie); err == nil {
			if u, csrf, err := s.st.SessionUser(ctx, hashToken(c.Value)); err == nil {
				ctx = context.WithValue(context.WithValue(ctx, userKey, u), csrfKey, csrf)
			}
		}
		next.ServeHTTP(w, r.WithContext(ctx))
	})
}

// csrf refuses an unsafe request made with the session cookie unless it carries the session's
// token (form field "csrf" or header X-CSRF-Token). Requests with an API token carry no
// ambient credential and need none; requests without a session (register, login) are covered
// by the cross-origin check alone.
func (s *Server) csrf(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.Method {
		case http.MethodGet, http.MethodHead, http.MethodOptions:
			next.ServeHTTP(w, r)
			return
		}
		want := csrfToken(r)
		if want == "" { // no session: nothing to forge
			next.ServeHTTP(w, r)
			return
		}
		got := r.Header.Get("X-CSRF-Token")
		if got == "" {
			got = r.PostFormValue("csrf")
		}
		if subtle.ConstantTimeCompare([]byte(got), []byte(want)) != 1 {
			s.fail(w, r, http.StatusForbidden, "missing or wrong CSRF token: reload the page and submit the form again")
			return
		}
		next.ServeHTTP(w, r)
	})
}

// register creates an author's account; the error says what to fix. Registering never gives a
// role: organisers are made on the server's command line (arena user).
func (s *Server) register(ctx context.Context, name, password string) (store.User, error) {
	if err := names.User(name); err != nil {
		return store.User{}, err
	}
	if err := PasswordRule(password); err != nil {
		return store.User{}, err
	}
	hash, err := s.hashPassword(ctx, password)
	if err != nil {
		return store.User{}, err
	}
	return s.st.CreateUser(ctx, name, hash, store.RoleAuthor)
}

// PasswordRule checks a new password.
func PasswordRule(password string) error {
	if len(password) < MinPassword || len(password) > 1024 {
		return errors.New("a password has 8 to 1024 characters")
	}
	return nil
}

// HashPassword is how every password is stored (argon2id), by the server and by arena user.
func HashPassword(password string) (string, error) {
	return argon2id.CreateHash(password, argon2id.DefaultParams)
}

// errTooManyFailures is a login refused by the per-account limit, before any password check.
var errTooManyFailures = errors.New("too many failed logins for this account: wait 15 minutes and try again (its sessions and API tokens still work)")

// checkPassword returns the user when the password is right; one message for every failure,
// so the answer does not tell which names exist, and one hash's cost for every check, so its
// time does not either (verifyPassword); errBusy when no hash slot came free in time.
// Failures count against the name (existing or not, in any letter case or look-alike
// spelling) from every address: past Options.AccountLoginFailures in LoginWindow, the name is
// refused without a check.
func (s *Server) checkPassword(ctx context.Context, name, password string) (store.User, error) {
	// Each attempt counts as a failure before the check (so concurrent attempts cannot slip
	// past the limit together) and is given back when the password was right.
	key := names.Key(name)
	if !s.failures.take(key) {
		return store.User{}, errTooManyFailures
	}
	u, err := s.checkPasswordOnce(ctx, name, password)
	if err == nil {
		s.failures.giveBack(key)
	}
	return u, err
}

func (s *Server) checkPasswordOnce(ctx context.Context, name, password string) (store.User, error) {
	wrong := errors.New("wrong user name or password")
	u, err := s.st.UserByName(ctx, name)
	hash := u.PwHash
	if err != nil {
		hash = dummyHash()
	}
	ok, verr := s.verifyPassword(ctx, password, hash)
	if verr != nil {
		return store.User{}, verr
	}
	if err != nil || !ok {
		return store.User{}, wrong
	}
	// Told only to whoever knows the password: the answer says nothing more about the name.
	if disabled, err := s.st.UserDisabled(ctx, u.ID); err != nil || disabled {
		return store.User{}, errDisabled
	}
	return u, nil
}

// errDisabled is a right password for an account an organiser disabled (admin.go).
var errDisabled = errors.New("this account was disabled by an organiser: ask them to enable it")

// startSession sets the session cookie.
func (s *Server) startSession(w http.ResponseWriter, r *http.Request, u store.User) error {
	tok := randomToken()
	if err := s.st.CreateSession(r.Context(), hashToken(tok), u.ID, randomToken(), time.Now().Add(SessionLife)); err != nil {
		return err
	}
	http.SetCookie(w, &http.Cookie{Name: SessionCookie, Value: tok, Path: "/", HttpOnly: true, Secure: s.opt.SecureCookies,
		SameSite: http.SameSiteLaxMode, MaxAge: int(SessionLife / time.Second)})
	return nil
}

func (s *Server) endSession(w http.ResponseWriter, r *http.Request) {
	if c, err := r.Cookie(SessionCookie); err == nil {
		_ = s.st.DeleteSession(r.Context(), hashToken(c.Value))
	}
	http.SetCookie(w, &http.Cookie{Name: SessionCookie, Value: "", Path: "/", HttpOnly: true, Secure: s.opt.SecureCookies,
		SameSite: http.SameSiteLaxMode, MaxAge: -1})
}

// newToken makes an API token for u that works for days (0: Options.TokenLife) and returns it
// (shown once; only its hash is kept). Callers have checked u's password just before.
func (s *Server) newToken(ctx context.Context, u store.User, label string, days int) (string, store.Token, error) {
	tok := "arena_" + randomToken()
	if label == "" {
		label = "token"
	}
	if len(label) > 64 {
		label = label[:64]
	}
	life := s.opt.TokenLife
	if days > 0 && time.Duration(days)*24*time.Hour < life {
		life = time.Duration(days) * 24 * time.Hour
	}
	t, err := s.st.CreateToken(ctx, u.ID, hashToken(tok), label, time.Now().Add(life))
	return tok, t, err
}

// needUser answers 401 (API) or redirects to the login page when nobody is logged in.
func (s *Server) needUser(w http.ResponseWriter, r *http.Request) (store.User, bool) {
	u, ok := current(r)
	if ok {
		return u, true
	}
	if isAPI(r) {
		s.fail(w, r, http.StatusUnauthorized, "log in first: send an API token as 'Authorization: Bearer TOKEN'")
		return u, false
	}
	http.Redirect(w, r, "/login?next="+r.URL.Path, http.StatusSeeOther)
	return u, false
}

func (s *Server) needOrganiser(w http.ResponseWriter, r *http.Request) (store.User, bool) {
	u, ok := s.needUser(w, r)
	if !ok {
		return u, false
	}
	if u.Role != store.RoleOrganiser {
		s.fail(w, r, http.StatusForbidden, "only an organiser may do this (on the server, arena user role NAME organiser gives the role)")
		return u, false
	}
	return u, true
}

// failures counts failed logins per account name key in fixed windows of LoginWindow. Memory
// is bounded by the attempts one window lets in: the per-address limit comes first, and
// entries of past windows are dropped as new ones come.
type failures struct {
	mu    sync.Mutex
	limit int
	m     map[string]*failWindow
	swept time.Time
}

type failWindow struct {
	start time.Time
	n     int
}

func newFailures(limit int) *failures { return &failures{limit: limit, m: map[string]*failWindow{}} }

// take counts one failure of key unless the limit is reached (then it reports false).
func (f *failures) take(key string) bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	now := time.Now()
	if now.Sub(f.swept) >= LoginWindow {
		for k, e := range f.m {
			if now.Sub(e.start) >= LoginWindow {
				delete(f.m, k)
			}
		}
		f.swept = now
	}
	e := f.m[key]
	if e == nil || now.Sub(e.start) >= LoginWindow {
		e = &failWindow{start: now}
		f.m[key] = e
	}
	if e.n >= f.limit {
		return false
	}
	e.n++
	return true
}

// giveBack undoes take's count after a right password.
func (f *failures) giveBack(key string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if e := f.m[key]; e != nil && e.n > 0 {
		e.n--
	}
}
