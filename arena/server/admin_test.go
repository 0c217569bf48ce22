package server

import (
	"context"
	"encoding/csv"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/botarena/arena/arena/store"
)

// TestHostileAdminEndpoints: an author, a visitor and a forged form reach none of the
// organiser's calls or pages, and an author sees no other author's code by any of them.
func TestHostileAdminEndpoints(t *testing.T) {
	t.Parallel()
	e := newEnv(t, envOptions{noLadder: true})
	ada, bob := e.register("ada"), e.register("bob")
	v := fixtureVersion(t, e, "bob", "dynamite", "secret", map[string]string{"bot.py": "SECRET_STRATEGY = 1"})
	bobUser, _ := e.st.UserByName(context.Background(), "bob")
	calls := []struct{ method, path string }{
		{"GET", "/api/v1/admin/users"},
		{"POST", fmt.Sprintf("/api/v1/admin/users/%d/disable", bobUser.ID)},
		{"POST", fmt.Sprintf("/api/v1/admin/users/%d/enable", bobUser.ID)},
		{"POST", fmt.Sprintf("/api/v1/admin/users/%d/password", bobUser.ID)},
		{"POST", fmt.Sprintf("/api/v1/admin/users/%d/role", bobUser.ID)},
		{"GET", fmt.Sprintf("/api/v1/admin/bots/%d/code", v.BotID)},
		{"GET", "/api/v1/admin/games/dynamite/standings?format=csv"},
		{"GET", "/api/v1/admin/games/dynamite/standings"},
		{"PUT", "/api/v1/admin/announcement"},
		{"POST", "/api/v1/admin/announcement"},
		{"GET", "/api/v1/admin/audit"},
	}
	for _, c := range calls {
		var body any
		if c.method != "GET" {
			body = map[string]string{"role": "organiser", "text": "pwned"}
		}
		got := ada.apiJSON(c.method, c.path, body, http.StatusForbidden, nil)
		mustNotContain(t, got, "SECRET_STRATEGY", "password\":")
		anon := &client{e: e}
		anon.apiJSON(c.method, c.path, body, http.StatusUnauthorized, nil)
	}
	// The pages: 403 for an author (with her own valid CSRF token), a redirect to log in for a visitor.
	for _, p := range []string{"/organiser/users", fmt.Sprintf("/organiser/bots/%d/code", v.BotID), "/organiser/audit"} {
		mustNotContain(t, ada.get(p, http.StatusForbidden), "SECRET_STRATEGY")
		(&client{e: e}).get(p, http.StatusSeeOther)
	}
	for _, op := range []string{"disable", "password", "role"} {
		ada.postForm(fmt.Sprintf("/organiser/users/%d/%s", bobUser.ID, op), url.Values{"role": {"organiser"}}, http.StatusForbidden)
	}
	ada.postForm("/organiser/announcement", url.Values{"text": {"pwned"}}, http.StatusForbidden)
	// Nothing changed: bob is an author and can log in, there is no announcement, and the
	// author's code is still only bob's to read.
	if u, _ := e.st.UserByName(context.Background(), "bob"); u.Role != store.RoleAuthor {
		t.Fatalf("bob's role: %s", u.Role)
	}
	if d, _ := e.st.UserDisabled(context.Background(), bobUser.ID); d {
		t.Fatal("an author disabled bob")
	}
	if a, _ := e.st.Announcement(context.Background()); a != "" {
		t.Fatalf("an author set the announcement: %q", a)
	}
	ada.apiJSON("GET", fmt.Sprintf("/api/v1/versions/%d/files", v.ID), nil, http.StatusForbidden, nil)
	mustContain(t, bob.apiJSON("GET", fmt.Sprintf("/api/v1/versions/%d/files", v.ID), nil, http.StatusOK, nil), "SECRET_STRATEGY")
	// An organiser's form without the session's CSRF token is refused too.
	orga := e.organiser("orga")
	orga.postFormCSRF("", fmt.Sprintf("/organiser/users/%d/disable", bobUser.ID), nil, http.StatusForbidden)
	if d, _ := e.st.UserDisabled(context.Background(), bobUser.ID); d {
		t.Fatal("a forged form disabled bob")
	}
}

// postFormCSRF posts a form with the session cookie and the given CSRF token ("": none).
func (c *client) postFormCSRF(csrf, path string, v url.Values, want int) string {
	c.e.t.Helper()
	if v == nil {
		v = url.Values{}
	}
	if csrf != "" {
		v.Set("csrf", csrf)
	}
	req, _ := http.NewRequest("POST", c.e.ts.URL+path, strings.NewReader(v.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	return c.do(req, want)
}

// TestOrganiserUsers: an organiser lists, disables, enables, resets and promotes accounts; a
// disabled account cannot log in and its session and tokens stop at once; each action is in
// the audit log.
func TestOrganiserUsers(t *testing.T) {
	t.Parallel()
	e := newEnv(t, envOptions{noLadder: true, loginRate: 100})
	orga := e.organiser("orga")
	bob := e.register("bob")
	ctx := context.Background()
	bu, _ := e.st.UserByName(ctx, "bob")

	var list struct {
		Users []store.UserRow
		Pages struct{ Older string }
	}
	orga.apiJSON("GET", "/api/v1/admin/users?name=BO", nil, http.StatusOK, &list)
	if len(list.Users) != 1 || list.Users[0].Name != "bob" || list.Users[0].Disabled {
		t.Fatalf("users named like bo: %+v", list.Users)
	}
	orga.apiJSON("GET", "/api/v1/admin/users?limit=1", nil, http.StatusOK, &list)
	if len(list.Users) != 1 || list.Pages.Older == "" {
		t.Fatalf("a page of one user: %+v", list)
	}
	orga.apiJSON("GET", "/api/v1/admin/users?limit=5000", nil, http.StatusBadRequest, nil)

	// Disabled: the session and the token stop at once, the password no longer logs in.
	orga.apiJSON("POST", fmt.Sprintf("/api/v1/admin/users/%d/disable", bu.ID), nil, http.StatusOK, nil)
	bob.apiJSON("GET", "/api/v1/me", nil, http.StatusUnauthorized, nil)
	bob.get("/me", http.StatusSeeOther)
	resp, err := noRedirect.PostForm(e.ts.URL+"/login", url.Values{"name": {"bob"}, "password": {"password-bob"}})
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusForbidden {
		t.Fatalf("a disabled account's login: %s", resp.Status)
	}
	mustContain(t, (&client{e: e}).apiJSON("POST", "/api/v1/tokens", map[string]string{"name": "bob", "password": "password-bob"}, http.StatusForbidden, nil), "disabled")
	// A wrong password says nothing about the account being disabled.
	mustNotContain(t, (&client{e: e}).apiJSON("POST", "/api/v1/tokens", map[string]string{"name": "bob", "password": "wrong-password"}, http.StatusUnauthorized, nil), "disabled")

	// Enabled again: the token works again (it was refused, not revoked), the password logs in.
	orga.apiJSON("POST", fmt.Sprintf("/api/v1/admin/users/%d/enable", bu.ID), nil, http.StatusOK, nil)
	bob.apiJSON("GET", "/api/v1/me", nil, http.StatusOK, nil)
	bob = e.login("bob", "password-bob")

	// A reset password: shown once, the old one fails, every session and token ends.
	var reset struct {
		Password      string
		TokensRevoked int `json:"tokens_revoked"`
	}
	orga.apiJSON("POST", fmt.Sprintf("/api/v1/admin/users/%d/password", bu.ID), nil, http.StatusOK, &reset)
	if len(reset.Password) < 16 || reset.TokensRevoked < 2 {
		t.Fatalf("reset: %+v", reset)
	}
	bob.apiJSON("GET", "/api/v1/me", nil, http.StatusUnauthorized, nil)
	bob.get("/me", http.StatusSeeOther)
	(&client{e: e}).apiJSON("POST", "/api/v1/tokens", map[string]string{"name": "bob", "password": "password-bob"}, http.StatusUnauthorized, nil)
	bob = e.login("bob", reset.Password)

	// Roles: bob becomes an organiser and reaches the organiser's calls; a bad role is a 400.
	orga.apiJSON("POST", fmt.Sprintf("/api/v1/admin/users/%d/role", bu.ID), map[string]string{"role": "emperor"}, http.StatusBadRequest, nil)
	orga.apiJSON("POST", fmt.Sprintf("/api/v1/admin/users/%d/role", bu.ID), map[string]string{"role": "organiser"}, http.StatusOK, nil)
	bob.apiJSON("GET", "/api/v1/admin/users", nil, http.StatusOK, nil)
	// Nobody disables or demotes themselves, and the house account is left alone.
	ou, _ := e.st.UserByName(ctx, "orga")
	orga.apiJSON("POST", fmt.Sprintf("/api/v1/admin/users/%d/disable", ou.ID), nil, http.StatusConflict, nil)
	orga.apiJSON("POST", fmt.Sprintf("/api/v1/admin/users/%d/role", ou.ID), map[string]string{"role": "author"}, http.StatusConflict, nil)
	hu, _ := e.st.UserByName(ctx, houseUser)
	orga.apiJSON("POST", fmt.Sprintf("/api/v1/admin/users/%d/password", hu.ID), nil, http.StatusConflict, nil)
	orga.apiJSON("POST", "/api/v1/admin/users/99999/disable", nil, http.StatusNotFound, nil)

	// The page's forms do the same: disable, then the password reset shows the new password once.
	orga.postForm(fmt.Sprintf("/organiser/users/%d/disable", bu.ID), url.Values{}, http.StatusSeeOther)
	page := orga.postForm(fmt.Sprintf("/organiser/users/%d/password", bu.ID), url.Values{}, http.StatusOK)
	mustContain(t, page, `id="new-password"`, "reset-")
	mustContain(t, orga.get("/organiser/users", http.StatusOK), "disabled")

	// Every action is in the audit log, newest first, with who did it; no password is.
	var audit struct{ Audit []store.AuditEntry }
	orga.apiJSON("GET", "/api/v1/admin/audit?limit=200", nil, http.StatusOK, &audit)
	var actions []string
	for _, a := range audit.Audit {
		actions = append(actions, a.Action)
		if a.Actor == "" || strings.Contains(a.Detail, reset.Password) {
			t.Fatalf("audit entry %+v", a)
		}
	}
	want := "[user.password-reset user.disable user.role user.password-reset user.enable user.disable]"
	if fmt.Sprint(actions) != want {
		t.Fatalf("audit log: %v, want %s", actions, want)
	}
	mustContain(t, orga.get("/organiser/audit", http.StatusOK), "user.password-reset", "bob")
}

// TestOrganiserCodeExportAnnouncement: an organiser reads a bot's code with its versions'
// hashes (as text: markup in a file is shown, never rendered), exports the standings with each
// entry's version hash (a name a spreadsheet would run is quoted), sets the announcement; each
// is in the audit log, and so are the older organiser actions (disabling a bot).
func TestOrganiserCodeExportAnnouncement(t *testing.T) {
	t.Parallel()
	e := newEnv(t, envOptions{noLadder: true})
	orga := e.organiser("orga")
	e.register("ada")
	e.register("bob")
	big := strings.Repeat("# filler line\n", (CodeFileBound/14)+100)
	va := fixtureVersion(t, e, "ada", "dynamite", "-2+3", map[string]string{"bot.py": "<script>alert(1)</script>", "data/big.txt": big, "blob.bin": "\x00\x01\x02"})
	vb := fixtureVersion(t, e, "bob", "dynamite", "plain", map[string]string{"bot.py": "print('hi')"})
	fixtureMatch(t, e, va, vb, false)

	var cv CodeView
	orga.apiJSON("GET", fmt.Sprintf("/api/v1/admin/bots/%d/code", va.BotID), nil, http.StatusOK, &cv)
	if cv.Version.Hash != va.Hash || len(cv.Versions) != 1 || len(cv.Files) != 3 {
		t.Fatalf("code view: %+v", cv)
	}
	for _, f := range cv.Files {
		switch f.Path {
		case "bot.py":
			if f.Text != "<script>alert(1)</script>" {
				t.Fatalf("bot.py: %+v", f)
			}
		case "data/big.txt":
			if !f.Cut || len(f.Text) != CodeFileBound || f.Bytes != int64(len(big)) {
				t.Fatalf("big.txt: cut %v, %d bytes shown of %d", f.Cut, len(f.Text), f.Bytes)
			}
		case "blob.bin":
			if f.Text != "" || !strings.Contains(f.Note, "binary") {
				t.Fatalf("blob.bin: %+v", f)
			}
		}
	}
	page := orga.get(fmt.Sprintf("/organiser/bots/%d/code", va.BotID), http.StatusOK)
	mustContain(t, page, "&lt;script&gt;alert(1)&lt;/script&gt;", strings.ReplaceAll(va.Hash, "+", "&#43;"))
	mustNotContain(t, page, "<script>alert(1)")
	orga.apiJSON("GET", fmt.Sprintf("/api/v1/admin/bots/%d/code?version=7", va.BotID), nil, http.StatusNotFound, nil)
	orga.apiJSON("GET", fmt.Sprintf("/api/v1/admin/bots/%d/code?version=x", va.BotID), nil, http.StatusBadRequest, nil)

	// The standings: CSV and JSON name each entry's version and hash, ranked as the leaderboard.
	csvText := orga.apiJSON("GET", "/api/v1/admin/games/dynamite/standings?format=csv", nil, http.StatusOK, nil)
	recs, err := csv.NewReader(strings.NewReader(csvText)).ReadAll()
	if err != nil {
		t.Fatalf("%v\n%s", err, csvText)
	}
	if recs[0][7] != "content_hash" || len(recs) < 3 {
		t.Fatalf("csv: %v", recs)
	}
	found := map[string]string{}
	for _, r := range recs[1:] {
		found[r[1]] = r[7]
	}
	if found["'-2+3"] != va.Hash || found["plain"] != vb.Hash {
		t.Fatalf("csv hashes (a formula-like name quoted): %v", found)
	}
	var js struct{ Standings []StandingRow }
	orga.apiJSON("GET", "/api/v1/admin/games/dynamite/standings?format=json", nil, http.StatusOK, &js)
	if len(js.Standings) != len(recs)-1 || js.Standings[0].Rank != 1 || js.Standings[0].ContentHash == "" && !js.Standings[0].House {
		t.Fatalf("json standings: %+v", js.Standings)
	}
	orga.apiJSON("GET", "/api/v1/admin/games/dynamite/standings?format=xlsx", nil, http.StatusBadRequest, nil)

	// The announcement: one read function in the store, bounded, plain text.
	orga.apiJSON("PUT", "/api/v1/admin/announcement", map[string]string{"text": "Finals <b>Friday</b>"}, http.StatusOK, nil)
	if a, _ := e.st.Announcement(context.Background()); a != "Finals <b>Friday</b>" {
		t.Fatalf("announcement %q", a)
	}
	mustContain(t, (&client{e: e}).apiJSON("GET", "/api/v1/announcement", nil, http.StatusOK, nil), "Finals")
	orga.apiJSON("PUT", "/api/v1/admin/announcement", map[string]string{"text": strings.Repeat("x", MaxAnnouncement+1)}, http.StatusBadRequest, nil)
	orga.apiJSON("PUT", "/api/v1/admin/announcement", map[string]string{"text": "bell\x07"}, http.StatusBadRequest, nil)
	orga.postForm("/organiser/announcement", url.Values{"text": {"From the form"}}, http.StatusSeeOther)
	mustContain(t, orga.get("/organiser", http.StatusOK), "From the form")

	// An older organiser action, disabling a bot, is logged by its route.
	orga.postForm(fmt.Sprintf("/bots/%d/disable", vb.BotID), url.Values{}, http.StatusSeeOther)
	var audit struct{ Audit []store.AuditEntry }
	orga.apiJSON("GET", "/api/v1/admin/audit", nil, http.StatusOK, &audit)
	var actions []string
	for _, a := range audit.Audit {
		actions = append(actions, a.Action)
	}
	want := "[bot.disable announcement.set announcement.set standings.export standings.export code.view code.view]"
	if fmt.Sprint(actions) != want {
		t.Fatalf("audit log: %v, want %s", actions, want)
	}
}
