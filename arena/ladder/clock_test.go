package ladder_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/botarena/arena/arena/rating"
	"github.com/botarena/arena/arena/store"
)

// TestServeLadderOnTheCPUClock: arena serve takes the clock flags every command takes; its
// ladder matches are jobs carrying the clock, played on it by its own worker and recorded with
// it, and the match page says which clock the match was played on.
func TestServeLadderOnTheCPUClock(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	db := filepath.Join(dir, "arena.db")
	st, err := store.Open(db)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	ada, err := st.CreateUser(ctx, "ada", "!", store.RoleAuthor)
	if err != nil {
		t.Fatal(err)
	}
	b, err := st.EnsureBot(ctx, ada.ID, "dynamite", "paper", "")
	if err != nil {
		t.Fatal(err)
	}
	v, err := st.AddVersion(ctx, b.ID, rating.DefaultMu, rating.DefaultSigma)
	if err != nil {
		t.Fatal(err)
	}
	if err := st.SetVersionDir(ctx, v.ID, filepath.Join(root, "bots/dynamite/cmd/paper"), "go"); err != nil {
		t.Fatal(err)
	}
	if err := st.SetVerdict(ctx, v.ID, store.VersionOK, "passed (set by the test)", "", ""); err != nil {
		t.Fatal(err)
	}
	srv := startArena(t, "serve", "--addr", "127.0.0.1:0", "--store", db, "--jobs", "1", "--local-jobs", "1", "--clock-mode", "cpu")
	m := srv.WaitFor(regexp.MustCompile(`arena serve: (http://127\.0\.0\.1:\d+) .*, cpu clock\)`), 1, 0, time.Minute)
	base := m[1]
	var done []store.LadderMatch
	within(t, 3*time.Minute, "a ladder match played", func() bool {
		done, err = st.LadderMatches(ctx, store.MatchFilter{Game: "dynamite", Kind: store.KindLadder, Status: store.LadderDone, Limit: 10})
		return err == nil && len(done) > 0
	})
	for _, lm := range done {
		if lm.Clock != "cpu" {
			t.Fatalf("ladder match %d recorded with the %q clock, want cpu", lm.ID, lm.Clock)
		}
	}
	resp, err := http.Get(fmt.Sprintf("%s/matches/%d", base, done[0].ID))
	if err != nil {
		t.Fatal(err)
	}
	page, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || !strings.Contains(string(page), `<span id="clock">cpu clock</span>`) {
		t.Fatalf("GET /matches/%d: %s, the page does not show the cpu clock:\n%s", done[0].ID, resp.Status, page)
	}
	srv.Kill9()
}
