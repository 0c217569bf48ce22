package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestMigratesSchemaV2 takes a store back to schema version 2 (what the arena before the web
// server wrote: its tables without the web ones), opens it, and checks the tournament is kept
// and the web tables work.
func TestMigratesSchemaV2(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "v2.db")
	filled(t, path, 3)
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	for _, tb := range []string{"audit_log", "webhooks", "meta", "ratings", "ladder_faults", "ladder_seats", "ladder_matches", "versions", "web_bots", "api_tokens", "sessions", "users"} {
		if _, err := db.Exec("DROP TABLE " + tb); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := db.Exec("ALTER TABLE matches DROP COLUMN clock"); err != nil { // schema 7 (clock.go)
		t.Fatal(err)
	}
	if _, err := db.Exec("PRAGMA user_version = 2"); err != nil {
		t.Fatal(err)
	}
	db.Close()
	s, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if s.Version() != SchemaVersion {
		t.Fatalf("version %d after migration", s.Version())
	}
	if id, err := s.ID(ctx); err != nil || len(id) != 32 {
		t.Fatalf("the store's id after migration: %q %v", id, err)
	}
	tr, err := s.FindTournament(ctx, "t")
	if err != nil {
		t.Fatal(err)
	}
	if ms, err := s.Matches(ctx, tr.ID); err != nil || len(ms) != 3 || ms[0].Status != StatusDone {
		t.Fatalf("tournament after migration: %v %v", ms, err)
	}
	if _, err := s.CreateUser(ctx, "ada", "h", RoleAuthor); err != nil {
		t.Fatal(err)
	}
}

func TestWebRoundTrip(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s, err := Open(filepath.Join(t.TempDir(), "web.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	ada, err := s.CreateUser(ctx, "ada", "hash", RoleAuthor)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.CreateUser(ctx, "ADA", "x", RoleAuthor); !errors.Is(err, ErrExists) {
		t.Fatalf("duplicate name (other case): %v", err)
	}
	bob, _ := s.CreateUser(ctx, "bob", "hash", RoleAuthor)
	if err := s.CreateSession(ctx, "old", ada.ID, "c", time.Now().Add(-time.Minute)); err != nil {
		t.Fatal(err)
	}
	if _, _, err := s.SessionUser(ctx, "old"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("expired session: %v", err)
	}
	s.CreateSession(ctx, "live", ada.ID, "c", time.Now().Add(time.Hour))
	if u, csrf, err := s.SessionUser(ctx, "live"); err != nil || u.Name != "ada" || csrf != "c" {
		t.Fatalf("session: %v %q %v", u, csrf, err)
	}
	b, err := s.EnsureBot(ctx, ada.ID, "dynamite", "rocky", "")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.EnsureBot(ctx, bob.ID, "dynamite", "rocky", ""); !errors.Is(err, ErrExists) || !strings.Contains(err.Error(), "another author") {
		t.Fatalf("another author's bot name: %v", err)
	}
	v1, _ := s.AddVersion(ctx, b.ID, 25, 8.3)
	v2, _ := s.AddVersion(ctx, b.ID, 25, 8.3)
	if v1.N != 1 || v2.N != 2 {
		t.Fatalf("version numbers %d %d", v1.N, v2.N)
	}
	s.SetVerdict(ctx, v1.ID, VersionOK, "ok", "", "h1")
	s.SetVerdict(ctx, v2.ID, VersionFailed, "build failed", "log", "h2")
	act, err := s.Active(ctx, "dynamite")
	if err != nil || len(act) != 1 || act[0].ID != v1.ID {
		t.Fatalf("active = %+v %v; want only version 1 (version 2 failed)", act, err)
	}
	hb, _ := s.EnsureBot(ctx, bob.ID, "dynamite", "house", "paper")
	hv, _ := s.AddVersion(ctx, hb.ID, 25, 8.3)
	s.SetVerdict(ctx, hv.ID, VersionOK, "house bot", "", "")
	id, err := s.StartLadderMatch(ctx, "dynamite", KindLadder, 7, []int64{v1.ID, hv.ID})
	if err != nil {
		t.Fatal(err)
	}
	err = s.FinishLadderMatch(ctx, id, LadderFinish{Summary: "rocky wins", Replay: []byte(`{"steps":[]}`),
		Seats:   []Seat{{Seat: 0, Result: "win", Score: 1, Rank: 1, Log: "hello"}, {Seat: 1, Result: "loss", Rank: 2, Faults: 1}},
		Faults:  []LadderFault{{Seat: 1, VersionID: hv.ID, Where: "round 3", Kind: "timeout", Penalty: "forfeit"}},
		Ratings: map[int64][2]float64{v1.ID: {27, 7}, hv.ID: {23, 7}}})
	if err != nil {
		t.Fatal(err)
	}
	m, err := s.LadderMatchByID(ctx, id)
	if err != nil || m.Status != LadderDone || len(m.Seats) != 2 || m.Seats[0].Log != "hello" || m.Seats[0].Author != "ada" {
		t.Fatalf("match %+v %v", m, err)
	}
	v, _ := s.VersionByID(ctx, v1.ID)
	if v.Mu != 27 || v.Matches != 1 || v.Wins != 1 {
		t.Fatalf("version after match %+v", v)
	}
	if h, _ := s.RatingHistory(ctx, b.ID); len(h) != 1 || h[0].Mu != 27 {
		t.Fatalf("history %+v", h)
	}
	if f, _ := s.LadderFaults(ctx, hb.ID, 10); len(f) != 1 || f[0].Kind != "timeout" {
		t.Fatalf("faults %+v", f)
	}
	if rp, err := s.LadderReplay(ctx, id); err != nil || string(rp) != `{"steps":[]}` {
		t.Fatalf("replay %q %v", rp, err)
	}
	if ms, _ := s.LadderMatches(ctx, MatchFilter{BotID: b.ID}); len(ms) != 1 {
		t.Fatalf("matches of bot: %d", len(ms))
	}
}

// TestStoreID: every store gets its own random id once, kept across opens.
func TestStoreID(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	ids := map[string]bool{}
	for i := range 2 {
		path := filepath.Join(t.TempDir(), fmt.Sprintf("s%d.db", i))
		s, err := Open(path)
		if err != nil {
			t.Fatal(err)
		}
		id, err := s.ID(ctx)
		s.Close()
		if err != nil || len(id) != 32 {
			t.Fatalf("id %q %v", id, err)
		}
		s, err = Open(path)
		if err != nil {
			t.Fatal(err)
		}
		again, _ := s.ID(ctx)
		s.Close()
		if again != id {
			t.Fatalf("id changed on reopening: %s then %s", id, again)
		}
		ids[id] = true
	}
	if len(ids) != 2 {
		t.Fatal("two stores share an id")
	}
}
