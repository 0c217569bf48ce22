package server

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	cdppage "github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"

	"github.com/botarena/arena/arena/game"
	"github.com/botarena/arena/arena/store"
	"github.com/botarena/arena/arena/tournament"
	"github.com/botarena/arena/internal/slack"
)

// axeSource is axe-core's axe.min.js: $ARENA_AXE (scripts/axe.sh prints it, scripts/test.sh
// sets it), else the copy scripts/axe.sh installs in the checkout's .cache. A missing engine
// fails the test: the accessibility check is never skipped.
func axeSource(t *testing.T) string {
	t.Helper()
	p := os.Getenv("ARENA_AXE")
	if p == "" {
		p = filepath.Join("..", "..", ".cache", "axe", "node_modules", "axe-core", "axe.min.js")
	}
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatalf("no axe-core for the accessibility check (%v): run scripts/axe.sh (npm ci of tools/axe's lockfile) "+
			"and set ARENA_AXE to the path it prints", err)
	}
	return string(b)
}

// screen is one way a visitor sees the site; axe says whether the accessibility check runs
// there (the light phone's layout is the dark phone's, its colours the desktop's: both are
// checked, and the test stays about a minute shorter).
type screen struct {
	name          string
	width, height int64
	dark, axe     bool
}

var screens = []screen{{"1280", 1280, 900, false, true}, {"390", 390, 844, false, false}, {"390-dark", 390, 844, true, true}}

// axeViolation is one failed axe rule on a page.
type axeViolation struct {
	ID     string `json:"id"`
	Impact string `json:"impact"`
	Help   string `json:"help"`
	Nodes  []struct {
		Target  []any  `json:"target"`
		Summary string `json:"failureSummary"`
	} `json:"nodes"`
}

// TestEveryPage opens every page of the site in headless Chromium as a visitor and as a
// logged-in organiser, at 1280x900, at 390x844 (a phone) and at 390x844 in dark mode, and on
// each: the page is no wider than the screen (document.scrollWidth against the viewport), a
// full screenshot is kept, and axe-core finds no serious or critical accessibility violation.
// On the phone "log out" is on screen and works, dark mode darkens the page, and the viewer
// marks players by shape as well as colour.
func TestEveryPage(t *testing.T) {
	t.Parallel()
	exe := chromium(t)
	axe := axeSource(t)
	e := newEnv(t, envOptions{})
	shots := filepath.Join(screenshots(t), "pages")
	if err := os.MkdirAll(shots, 0o755); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()

	// Something on every page: the site's own starter kit, uploaded as downloaded (twice, for
	// two versions to compare) and once more as a second bot, their ladder matches, a
	// tournament of the two, and an announcement.
	orga := e.organiser("olga")
	kit := download(t, e.ts.URL+"/games/dynamite/kits/python.zip")
	v1 := orga.uploadAPI("dynamite", "starter", "dynamite-python.zip", kit, http.StatusAccepted)
	if v := orga.waitVersion(v1.ID); v.Status != store.VersionOK {
		t.Fatalf("the Python starter kit, uploaded back: %s: %s\n%s", v.Status, v.Verdict, v.LogTail)
	}
	v2 := orga.uploadAPI("dynamite", "starter", "dynamite-python.zip", kit, http.StatusAccepted)
	other := orga.uploadAPI("dynamite", "second", "dynamite-python.zip", kit, http.StatusAccepted)
	for _, id := range []int64{v2.ID, other.ID} {
		if v := orga.waitVersion(id); v.Status != store.VersionOK {
			t.Fatalf("version %d: %s: %s", id, v.Status, v.Verdict)
		}
	}
	orga.waitMatches("dynamite", "starter", 1)
	var made struct {
		TournamentID int64 `json:"tournament_id"`
	}
	orga.apiJSON("POST", "/api/v1/tournaments", map[string]any{"game": "dynamite", "name": "cup"}, http.StatusCreated, &made)
	deadline := time.Now().Add(slack.Of(t, 2*time.Minute))
	for {
		var st tournament.Standings
		orga.apiJSON("GET", fmt.Sprintf("/api/v1/tournaments/%d", made.TournamentID), nil, http.StatusOK, &st)
		if st.Status == "finished" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the tournament did not finish in 2 minutes: %+v", st)
		}
		time.Sleep(200 * time.Millisecond)
	}
	var ms struct{ Matches []store.LadderMatch }
	orga.apiJSON("GET", "/api/v1/games/dynamite/matches?kind=ladder&status=done", nil, http.StatusOK, &ms)
	if len(ms.Matches) == 0 {
		t.Fatal("no finished ladder match")
	}
	mid := ms.Matches[0].ID
	const notice = "Finals on Friday at 18:00.\nBring your best bot!"
	if err := SetAnnouncement(ctx, e.st, notice); err != nil {
		t.Fatal(err)
	}

	visitor := []string{"/", "/enter", "/register", "/login", "/games/dynamite", "/tournaments", "/no-such-page"}
	member := []string{"/", "/enter", "/upload", "/me", "/organiser", "/games/dynamite/matches",
		fmt.Sprintf("/matches/%d", mid), fmt.Sprintf("/matches/%d/viewer", mid),
		fmt.Sprintf("/bots/%d", v1.BotID), fmt.Sprintf("/bots/%d/compare?a=1&b=2", v1.BotID),
		"/tournaments", fmt.Sprintf("/tournaments/%d", made.TournamentID),
		fmt.Sprintf("/tournaments/%d/matches/0", made.TournamentID), fmt.Sprintf("/tournaments/%d/matches/0/viewer", made.TournamentID)}
	for _, g := range game.Names() {
		member = append(member, "/games/"+g)
	}

	opts := append(chromedp.DefaultExecAllocatorOptions[:], chromedp.ExecPath(exe), chromedp.NoSandbox,
		chromedp.DisableGPU, chromedp.WindowSize(1280, 900), chromedp.Flag("headless", "new"))
	actx, cancel := chromedp.NewExecAllocator(ctx, opts...)
	defer cancel()
	bctx, cancel := chromedp.NewContext(actx)
	defer cancel()
	bctx, cancel = context.WithTimeout(bctx, slack.Of(t, 6*time.Minute))
	defer cancel()
	// The viewer's page has a policy of its own (a script hash): the injected axe must run there too.
	if err := chromedp.Do(bctx, chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		_, err := cdp.Call(ctx, t, cdppage.SetBypassCSP, cdppage.SetBypassCSPParams{Enabled: true})
		return err
	})); err != nil {
		t.Fatal(err)
	}
	failed := func(what string, err error) {
		t.Helper()
		body, _ := chromedp.Run(bctx, chromedp.OuterHTML(chromedp.CSS("body")))
		t.Fatalf("%s: %v\npage:\n%.4000s", what, err, body)
	}
	eval := func(what, js string) string {
		t.Helper()
		v, err := chromedp.Run(bctx, chromedp.Evaluate[string](js, chromedp.EvalAwaitPromise))
		if err != nil {
			failed(what, err)
		}
		return v
	}
	setScreen := func(s screen) {
		t.Helper()
		dark := "light"
		if s.dark {
			dark = "dark"
		}
		if err := chromedp.Do(bctx, chromedp.EmulateViewport(s.width, s.height), chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
			_, err := cdp.Call(ctx, t, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{
				Features: []*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: dark}}})
			return err
		})); err != nil {
			t.Fatal(err)
		}
	}

	var report []string
	serious := 0
	check := func(who, path string) {
		t.Helper()
		for _, s := range screens {
			setScreen(s)
			if err := chromedp.Do(bctx, chromedp.Navigate(e.ts.URL+path)); err != nil {
				failed("open "+path, err)
			}
			if strings.HasSuffix(path, "/viewer") {
				if _, err := chromedp.Run(bctx, chromedp.Poll[bool](`document.body.dataset.ready === 'true'`, chromedp.WithPollingTimeout(30*time.Second))); err != nil {
					failed("the viewer never got ready at "+path, err)
				}
			}
			var w struct{ Scroll, Viewport int }
			if err := json.Unmarshal([]byte(eval("width", `JSON.stringify({Scroll: document.documentElement.scrollWidth, Viewport: window.innerWidth})`)), &w); err != nil {
				t.Fatal(err)
			}
			name := fmt.Sprintf("%s-%s%s.png", s.name, who, strings.NewReplacer("/", "_", "?", "_", "&", "_", "=", "").Replace(path))
			png, err := chromedp.Run(bctx, chromedp.FullScreenshot(100))
			if err != nil {
				failed("screenshot of "+path, err)
			}
			if err := os.WriteFile(filepath.Join(shots, name), png, 0o644); err != nil {
				t.Fatal(err)
			}
			if w.Scroll > w.Viewport {
				t.Errorf("%s at %s (%s): the page is %d px wide in a %d px viewport (screenshot %s)", path, s.name, who, w.Scroll, w.Viewport, name)
			}
			if !s.axe {
				report = append(report, fmt.Sprintf("%-9s %-8s %-44s width %4d/%4d", s.name, who, path, w.Scroll, w.Viewport))
				continue
			}
			// axe-core over the page (its frames left out: the match page's viewer frame is
			// sandboxed, and checked on its own URL).
			eval("inject axe", axe+"\n;'ok'")
			out := eval("axe", `axe.run(document, {iframes: false, resultTypes: ['violations']}).then(r => JSON.stringify(r.violations))`)
			var vs []axeViolation
			if err := json.Unmarshal([]byte(out), &vs); err != nil {
				t.Fatalf("axe's answer: %v\n%s", err, out)
			}
			var ids []string
			for _, v := range vs {
				ids = append(ids, v.ID+"("+v.Impact+")")
				if v.Impact == "serious" || v.Impact == "critical" {
					serious++
					var where []string
					for _, n := range v.Nodes {
						where = append(where, fmt.Sprintf("%v: %s", n.Target, n.Summary))
					}
					t.Errorf("%s at %s (%s): axe %s (%s): %s\n  %s", path, s.name, who, v.ID, v.Impact, v.Help, strings.Join(where, "\n  "))
				}
			}
			report = append(report, fmt.Sprintf("%-9s %-8s %-44s width %4d/%4d  axe violations: %s", s.name, who, path, w.Scroll, w.Viewport, strings.Join(append([]string{fmt.Sprint(len(ids))}, ids...), " ")))
		}
	}

	for _, p := range visitor {
		check("visitor", p)
	}
	// The front page: the announcement as written, the games with links, the way in.
	if err := chromedp.Do(bctx, chromedp.Navigate(e.ts.URL+"/")); err != nil {
		failed("front page", err)
	}
	if n := eval("links", `String(document.querySelectorAll('#main a[href^="/games/"]').length) + ' ' + String(document.querySelectorAll('#main a[href="/enter"]').length)`); n != fmt.Sprintf("%d 1", len(game.Names())) {
		t.Errorf("the front page links %s (games, how to enter), want %d games and one way in", n, len(game.Names()))
	}
	if got := eval("announcement", `document.querySelector('#announcement').innerText`); !strings.Contains(got, "Finals on Friday") || !strings.Contains(got, "Bring your best bot!") {
		t.Errorf("the front page's announcement reads %q", got)
	}

	// Log in through the form, on the phone.
	setScreen(screens[1])
	if err := chromedp.Do(bctx, chromedp.Navigate(e.ts.URL+"/login"),
		chromedp.SendKeys(chromedp.CSS("#name"), "olga"), chromedp.SendKeys(chromedp.CSS("#password"), "password-olga"),
		chromedp.Click(chromedp.CSS("#submit")), chromedp.WaitVisible(chromedp.CSS("#me"))); err != nil {
		failed("log in", err)
	}
	for _, p := range member {
		check("olga", p)
	}

	// Dark mode is the browser's setting: the same page, dark.
	bg := func(s screen) string {
		setScreen(s)
		if err := chromedp.Do(bctx, chromedp.Navigate(e.ts.URL+"/games/dynamite")); err != nil {
			failed("games page", err)
		}
		return eval("background", `getComputedStyle(document.body).backgroundColor`)
	}
	if light, dark := bg(screens[1]), bg(screens[2]); light == dark || !strings.HasPrefix(dark, "rgb(1") {
		t.Errorf("dark mode: the body's background is %q light and %q dark", light, dark)
	}
	// The viewer marks each player with a shape of its own beside the colour.
	setScreen(screens[1])
	if err := chromedp.Do(bctx, chromedp.Navigate(fmt.Sprintf("%s/matches/%d/viewer", e.ts.URL, mid))); err != nil {
		failed("viewer", err)
	}
	if _, err := chromedp.Run(bctx, chromedp.Poll[bool](`document.body.dataset.ready === 'true'`, chromedp.WithPollingTimeout(30*time.Second))); err != nil {
		failed("viewer ready", err)
	}
	if shapes := eval("viewer shapes", `JSON.stringify([0, 1].map(s => {
		const h = document.querySelector('.player[data-seat="' + s + '"] h3'); const c = getComputedStyle(h, '::before');
		return c.borderRadius + ' ' + c.clipPath; }))`); !strings.Contains(shapes, "50%") || strings.Count(shapes, `"`) != 4 {
		t.Errorf("the viewer's player cards: markers %s, want a circle for seat 0 and another shape for seat 1", shapes)
	} else {
		var two []string
		_ = json.Unmarshal([]byte(shapes), &two)
		if len(two) != 2 || two[0] == two[1] {
			t.Errorf("the viewer's two players have the same marker: %s", shapes)
		}
	}
	// On the phone "log out" is on screen, and works.
	if err := chromedp.Do(bctx, chromedp.Navigate(e.ts.URL+"/games/dynamite")); err != nil {
		failed("games page", err)
	}
	if where := eval("log out", `(() => { const b = document.querySelector('form[action="/logout"] button'); const r = b.getBoundingClientRect();
		return r.width > 0 && r.left >= 0 && r.right <= innerWidth && r.bottom <= innerHeight ? 'on screen' : JSON.stringify(r); })()`); where != "on screen" {
		t.Errorf("at 390 px \"log out\" is off screen: %s", where)
	}
	if err := chromedp.Do(bctx, chromedp.Click(chromedp.CSS(`form[action="/logout"] button`)), chromedp.WaitVisible(chromedp.CSS(`nav a[href="/login"]`))); err != nil {
		failed("log out on the phone", err)
	}

	t.Logf("every page, %d screens (screenshots in %s):\n%s", len(screens), shots, strings.Join(report, "\n"))
	fmt.Fprintf(os.Stderr, "TestEveryPage: %d page views, %d serious or critical axe violations; screenshots in %s\n", len(report), serious, shots)
}

// download fetches a file the way a browser's link does.
func download(t *testing.T, url string) []byte {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("GET %s: %s\n%s", url, resp.Status, b)
	}
	return b
}
