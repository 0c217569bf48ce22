package server

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/botarena/arena/internal/slack"
)

// TestBrowserVerdictOfABotThatCannotStart: an upload that dies before it is ready (a Python
// import of a module that is not there), seen in a real browser: its bot page says once that
// it exited before it was ready, and its log tail is the bot's own error, with its own file's
// name (an upload's one file is its bot.py), not a transport error.
func TestBrowserVerdictOfABotThatCannotStart(t *testing.T) {
	t.Parallel()
	exe := chromium(t)
	e := newEnv(t, envOptions{})
	botFile := filepath.Join(t.TempDir(), "strategy.py")
	if err := os.WriteFile(botFile, []byte("import numpy_not_installed\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	opts := append(chromedp.DefaultExecAllocatorOptions[:], chromedp.ExecPath(exe), chromedp.NoSandbox,
		chromedp.DisableGPU, chromedp.Flag("headless", "new"))
	actx, cancel := chromedp.NewExecAllocator(context.Background(), opts...)
	defer cancel()
	ctx, cancel := chromedp.NewContext(actx)
	defer cancel()
	// Validation builds the house opponent and plays it: minutes on a loaded machine the first
	// time (one CI run took over 3); the allowance is stretched by the suite's slack factor.
	ctx, cancel = context.WithTimeout(ctx, slack.Of(t, 3*time.Minute))
	defer cancel()
	do := func(what string, steps ...chromedp.Action[chromedp.Void]) {
		t.Helper()
		if err := chromedp.Do(ctx, steps...); err != nil {
			page, _ := chromedp.Run(ctx, chromedp.OuterHTML(chromedp.CSS("body")))
			t.Fatalf("%s: %v\npage:\n%s", what, err, page)
		}
	}
	do("register",
		chromedp.Navigate(e.ts.URL+"/register"),
		chromedp.SendKeys(chromedp.CSS("#name"), "hopper"),
		chromedp.SendKeys(chromedp.CSS("#password"), "correct horse"),
		chromedp.Click(chromedp.CSS("#submit")),
		chromedp.WaitVisible(chromedp.CSS("#file")))
	do("upload through the form",
		chromedp.SetValue(chromedp.CSS("#game"), "dynamite"),
		chromedp.SendKeys(chromedp.CSS("#botname"), "broken"),
		chromedp.SetUploadFiles(chromedp.CSS("#file"), []string{botFile}),
		chromedp.Click(chromedp.CSS("#submit")),
		chromedp.WaitVisible(chromedp.CSS("#versions")))
	do("validated", chromedp.WaitVisible(chromedp.CSS("#v1 td.status.failed")))
	verdict, err := chromedp.Run(ctx, chromedp.Text(chromedp.CSS("#main .verdict-text")))
	if err != nil {
		t.Fatal(err)
	}
	log, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.querySelector('pre.log').textContent`))
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("verdict: %s\nlog tail:\n%s", verdict, log)
	if !strings.Contains(verdict, "exited before it was ready to play") {
		t.Errorf("verdict %q", verdict)
	}
	if !strings.Contains(log, "ModuleNotFoundError: No module named 'numpy_not_installed'") || !strings.Contains(log, `File "bot.py", line 1`) {
		t.Errorf("the log tail does not show the bot's own error:\n%s", log)
	}
	for _, noise := range []string{"rpc error", "transport:", "/bot/", "/run/arena-sandbox"} {
		if strings.Contains(verdict+log, noise) {
			t.Errorf("the page shows %q:\n%s\n%s", noise, verdict, log)
		}
	}
}
