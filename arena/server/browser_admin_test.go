package server

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/botarena/arena/internal/slack"
)

// TestBrowserListsAndOrganiser drives headless Chromium, at 1280x900 and at a phone's
// 390x844, through the filtered lists and the organiser's pages: it pages back along a match
// list's stable link, reads a bot's code (markup in a file stays text, its script never runs),
// disables an account with the users page's form, and reads the audit log and the webhook
// page. Every page's main content fits the viewport's width (tables scroll in their own box).
func TestBrowserListsAndOrganiser(t *testing.T) {
	t.Parallel()
	exe := chromium(t)
	e := newEnv(t, envOptions{noLadder: true})
	shots := screenshots(t)
	e.organiser("orga")
	e.register("ada")
	e.register("bob")
	va := fixtureVersion(t, e, "ada", "dynamite", "fast", map[string]string{
		"bot.py": "<script>window.__pwned = 1</script><img src=x onerror=\"window.__pwned = 2\">\nprint('a long line that goes on " + strings.Repeat("and on ", 40) + "')"})
	vb := fixtureVersion(t, e, "bob", "dynamite", "slow", map[string]string{"bot.py": "pass"})
	for i := range 5 {
		fixtureMatch(t, e, va, vb, i == 4)
	}

	opts := append(chromedp.DefaultExecAllocatorOptions[:], chromedp.ExecPath(exe), chromedp.NoSandbox,
		chromedp.DisableGPU, chromedp.WindowSize(1280, 900), chromedp.Flag("headless", "new"))
	actx, cancel := chromedp.NewExecAllocator(context.Background(), opts...)
	defer cancel()
	ctx, cancel := chromedp.NewContext(actx)
	defer cancel()
	ctx, cancel = context.WithTimeout(ctx, slack.Of(t, 2*time.Minute))
	defer cancel()
	failed := func(what string, err error) {
		t.Helper()
		page, _ := chromedp.Run(ctx, chromedp.OuterHTML(chromedp.CSS("body")))
		t.Fatalf("%s: %v\npage:\n%s", what, err, page)
	}
	do := func(what string, steps ...chromedp.Action[chromedp.Void]) {
		t.Helper()
		if err := chromedp.Do(ctx, steps...); err != nil {
			failed(what, err)
		}
	}
	eval := func(js string) string {
		t.Helper()
		v, err := chromedp.Run(ctx, chromedp.Evaluate[string](js))
		if err != nil {
			failed(js, err)
		}
		return v
	}
	// visit opens a page, keeps its screenshot, and checks that its content is as wide as the
	// viewport at most.
	visit := func(width int, name, path, ready string) {
		t.Helper()
		do("open "+path, chromedp.Navigate(e.ts.URL+path), chromedp.WaitVisible(chromedp.CSS(ready)))
		png, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
		if err != nil {
			failed("screenshot", err)
		}
		if err := os.WriteFile(filepath.Join(shots, fmt.Sprintf("%s-%d.png", name, width)), png, 0o644); err != nil {
			t.Fatal(err)
		}
		wide := eval(`String(document.querySelector('main').scrollWidth) + ' ' + String(window.innerWidth) + ' ' + String(document.documentElement.scrollWidth)`)
		var main, view, doc int
		fmt.Sscan(wide, &main, &view, &doc)
		t.Logf("%s at %d: main %d px wide, document %d px, viewport %d px", path, width, main, doc, view)
		if main > view {
			t.Errorf("%s at %d px: the content is %d px wide, over the viewport's %d", path, width, main, view)
		}
	}

	do("log in", chromedp.Navigate(e.ts.URL+"/login"),
		chromedp.SendKeys(chromedp.CSS("#name"), "orga"), chromedp.SendKeys(chromedp.CSS("#password"), "password-orga"),
		chromedp.Click(chromedp.CSS("#submit")), chromedp.WaitVisible(chromedp.CSS("#me")))

	for _, width := range []int{1280, 390} {
		height := map[int]int64{1280: 900, 390: 844}[width]
		do("viewport", chromedp.EmulateViewport(int64(width), height))
		visit(width, "bots", "/bots?author=ada", "table.bots")
		if got := eval(`document.querySelector('table.bots tbody').textContent`); !strings.Contains(got, "fast") || strings.Contains(got, "slow") {
			t.Fatalf("bots by ada: %q", got)
		}
		visit(width, "matches", "/games/dynamite/matches?author=ada&result=win&limit=2", "table.matches")
		first := eval(`Array.from(document.querySelectorAll('table.matches tbody tr td:first-child')).map(td => td.textContent).join(',')`)
		do("older", chromedp.Click(chromedp.CSS("#older")), chromedp.WaitVisible(chromedp.CSS("#newer")))
		loc, _ := chromedp.Run(ctx, chromedp.Location())
		second := eval(`Array.from(document.querySelectorAll('table.matches tbody tr td:first-child')).map(td => td.textContent).join(',')`)
		if !strings.Contains(loc, "before=") || !strings.Contains(loc, "author=ada") || first == second || second == "" {
			t.Fatalf("paging back: %s shows %q after %q", loc, second, first)
		}
		visit(width, "code", fmt.Sprintf("/organiser/bots/%d/code", va.BotID), "pre.code")
		if got := eval(`document.querySelector('pre.code').textContent`); !strings.Contains(got, "<script>window.__pwned = 1</script>") {
			t.Fatalf("the code is not shown as text: %q", got)
		}
		if got := eval(`String(window.__pwned)`); got != "undefined" {
			t.Fatalf("a script in a bot's file ran on the code page: __pwned = %s", got)
		}
		visit(width, "users", "/organiser/users", "table.users")
		visit(width, "audit", "/organiser/audit", "table.audit")
		visit(width, "webhook", "/me/webhook", "input[name=url]")
	}

	// The users page's form disables bob.
	do("users", chromedp.Navigate(e.ts.URL+"/organiser/users"), chromedp.WaitVisible(chromedp.CSS("table.users")))
	bob, _ := e.st.UserByName(context.Background(), "bob")
	do("disable bob", chromedp.Click(chromedp.CSS(fmt.Sprintf("#user-%d form[action$=disable] button", bob.ID))),
		chromedp.WaitVisible(chromedp.CSS(fmt.Sprintf("#user-%d .tag", bob.ID))))
	if d, _ := e.st.UserDisabled(context.Background(), bob.ID); !d {
		t.Fatal("the users page's form did not disable bob")
	}
	do("audit", chromedp.Navigate(e.ts.URL+"/organiser/audit"), chromedp.WaitVisible(chromedp.CSS("table.audit")))
	if got := eval(`document.querySelector('table.audit tbody').textContent`); !strings.Contains(got, "user.disable") || !strings.Contains(got, "code.view") {
		t.Fatalf("audit log page: %q", got)
	}
	fmt.Fprintln(os.Stderr, "browser test screenshots:", shots)
}
