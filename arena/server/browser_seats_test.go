package server

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/botarena/arena/arena/rating"
	"github.com/botarena/arena/arena/store"
	"github.com/botarena/arena/bots/house"
	"github.com/botarena/arena/internal/slack"
)

// TestBrowserTableSeats: the ladder plays the auction in tables of four and realtv as a
// contest of six scripts (their Specs' formats, through the ladder's own workers on the
// queue); in headless Chromium each match page lists every seat with its bot, says how the
// table sat (realtv: 11 seats per script), and the replay viewer shows every player: the
// auction's wealth table, realtv's script totals, and both results tables at the end.
func TestBrowserTableSeats(t *testing.T) {
	t.Parallel()
	exe := chromium(t)
	games := []string{"auction", "realtv"}
	e := newEnv(t, envOptions{games: games, jobs: 2, noLadder: true})
	e.lad.Params = nil // each game's Spec.Ladder, as arena serve plays it
	ctx := context.Background()
	for _, name := range []string{"ada", "bob", "cy", "dee", "eve"} {
		u, err := e.st.CreateUser(ctx, name, "!", store.RoleAuthor)
		if err != nil {
			t.Fatal(err)
		}
		for _, g := range games {
			// The house bot's code under each author's own bot name: the seats are the point.
			b, err := e.st.EnsureBot(ctx, u.ID, g, name+"-"+g, house.Bots[g].Name)
			if err != nil {
				t.Fatal(err)
			}
			v, _ := e.st.AddVersion(ctx, b.ID, rating.DefaultMu, rating.DefaultSigma)
			if err := e.st.SetVerdict(ctx, v.ID, store.VersionOK, "passed (set by the test)", "", ""); err != nil {
				t.Fatal(err)
			}
		}
	}
	lctx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() { e.lad.Run(lctx); close(done) }()
	t.Cleanup(func() { cancel(); <-done })
	played := map[string]store.LadderMatch{}
	end := time.Now().Add(slack.Of(t, 3*time.Minute))
	for len(played) < len(games) {
		if time.Now().After(end) {
			t.Fatalf("no finished ladder match of each game within 3 minutes: %v", played)
		}
		for _, g := range games {
			ms, err := e.st.LadderMatches(ctx, store.MatchFilter{Game: g, Kind: store.KindLadder, Status: store.LadderDone, Limit: 1})
			if err != nil {
				t.Fatal(err)
			}
			if len(ms) > 0 {
				played[g] = ms[0]
			}
		}
		time.Sleep(100 * time.Millisecond)
	}

	shots := screenshots(t)
	opts := append(chromedp.DefaultExecAllocatorOptions[:], chromedp.ExecPath(exe), chromedp.NoSandbox,
		chromedp.DisableGPU, chromedp.WindowSize(1200, 900), chromedp.Flag("headless", "new"))
	actx, cancelA := chromedp.NewExecAllocator(ctx, opts...)
	defer cancelA()
	bctx, cancelB := chromedp.NewContext(actx)
	defer cancelB()
	bctx, cancelT := context.WithTimeout(bctx, slack.Of(t, 2*time.Minute))
	defer cancelT()
	failed := func(what string, err error) {
		t.Helper()
		page, _ := chromedp.Run(bctx, chromedp.OuterHTML(chromedp.CSS("body")))
		t.Fatalf("%s: %v\npage:\n%s", what, err, page)
	}
	do := func(what string, steps ...chromedp.Action[chromedp.Void]) {
		t.Helper()
		if err := chromedp.Do(bctx, steps...); err != nil {
			failed(what, err)
		}
	}
	count := func(sel string) int {
		t.Helper()
		n, err := chromedp.Run(bctx, chromedp.Evaluate[int](`document.querySelectorAll(`+"`"+sel+"`"+`).length`))
		if err != nil {
			failed("counting "+sel, err)
		}
		return n
	}
	text := func(sel string) string {
		t.Helper()
		s, err := chromedp.Run(bctx, chromedp.Text(chromedp.CSS(sel)))
		if err != nil {
			failed("text of "+sel, err)
		}
		return s
	}
	shot := func(name string) {
		t.Helper()
		png, err := chromedp.Run(bctx, chromedp.FullScreenshot(100))
		if err != nil {
			failed("screenshot "+name, err)
		}
		if err := os.WriteFile(filepath.Join(shots, name), png, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, c := range []struct {
		game, seating, board string
		players              int
	}{
		{"auction", "a table of 4 players", `#wealth tbody tr`, 4},
		{"realtv", "a table of 6 players, each holding 11 seats (66 in all)", `#totals .total`, 6},
	} {
		m := played[c.game]
		if len(m.Seats) != c.players {
			t.Fatalf("%s match %d seats %d players, want %d", c.game, m.ID, len(m.Seats), c.players)
		}
		url := e.ts.URL + "/matches/" + strconv.FormatInt(m.ID, 10)
		do(c.game+" match page", chromedp.Navigate(url), chromedp.WaitVisible(chromedp.CSS("#seats")))
		if n := count(`#seats tbody tr`); n != c.players {
			failed(c.game+" match page", fmt.Errorf("%d seat rows, want %d", n, c.players))
		}
		seats := text("#seats tbody")
		for _, s := range m.Seats {
			if !strings.Contains(seats, s.Bot) || !strings.Contains(seats, s.Author) {
				failed(c.game+" match page", fmt.Errorf("the seats %q lack %s by %s", seats, s.Bot, s.Author))
			}
		}
		if got := text("#seating"); got != c.seating {
			failed(c.game+" match page", fmt.Errorf("seating %q, want %q", got, c.seating))
		}
		shot("table-" + c.game + "-match.png")
		do(c.game+" viewer", chromedp.Navigate(url+"/viewer"))
		if _, err := chromedp.Run(bctx, chromedp.Poll[bool](`document.body.dataset.ready === 'true'`, chromedp.WithPollingTimeout(30*time.Second))); err != nil {
			failed(c.game+": the viewer never got ready", err)
		}
		if n := count(c.board); n != c.players {
			failed(c.game+" viewer", fmt.Errorf("%d players on the board (%s), want %d", n, c.board, c.players))
		}
		for _, s := range m.Seats {
			if title := text("#title"); !strings.Contains(title, s.Bot) {
				failed(c.game+" viewer", fmt.Errorf("its title %q lacks %s", title, s.Bot))
			}
		}
		shot("table-" + c.game + "-viewer.png")
		do(c.game+" viewer at the end", chromedp.Click(chromedp.CSS("#last")), chromedp.WaitVisible(chromedp.CSS("#results")))
		if n := count(`#results tbody tr`); n != c.players {
			failed(c.game+" viewer at the end", fmt.Errorf("%d rows of results, want %d", n, c.players))
		}
		shot("table-" + c.game + "-viewer-end.png")
	}
}
