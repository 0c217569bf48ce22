package tournament_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/botarena/arena/arena/botspec"
	"github.com/botarena/arena/arena/store"
	"github.com/botarena/arena/arena/tournament"
)

// A bot whose files leave the files store while a tournament runs (removed by hand: what a
// run resolved is leased, so no collector removes it) is taken and built again at its next
// launch: no fault is charged to it, no match fails. Its entries are its own (unique files),
// so no other run on the machine loses anything.
func TestMissingFilesAreRebuiltNotCharged(t *testing.T) {
	t.Parallel()
	goBot := filepath.Join(t.TempDir(), "paper")
	if err := os.MkdirAll(goBot, 0o755); err != nil {
		t.Fatal(err)
	}
	src, err := os.ReadFile(filepath.Join(root, "bots/dynamite/cmd/paper/main.go"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(goBot, "main.go"), append(src, "\n// "+t.Name()+" "+time.Now().String()+"\n"...), 0o644); err != nil {
		t.Fatal(err)
	}
	pyBot := filepath.Join(t.TempDir(), "bot.py")
	src, err = os.ReadFile(pythonBot)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(pyBot, append(src, "\n# "+t.Name()+" "+time.Now().String()+"\n"...), 0o644); err != nil {
		t.Fatal(err)
	}
	r := &botspec.Resolver{}
	var gone []string // the folders the two bots are launched from
	for _, spec := range []string{goBot, pyBot} {
		p, err := r.Prepare(spec)
		if err != nil {
			t.Fatal(err)
		}
		gone = append(gone, p.Command.Mounts[0].Host)
	}
	es := []tournament.Entry{{Name: "paper", Spec: goBot, Language: "go"}, {Name: "python", Spec: pyBot, Language: "python"}}
	cfg := tournament.Config{Game: "dynamite", Params: shortDynamite, Seed: 5, Reps: 3, Deadline: 2 * time.Second,
		StartTimeout: startTimeout(t), Entries: es}
	ctx := context.Background()
	st, err := store.Open(filepath.Join(t.TempDir(), "t.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	id, err := tournament.Create(ctx, st, "missing", cfg)
	if err != nil {
		t.Fatal(err)
	}
	var once sync.Once
	removed := false
	sum, err := tournament.Run(ctx, st, id, tournament.Options{Jobs: 1, Fresh: true, Resolver: r, OnEvent: func(e tournament.Event) {
		if e.Kind == tournament.MatchDone {
			once.Do(func() {
				for _, d := range gone {
					if err := os.RemoveAll(d); err != nil {
						t.Error(err)
					}
				}
				removed = true
			})
		}
	}})
	if err != nil || sum.Failed != 0 || sum.Done != sum.Total || !removed {
		t.Fatalf("run: %v, %+v (files removed: %v)", err, sum, removed)
	}
	faults, err := st.Faults(ctx, id, -1)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range faults {
		t.Errorf("fault charged: bot %d %s: %s", f.BotIdx, f.Kind, strings.SplitN(f.Detail, "\n", 2)[0])
	}
	for _, d := range gone {
		if _, err := os.Stat(d); err != nil {
			t.Errorf("%s was not taken or built again: %v", d, err)
		}
	}
}
