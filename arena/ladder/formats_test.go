package ladder_test

import (
	"bytes"
	"context"
	"fmt"
	"math"
	"path/filepath"
	"testing"
	"time"

	"github.com/botarena/arena/arena/game"
	"github.com/botarena/arena/arena/ladder"
	"github.com/botarena/arena/arena/queue"
	"github.com/botarena/arena/arena/queue/queuetest"
	"github.com/botarena/arena/arena/rating"
	"github.com/botarena/arena/arena/replay"
	"github.com/botarena/arena/arena/store"
	"github.com/botarena/arena/arena/tournament"
	"github.com/botarena/arena/bots/house"
	"github.com/botarena/arena/internal/slack"
)

// TestLadderPlaysEachGameInItsFormat: the auction plays tables of four and realtv contests of
// six scripts (each seated by the engine as its 11 instances), as their registry Specs say,
// through real workers (tournament.Work, each with its own credential, on a real embedded
// NATS). Six authors per game: an upload built and run by the worker (a real bot process) and
// five playing the house bot's code. Every table seats one version per author, the least
// served first, so every author sits at about its share; each worker's result is verified
// against the engine (a forged table is refused: arena/tournament's
// TestHostileWorkersRefusedAtTables); every seat's rating moves by Plackett-Luce on the ranks
// of the whole table, read back from the ratings recorded with the match.
func TestLadderPlaysEachGameInItsFormat(t *testing.T) {
	ctx := context.Background()
	st, err := store.Open(filepath.Join(t.TempDir(), "arena.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	// A worker whose heartbeat the machine delays past the ack wait loses its job: stretched too.
	srv := queuetest.StartServer(t, queue.Config{AckWait: slack.Of(t, 10*time.Second)})
	games := []string{"auction", "realtv"}
	// A move's deadline with the shared slack: the upload is a real process on a loaded machine,
	// and a timeout here would be the machine's, not the format's.
	lad := &ladder.Ladder{Store: st, Queue: srv.Queue, Jobs: 2, Games: games, Pause: 20 * time.Millisecond, Deadline: slack.Of(t, 3*time.Second)}
	owner, _ := st.CreateUser(ctx, "house", "!", store.RoleAuthor)
	if err := lad.SeedHouse(ctx, owner.ID); err != nil {
		t.Fatal(err)
	}
	upload := map[string]string{"auction": "bots/auction/cmd/collector", "realtv": "bots/realtv/cmd/schemer"}
	for _, name := range []string{"ada", "bob", "cy", "dee", "eve"} {
		u, err := st.CreateUser(ctx, name, "!", store.RoleAuthor)
		if err != nil {
			t.Fatal(err)
		}
		for _, g := range games {
			hb := house.Bots[g].Name // the house bot's code under another author's name
			dir := ""
			if name == "ada" {
				hb, dir = "", filepath.Join(root, upload[g])
			}
			b, err := st.EnsureBot(ctx, u.ID, g, name+"-bot", hb)
			if err != nil {
				t.Fatal(err)
			}
			v, _ := st.AddVersion(ctx, b.ID, rating.DefaultMu, rating.DefaultSigma)
			if err := st.SetVersionDir(ctx, v.ID, dir, "go"); err != nil {
				t.Fatal(err)
			}
			if err := st.SetVerdict(ctx, v.ID, store.VersionOK, "passed (set by the test)", "", ""); err != nil {
				t.Fatal(err)
			}
		}
	}
	rctx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() { lad.Run(rctx); close(done) }()
	defer func() { cancel(); <-done }()
	wctx, stop := context.WithCancel(ctx)
	defer stop()
	for _, w := range []string{"w1", "w2"} {
		go tournament.Work(wctx, srv.Worker(t, w), tournament.WorkOptions{Jobs: 1})
	}
	matches := func(g, status string) []store.LadderMatch {
		ms, err := st.LadderMatches(ctx, store.MatchFilter{Game: g, Kind: store.KindLadder, Status: status, Limit: 1 << 20})
		if err != nil {
			t.Fatal(err)
		}
		return ms
	}
	within(t, 4*time.Minute, "three auction tables and two realtv contests played", func() bool {
		return len(matches("auction", store.LadderDone)) >= 3 && len(matches("realtv", store.LadderDone)) >= 2
	})
	for _, g := range games {
		if failed := matches(g, store.LadderError); len(failed) > 0 {
			t.Fatalf("%s: %d ladder matches failed; the first: %q", g, len(failed), failed[0].Error)
		}
		spec, _ := game.Lookup(g)
		sat := map[string]int{}
		for _, m := range matches(g, store.LadderDone) {
			if len(m.Seats) != spec.LadderTable {
				t.Fatalf("%s match %d seats %d, want the Spec's table of %d: %+v", g, m.ID, len(m.Seats), spec.LadderTable, m.Seats)
			}
			authors := map[string]bool{}
			for _, s := range m.Seats {
				if authors[s.Author] {
					t.Fatalf("%s match %d: %s holds two seats", g, m.ID, s.Author)
				}
				authors[s.Author] = true
				sat[s.Author]++
				if s.Result == "" || s.Rank < 1 || s.Faults != 0 {
					fs, _ := st.MatchFaults(ctx, m.ID)
					t.Fatalf("%s match %d seat %d (%s): result %q rank %d faults %d: %+v\nlog: %s", g, m.ID, s.Seat, s.Bot, s.Result, s.Rank, s.Faults, fs, s.Log)
				}
			}
			checkEngineSeats(t, st, m, g)
			checkRatings(t, st, m)
		}
		t.Logf("%s: seats per author %v", g, sat)
		if g == "auction" {
			// Tables of four among six authors, the least served first: nobody sits out twice
			// while another sits at every table.
			lo, hi := 1<<30, 0
			for _, n := range sat {
				lo, hi = min(lo, n), max(hi, n)
			}
			if len(sat) != 6 || hi-lo > 1 {
				t.Fatalf("auction seats per author %v: want all six authors within one table of each other", sat)
			}
		}
	}
}

// checkEngineSeats re-runs a stored replay: a realtv contest seats 11 instances per script,
// an auction table one seat per player.
func checkEngineSeats(t *testing.T, st *store.Store, m store.LadderMatch, g string) {
	t.Helper()
	rp, err := st.LadderReplay(context.Background(), m.ID)
	if err != nil {
		t.Fatal(err)
	}
	rec, err := replay.Decode(bytes.NewReader(rp), fmt.Sprint("match ", m.ID))
	if err != nil {
		t.Fatal(err)
	}
	var seats []game.Seat
	if _, err := replay.Run(rec, func(_ replay.Step, eng game.Engine, _ []game.Answer) {
		if seats == nil {
			seats = eng.Seats()
		}
	}); err != nil {
		t.Fatalf("%s match %d: its replay does not reproduce: %v", g, m.ID, err)
	}
	per := 1
	if g == "realtv" {
		per = 11
	}
	count := map[int]int{}
	for _, s := range seats {
		count[s.Player]++
	}
	if len(rec.Config.Players) != len(m.Seats) || len(seats) != per*len(m.Seats) {
		t.Fatalf("%s match %d: %d players and %d engine seats, want %d and %d", g, m.ID, len(rec.Config.Players), len(seats), len(m.Seats), per*len(m.Seats))
	}
	for p, n := range count {
		if n != per {
			t.Fatalf("%s match %d: player %d holds %d seats, want %d", g, m.ID, p, n, per)
		}
	}
}

// checkRatings: every seat's rating recorded with match m is Plackett-Luce on the ranks of
// the whole table from the seat's rating before it (its previous match's, or the default).
func checkRatings(t *testing.T, st *store.Store, m store.LadderMatch) {
	t.Helper()
	before := make([]rating.Skill, len(m.Seats))
	after := make([]rating.Skill, len(m.Seats))
	idx := make([]int, len(m.Seats))
	ranks := make([]int, len(m.Seats))
	for i, s := range m.Seats {
		idx[i], ranks[i] = i, s.Rank
		before[i] = rating.Skill{Mu: rating.DefaultMu, Sigma: rating.DefaultSigma}
		ps, err := st.RatingHistory(context.Background(), s.BotID)
		if err != nil {
			t.Fatal(err)
		}
		found := false
		for _, p := range ps {
			if p.MatchID < m.ID {
				before[i] = rating.Skill{Mu: p.Mu, Sigma: p.Sigma}
			} else if p.MatchID == m.ID {
				after[i], found = rating.Skill{Mu: p.Mu, Sigma: p.Sigma}, true
			}
		}
		if !found {
			t.Fatalf("match %d: no rating recorded for seat %d (%s)", m.ID, i, s.Bot)
		}
	}
	rating.PlackettLuce(before, idx, ranks)
	for i := range before {
		if math.Abs(before[i].Mu-after[i].Mu) > 1e-9 || math.Abs(before[i].Sigma-after[i].Sigma) > 1e-9 {
			t.Fatalf("match %d seat %d (rank %d of %v): recorded %+v, Plackett-Luce on the table gives %+v", m.ID, i, ranks[i], ranks, after[i], before[i])
		}
	}
}
