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
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/botarena/arena/arena/store"
)

// SessionCookie names the session cookie.
const SessionCookie = "arena_session"

// SessionLife is how long a login lasts.
const SessionLife = 14 * 24 * time.Hour

// MinPassword is the shortest password accepted.
const MinPassword = 8

var namePattern = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9_.-]{0,39}$`)

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
				s.fail(w, r, http.StatusUnauthorized, "unknown API token: make one on /me or with POST /api/v1/tokens")
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

// register creates an account; the error says what to fix.
func (s *Server) register(ctx context.Context, name, password string) (store.User, error) {
	if !namePattern.MatchString(name) {
		return store.User{}, errors.New("a user name is 1 to 40 letters, digits, '.', '_' or '-', starting with a letter or digit")
	}
	if strings.EqualFold(name, houseUser) {
		return store.User{}, errors.New("that name is the arena's own: pick another")
	}
	if len(password) < MinPassword || len(password) > 1024 {
		return store.User{}, errors.New("a password has 8 to 1024 characters")
	}
	hash, err := s.hashPassword(ctx, password)
	if err != nil {
		return store.User{}, err
	}
	role := store.RoleAuthor
	if slices.ContainsFunc(s.opt.Organisers, func(o string) bool { return strings.EqualFold(o, name) }) {
		role = store.RoleOrganiser
	}
	return s.st.CreateUser(ctx, name, hash, role)
}

// checkPassword returns the user when the password is right; one message for every failure,
// so the answer does not tell which names exist, and one hash's cost for every check, so its
// time does not either (verifyPassword). errBusy when no hash slot came free in time.
func (s *Server) checkPassword(ctx context.Context, name, password string) (store.User, error) {
	wrong := errors.New("wrong user name or password")
	u, err := s.st.UserByName(ctx, name)
	hash := u.PwHash
	if err != nil {
		hash = dummyHash
	}
	ok, verr := s.verifyPassword(ctx, password, hash)
	if verr != nil {
		return store.User{}, verr
	}
	if err != nil || !ok {
		return store.User{}, wrong
	}
	return u, nil
}

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

// newToken makes an API token for u and returns it (shown once; only its hash is kept).
func (s *Server) newToken(ctx context.Context, u store.User, label string) (string, error) {
	tok := "arena_" + randomToken()
	if label == "" {
		label = "token"
	}
	if len(label) > 64 {
		label = label[:64]
	}
	return tok, s.st.CreateToken(ctx, u.ID, hashToken(tok), label)
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
		s.fail(w, r, http.StatusForbidden, "only an organiser may do this (arena serve --organiser NAME gives the role)")
		return u, false
	}
	return u, true
}
