package viewer_test

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/botarena/arena/arena/replay"
	"github.com/botarena/arena/arena/viewer"
)

// bigSeed is above 2^53: as a JSON number JavaScript shows it as ...365000.
const bigSeed = 18446744073709365019

// The page shows a seed above 2^53 exactly, for a record written today (the seed a string)
// and for one written before (a number, which Go reads exactly and the page gets as a
// string); and it shows, at every step, the command that forks the match there.
func TestBrowserExactSeedAndForkCommand(t *testing.T) {
	t.Parallel()
	s := shortOf(t, "dynamite")
	s.seed = bigSeed
	rec := record(t, s)
	b, err := json.Marshal(rec)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(b, []byte(`"seed":"18446744073709365019"`)) {
		t.Fatalf("the record's seed is not a string: %.300s", b)
	}
	old := bytes.Replace(b, []byte(`"seed":"18446744073709365019"`), []byte(`"seed":18446744073709365019`), 1)
	oldRec, err := replay.Decode(bytes.NewReader(old), "old.json")
	if err != nil {
		t.Fatal(err)
	}
	for name, r := range map[string]*replay.Record{"today": rec, "older": oldRec} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			ctx, _ := tab(t)
			var page bytes.Buffer
			if err := viewer.WriteSource(&page, r, "runs/it's m.json", viewer.MaxBytes); err != nil {
				t.Fatal(err)
			}
			path := filepath.Join(t.TempDir(), "seed.html")
			if err := os.WriteFile(path, page.Bytes(), 0o644); err != nil {
				t.Fatal(err)
			}
			if err := chromedp.Do(ctx, chromedp.Navigate("file://"+path)); err != nil {
				t.Fatal(err)
			}
			if _, err := chromedp.Run(ctx, chromedp.Poll[bool](`document.body.dataset.ready === 'true'`, chromedp.WithPollingTimeout(20*time.Second))); err != nil {
				t.Fatalf("the page never got ready: %v", err)
			}
			if meta := textOf(t, ctx, "#meta"); !strings.Contains(meta, "seed 18446744073709365019,") {
				t.Fatalf("the page shows %q, want seed 18446744073709365019", meta)
			}
			for press(t, ctx, kb.Home); stepOf(t, ctx) < 4; {
				press(t, ctx, kb.ArrowRight)
			}
			want := `arena play --from 'runs/it'\''s m.json' --step 5 dynamite beatlast`
			if got := textOf(t, ctx, "#forkcmd"); got != want {
				t.Fatalf("fork command at step 5: %q, want %q", got, want)
			}
			shot(t, ctx, "fork-"+name)
			press(t, ctx, kb.End)
			if got := textOf(t, ctx, "#forkcmd"); got != "" {
				t.Fatalf("fork command at the end: %q", got)
			}
			shot(t, ctx, "seed-"+name)
		})
	}
}
