package tournament_test

import (
	"bytes"
	"context"
	"encoding/json"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/botarena/arena/arena/game"
	"github.com/botarena/arena/arena/match"
	"github.com/botarena/arena/arena/store"
	"github.com/botarena/arena/arena/tournament"
)

// TestUnratedBelowPlayed: in an auction (OpenSkill, whose prior is above a loser's rating) a
// bot none of whose matches was recorded is shown unrated, below every bot that played,
// however the prior compares with their ratings.
func TestUnratedBelowPlayed(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	st, err := store.Open(filepath.Join(t.TempDir(), "arena.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	cfg := tournament.Config{Game: "auction", Seed: 1, Reps: 1, Entries: []tournament.Entry{{Name: "a"}, {Name: "b"}, {Name: "c"}, {Name: "never"}}}
	raw, _ := json.Marshal(cfg)
	var bots []store.Bot
	for i, e := range cfg.Entries {
		bots = append(bots, store.Bot{Idx: i, Name: e.Name, Spec: e.Name})
	}
	id, err := st.CreateTournament(ctx, store.Tournament{Name: "u", Game: "auction", Config: raw}, bots, []store.Match{
		{Idx: 0, MatchID: "m0", Players: []int{0, 1, 2}}, {Idx: 1, MatchID: "m1", Players: []int{0, 1, 2}}, {Idx: 2, MatchID: "m2", Players: []int{3, 0, 1}}})
	if err != nil {
		t.Fatal(err)
	}
	for idx := range 2 {
		res, _ := json.Marshal(match.Result{Outcome: game.Outcome{Summary: "a wins", Players: []game.PlayerOutcome{
			{Result: game.ResultWin, Score: 3, Rank: 1}, {Result: game.ResultLoss, Rank: 2}, {Result: game.ResultLoss, Rank: 3}}}})
		if err := st.FinishMatch(ctx, id, idx, store.Finish{Result: res, Replay: []byte(`{}`)}); err != nil {
			t.Fatal(err)
		}
	}
	if err := st.FailMatch(ctx, id, 2, "infrastructure failure, charged to no bot: test"); err != nil {
		t.Fatal(err)
	}
	s, err := tournament.Compute(ctx, st, id)
	if err != nil {
		t.Fatal(err)
	}
	last := s.Rows[len(s.Rows)-1]
	if last.Bot != "never" || !last.Unrated || last.Rank != 4 {
		t.Fatalf("the bot with no match recorded is %+v, want last and unrated; rows: %+v", last, s.Rows)
	}
	if s.Rows[2].Rating >= last.Rating {
		t.Fatalf("the test needs a played bot rated below the prior (%v < %v)", s.Rows[2].Rating, last.Rating)
	}
	var table bytes.Buffer
	if err := s.WriteTable(&table); err != nil {
		t.Fatal(err)
	}
	if !regexp.MustCompile(`(?m)^\s+4\s+never\s+unrated\s+-\s+0\s`).Match(table.Bytes()) {
		t.Fatalf("the table does not show the bot unrated:\n%s", table.String())
	}
}
