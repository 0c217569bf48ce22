package server

import (
	"archive/zip"
	"bytes"
	"context"
	"fmt"
	"net/http"
	"regexp"
	"strings"
	"testing"

	"github.com/botarena/arena/arena/game"
	"github.com/botarena/arena/arena/starter"
	"github.com/botarena/arena/arena/store"
)

// TestRulesPages: every game's page shows its rules from docs/rules (headings below the
// page's own), the parameters its ladder matches are played with, and a starter kit per
// language whose link downloads a zip with a README.
func TestRulesPages(t *testing.T) {
	t.Parallel()
	e := newEnv(t, envOptions{noLadder: true})
	c := &client{e: e}
	for _, g := range game.Names() {
		page := c.get("/games/"+g, http.StatusOK)
		mustContain(t, page, `id="rules"`, `docs/rules/`+g+`.md`, `id="kits"`, `id="ladder-settings"`, `id="leaderboard"`, `href="/enter"`)
		rules := page[strings.Index(page, `id="rules"`):]
		if !strings.Contains(rules, "<h3>") || strings.Count(page, "<h1") != 1 {
			t.Errorf("%s: the rules' sections are not h3 under one h1", g)
		}
		spec, _ := game.Lookup(g)
		if seats := fmt.Sprintf("a table of %d,", spec.LadderSeats()); spec.LadderSeats() > 2 && !strings.Contains(page, seats) {
			t.Errorf("%s: the page does not say the ladder seats %q", g, seats)
		} else if spec.LadderSeats() == 2 && !strings.Contains(page, "2 (a pair)") {
			t.Errorf("%s: the page does not say the ladder plays pairs", g)
		}
		for _, p := range spec.Params {
			want := p.Default
			if v, ok := e.lad.GameParams(g)[p.Name]; ok {
				want = v
			}
			if !regexp.MustCompile(`<td><code>` + regexp.QuoteMeta(p.Name) + `</code></td><td>` + regexp.QuoteMeta(want) + `\b`).MatchString(page) {
				t.Errorf("%s: parameter %s is not shown as played on the ladder (%s)", g, p.Name, want)
			}
		}
		links := regexp.MustCompile(`href="(/games/`+g+`/kits/[a-z]+\.zip|/kits/arena-kit-[a-z]+\.zip)"`).FindAllStringSubmatch(page, -1)
		if len(links) < 2*len(starter.Languages()) {
			t.Errorf("%s: %d kit links for %d languages", g, len(links), len(starter.Languages()))
		}
		for _, l := range links {
			resp, err := http.Get(e.ts.URL + l[1])
			if err != nil {
				t.Fatal(err)
			}
			var buf bytes.Buffer
			_, _ = buf.ReadFrom(resp.Body)
			resp.Body.Close()
			if resp.StatusCode != http.StatusOK || resp.Header.Get("Content-Type") != "application/zip" ||
				!strings.Contains(resp.Header.Get("Content-Disposition"), "attachment") {
				t.Fatalf("GET %s: %s %v", l[1], resp.Status, resp.Header)
			}
			zr, err := zip.NewReader(bytes.NewReader(buf.Bytes()), int64(buf.Len()))
			if err != nil {
				t.Fatalf("%s: %v", l[1], err)
			}
			readme := false
			for _, f := range zr.File {
				readme = readme || strings.HasSuffix(f.Name, "/README.md")
			}
			if !readme && strings.HasPrefix(l[1], "/games/") {
				t.Errorf("%s has no README.md", l[1])
			}
		}
	}
	// The ladder's own parameters, not the game's defaults: the harness plays dynamite to 100.
	page := c.get("/games/dynamite", http.StatusOK)
	mustContain(t, page, `<td><code>target</code></td><td>100 <span class="tag">ladder</span></td><td>1000</td>`,
		// The harness's builds have no network: the TypeScript starter says what it needs.
		`dynamite-typescript.zip</a><br><span class="note">its build fetches npm packages`)
	if strings.Count(page, "its build fetches npm packages") != 1 {
		t.Error("a starter other than TypeScript's is said to fetch packages")
	}
	for _, bad := range []string{"/games/dynamite/kits/cobol.zip", "/games/dynamite/kits/python", "/games/nogame/kits/python.zip",
		"/games/dynamite/kits/..%2fpython.zip", "/kits/arena-kit-cobol.zip"} {
		c.get(bad, http.StatusNotFound)
	}
}

// TestRulesMarkdownIsSafe: the rules renderer writes no raw HTML and keeps tables.
func TestRulesMarkdownIsSafe(t *testing.T) {
	h, err := renderMarkdown([]byte("# title\n\nText <script>alert(1)</script> and <img src=x onerror=alert(2)>.\n\n<div onclick=\"x()\">block</div>\n\n" +
		"[link](javascript:alert(3))\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n## Section\n"))
	if err != nil {
		t.Fatal(err)
	}
	s := string(h)
	mustNotContain(t, s, "<script", "<img", "onerror", "onclick", "<h1", "title", "javascript:")
	mustContain(t, s, "<table>", "<td>2</td>", "<h3>Section</h3>")
	for _, g := range game.Names() {
		if rulesHTML(g) == "" {
			t.Errorf("no rules for %s: write docs/rules/%s.md", g, g)
		}
	}
}

// TestAnnouncement: the front page shows the organiser's announcement as text (never as
// HTML), and a too long one is refused with the fix.
func TestAnnouncement(t *testing.T) {
	t.Parallel()
	e := newEnv(t, envOptions{noLadder: true})
	c := &client{e: e}
	page := c.get("/", http.StatusOK)
	mustNotContain(t, page, `id="announcement"`)
	mustContain(t, page, `href="/enter"`, `href="/games/dynamite"`)
	if err := SetAnnouncement(context.Background(), e.st, "  Finals <b>Friday</b> & drinks\n  "); err != nil {
		t.Fatal(err)
	}
	page = c.get("/", http.StatusOK)
	mustContain(t, page, `id="announcement"`, "Finals &lt;b&gt;Friday&lt;/b&gt; &amp; drinks</p>")
	if a, _ := e.srv.Announcement(context.Background()); a != "Finals <b>Friday</b> & drinks" {
		t.Errorf("the stored announcement is %q", a)
	}
	err := SetAnnouncement(context.Background(), e.st, strings.Repeat("x", MaxAnnouncement+1))
	if err == nil || !strings.Contains(err.Error(), "shorten it") {
		t.Errorf("a too long announcement: %v", err)
	}
	if err := SetAnnouncement(context.Background(), e.st, ""); err != nil {
		t.Fatal(err)
	}
	mustNotContain(t, c.get("/", http.StatusOK), `id="announcement"`)
}

// TestStarterKitsUploadBack: a stranger downloads a starter kit from a game's page and
// uploads it unchanged, through the form (Python) and through the API with a token
// (JavaScript): both validate and the Python one plays on the ladder. The "how to enter" page
// names this site in its commands.
func TestStarterKitsUploadBack(t *testing.T) {
	t.Parallel()
	e := newEnv(t, envOptions{})
	ada := e.register("ada")
	enter := ada.get("/enter", http.StatusOK)
	mustContain(t, enter, `href="/upload"`, e.ts.URL+"/api/v1/uploads", e.ts.URL+"/api/v1/tokens", "arena play dynamite dynamite-python house:dynamite/",
		"You are logged in")
	mustContain(t, (&client{e: e}).get("/enter", http.StatusOK), `href="/register"`)

	py := download(t, e.ts.URL+"/games/dynamite/kits/python.zip")
	ada.uploadForm(ada.csrf, "dynamite", "kit", "dynamite-python.zip", py, http.StatusSeeOther)
	js := download(t, e.ts.URL+"/games/dynamite/kits/javascript.zip")
	jv := ada.uploadAPI("dynamite", "jskit", "dynamite-javascript.zip", js, http.StatusAccepted)
	var bots struct{ Bots []store.WebBot }
	ada.apiJSON("GET", "/api/v1/me", nil, http.StatusOK, &bots)
	var pyVersion int64
	for _, b := range bots.Bots {
		if b.Name == "kit" {
			var bv BotView
			ada.apiJSON("GET", fmt.Sprintf("/api/v1/bots/%d", b.ID), nil, http.StatusOK, &bv)
			if len(bv.Versions) == 1 {
				pyVersion = bv.Versions[0].ID
			}
		}
	}
	if pyVersion == 0 {
		t.Fatalf("the form's upload made no version of bot kit: %+v", bots)
	}
	for _, c := range []struct {
		id   int64
		lang string
	}{{pyVersion, "python"}, {jv.ID, "javascript"}} {
		v := ada.waitVersion(c.id)
		if v.Status != store.VersionOK || v.Language != c.lang {
			t.Fatalf("the %s starter kit uploaded back: %s (%s): %s\n%s", c.lang, v.Status, v.Language, v.Verdict, v.LogTail)
		}
	}
	ada.waitMatches("dynamite", "kit", 1)
}

// TestHostileKitRequests: a kit route names only a kit the binary carries, whatever the
// spelling (climbing, encoded, another extension); each answer carries the site's headers;
// and no number of spellings grows the kits' cache past one entry per kit.
func TestHostileKitRequests(t *testing.T) {
	t.Parallel()
	e := newEnv(t, envOptions{noLadder: true})
	for _, c := range []struct {
		path string
		want int
	}{
		{"/games/dynamite/kits/python.zip", 200},
		{"/kits/arena-kit-go.zip", 200},
		{"/games/dynamite/kits/..%2f..%2fgo.mod", 404},
		{"/games/dynamite/kits/%2e%2e.zip", 404},
		{"/games/dynamite/kits/python.zip.zip", 404},
		{"/games/dynamite/kits/PYTHON.zip", 404},
		{"/games/dynamit%65/kits/python.zip", 404},
		{"/games/..%2fexamples/kits/python.zip", 404},
		{"/kits/..%2f..%2fgo.mod", 404},
		{"/kits/arena-kit-go.zip%00", 404},
		{"/kits/arena-kit-.zip", 404},
	} {
		for range 3 {
			resp, err := http.Get(e.ts.URL + c.path)
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			if resp.StatusCode != c.want || resp.Header.Get("X-Content-Type-Options") != "nosniff" ||
				!strings.Contains(resp.Header.Get("Content-Security-Policy"), "default-src 'self'") {
				t.Fatalf("GET %s: %s (want %d), headers %v", c.path, resp.Status, c.want, resp.Header)
			}
		}
	}
	most := len(game.Names())*len(starter.Languages()) + len(starter.Languages())
	n := 0
	zips.Range(func(k, _ any) bool {
		n++
		if s := k.(string); !strings.HasPrefix(s, "kit/") && !strings.HasPrefix(s, "sdk/") {
			t.Errorf("the kits' cache holds %q", s)
		}
		return true
	})
	if n == 0 || n > most {
		t.Errorf("the kits' cache holds %d entries, want 1 to %d", n, most)
	}
}
