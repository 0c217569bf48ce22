package server

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/botarena/arena/internal/slack"
)

var updateScreenshots = flag.Bool("update-screenshots", false, "copy the browser test's leaderboard and viewer screenshots to docs/ (the README shows them)")

// chromium finds the browser: $ARENA_CHROMIUM (scripts/chromium.sh, which scripts/test.sh
// runs, installs Debian's chromium and sets it), else chromium on PATH. Under CI
// (ARENA_REQUIRE_SANDBOX=1) a missing browser fails the test.
func chromium(t *testing.T) string {
	if p := os.Getenv("ARENA_CHROMIUM"); p != "" {
		return p
	}
	for _, n := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(n); err == nil {
			return p
		}
	}
	msg := "no Chromium: run scripts/chromium.sh (installs Debian's chromium) and set ARENA_CHROMIUM to what it prints"
	if os.Getenv("ARENA_REQUIRE_SANDBOX") == "1" {
		t.Fatal(msg)
	}
	t.Skip(msg)
	return ""
}

// screenshots is where the browser test keeps its pictures (printed with -v).
func screenshots(t *testing.T) string {
	dir := os.Getenv("ARENA_ARTEFACTS")
	if dir == "" {
		dir = filepath.Join(os.TempDir(), "arena-artefacts")
	}
	dir = filepath.Join(dir, "browser")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	t.Logf("screenshots in %s", dir)
	return dir
}

// TestBrowser drives headless Chromium through what an author does: register, upload a Python
// bot through the form, watch it validate on its page (live, without a reload), watch it reach
// the leaderboard after ladder matches, open one of its matches.
func TestBrowser(t *testing.T) {
	t.Parallel()
	exe := chromium(t)
	e := newEnv(t, envOptions{})
	shots := screenshots(t)
	botFile := filepath.Join(t.TempDir(), "strategy.py")
	// The example bot, saying on stderr what it does in each move (the match page shows it by step).
	logged := append(exampleBot(t), `

import sys as _sys
_move = Frequency.move
def _logged(self, state):
    print("deciding move", len(state.rounds) + 1, file=_sys.stderr)
    return _move(self, state)
Frequency.move = _logged
`...)
	if err := os.WriteFile(botFile, logged, 0o644); err != nil {
		t.Fatal(err)
	}
	opts := append(chromedp.DefaultExecAllocatorOptions[:], chromedp.ExecPath(exe), chromedp.NoSandbox,
		chromedp.DisableGPU, chromedp.WindowSize(1200, 900), chromedp.Flag("headless", "new"))
	actx, cancel := chromedp.NewExecAllocator(context.Background(), opts...)
	defer cancel()
	bctx, cancel := chromedp.NewContext(actx)
	defer cancel()
	// A bound on the whole walk for a hung browser, not a speed target: beside four busy loops
	// it took 6 minutes (CI25), where 3 ran out.
	ctx, cancel := context.WithTimeout(bctx, slack.Of(t, 8*time.Minute))
	defer cancel()

	// failed reports what failed first, then the page, read with a bound of its own (the walk's
	// may be what ran out).
	failed := func(what string, err error) {
		t.Helper()
		t.Errorf("%s: %v", what, err)
		pctx, cancel := context.WithTimeout(bctx, slack.Of(t, 30*time.Second))
		defer cancel()
		page, _ := chromedp.Run(pctx, chromedp.OuterHTML(chromedp.CSS("body")))
		t.Fatalf("page:\n%s", page)
	}
	// shotIn saves a screenshot under name (and into docs/ for the two the README shows, with
	// -update-screenshots).
	shotIn := func(ctx context.Context, name string) error {
		png, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
		if err == nil {
			err = os.WriteFile(filepath.Join(shots, name), png, 0o644)
		}
		if err == nil && *updateScreenshots && (name == "leaderboard.png" || name == "ladder-viewer.png") {
			err = os.WriteFile(filepath.Join("..", "..", "docs", name), png, 0o644)
		}
		return err
	}
	shot := func(name string) {
		t.Helper()
		if err := shotIn(ctx, name); err != nil {
			failed("screenshot "+name, err)
		}
	}
	do := func(what string, steps ...chromedp.Action[chromedp.Void]) {
		t.Helper()
		t0 := time.Now()
		defer func() { t.Logf("%s: %v", what, time.Since(t0).Round(time.Millisecond)) }()
		if err := chromedp.Do(ctx, steps...); err != nil {
			sctx, cancel := context.WithTimeout(bctx, slack.Of(t, 30*time.Second))
			defer cancel()
			if serr := shotIn(sctx, "failed.png"); serr != nil {
				t.Logf("no screenshot of the failure: %v", serr)
			}
			failed(what, err)
		}
	}
	text := func(sel string) string {
		t.Helper()
		s, err := chromedp.Run(ctx, chromedp.Text(chromedp.CSS(sel)))
		if err != nil {
			failed("text of "+sel, err)
		}
		return s
	}

	do("register",
		chromedp.Navigate(e.ts.URL+"/register"),
		chromedp.SendKeys(chromedp.CSS("#name"), "grace"),
		chromedp.SendKeys(chromedp.CSS("#password"), "correct horse"),
		chromedp.Click(chromedp.CSS("#submit")),
		chromedp.WaitVisible(chromedp.CSS("#file")))
	if me := text("#me"); me != "grace" {
		t.Fatalf("logged in as %q", me)
	}
	do("upload through the form",
		chromedp.SetValue(chromedp.CSS("#game"), "dynamite"),
		chromedp.SendKeys(chromedp.CSS("#botname"), "freq"),
		chromedp.SetUploadFiles(chromedp.CSS("#file"), []string{botFile}),
		chromedp.Click(chromedp.CSS("#submit")),
		chromedp.WaitVisible(chromedp.CSS("#versions")))
	url, err := chromedp.Run(ctx, chromedp.Location())
	if err != nil || !strings.Contains(url, "/bots/") {
		t.Fatalf("after the upload the browser is at %s (%v)", url, err)
	}
	shot("validating.png")
	// The page updates itself when validation ends (server-sent events); no reload here.
	do("validated", chromedp.WaitVisible(chromedp.CSS("#v1 td.status.ok")))
	if v := text("#main .verdict-text"); !strings.Contains(v, "passed") {
		t.Fatalf("verdict %q", v)
	}
	shot("bot.png")
	do("leaderboard", chromedp.Navigate(e.ts.URL+"/games/dynamite"), chromedp.WaitVisible(chromedp.CSS("#leaderboard")))
	// The leaderboard updates itself after every ladder match.
	if _, err := chromedp.Run(ctx, chromedp.Poll[bool](`(() => { const c = document.querySelector('tr[data-bot="freq"] td.matches'); return c !== null && Number(c.textContent) >= 2; })()`,
		chromedp.WithPollingTimeout(slack.Of(t, 2*time.Minute)), chromedp.WithPollingInterval(200*time.Millisecond))); err != nil {
		failed("two ladder matches on the leaderboard", err)
	}
	row := text(`tr[data-bot="freq"]`)
	for _, want := range []string{"freq", "grace", "python", "v1"} {
		if !strings.Contains(row, want) {
			t.Fatalf("leaderboard row %q lacks %q", row, want)
		}
	}
	shot("leaderboard.png")
	// The live page redraws its match table after every ladder match: a click by node id can
	// aim at a row already replaced ("Could not find node with given id", CI, 3 December). One
	// script finds the first match's link and clicks it, as the user's click would.
	clicked, err := chromedp.Run(ctx, chromedp.Evaluate[bool](
		`(() => { const a = document.querySelector('table.matches tbody tr td a'); if (a === null) return false; a.click(); return true; })()`))
	if err != nil || !clicked {
		failed("open a match: no link in the match table", err)
	}
	do("open a match", chromedp.WaitVisible(chromedp.CSS("#seats")))
	seats, status := text("#seats"), text("#status")
	if !strings.Contains(seats, "freq") || !strings.HasPrefix(status, "done") {
		t.Fatalf("match page: status %q, seats %q", status, seats)
	}
	// The harness's ladder plays on the zero clock setting: wall time, recorded and shown.
	if clock := text("#clock"); clock != "wall clock" {
		t.Fatalf("match page: the clock shows %q, want %q", clock, "wall clock")
	}
	if log := text("pre.log"); log == "" {
		t.Fatal("no log of the author's own bot on the match page")
	}
	// The log is cut by step, each heading a link that shows the viewer at that step.
	type link struct{ Href, Target, Text, Next string }
	stepLink, err := chromedp.Run(ctx, chromedp.Evaluate[link](`(() => { const a = [...document.querySelectorAll('pre.log a.step')].pop();
		return a ? {Href: a.href, Target: a.target, Text: a.textContent, Next: a.nextSibling.textContent} : {}; })()`))
	if err != nil {
		failed("the log's step links", err)
	}
	m := regexp.MustCompile(`/viewer#step=(\d+)$`).FindStringSubmatch(stepLink.Href)
	if m == nil || stepLink.Target != "viewer" || stepLink.Text != "--- step "+m[1]+" ---" || !strings.Contains(stepLink.Next, "deciding move "+m[1]) {
		t.Fatalf("the log's last step link: %+v (want a heading linking the viewer at the step whose lines follow)", stepLink)
	}
	shot("match.png")
	if n, err := chromedp.Run(ctx, chromedp.Evaluate[int](`document.querySelectorAll('iframe#viewer[sandbox="allow-scripts"]').length`)); err != nil || n != 1 {
		t.Fatalf("the match page frames no sandboxed viewer (%d, %v)", n, err)
	}
	// The viewer, opened on its own: step through the first moves with the buttons and the keyboard.
	url, _ = chromedp.Run(ctx, chromedp.Location())
	do("open the viewer", chromedp.Navigate(url+"/viewer"))
	if _, err := chromedp.Run(ctx, chromedp.Poll[bool](`document.body.dataset.ready === 'true'`, chromedp.WithPollingTimeout(slack.Of(t, 30*time.Second)))); err != nil {
		failed("the viewer never got ready", err)
	}
	step := func() string {
		v, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.body.dataset.step`))
		if err != nil {
			failed("the viewer's step", err)
		}
		return v
	}
	do("step forward", chromedp.Click(chromedp.CSS("#first")), chromedp.Click(chromedp.CSS("#next")), chromedp.Click(chromedp.CSS("#next")), chromedp.Click(chromedp.CSS("#next")))
	if got := step(); got != "3" {
		t.Fatalf("after three steps the viewer is at step %s", got)
	}
	if answers := text("#answers tbody"); !strings.Contains(answers, "freq") {
		t.Fatalf("the viewer's answers at step 3 do not name the bot: %q", answers)
	}
	do("step back with the keyboard", chromedp.KeyEvent(kb.ArrowLeft))
	if got := step(); got != "2" {
		t.Fatalf("after the left arrow the viewer is at step %s", got)
	}
	if title := text("#title"); !strings.Contains(title, "dynamite") {
		t.Fatalf("viewer title %q", title)
	}
	shot("ladder-viewer.png")
	fmt.Fprintln(os.Stderr, "browser test screenshots:", shots)
}
