package viewer_test

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"

	"github.com/botarena/arena/arena/replay"
	"github.com/botarena/arena/arena/viewer"
	"github.com/botarena/arena/internal/slack"
	arenav1 "github.com/botarena/arena/proto/arena/v1"
)

// The browser tests open the page in real headless Chromium (Debian's, found or installed by
// scripts/chromium.sh, or $ARENA_CHROMIUM), drive it as a person would (keys, buttons, the
// slider) and compare what it shows with what the engine showed the bots. Screenshots go to
// $ARENA_ARTEFACTS/viewer when that is set, else to a folder the tests log.

var browser struct {
	once   sync.Once
	ctx    context.Context
	cancel context.CancelFunc
	err    error
	shots  string
}

func TestMain(m *testing.M) {
	code := m.Run()
	if browser.cancel != nil {
		browser.cancel()
	}
	if browser.shots != "" {
		fmt.Println("viewer screenshots in", browser.shots)
	}
	os.Exit(code)
}

// shotsDir is $ARENA_ARTEFACTS/viewer when that is set (CI keeps it), else a new folder that
// is kept for a person to look at (the tests log it).
func shotsDir() (string, error) {
	if a := os.Getenv("ARENA_ARTEFACTS"); a != "" {
		dir := filepath.Join(a, "viewer")
		return dir, os.MkdirAll(dir, 0o755)
	}
	return os.MkdirTemp("", "arena-viewer-shots-")
}

// chromium finds the browser: $ARENA_CHROMIUM, else what scripts/chromium.sh prints.
func chromium() (string, error) {
	if p := os.Getenv("ARENA_CHROMIUM"); p != "" {
		return p, nil
	}
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for !exists(filepath.Join(dir, "scripts", "chromium.sh")) {
		up := filepath.Dir(dir)
		if up == dir {
			return "", fmt.Errorf("no scripts/chromium.sh above the test's folder")
		}
		dir = up
	}
	out, err := exec.Command("bash", filepath.Join(dir, "scripts", "chromium.sh")).Output()
	if err != nil {
		msg := ""
		if ee, ok := err.(*exec.ExitError); ok {
			msg = strings.TrimSpace(string(ee.Stderr))
		}
		return "", fmt.Errorf("scripts/chromium.sh: %v: %s", err, msg)
	}
	return strings.TrimSpace(string(out)), nil
}

func exists(p string) bool { _, err := os.Stat(p); return err == nil }

// startBrowser starts the one browser the tests share, once.
func startBrowser() error {
	browser.once.Do(func() {
		path, err := chromium()
		if err != nil {
			browser.err = err
			return
		}
		opts := append(chromedp.DefaultExecAllocatorOptions[:], chromedp.ExecPath(path), chromedp.NoSandbox,
			chromedp.WindowSize(1280, 900), chromedp.Flag("disable-gpu", true))
		actx, acancel := chromedp.NewExecAllocator(context.Background(), opts...)
		bctx, bcancel := chromedp.NewContext(actx)
		if err := chromedp.Do(bctx); err != nil { // starts the browser
			bcancel()
			acancel()
			browser.err = fmt.Errorf("start %s: %w", path, err)
			return
		}
		browser.ctx = bctx
		browser.cancel = func() { bcancel(); acancel() }
		dir, err := shotsDir()
		if err != nil {
			browser.err = err
			return
		}
		browser.shots = dir
	})
	return browser.err
}

// benchTab opens a tab for a benchmark.
func benchTab(b *testing.B) (context.Context, error) {
	if err := startBrowser(); err != nil {
		return nil, err
	}
	ctx, cancel := chromedp.NewContext(browser.ctx)
	b.Cleanup(cancel)
	return ctx, chromedp.Do(ctx)
}

// tab opens a new tab of the shared browser; a page error or a dialog fails the test.
func tab(t *testing.T) (context.Context, *pageEvents) {
	t.Helper()
	if err := startBrowser(); err != nil {
		if os.Getenv("ARENA_REQUIRE_SANDBOX") == "1" {
			t.Fatalf("no browser for the viewer's tests (required under ARENA_REQUIRE_SANDBOX=1): %v", err)
		}
		t.Skipf("no browser (set ARENA_CHROMIUM or run scripts/chromium.sh as root): %v", err)
	}
	ev := &pageEvents{}
	ctx, cancel := chromedp.NewContext(browser.ctx, chromedp.WithListener(ev.listen))
	t.Cleanup(cancel)
	if err := chromedp.Do(ctx); err != nil {
		t.Fatalf("open a tab: %v", err)
	}
	ev.ctx = ctx
	tctx, tcancel := context.WithTimeout(ctx, slack.Of(t, 90*time.Second))
	t.Cleanup(tcancel)
	t.Cleanup(func() {
		if n := ev.dialogs.Load(); n > 0 {
			t.Errorf("the page opened %d dialog(s): a script of the record ran", n)
		}
		ev.mu.Lock()
		defer ev.mu.Unlock()
		for _, e := range ev.errors {
			t.Errorf("page error: %s", e)
		}
	})
	return tctx, ev
}

type pageEvents struct {
	ctx     context.Context
	dialogs atomic.Int32
	mu      sync.Mutex
	errors  []string
}

func (p *pageEvents) listen(ev any) {
	switch e := ev.(type) {
	case *page.EventJavascriptDialogOpening:
		p.dialogs.Add(1)
		go func() {
			_ = chromedp.Do(p.ctx, chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
				_, err := cdp.Call(ctx, t, page.HandleJavaScriptDialog, page.HandleJavaScriptDialogParams{Accept: false})
				return err
			}))
		}()
	case *runtime.EventExceptionThrown:
		p.mu.Lock()
		d := e.ExceptionDetails
		msg := d.Text
		if d.Exception != nil {
			msg += " " + d.Exception.Description
		}
		p.errors = append(p.errors, fmt.Sprintf("%s (line %d:%d)", msg, d.LineNumber+1, d.ColumnNumber+1))
		p.mu.Unlock()
	case *runtime.EventConsoleAPICalled:
		if e.Type == runtime.ConsoleAPICalledTypeError {
			var parts []string
			for _, a := range e.Args {
				parts = append(parts, string(a.Value)+a.Description)
			}
			p.mu.Lock()
			p.errors = append(p.errors, "console.error: "+strings.Join(parts, " "))
			p.mu.Unlock()
		}
	}
}

// open writes rec's page to a file and loads it from file://, as a person opens the file.
func open(t *testing.T, ctx context.Context, rec *replay.Record) *viewer.Data {
	t.Helper()
	html := pageOf(t, rec)
	d, _ := dataOf(t, html)
	path := filepath.Join(t.TempDir(), rec.Game+".html")
	if err := os.WriteFile(path, html, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := chromedp.Do(ctx, chromedp.Navigate("file://"+path)); err != nil {
		t.Fatalf("open %s: %v", path, err)
	}
	if _, err := chromedp.Run(ctx, chromedp.Poll[bool](`document.body.dataset.ready === 'true'`, chromedp.WithPollingTimeout(20*time.Second))); err != nil {
		t.Fatalf("the page never got ready: %v", err)
	}
	return d
}

func js[T any](t *testing.T, ctx context.Context, expr string) T {
	t.Helper()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[T](expr))
	if err != nil {
		t.Fatalf("evaluate %s: %v", expr, err)
	}
	return v
}

func textOf(t *testing.T, ctx context.Context, sel string) string {
	t.Helper()
	q, _ := json.Marshal(sel)
	return js[string](t, ctx, fmt.Sprintf(`(function(){var e=document.querySelector(%s);return e?e.textContent:'<no element %s>'})()`, q, strings.ReplaceAll(sel, "'", "")))
}

func countOf(t *testing.T, ctx context.Context, sel string) int {
	t.Helper()
	q, _ := json.Marshal(sel)
	return js[int](t, ctx, fmt.Sprintf(`document.querySelectorAll(%s).length`, q))
}

func stepOf(t *testing.T, ctx context.Context) int {
	t.Helper()
	n, err := strconv.Atoi(js[string](t, ctx, `document.body.dataset.step`))
	if err != nil {
		t.Fatalf("data-step: %v", err)
	}
	return n
}

func press(t *testing.T, ctx context.Context, key string) {
	t.Helper()
	if err := chromedp.Do(ctx, chromedp.KeyEvent(key)); err != nil {
		t.Fatalf("press %q: %v", key, err)
	}
}

func click(t *testing.T, ctx context.Context, sel string) {
	t.Helper()
	if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS(sel))); err != nil {
		t.Fatalf("click %s: %v", sel, err)
	}
}

func shot(t *testing.T, ctx context.Context, name string) {
	t.Helper()
	b, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
	if err != nil {
		t.Fatalf("screenshot: %v", err)
	}
	path := filepath.Join(browser.shots, name+".png")
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("screenshot %s", path)
}

// want is one thing the page must show: the text of the first element a CSS selector finds
// (exact, or containing it), or how many elements it finds.
type want struct {
	sel      string
	text     string
	contains bool
	count    int // used when text is empty
}

func (w want) check(t *testing.T, ctx context.Context, k int) {
	t.Helper()
	if w.text == "" {
		if n := countOf(t, ctx, w.sel); n != w.count {
			t.Errorf("frame %d: %d elements %s, want %d", k, n, w.sel, w.count)
		}
		return
	}
	got := textOf(t, ctx, w.sel)
	if w.contains && !strings.Contains(got, w.text) || !w.contains && got != w.text {
		t.Errorf("frame %d: %s shows %q, want %q", k, w.sel, got, w.text)
	}
}

// expect lists what frame k must show, from the engine's own observations (decoded here in Go,
// independently of the page's script).
func expect(t *testing.T, d *viewer.Data, k int) []want {
	t.Helper()
	n := len(d.Record.Steps)
	var ws []want
	if k < n {
		ws = append(ws, want{sel: "#pos", text: fmt.Sprintf("step %d of %d", k+1, n)},
			want{sel: "#answers tbody tr", count: len(d.Record.Steps[k].Answers)})
	} else {
		ws = append(ws, want{sel: "#pos", text: fmt.Sprintf("the end (%d steps)", n)}, want{sel: "#end", text: d.Outcome.Summary, contains: true})
	}
	f := d.Frames[k]
	switch d.Record.Game {
	case "dynamite":
		for s := range 2 {
			var o arenav1.DynamiteObservation
			decode(t, f.Obs[s], &o)
			ws = append(ws, want{sel: fmt.Sprintf(`.score[data-seat="%d"]`, s), text: strconv.Itoa(int(o.OwnScore))},
				want{sel: fmt.Sprintf(`.dyn[data-seat="%d"]`, s), text: fmt.Sprintf("dynamite left %d", o.OwnDynamiteLeft)})
			if k < n {
				ws = append(ws, want{sel: "#stake", text: fmt.Sprintf("worth %d", o.Stake), contains: true})
			}
		}
		if k < n {
			// What the round did, from the scores before and after it.
			result := "a draw"
			for s := range 2 {
				var before, after arenav1.DynamiteObservation
				decode(t, f.Obs[s], &before)
				decode(t, d.Frames[k+1].Obs[s], &after)
				if gain := after.OwnScore - before.OwnScore; gain > 0 {
					result = fmt.Sprintf("%s takes %d point", d.Seats[s].Name, gain)
				}
			}
			if len(f.Charged) > 0 {
				result = f.Charged[0].Penalty
			}
			ws = append(ws, want{sel: "#result", text: result, contains: true})
		}
	case "finger":
		if k == n {
			break
		}
		for seat, raw := range f.Obs {
			var o arenav1.FingerObservation
			decode(t, raw, &o)
			hands := map[int][2]int32{seat: {o.OwnLeft, o.OwnRight}, 1 - seat: {o.OpponentLeft, o.OpponentRight}}
			for s, h := range hands {
				ws = append(ws, want{sel: fmt.Sprintf(`.hand[data-seat="%d"][data-hand="left"] .count`, s), text: strconv.Itoa(int(h[0]))},
					want{sel: fmt.Sprintf(`.hand[data-seat="%d"][data-hand="right"] .count`, s), text: strconv.Itoa(int(h[1]))})
			}
			ws = append(ws, want{sel: fmt.Sprintf(`.won[data-seat="%d"]`, seat), text: fmt.Sprintf("games won %d", o.GamesWon)},
				want{sel: fmt.Sprintf(`.won[data-seat="%d"]`, 1-seat), text: fmt.Sprintf("games won %d", o.GamesLost)},
				want{sel: "#game", text: fmt.Sprintf("game %d of ", o.Game), contains: true},
				want{sel: ".player.tomove h3", text: d.Seats[seat].Name})
			// A move after which the next request is another game ends its game.
			for _, raw := range d.Frames[k+1].Obs {
				var next arenav1.FingerObservation
				decode(t, raw, &next)
				if next.Game != o.Game {
					ws = append(ws, want{sel: "#result", text: fmt.Sprintf("this move ends game %d", o.Game), contains: true})
				} else {
					ws = append(ws, want{sel: "#result", count: 0})
				}
			}
		}
	case "bidding":
		if k == n {
			break
		}
		for s := range 2 {
			var o arenav1.BiddingObservation
			decode(t, f.Obs[s], &o)
			ws = append(ws, want{sel: fmt.Sprintf(`.purse[data-seat="%d"]`, s), text: fmt.Sprintf("$%d", o.OwnMoney)},
				want{sel: ".track .bottle", text: strconv.Itoa(int(o.BottlePosition)), contains: true},
				want{sel: "#round", text: fmt.Sprintf("round %d of ", o.Round), contains: true})
		}
	case "auction":
		works := auctionWorks(t, d, k)
		for _, raw := range f.Obs {
			var o arenav1.AuctionObservation
			decode(t, raw, &o)
			for s, name := range d.Record.Bots {
				money := strconv.FormatInt(o.WealthTable[name], 10)
				if o.WealthTable[name] < 0 {
					money = "out"
				}
				ws = append(ws, want{sel: fmt.Sprintf(`.money[data-seat="%d"]`, s), text: money})
				for a, c := range works[s] {
					ws = append(ws, want{sel: fmt.Sprintf(`.works[data-seat="%d"][data-artist="%d"]`, s, a), text: strconv.Itoa(c)})
				}
			}
			break
		}
	case "realtv":
		if k == n {
			break
		}
		ws = append(ws, want{sel: "#islands .island:not(.stale)", count: len(f.Islands)})
		byID := map[string]int{}
		for s, raw := range d.Setups {
			var su arenav1.RealtvSetup
			decode(t, raw, &su)
			byID[su.Id] = s
		}
		// Each script's total: the latest score seen of each of its instances.
		latest := map[string]float64{}
		for j := 0; j <= k; j++ {
			for _, raw := range d.Frames[j].Islands {
				var o arenav1.RealtvObservation
				decode(t, raw, &o)
				for _, m := range []map[string]*arenav1.RealtvPlayer{o.ActivePlayers, o.Betrayers, o.EliminatedPlayers} {
					for id, p := range m {
						if _, ok := byID[id]; ok {
							latest[id] = p.Score
						}
					}
				}
			}
		}
		totals := make([]float64, len(d.Record.Bots))
		for id, sc := range latest {
			totals[d.Seats[byID[id]].Player] += sc
		}
		for p, v := range totals {
			ws = append(ws, want{sel: fmt.Sprintf(`#totals [data-player="%d"]`, p), text: d.Record.Bots[p] + ": " + strconv.FormatFloat(math.Round(v*100)/100, 'f', -1, 64)})
		}
		seatIsland := map[int]int{}
		for i, raw := range f.Islands {
			var o arenav1.RealtvObservation
			decode(t, raw, &o)
			ws = append(ws, want{sel: fmt.Sprintf(`.island[data-island="%d"] tbody tr`, i), count: len(o.ActivePlayers) + len(o.Betrayers) + len(o.EliminatedPlayers)},
				want{sel: fmt.Sprintf(`.island[data-island="%d"] h3`, i), text: fmt.Sprintf("island %d, day %d", i+1, o.Day), contains: true})
			for id := range o.ActivePlayers {
				if s, ok := byID[id]; ok {
					seatIsland[s] = i
				}
			}
		}
		for _, a := range d.Record.Steps[k].Answers {
			var su arenav1.RealtvSetup
			decode(t, d.Setups[a.Seat], &su)
			vote := "no vote"
			if a.Fault != nil {
				vote = "FAULT " + a.Fault.Kind.String()
			} else {
				var act arenav1.ActResponse
				decode(t, a.Action, &act)
				if v := act.GetRealtv().GetVoteId(); v != "" {
					vote = v
				}
			}
			i, ok := seatIsland[a.Seat]
			if !ok {
				t.Fatalf("frame %d: seat %d answered but is active on no island", k, a.Seat)
			}
			ws = append(ws, want{sel: fmt.Sprintf(`.island[data-island="%d"] tr[data-id="%s"] .vote`, i, su.Id), text: vote})
		}
	}
	return ws
}

// auctionWorks counts each seat's works per artist as of frame k from the sales the frames
// report (each frame tells the round before it).
func auctionWorks(t *testing.T, d *viewer.Data, k int) [][]int {
	var su arenav1.AuctionSetup
	decode(t, d.Setups[0], &su)
	works := make([][]int, len(d.Seats))
	for s := range works {
		works[s] = make([]int, su.ArtistsNum)
	}
	for j := 1; j <= k; j++ {
		for _, raw := range d.Frames[j].Obs {
			var o arenav1.AuctionObservation
			decode(t, raw, &o)
			if o.BidWinner != "" {
				a, _ := strconv.Atoi(strings.TrimPrefix(o.BidItem, "t"))
				for s, name := range d.Record.Bots {
					if name == o.BidWinner {
						works[s][a]++
					}
				}
			}
			break
		}
	}
	return works
}

func decode(t *testing.T, raw []byte, m proto.Message) {
	t.Helper()
	if err := protojson.Unmarshal(raw, m); err != nil {
		t.Fatalf("decode %T from %.200s: %v", m, raw, err)
	}
}
