package tournament_test

import (
	"context"
	"path/filepath"
	"runtime"
	"sync/atomic"
	"testing"

	"github.com/botarena/arena/arena/game"
	"github.com/botarena/arena/arena/store"
	"github.com/botarena/arena/arena/tournament"
)

// TestJobsCappedAtPendingMatches: Jobs far above the number of matches starts no more workers
// than there are matches to play (issue 11: --jobs 100000 took 541 MB for 2 matches).
func TestJobsCappedAtPendingMatches(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	st, err := store.Open(filepath.Join(t.TempDir(), "t.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	cfg := tournament.Config{Game: "dynamite", Params: shortDynamite, Seed: 3, Reps: 1, Entries: houseBots("paper", "scissors")}
	id, err := tournament.Create(ctx, st, "jobs", cfg)
	if err != nil {
		t.Fatal(err)
	}
	var peak atomic.Int64
	sum, err := tournament.Run(ctx, st, id, tournament.Options{Jobs: 100_000, Resolver: resolver, OnEvent: func(tournament.Event) {
		if n := int64(runtime.NumGoroutine()); n > peak.Load() {
			peak.Store(n)
		}
	}})
	if err != nil || sum.Done != 2 {
		t.Fatalf("run: %+v %v", sum, err)
	}
	if peak.Load() > 5_000 {
		t.Fatalf("%d goroutines for 2 matches", peak.Load())
	}
}

// TestScheduleSizeMatchesSchedule: the size computed from the counts is the schedule's length,
// and a schedule over MaxMatches is refused without being built.
func TestScheduleSizeMatchesSchedule(t *testing.T) {
	// Not parallel: it measures this process's allocations.
	for _, c := range []struct {
		game        string
		bots, reps  int
		table       int
		wantMatches int
	}{
		{"dynamite", 2, 1, 0, 2}, {"dynamite", 5, 3, 0, 60}, {"auction", 7, 2, 3, 6}, {"auction", 4, 5, 0, 5}, {"realtv", 3, 2, 0, 2},
	} {
		spec := lookup(t, c.game)
		cfg := tournament.Config{Game: c.game, Reps: c.reps, Table: c.table, Entries: houseBots(make([]string, c.bots)...)}
		for i := range cfg.Entries {
			cfg.Entries[i].Name = string(rune('a' + i))
		}
		n, err := tournament.ScheduleSize(spec, cfg)
		ms, err2 := tournament.Schedule(spec, cfg)
		if err != nil || err2 != nil || n != len(ms) || n != c.wantMatches {
			t.Errorf("%+v: size %d (%v), schedule %d (%v), want %d", c, n, err, len(ms), err2, c.wantMatches)
		}
	}
	spec := lookup(t, "dynamite")
	cfg := tournament.Config{Game: "dynamite", Reps: 1 << 40, Entries: houseBots("a", "b", "c")}
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	before := ms.TotalAlloc
	if _, err := tournament.Schedule(spec, cfg); err == nil {
		t.Fatal("a schedule of 6 * 2^40 matches was accepted")
	}
	runtime.ReadMemStats(&ms)
	if grew := ms.TotalAlloc - before; grew > 1<<20 {
		t.Fatalf("refusing the schedule allocated %d bytes", grew)
	}
}

func lookup(t *testing.T, name string) game.Spec {
	t.Helper()
	s, err := game.Lookup(name)
	if err != nil {
		t.Fatal(err)
	}
	return s
}
