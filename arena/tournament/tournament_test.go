package tournament_test

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/botarena/arena/arena/internal/testenv"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/botarena/arena/arena/botspec"
	_ "github.com/botarena/arena/arena/games/all"
	"github.com/botarena/arena/arena/replay"
	"github.com/botarena/arena/arena/store"
	"github.com/botarena/arena/arena/tournament"
	"github.com/botarena/arena/sandbox"
)

var (
	root      string // module root
	arenaBin  string // built in TestMain
	resolver  = &botspec.Resolver{}
	pythonBot string // examples/python/dynamite/bot.py when arena_sdk is importable
)

func TestMain(m *testing.M) {
	sandbox.Init()
	var err error
	if root, err = testenv.ModuleRoot(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	dir, err := os.MkdirTemp("", "arena-tournament-test")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	if arenaBin, err = testenv.BuildArena(root, dir); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	if err := testenv.CheckPython("arena_sdk"); err != nil {
		fmt.Fprintln(os.Stderr, "tournament:", err)
		os.Exit(1)
	}
	pythonBot = filepath.Join(root, "examples/python/dynamite/bot.py")
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

func houseBots(names ...string) []tournament.Entry {
	var es []tournament.Entry
	for _, n := range names {
		es = append(es, tournament.Entry{Name: n, Spec: filepath.Join(root, "bots/dynamite/cmd", n), Language: "go"})
	}
	return es
}

// shortDynamite keeps matches short so the tests stay fast.
var shortDynamite = map[string]string{"target": "30", "rounds": "120"}

func runInProcess(t *testing.T, path, name string, cfg tournament.Config) *tournament.Standings {
	t.Helper()
	ctx := context.Background()
	st, err := store.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	id, err := tournament.Create(ctx, st, name, cfg)
	if err != nil {
		t.Fatal(err)
	}
	sum, err := tournament.Run(ctx, st, id, tournament.Options{Jobs: 2, Resolver: resolver})
	if err != nil {
		t.Fatal(err)
	}
	if sum.Done != sum.Total || sum.Played != sum.Total || sum.Failed != 0 {
		t.Fatalf("summary %+v", sum)
	}
	s, err := tournament.Compute(ctx, st, id)
	if err != nil {
		t.Fatal(err)
	}
	// Every stored replay re-runs to the recorded outcome.
	ms, _ := st.Matches(ctx, id)
	for _, m := range ms {
		b, err := st.Replay(ctx, id, m.Idx)
		if err != nil {
			t.Fatal(err)
		}
		rec, err := replay.Decode(strings.NewReader(string(b)), m.MatchID)
		if err != nil {
			t.Fatal(err)
		}
		if rec.Config.Seed != m.Seed {
			t.Fatalf("%s: replay seed %d, match seed %d", m.MatchID, rec.Config.Seed, m.Seed)
		}
		if _, err := replay.Run(rec, nil); err != nil {
			t.Fatalf("%s: %v", m.MatchID, err)
		}
	}
	return s
}

// TestSmallTournamentDeterministic plays a real tournament of Go house bots (and the Python
// example bot where the SDK is installed) twice with one seed: standings must agree exactly.
func TestSmallTournamentDeterministic(t *testing.T) {
	t.Parallel()
	// Only deterministic bots: beatlast and dynamite draw from their own random source.
	es := houseBots("paper", "scissors")
	if pythonBot != "" {
		es = append(es, tournament.Entry{Name: "frequency", Spec: pythonBot, Language: "python"})
	}
	cfg := tournament.Config{Game: "dynamite", Params: shortDynamite, Seed: 99, Reps: 1, Deadline: 2 * time.Second,
		StartTimeout: startTimeout(t), Entries: es}
	dir := t.TempDir()
	a := runInProcess(t, filepath.Join(dir, "a.db"), "first", cfg)
	b := runInProcess(t, filepath.Join(dir, "b.db"), "second", cfg)
	n := len(es)
	if a.Total != n*(n-1) || a.Done != a.Total {
		t.Fatalf("%d of %d matches, want %d", a.Done, a.Total, n*(n-1))
	}
	for i := range a.Rows {
		ra, rb := a.Rows[i], b.Rows[i]
		ra.MeanMoveUs, rb.MeanMoveUs, ra.MaxMoveUs, rb.MaxMoveUs = 0, 0, 0, 0
		if !reflect.DeepEqual(ra, rb) {
			t.Errorf("row %d differs:\n%+v\n%+v", i, ra, rb)
		}
	}
	for i := range a.Matches {
		if a.Matches[i].Summary != b.Matches[i].Summary || a.Matches[i].Seed != b.Matches[i].Seed {
			t.Errorf("match %d differs: %q vs %q", i, a.Matches[i].Summary, b.Matches[i].Summary)
		}
	}
	// paper always loses to scissors: it must be last, with a finite rating error.
	last := a.Rows[len(a.Rows)-1]
	if last.Bot != "paper" || last.Wins != 0 || last.RatingErr <= 0 {
		t.Errorf("unexpected last row %+v", last)
	}
	var sb strings.Builder
	if err := a.WriteTable(&sb); err != nil {
		t.Fatal(err)
	}
	t.Log("\n" + sb.String())
}

// TestKillAndResume kills an arena tournament process with SIGKILL mid-run, resumes it, and
// checks that every scheduled match ends up done exactly once and that matches finished
// before the kill were not played again.
func TestKillAndResume(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	db := filepath.Join(dir, "arena.db")
	bots := []string{}
	for _, n := range []string{"beatlast", "paper", "scissors"} {
		bots = append(bots, filepath.Join(root, "bots/dynamite/cmd", n))
	}
	args := append([]string{"tournament", "dynamite", "--store", db, "--name", "night", "--seed", "7", "--reps", "2",
		"--jobs", "2", "--target", "30", "--rounds", "100", "--plain"}, bots...)
	cmd := exec.Command(arenaBin, args...)
	cmd.Dir = dir
	cmd.Env = os.Environ()
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	sc := bufio.NewScanner(stdout)
	doneLines := 0
	for doneLines < 3 && sc.Scan() {
		if strings.HasPrefix(sc.Text(), "[done") {
			doneLines++
		}
	}
	if doneLines < 3 {
		cmd.Wait()
		t.Fatalf("tournament ended early (%d matches seen); stderr:\n%s", doneLines, stderr.String())
	}
	if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	go func() { _, _ = bufio.NewReader(stdout).WriteTo(io_discard{}) }()
	_ = cmd.Wait()

	before := matchesOf(t, db)
	total := len(before)
	if total != 3*2*2 {
		t.Fatalf("%d scheduled matches, want 12", total)
	}
	doneBefore := map[string]store.Match{}
	for _, m := range before {
		if m.Status == store.StatusDone {
			doneBefore[m.MatchID] = m
		}
	}
	if len(doneBefore) < 3 || len(doneBefore) == total {
		t.Fatalf("%d matches done at the kill; want some but not all", len(doneBefore))
	}

	res := exec.Command(arenaBin, "tournament", "--resume", "night", "--store", db, "--plain", "--jobs", "2")
	res.Dir = dir
	res.Env = cmd.Env
	out, err := res.CombinedOutput()
	if err != nil {
		t.Fatalf("resume: %v\n%s", err, out)
	}
	want := fmt.Sprintf("played %d matches", total-len(doneBefore))
	if !strings.Contains(string(out), want) {
		t.Fatalf("resume output lacks %q:\n%s", want, out)
	}
	after := matchesOf(t, db)
	var ids []string
	for _, m := range after {
		if m.Status != store.StatusDone || m.Attempts != 1 {
			t.Errorf("%s: status %s after %d attempts", m.MatchID, m.Status, m.Attempts)
		}
		if old, ok := doneBefore[m.MatchID]; ok && (!old.Finished.Equal(m.Finished) || string(old.Result) != string(m.Result)) {
			t.Errorf("%s was played again after the resume", m.MatchID)
		}
		ids = append(ids, m.MatchID)
	}
	sort.Strings(ids)
	for i := 1; i < len(ids); i++ {
		if ids[i] == ids[i-1] {
			t.Errorf("match %s twice", ids[i])
		}
	}
	// Exactly one replay and one set of timings per match.
	st, err := store.Open(db)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	for _, m := range after {
		if _, err := st.Replay(context.Background(), 1, m.Idx); err != nil {
			t.Errorf("%s: %v", m.MatchID, err)
		}
	}
	var s tournament.Standings
	jsonPath := filepath.Join(dir, "s.json")
	show := exec.Command(arenaBin, "tournament", "--resume", "night", "--store", db, "--plain", "--json", jsonPath)
	if out, err := show.CombinedOutput(); err != nil || strings.Contains(string(out), "played") {
		t.Fatalf("second resume of a finished tournament: %v\n%s", err, out)
	}
	b, _ := os.ReadFile(jsonPath)
	if err := json.Unmarshal(b, &s); err != nil || s.Done != total || len(s.Matches) != total {
		t.Fatalf("json export: %v, %d/%d", err, s.Done, len(s.Matches))
	}
}

type io_discard struct{}

func (io_discard) Write(p []byte) (int, error) { return len(p), nil }

func matchesOf(t *testing.T, db string) []store.Match {
	t.Helper()
	st, err := store.Open(db)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	tr, err := st.FindTournament(context.Background(), "night")
	if err != nil {
		t.Fatal(err)
	}
	ms, err := st.Matches(context.Background(), tr.ID)
	if err != nil {
		t.Fatal(err)
	}
	return ms
}

// TestCorruptStore runs the command on a text file and on a damaged database: a clear error
// naming the file, exit status 1, and the file unchanged.
func TestCorruptStore(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	text := filepath.Join(dir, "notes.txt")
	damaged := filepath.Join(dir, "damaged.db")
	os.WriteFile(text, []byte("my notes, not a database\n"), 0o644)
	bad := []byte("SQLite format 3\x00")
	for i := 0; i < 4096; i++ {
		bad = append(bad, byte(i*7))
	}
	os.WriteFile(damaged, bad, 0o644)
	for _, path := range []string{text, damaged} {
		before, _ := os.ReadFile(path)
		cmd := exec.Command(arenaBin, "tournament", "dynamite", "--store", path,
			filepath.Join(root, "bots/dynamite/cmd/paper"), filepath.Join(root, "bots/dynamite/cmd/scissors"))
		out, err := cmd.CombinedOutput()
		var ee *exec.ExitError
		if !errors.As(err, &ee) || ee.ExitCode() != 1 {
			t.Fatalf("%s: exit %v, want status 1\n%s", path, err, out)
		}
		if !strings.Contains(string(out), path) || !strings.Contains(string(out), "untouched") {
			t.Errorf("%s: unclear error:\n%s", path, out)
		}
		after, _ := os.ReadFile(path)
		if string(before) != string(after) {
			t.Errorf("%s was modified", path)
		}
		if _, err := os.Stat(path + "-wal"); err == nil {
			t.Errorf("%s: a WAL file was created", path)
		}
	}
}

// A Go submission that does not compile is that bot's verdict: the tournament plays every
// match, the broken bot is charged in each with the compiler's words, and each bot's snapshot
// hash is recorded.
func TestBrokenGoSubmissionIsCharged(t *testing.T) {
	t.Parallel()
	broken := filepath.Join(t.TempDir(), "broken")
	if err := os.MkdirAll(broken, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(broken, "main.go"), []byte("package main\n\nfunc main() { this is not Go }\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	es := append(houseBots("paper", "scissors"), tournament.Entry{Name: "broken", Spec: broken, Language: "go"})
	cfg := tournament.Config{Game: "dynamite", Params: shortDynamite, Seed: 3, Reps: 1, Deadline: 2 * time.Second,
		StartTimeout: startTimeout(t), Entries: es}
	db := filepath.Join(t.TempDir(), "t.db")
	s := runInProcess(t, db, "broken", cfg)
	if s.Done != 6 {
		t.Fatalf("%d of %d matches done", s.Done, s.Total)
	}
	ctx := context.Background()
	st, err := store.Open(db)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	bots, err := st.Bots(ctx, 1)
	if err != nil {
		t.Fatal(err)
	}
	for _, b := range bots {
		if len(b.Hash) != 64 {
			t.Errorf("bot %s: no content hash recorded (%q)", b.Name, b.Hash)
		}
	}
	faults, err := st.Faults(ctx, 1, 2)
	if err != nil {
		t.Fatal(err)
	}
	if len(faults) != 4 {
		t.Fatalf("the broken bot has %d faults, want one in each of its 4 matches: %+v", len(faults), faults)
	}
	for _, f := range faults {
		if !strings.Contains(f.Detail, "build failed") || !strings.Contains(f.Detail, "main.go:3") {
			t.Errorf("fault without the compiler's words: %s", f.Detail)
		}
	}
	// Its matches went to the opponents; the others played normally.
	last := s.Rows[len(s.Rows)-1]
	if last.Bot != "broken" || last.Wins != 0 {
		t.Errorf("the broken bot is not last with no win: %+v", last)
	}
}
