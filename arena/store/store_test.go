package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestRefusesForeignFiles(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	text := filepath.Join(dir, "notes.db")
	content := []byte("this is not a database\n")
	if err := os.WriteFile(text, content, 0o644); err != nil {
		t.Fatal(err)
	}
	foreign := filepath.Join(dir, "other.db")
	db, err := sql.Open("sqlite", foreign)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec("CREATE TABLE people(name TEXT)"); err != nil {
		t.Fatal(err)
	}
	db.Close()
	foreignBytes, _ := os.ReadFile(foreign)
	damaged := filepath.Join(dir, "damaged.db")
	bad := append([]byte("SQLite format 3\x00"), make([]byte, 200)...)
	for i := 16; i < len(bad); i++ {
		bad[i] = 0xff
	}
	if err := os.WriteFile(damaged, bad, 0o644); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name string
		path string
		want error
		keep []byte
	}{
		{"text file", text, ErrNotDatabase, content},
		{"foreign sqlite", foreign, ErrForeign, foreignBytes},
		{"damaged header", damaged, ErrNotDatabase, bad},
		{"directory", dir, ErrNotDatabase, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			_, err := Open(c.path)
			if !errors.Is(err, c.want) {
				t.Fatalf("Open(%s) = %v, want %v", c.path, err, c.want)
			}
			if !strings.Contains(err.Error(), c.path) {
				t.Errorf("error does not name the file: %v", err)
			}
			if c.keep != nil {
				got, _ := os.ReadFile(c.path)
				if string(got) != string(c.keep) {
					t.Errorf("%s was modified", c.path)
				}
			}
		})
	}
}

func TestRoundTrip(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "arena.db")
	s, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	bots := []Bot{{Idx: 0, Name: "a", Spec: "a.py"}, {Idx: 1, Name: "b", Spec: "b", Author: "x"}}
	ms := []Match{{Idx: 0, MatchID: "m0", Seed: 1<<63 + 5, Players: []int{0, 1}}, {Idx: 1, MatchID: "m1", Seed: 7, Players: []int{1, 0}}}
	id, err := s.CreateTournament(ctx, Tournament{Name: "t", Game: "dynamite", Config: json.RawMessage(`{}`)}, bots, ms)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.CreateTournament(ctx, Tournament{Name: "t", Game: "dynamite", Config: json.RawMessage(`{}`)}, bots, ms); err == nil {
		t.Fatal("duplicate name accepted")
	}
	fin := Finish{Result: json.RawMessage(`{"x":1}`), Replay: []byte(`{"steps":[]}`),
		Faults: []Fault{{BotIdx: 1, Seat: 0, Where: "round 3", Kind: "timeout", Penalty: "forfeit"}}, Timings: []Timing{{Seat: 0, BotIdx: 1, Moves: 3}}}
	if err := s.FinishMatch(ctx, id, 1, fin); err != nil {
		t.Fatal(err)
	}
	if err := s.FinishMatch(ctx, id, 1, fin); !errors.Is(err, ErrAlreadyDone) {
		t.Fatalf("second finish: %v", err)
	}
	s.Close()

	s, err = Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	tr, err := s.FindTournament(ctx, "t")
	if err != nil || tr.ID != id {
		t.Fatalf("find: %v %v", tr, err)
	}
	got, err := s.Matches(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	if got[0].Seed != 1<<63+5 || got[0].Status != StatusPending || got[1].Status != StatusDone || string(got[1].Result) != `{"x":1}` {
		t.Fatalf("matches: %+v", got)
	}
	rp, err := s.Replay(ctx, id, 1)
	if err != nil || string(rp) != `{"steps":[]}` {
		t.Fatalf("replay %q %v", rp, err)
	}
	fs, err := s.Faults(ctx, id, 1)
	if err != nil || len(fs) != 1 || fs[0].Kind != "timeout" {
		t.Fatalf("faults %v %v", fs, err)
	}
	if fs, _ := s.Faults(ctx, id, 0); len(fs) != 0 {
		t.Fatalf("faults of bot 0: %v", fs)
	}
}
