package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"path/filepath"
	"testing"
)

// TestMatchClockIsRecorded writes a tournament match and a ladder match with their clocks and
// reads them back; a store of schema 6 is migrated (its old matches have no clock), and one
// opened read-only unmigrated reads with an empty clock.
func TestMatchClockIsRecorded(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "clock.db")
	filled(t, path, 2) // match 0 finished without a clock
	s, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	tr, err := s.FindTournament(ctx, "t")
	if err != nil {
		t.Fatal(err)
	}
	if err := s.FinishMatch(ctx, tr.ID, 1, Finish{Result: json.RawMessage(`{}`), Replay: []byte("{}"), Clock: "cpu"}); err != nil {
		t.Fatal(err)
	}
	u, err := s.CreateUser(ctx, "ada", "hash", RoleAuthor)
	if err != nil {
		t.Fatal(err)
	}
	b, err := s.EnsureBot(ctx, u.ID, "dynamite", "rock", "")
	if err != nil {
		t.Fatal(err)
	}
	v, err := s.AddVersion(ctx, b.ID, 25, 8)
	if err != nil {
		t.Fatal(err)
	}
	mid, err := s.StartLadderMatch(ctx, "dynamite", KindLadder, 7, []int64{v.ID})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.FinishLadderMatch(ctx, mid, LadderFinish{Summary: "x", Seats: []Seat{{Seat: 0, Result: "win"}}, Replay: []byte("{}"), Clock: "cpu"}); err != nil {
		t.Fatal(err)
	}
	ms, err := s.Matches(ctx, tr.ID)
	if err != nil || ms[0].Clock != "" || ms[1].Clock != "cpu" {
		t.Fatalf("tournament matches' clocks: %+v %v", ms, err)
	}
	lm, err := s.LadderMatchByID(ctx, mid)
	if err != nil || lm.Clock != "cpu" {
		t.Fatalf("ladder match's clock: %q %v", lm.Clock, err)
	}
	s.Close()

	// The same store as schema 6 wrote it: read-only it reads as it is, opened it migrates.
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{"ALTER TABLE matches DROP COLUMN clock", "ALTER TABLE ladder_matches DROP COLUMN clock",
		"ALTER TABLE web_bots DROP COLUMN pinned", "DROP INDEX web_bots_user", "DROP TABLE audit_log", "DROP TABLE webhooks",
		"ALTER TABLE users DROP COLUMN disabled", "PRAGMA user_version = 6"} {
		if _, err := db.Exec(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	db.Close()
	ro, err := OpenReadOnly(path)
	if err != nil {
		t.Fatal(err)
	}
	if ms, err := ro.Matches(ctx, tr.ID); err != nil || len(ms) != 2 || ms[1].Clock != "" {
		t.Fatalf("a schema-6 store read-only: %+v %v", ms, err)
	}
	if lm, err := ro.LadderMatchByID(ctx, mid); err != nil || lm.Clock != "" {
		t.Fatalf("a schema-6 store's ladder match read-only: %+v %v", lm, err)
	}
	ro.Close()
	s, err = Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if s.Version() != SchemaVersion {
		t.Fatalf("version %d after migration", s.Version())
	}
	if ms, err := s.Matches(ctx, tr.ID); err != nil || ms[1].Clock != "" || ms[1].Status != StatusDone {
		t.Fatalf("migrated matches: %+v %v", ms, err)
	}
}
