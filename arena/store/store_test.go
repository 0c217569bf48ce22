package store

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
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
		{"damaged header", damaged, ErrDamaged, bad},
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

// filled creates a store at path holding one tournament with a finished match, and closes it.
func filled(t *testing.T, path string, matches int) {
	t.Helper()
	ctx := context.Background()
	s, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	bots := []Bot{{Idx: 0, Name: "a", Spec: "a.py", Hash: "sha256:" + strings.Repeat("ab", 32)}, {Idx: 1, Name: "b", Spec: "b"}}
	var ms []Match
	for i := 0; i < matches; i++ {
		ms = append(ms, Match{Idx: i, MatchID: "m" + strconv.Itoa(i), Seed: uint64(i), Players: []int{i % 2, 1 - i%2}})
	}
	id, err := s.CreateTournament(ctx, Tournament{Name: "t", Game: "dynamite", Config: json.RawMessage(`{}`)}, bots, ms)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.FinishMatch(ctx, id, 0, Finish{Result: json.RawMessage(`{"x":1}`), Replay: bytes.Repeat([]byte("replay "), 2000)}); err != nil {
		t.Fatal(err)
	}
}

// TestDamagedStoreIsRefusedUntouched flips bytes inside the pages of a valid store (its header
// stays valid) and checks that neither Open nor OpenReadOnly writes a byte, and that the error
// names the file, the damage and the fix.
func TestDamagedStoreIsRefusedUntouched(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "arena.db")
	filled(t, path, 300)
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	const page = 4096
	if len(b) < 4*page {
		t.Fatalf("store is only %d bytes", len(b))
	}
	// The schema's own pages (sqlite_schema spans several since schema 3) stay whole: the damage
	// is in the data, which only quick_check finds.
	schemaPages := map[int]bool{}
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	rows, err := db.Query("SELECT pageno FROM dbstat WHERE name = 'sqlite_schema'")
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var p int
		rows.Scan(&p)
		schemaPages[p] = true
	}
	rows.Close()
	db.Close()
	if len(schemaPages) == 0 {
		t.Fatal("no schema pages found")
	}
	for off := page; off+page <= len(b); off += page {
		if schemaPages[off/page+1] {
			continue
		}
		for i := 3; i < 12; i++ { // the b-tree page header: cell count, content start, cell pointers
			b[off+i] ^= 0x5a
		}
	}
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
	for name, open := range map[string]func(string) (*Store, error){"Open": Open, "OpenReadOnly": OpenReadOnly} {
		s, err := open(path)
		if err == nil {
			s.Close()
			t.Fatalf("%s accepted a damaged store", name)
		}
		if !errors.Is(err, ErrDamaged) {
			t.Errorf("%s: %v, want ErrDamaged", name, err)
		}
		for _, want := range []string{path, "quick_check", "left untouched", "backup"} {
			if !strings.Contains(err.Error(), want) {
				t.Errorf("%s: error does not say %q: %v", name, want, err)
			}
		}
		got, _ := os.ReadFile(path)
		if !bytes.Equal(got, b) {
			t.Fatalf("%s wrote to a damaged store", name)
		}
	}
}

// TestMigratesSchemaV1 opens a store written by the arena of schema version 1 (testdata/v1.db,
// made by that version's store package): read-only it is read as it is, then Open migrates it
// in place keeping every row, and the new content_hash column round-trips.
func TestMigratesSchemaV1(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	orig, err := os.ReadFile("testdata/v1.db")
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "old.db")
	if err := os.WriteFile(path, orig, 0o644); err != nil {
		t.Fatal(err)
	}
	contents := func(s *Store) string {
		t.Helper()
		tr, err := s.FindTournament(ctx, "old")
		if err != nil {
			t.Fatal(err)
		}
		bots, err := s.Bots(ctx, tr.ID)
		if err != nil {
			t.Fatal(err)
		}
		ms, err := s.Matches(ctx, tr.ID)
		if err != nil {
			t.Fatal(err)
		}
		fs, err := s.Faults(ctx, tr.ID, -1)
		if err != nil {
			t.Fatal(err)
		}
		rp, err := s.Replay(ctx, tr.ID, 0)
		if err != nil {
			t.Fatal(err)
		}
		tm, err := s.Timings(ctx, tr.ID)
		if err != nil {
			t.Fatal(err)
		}
		for i := range ms {
			ms[i].Finished = ms[i].Finished.UTC()
		}
		j, _ := json.Marshal([]any{tr.Name, tr.Game, string(tr.Config), bots, ms, fs, string(rp), tm})
		return string(j)
	}
	ro, err := OpenReadOnly(path)
	if err != nil {
		t.Fatal(err)
	}
	if ro.Version() != 1 {
		t.Fatalf("testdata/v1.db has version %d", ro.Version())
	}
	before := contents(ro)
	ro.Close()
	if got, _ := os.ReadFile(path); !bytes.Equal(got, orig) {
		t.Fatal("OpenReadOnly changed a version 1 store")
	}
	for _, want := range []string{`"paper"`, `"ada"`, `"round 7"`, `{\"steps\":[1,2,3]}`, `"dynamite-r0-1-0"`} {
		if !strings.Contains(before, want) {
			t.Fatalf("version 1 store read back without %s: %s", want, before)
		}
	}

	s, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	if s.Version() != SchemaVersion {
		t.Fatalf("after Open: version %d, want %d", s.Version(), SchemaVersion)
	}
	if after := contents(s); after != before {
		t.Fatalf("migration changed the data:\nbefore %s\nafter  %s", before, after)
	}
	bots := []Bot{{Idx: 0, Name: "x", Spec: "x.py", Hash: "sha256:0123456789abcdef"}, {Idx: 1, Name: "y", Spec: "y"}}
	id, err := s.CreateTournament(ctx, Tournament{Name: "new", Game: "dynamite", Config: json.RawMessage(`{}`)}, bots, nil)
	if err != nil {
		t.Fatal(err)
	}
	s.Close()
	s, err = OpenReadOnly(path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if s.Version() != SchemaVersion {
		t.Fatalf("reopened: version %d", s.Version())
	}
	got, err := s.Bots(ctx, id)
	if err != nil || len(got) != 2 || got[0].Hash != "sha256:0123456789abcdef" || got[1].Hash != "" {
		t.Fatalf("bots %+v %v", got, err)
	}
	if after := contents(s); after != before {
		t.Fatalf("old tournament changed:\nbefore %s\nafter  %s", before, after)
	}
}

// TestNewerSchemaRefused: a store from a newer arena is never written.
func TestNewerSchemaRefused(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "arena.db")
	filled(t, path, 2)
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec(fmt.Sprintf("PRAGMA user_version = %d", SchemaVersion+1)); err != nil {
		t.Fatal(err)
	}
	db.Close()
	b, _ := os.ReadFile(path)
	_, err = Open(path)
	if !errors.Is(err, ErrNewer) || !strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), "newer arena") {
		t.Fatalf("Open: %v", err)
	}
	if got, _ := os.ReadFile(path); !bytes.Equal(got, b) {
		t.Fatal("a newer store was written")
	}
}

// TestBackupOfLiveStore copies a store while another handle keeps finishing matches: the copy
// passes its check and holds a consistent snapshot (every done match has its replay).
func TestBackupOfLiveStore(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	dir := t.TempDir()
	path := filepath.Join(dir, "live.db")
	filled(t, path, 400)
	w, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	tr, err := w.FindTournament(ctx, "t")
	if err != nil {
		t.Fatal(err)
	}
	stop := make(chan struct{})
	done := make(chan int)
	go func() {
		n := 1
		for ; n < 400; n++ {
			select {
			case <-stop:
				done <- n
				return
			default:
			}
			if err := w.FinishMatch(ctx, tr.ID, n, Finish{Result: json.RawMessage(`{}`), Replay: []byte("r")}); err != nil {
				t.Error(err)
			}
		}
		done <- n
	}()
	r, err := OpenReadOnly(path)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	var copies []string
	for i := 0; i < 3; i++ {
		dst := filepath.Join(dir, fmt.Sprintf("copy%d.db", i))
		if err := r.Backup(ctx, dst); err != nil {
			t.Fatal(err)
		}
		copies = append(copies, dst)
	}
	close(stop)
	written := <-done
	for _, dst := range copies {
		c, err := OpenReadOnly(dst)
		if err != nil {
			t.Fatal(err)
		}
		if p, err := c.Check(ctx); err != nil || len(p) > 0 {
			t.Fatalf("copy %s: %v %v", dst, p, err)
		}
		ms, err := c.Matches(ctx, tr.ID)
		if err != nil || len(ms) != 400 {
			t.Fatalf("copy %s: %d matches, %v", dst, len(ms), err)
		}
		var doneN, replays int
		for _, m := range ms {
			if m.Status == StatusDone {
				doneN++
				if _, err := c.Replay(ctx, tr.ID, m.Idx); err == nil {
					replays++
				}
			}
		}
		if doneN == 0 || doneN != replays || doneN > written {
			t.Fatalf("copy %s: %d done, %d replays, %d written", dst, doneN, replays, written)
		}
		c.Close()
	}
	// Never overwrite.
	before, _ := os.ReadFile(copies[0])
	err = r.Backup(ctx, copies[0])
	if err == nil || !strings.Contains(err.Error(), "already exists") {
		t.Fatalf("backup over an existing file: %v", err)
	}
	if got, _ := os.ReadFile(copies[0]); !bytes.Equal(got, before) {
		t.Fatal("backup overwrote an existing file")
	}
	leftovers, _ := filepath.Glob(filepath.Join(dir, ".*partial*"))
	if len(leftovers) > 0 {
		t.Fatalf("partial backups left behind: %v", leftovers)
	}
}

// TestReadOnlyErrorsNameFileAndFix: a write through a read-only handle fails with the file and
// what to do.
func TestReadOnlyErrorsNameFileAndFix(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "arena.db")
	filled(t, path, 2)
	s, err := OpenReadOnly(path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	err = s.SetStatus(context.Background(), 1, "finished")
	if err == nil || !strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), "read-only") || !strings.Contains(err.Error(), "arena store backup") {
		t.Fatalf("write through a read-only store: %v", err)
	}
}
