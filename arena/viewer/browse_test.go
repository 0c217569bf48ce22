package viewer_test

import (
	"context"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/botarena/arena/arena/replay"
	"github.com/botarena/arena/arena/viewer"
)

// Every game's page, driven through its controls: keys, buttons, the slider, play and pause;
// at each stop the page must show what the engine showed the bots at that step.
func TestBrowserEveryGame(t *testing.T) {
	t.Parallel()
	for _, s := range shorts {
		t.Run(s.game, func(t *testing.T) {
			t.Parallel()
			ctx, _ := tab(t)
			rec := record(t, s)
			d := open(t, ctx, rec)
			n := len(rec.Steps)
			if n < 8 {
				t.Fatalf("%s: only %d steps; the short match is too short to step through", s.game, n)
			}
			checkFrame := func(k int) {
				t.Helper()
				if got := stepOf(t, ctx); got != k {
					t.Fatalf("the page is at frame %d, want %d", got, k)
				}
				for _, w := range expect(t, d, k) {
					w.check(t, ctx, k)
				}
				checkAnswers(t, ctx, rec, k)
			}
			checkFrame(0)
			shot(t, ctx, s.game+"-1-start")

			for range 3 {
				press(t, ctx, kb.ArrowRight)
			}
			checkFrame(3)
			click(t, ctx, "#next")
			checkFrame(4)
			press(t, ctx, kb.ArrowLeft)
			click(t, ctx, "#prev")
			checkFrame(2)

			// Seek: a click at 60% of the slider lands near 60% of the match.
			k := seekTo(t, ctx, 0.6)
			if want := 0.6 * float64(n); math.Abs(float64(k)-want) > 0.1*float64(n)+2 {
				t.Errorf("a click at 60%% of the slider went to frame %d of %d", k, n)
			}
			checkFrame(k)
			shot(t, ctx, s.game+"-2-seek")

			press(t, ctx, kb.End)
			checkFrame(n)
			shot(t, ctx, s.game+"-3-end")
			click(t, ctx, "#first")
			checkFrame(0)
			press(t, ctx, kb.End)
			press(t, ctx, kb.Home)
			checkFrame(0)

			// Play, then pause: it moves, and stays where it paused.
			for range 8 {
				press(t, ctx, kb.ArrowUp)
			}
			if got := js[string](t, ctx, `document.getElementById('speed').value`); got != "1000" {
				t.Errorf("the speed after eight presses of the up arrow is %s/s, want the top 1000/s", got)
			}
			// 20 steps a second: a short match must not end before the test looks.
			for range 4 {
				press(t, ctx, kb.ArrowDown)
			}
			if got := js[string](t, ctx, `document.getElementById('speed').value`); got != "20" {
				t.Errorf("the speed after four presses of the down arrow is %s/s, want 20/s", got)
			}
			press(t, ctx, " ")
			if js[string](t, ctx, `document.getElementById('play').getAttribute('aria-pressed')`) != "true" {
				t.Error("space did not start playing")
			}
			if _, err := chromedp.Run(ctx, chromedp.Poll[bool](`Number(document.body.dataset.step) >= 3`, chromedp.WithPollingTimeout(10*time.Second))); err != nil {
				t.Fatalf("playing never moved past frame 3: %v", err)
			}
			press(t, ctx, " ")
			at := stepOf(t, ctx)
			time.Sleep(300 * time.Millisecond)
			if again := stepOf(t, ctx); again != at {
				t.Errorf("paused at frame %d, but the page moved on to %d", at, again)
			}
			checkFrame(at)

			// Each fault in the list leads to its step, where the fault shows.
			faults := 0
			for _, f := range d.Frames {
				faults += len(f.Charged)
			}
			if faults == 0 {
				if got := textOf(t, ctx, "#allfaults"); got != "none" {
					t.Errorf("no faults, but the list shows %q", got)
				}
				return
			}
			if got := countOf(t, ctx, "#allfaults li[data-step]"); got != faults {
				t.Errorf("the fault list has %d entries, the engine charged %d", got, faults)
			}
			click(t, ctx, "#allfaults li[data-step]")
			first := -1
			for i, f := range d.Frames {
				if len(f.Charged) > 0 {
					first = i
					break
				}
			}
			checkFrame(first)
			c := d.Frames[first].Charged[0]
			box := textOf(t, ctx, "#charged .fault-box")
			for _, w := range []string{d.Seats[c.Seat].Name, c.Kind.String(), c.Where, c.Penalty} {
				if !strings.Contains(box, w) {
					t.Errorf("the fault at frame %d shows %q, which lacks %q", first, box, w)
				}
			}
			shot(t, ctx, s.game+"-4-fault")
		})
	}
}

// checkAnswers: one row per answer, the answer or its fault, and its time.
func checkAnswers(t *testing.T, ctx context.Context, rec *replay.Record, k int) {
	t.Helper()
	if k >= len(rec.Steps) {
		return
	}
	for _, a := range rec.Steps[k].Answers {
		row := fmt.Sprintf(`#answers tr[data-seat="%d"]`, a.Seat)
		ans := textOf(t, ctx, row+" .answer")
		if a.Fault != nil && ans != "FAULT "+a.Fault.Kind.String() || a.Fault == nil && (ans == "" || strings.HasPrefix(ans, "FAULT")) {
			t.Errorf("frame %d seat %d: answer shows %q (fault %v)", k, a.Seat, ans, a.Fault)
		}
		checkMs(t, textOf(t, ctx, row+" .time"), a.Elapsed, fmt.Sprintf("frame %d seat %d time", k, a.Seat))
		cpu := textOf(t, ctx, row+" .cpu")
		if a.CPU == 0 {
			if cpu != "not measured" {
				t.Errorf("frame %d seat %d: CPU shows %q for an unmeasured move", k, a.Seat, cpu)
			}
		} else {
			checkMs(t, cpu, a.CPU, fmt.Sprintf("frame %d seat %d CPU", k, a.Seat))
		}
		mem := textOf(t, ctx, row+" .mem")
		v, unit := strings.CutSuffix(mem, " MiB")
		f, err := strconv.ParseFloat(v, 64)
		if a.Memory == 0 && mem != "" || a.Memory > 0 && (!unit || err != nil || math.Abs(f-float64(a.Memory)/(1<<20)) > 0.051) {
			t.Errorf("frame %d seat %d: memory shows %q for %d bytes", k, a.Seat, mem, a.Memory)
		}
	}
}

// checkMs: text is "<x> ms" with x the microseconds us in milliseconds, as rounded.
func checkMs(t *testing.T, text string, us int64, what string) {
	t.Helper()
	v, ok := strings.CutSuffix(text, " ms")
	f, err := strconv.ParseFloat(v, 64)
	if !ok || err != nil || math.Abs(f-float64(us)/1000) > 0.5 {
		t.Errorf("%s shows %q, want %.3f ms", what, text, float64(us)/1000)
	}
}

// seekTo clicks the slider at fraction x of its width and returns the frame it went to.
func seekTo(t *testing.T, ctx context.Context, x float64) int {
	t.Helper()
	box := js[[]float64](t, ctx, `(function(){var r=document.getElementById('seek').getBoundingClientRect();return [r.left,r.top,r.width,r.height]})()`)
	// A range input's thumb travels over the width less the thumb (about 16 px).
	px := box[0] + 8 + x*(box[2]-16)
	if err := chromedp.Do(ctx, chromedp.MouseClickXY(px, box[1]+box[3]/2)); err != nil {
		t.Fatalf("click the slider: %v", err)
	}
	return stepOf(t, ctx)
}

// A record made by `arena play` with real bot processes shows each move's time and CPU.
func TestBrowserProcessTimesAndCPU(t *testing.T) {
	t.Parallel()
	ctx, _ := tab(t)
	rec, err := replay.Read("testdata/dynamite-processes.json")
	if err != nil {
		t.Fatal(err)
	}
	d := open(t, ctx, rec)
	// A link to a step opens the page there.
	url := js[string](t, ctx, `location.href`)
	if err := chromedp.Do(ctx, chromedp.Navigate(url+"#step=7")); err != nil {
		t.Fatal(err)
	}
	if _, err := chromedp.Run(ctx, chromedp.Poll[bool](`document.body.dataset.step === '6'`, chromedp.WithPollingTimeout(5*time.Second))); err != nil {
		t.Errorf("#step=7 did not show step 7: at frame %d", stepOf(t, ctx))
	}
	for _, k := range []int{0, 1, len(rec.Steps) - 1} {
		for press(t, ctx, kb.Home); stepOf(t, ctx) < k; {
			press(t, ctx, kb.ArrowRight)
		}
		measured := false
		for _, a := range rec.Steps[k].Answers {
			measured = measured || a.CPU > 0
		}
		if !measured {
			t.Fatalf("testdata/dynamite-processes.json step %d has no CPU figures: re-record it (see its README line in viewer_test.go)", k)
		}
		checkAnswers(t, ctx, rec, k)
		for _, w := range expect(t, d, k) {
			w.check(t, ctx, k)
		}
	}
	shot(t, ctx, "dynamite-processes")
}

// Bot names and answers are text, never markup: a bot named like a script, and a realtv
// bot voting with markup, show as written and run nothing (a dialog or a page error fails
// the test through tab's checks).
func TestBrowserHostileText(t *testing.T) {
	t.Parallel()
	const evil = `</script><script>alert(1)</script>`
	for _, s := range []short{shortOf(t, "dynamite"), shortOf(t, "realtv")} {
		t.Run(s.game, func(t *testing.T) {
			t.Parallel()
			ctx, ev := tab(t)
			ps := s.players()
			ps[0] = renamed{ps[0], evil}
			if s.game == "realtv" {
				ps[1] = renamed{markupVoter(), `<img src=x onerror=alert(2)>`}
			}
			rec := recordWith(t, s, ps)
			d := open(t, ctx, rec)
			if got := textOf(t, ctx, "#title"); !strings.Contains(got, evil) {
				t.Errorf("the title shows %q, want the bot's name as text", got)
			}
			if got := js[string](t, ctx, `document.title`); !strings.Contains(got, evil) {
				t.Errorf("the document title is %q, want the bot's name as text", got)
			}
			if got := countOf(t, ctx, "script"); got != 2 {
				t.Errorf("%d script elements in the page, want its own 2", got)
			}
			if got := countOf(t, ctx, "img"); got != 0 {
				t.Errorf("%d img elements: markup from the record became elements", got)
			}
			if s.game == "realtv" {
				for k := range 2 {
					for _, w := range expect(t, d, k) {
						w.check(t, ctx, k)
					}
					press(t, ctx, kb.ArrowRight)
				}
			}
			press(t, ctx, kb.End)
			shot(t, ctx, "hostile-"+s.game)
			if n := ev.dialogs.Load(); n != 0 {
				t.Fatalf("%d dialogs opened", n)
			}
		})
	}
}

var _ = viewer.DataID

// BenchmarkBrowserOpen measures how long Chromium takes to open a page of about 40 MiB (a
// dynamite match of 80,000 rounds, near MaxBytes) until it is ready, and one step after it:
//
//	go test -run '^$' -bench BrowserOpen -benchtime 2x ./arena/viewer
func BenchmarkBrowserOpen(b *testing.B) {
	s := short{game: "dynamite", seed: 9, params: map[string]string{"target": "1000000", "rounds": "60000", "dynamite": "1000000"}, players: shortOf(b, "dynamite").players}
	rec := record(b, s)
	html := pageOf(b, rec)
	path := filepath.Join(b.TempDir(), "big.html")
	if err := os.WriteFile(path, html, 0o644); err != nil {
		b.Fatal(err)
	}
	ctx, err := benchTab(b)
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	var step time.Duration
	for range b.N {
		if err := chromedp.Do(ctx, chromedp.Navigate("file://"+path)); err != nil {
			b.Fatal(err)
		}
		if _, err := chromedp.Run(ctx, chromedp.Poll[bool](`document.body.dataset.ready === 'true'`, chromedp.WithPollingTimeout(60*time.Second))); err != nil {
			b.Fatal(err)
		}
		t0 := time.Now()
		if err := chromedp.Do(ctx, chromedp.KeyEvent(kb.End)); err != nil {
			b.Fatal(err)
		}
		step += time.Since(t0)
	}
	b.ReportMetric(float64(len(html))/(1<<20), "MiB/page")
	b.ReportMetric(float64(len(rec.Steps)), "steps")
	b.ReportMetric(float64(step.Milliseconds())/float64(b.N), "ms/seek")
}
