package server

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/botarena/arena/arena/store"
)

// postForm posts a page form with the client's session cookie and CSRF token.
func (c *client) postForm(path string, v url.Values, want int) string {
	c.e.t.Helper()
	v.Set("csrf", c.csrf)
	req, _ := http.NewRequest("POST", c.e.ts.URL+path, strings.NewReader(v.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	return c.do(req, want)
}

// loginFrom posts the login form as a client behind X-Forwarded-For (empty: none) and returns
// the status.
func (e *env) loginFrom(name, password, forwarded string) int {
	e.t.Helper()
	req, _ := http.NewRequest("POST", e.ts.URL+"/login", strings.NewReader(url.Values{"name": {name}, "password": {password}}.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	if forwarded != "" {
		req.Header.Set("X-Forwarded-For", forwarded)
	}
	resp, err := noRedirect.Do(req)
	if err != nil {
		e.t.Fatal(err)
	}
	resp.Body.Close()
	return resp.StatusCode
}

// TestOrganiserIsNotAName: registering gives no role, whatever the name; the organiser made on
// the store keeps its name from look-alikes; reserved names are refused.
func TestOrganiserIsNotAName(t *testing.T) {
	t.Parallel()
	e := newEnv(t, envOptions{noLadder: true})
	anon := &client{e: e}
	// Before any organiser exists, the first registration is an author like any other.
	var first store.User
	anon.apiJSON("POST", "/api/v1/users", map[string]string{"name": "Orga", "password": "password-Orga"}, http.StatusCreated, &first)
	if first.Role != store.RoleAuthor {
		t.Fatalf("the first registration got role %q", first.Role)
	}
	e.login("Orga", "password-Orga").get("/organiser", http.StatusForbidden)

	orga := e.organiser("ada")
	orga.get("/organiser", http.StatusOK)
	for _, name := range []string{"ADA", "AdA", "ada"} {
		mustContain(t, anon.apiJSON("POST", "/api/v1/users", map[string]string{"name": name, "password": "12345678"}, http.StatusConflict, nil), "taken")
	}
	mustContain(t, anon.apiJSON("POST", "/api/v1/users", map[string]string{"name": "Orga_", "password": "12345678"}, http.StatusCreated, nil), `"author"`)
	for _, name := range []string{"organiser", "0rganizer", "admin", "Adm1n", "house", "H0USE", "house-beatlast", "root"} {
		mustContain(t, anon.apiJSON("POST", "/api/v1/users", map[string]string{"name": name, "password": "12345678"}, http.StatusBadRequest, nil), "arena")
	}
	for _, name := range []string{"bob1", "bobl"} {
		code := http.StatusCreated
		if name == "bobl" {
			code = http.StatusConflict
		}
		s := anon.apiJSON("POST", "/api/v1/users", map[string]string{"name": name, "password": "12345678"}, code, nil)
		if code == http.StatusConflict {
			mustContain(t, s, `looks too much like \"bob1\"`)
		}
	}
	// The page form answers the same.
	resp, err := noRedirect.PostForm(e.ts.URL+"/register", url.Values{"name": {"h0use"}, "password": {"12345678"}})
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusBadRequest || len(resp.Cookies()) > 0 {
		t.Fatalf("registering h0use: %s %v", resp.Status, resp.Cookies())
	}
}

// TestLookAlikeBotNames: a bot name that reads as the house's, or as another bot of the game,
// is refused before anything is stored.
func TestLookAlikeBotNames(t *testing.T) {
	t.Parallel()
	e := newEnv(t, envOptions{noLadder: true})
	ada, bob := e.register("ada"), e.register("bob")
	bot := exampleBot(t)
	for _, name := range []string{"house-beatlast", "House-rock", "h0use-x", "admin"} {
		ct, body := multipartBody(map[string]string{"game": "dynamite", "name": name}, "bot.py", bot)
		req, _ := http.NewRequest("POST", e.ts.URL+"/api/v1/uploads", strings.NewReader(string(body)))
		req.Header.Set("Content-Type", ct)
		req.Header.Set("Authorization", "Bearer "+ada.token)
		mustContain(t, ada.do(req, http.StatusBadRequest), "arena")
	}
	ada.uploadAPI("dynamite", "r0cky", "bot.py", bot, http.StatusAccepted)
	ada.uploadAPI("dynamite", "r0cky", "bot.py", bot, http.StatusAccepted) // its own bot, again
	for _, name := range []string{"rOcky", "R0CKY", "r0cky"} {
		ct, body := multipartBody(map[string]string{"game": "dynamite", "name": name}, "bot.py", bot)
		req, _ := http.NewRequest("POST", e.ts.URL+"/api/v1/uploads", strings.NewReader(string(body)))
		req.Header.Set("Content-Type", ct)
		req.Header.Set("Authorization", "Bearer "+bob.token)
		bob.do(req, http.StatusConflict)
	}
	if bots, _ := e.st.WebBots(context.Background(), "dynamite", 0); len(bots) != 2 { // the house bot and r0cky
		t.Fatalf("bots after refused look-alikes: %+v", bots)
	}
}

type tokenList struct {
	Tokens []store.Token
}

// TestTokens: minting needs the password; tokens are listed with an expiry, revoked by their
// owner only, and a revoked or expired one is refused.
func TestTokens(t *testing.T) {
	t.Parallel()
	e := newEnv(t, envOptions{noLadder: true})
	ada, bob := e.register("ada"), e.register("bob")

	// A session alone does not mint: the form needs the password.
	mustContain(t, ada.postForm("/me/tokens", url.Values{"label": {"x"}}, http.StatusUnauthorized), "password")
	mustContain(t, ada.postForm("/me/tokens", url.Values{"label": {"x"}, "password": {"wrong password"}}, http.StatusUnauthorized), "wrong password")
	// A token alone does not either: the API call is a name and a password, whoever asks.
	ada.apiJSON("POST", "/api/v1/tokens", map[string]string{"name": "ada"}, http.StatusUnauthorized, nil)
	var list tokenList
	ada.apiJSON("GET", "/api/v1/tokens", nil, http.StatusOK, &list)
	if len(list.Tokens) != 1 {
		t.Fatalf("after refused mints ada has %d tokens, want 1", len(list.Tokens))
	}
	if left := time.Until(list.Tokens[0].Expires); left < 89*24*time.Hour || left > 90*24*time.Hour {
		t.Fatalf("a new token expires in %v, want 90 days", left)
	}
	page := ada.postForm("/me/tokens", url.Values{"label": {"ci"}, "days": {"2"}, "password": {"password-ada"}}, http.StatusOK)
	mustContain(t, page, `id="token">arena_`)
	var made struct {
		Token   string
		ID      int64
		Expires time.Time
	}
	ada.apiJSON("POST", "/api/v1/tokens", map[string]any{"name": "ada", "password": "password-ada", "label": "short", "days": 1}, http.StatusCreated, &made)
	if left := time.Until(made.Expires); left > 24*time.Hour || left < 23*time.Hour {
		t.Fatalf("a one-day token expires in %v", left)
	}
	ada.apiJSON("GET", "/api/v1/tokens", nil, http.StatusOK, &list)
	if len(list.Tokens) != 3 {
		t.Fatalf("ada's tokens: %+v", list.Tokens)
	}
	mustContain(t, ada.get("/me", http.StatusOK), ">ci<", ">short<", "revoke")

	// Bob cannot revoke ada's token; ada can, and it stops working at once.
	bob.apiJSON("DELETE", fmt.Sprintf("/api/v1/tokens/%d", made.ID), nil, http.StatusNotFound, nil)
	short := &client{e: e, token: made.Token}
	short.apiJSON("GET", "/api/v1/me", nil, http.StatusOK, nil)
	ada.apiJSON("DELETE", fmt.Sprintf("/api/v1/tokens/%d", made.ID), nil, http.StatusNoContent, nil)
	mustContain(t, short.apiJSON("GET", "/api/v1/me", nil, http.StatusUnauthorized, nil), "revoked")
	// The page's revoke button.
	ada.apiJSON("GET", "/api/v1/tokens", nil, http.StatusOK, &list)
	ada.postForm(fmt.Sprintf("/me/tokens/%d/revoke", list.Tokens[0].ID), url.Values{}, http.StatusSeeOther)
	ada.apiJSON("GET", "/api/v1/tokens", nil, http.StatusOK, &list)
	if len(list.Tokens) != 1 {
		t.Fatalf("after two revocations ada has %+v", list.Tokens)
	}

	// An expired token is refused (and forgotten).
	u, _ := e.st.UserByName(context.Background(), "ada")
	if _, err := e.st.CreateToken(context.Background(), u.ID, hashToken("arena_expired"), "old", time.Now().Add(-time.Second)); err != nil {
		t.Fatal(err)
	}
	(&client{e: e, token: "arena_expired"}).apiJSON("GET", "/api/v1/me", nil, http.StatusUnauthorized, nil)
}

// TestLogoutEverywhereAndPasswordChange: logging out everywhere ends every session (and, when
// asked, every token); a password change ends the other sessions and needs the old password.
func TestLogoutEverywhereAndPasswordChange(t *testing.T) {
	t.Parallel()
	e := newEnv(t, envOptions{noLadder: true, loginRate: 100})
	one := e.register("ada")
	two := e.login("ada", "password-ada")
	two.get("/me", http.StatusOK)
	mustContain(t, one.get("/me", http.StatusOK), "logged in in 2 places")
	one.postForm("/logout/everywhere", url.Values{}, http.StatusSeeOther)
	two.get("/me", http.StatusSeeOther) // to the login page: its session ended
	one.get("/me", http.StatusSeeOther)
	one.apiJSON("GET", "/api/v1/me", nil, http.StatusOK, nil) // tokens were not asked for

	three, four := e.login("ada", "password-ada"), e.login("ada", "password-ada")
	mustContain(t, three.postForm("/me/password", url.Values{"password": {"wrong password"}, "new_password": {"new password"}}, http.StatusUnauthorized), "wrong password")
	four.get("/me", http.StatusOK)
	mustContain(t, three.postForm("/me/password", url.Values{"password": {"password-ada"}, "new_password": {"short"}}, http.StatusBadRequest), "8 to 1024")
	mustContain(t, three.postForm("/me/password", url.Values{"password": {"password-ada"}, "new_password": {"new password"}}, http.StatusOK), "Password changed")
	three.get("/me", http.StatusOK)
	four.get("/me", http.StatusSeeOther)
	if code := e.loginFrom("ada", "password-ada", ""); code != http.StatusUnauthorized {
		t.Fatalf("the old password after a change: %d", code)
	}
	five := e.login("ada", "new password")

	// Through the API: a password change with revoke_tokens ends every session and token.
	var res struct{ SessionsEnded, TokensRevoked int }
	five.apiJSON("POST", "/api/v1/me/password", map[string]any{"password": "new password", "new_password": "newer password", "revoke_tokens": true}, http.StatusOK, &res)
	three.get("/me", http.StatusSeeOther)
	five.get("/me", http.StatusSeeOther)
	five.apiJSON("GET", "/api/v1/me", nil, http.StatusUnauthorized, nil)

	six := e.login("ada", "newer password")
	seven := e.login("ada", "newer password")
	six.apiJSON("POST", "/api/v1/me/logout", map[string]any{"tokens": true}, http.StatusOK, nil)
	seven.get("/me", http.StatusSeeOther)
	six.apiJSON("GET", "/api/v1/me", nil, http.StatusUnauthorized, nil)
	seven.apiJSON("GET", "/api/v1/me", nil, http.StatusUnauthorized, nil)
}

// TestLoginLimits: failures count against the account from every address; X-Forwarded-For
// counts only from a trusted proxy.
func TestLoginLimits(t *testing.T) {
	t.Parallel()
	t.Run("per account across addresses", func(t *testing.T) {
		// The test server's peer is 127.0.0.1: here it is the trusted proxy, and each attempt
		// comes from another client address.
		e := newEnv(t, envOptions{noLadder: true, loginRate: 3, trustedProxies: []string{"127.0.0.1"}})
		e.register("ada")
		e.register("bob")
		for i := range 10 {
			if code := e.loginFrom("ada", "wrong password", fmt.Sprintf("203.0.113.%d", i+1)); code != http.StatusUnauthorized {
				t.Fatalf("failure %d from a new address: %d, want 401 (per-address limit is 3, each address tried once)", i+1, code)
			}
		}
		for _, name := range []string{"ada", "ADA", "AdA"} {
			if code := e.loginFrom(name, "password-ada", "198.51.100.7"); code != http.StatusTooManyRequests {
				t.Fatalf("login as %s with the right password after 10 failures: %d, want 429", name, code)
			}
		}
		if code := e.loginFrom("bob", "password-bob", "198.51.100.8"); code != http.StatusSeeOther {
			t.Fatalf("another account is not limited: %d", code)
		}
		(&client{e: e}).apiJSON("POST", "/api/v1/tokens", map[string]string{"name": "ada", "password": "password-ada"}, http.StatusTooManyRequests, nil)
	})
	t.Run("concurrent failures", func(t *testing.T) {
		// 30 wrong passwords at once from 30 addresses: at most 10 are checked.
		e := newEnv(t, envOptions{noLadder: true, trustedProxies: []string{"127.0.0.1"}})
		e.register("ada")
		codes := make(chan int, 30)
		for i := range 30 {
			go func() { codes <- e.loginFrom("ada", "wrong password", fmt.Sprintf("203.0.113.%d", i+1)) }()
		}
		checked := 0
		for range 30 {
			if <-codes == http.StatusUnauthorized {
				checked++
			}
		}
		if checked != 10 {
			t.Fatalf("%d of 30 concurrent wrong passwords were checked, want 10", checked)
		}
	})
	t.Run("forwarded headers ignored from untrusted peers", func(t *testing.T) {
		e := newEnv(t, envOptions{noLadder: true, loginRate: 3})
		e.register("ada")
		codes := []int{}
		for i := range 4 {
			codes = append(codes, e.loginFrom("ada", "wrong password", fmt.Sprintf("203.0.113.%d", i+1)))
		}
		if codes[3] != http.StatusTooManyRequests {
			t.Fatalf("codes %v: a forged X-Forwarded-For escaped the per-address limit", codes)
		}
	})
	t.Run("the rightmost untrusted address counts", func(t *testing.T) {
		e := newEnv(t, envOptions{noLadder: true, loginRate: 3, trustedProxies: []string{"127.0.0.0/8"}})
		e.register("ada")
		codes := []int{}
		for i := range 4 {
			// The client forges a leftmost entry each time; the proxy appends the real one.
			codes = append(codes, e.loginFrom("ada", "wrong password", fmt.Sprintf("192.0.2.%d, 198.51.100.9", i+1)))
		}
		if codes[3] != http.StatusTooManyRequests {
			t.Fatalf("codes %v: a client's own X-Forwarded-For entry escaped the per-address limit", codes)
		}
	})
}
