package tournament_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/botarena/arena/arena/internal/testenv"
	"github.com/botarena/arena/arena/store"
	"github.com/botarena/arena/arena/tournament"
	"github.com/botarena/arena/internal/slack"
)

// unpreparable makes, in dir, the bots of the tests below: rusty (a Rust bot, to be played
// where there is no rustc), needy (a Python bot whose requirements.txt has nowhere to be
// installed from: no --wheels, no --build-network), and two that play: paper (Go) and freq
// (Python).
func unpreparable(t *testing.T, dir string) []string {
	t.Helper()
	rusty := filepath.Join(dir, "bots", "rusty")
	if err := os.MkdirAll(filepath.Dir(rusty), 0o755); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command("cp", "-R", filepath.Join(root, "examples/rust/dynamite"), rusty).CombinedOutput(); err != nil {
		t.Fatalf("copy the Rust bot: %v\n%s", err, out)
	}
	py, err := os.ReadFile(pythonBot)
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"needy", "freq"} {
		if err := os.MkdirAll(filepath.Join(dir, "bots", name), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "bots", name, "bot.py"), py, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(dir, "bots", "needy", "requirements.txt"), []byte("numpy==2.1.0\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return []string{filepath.Join(dir, "bots", "freq"), filepath.Join(root, "bots/dynamite/cmd/paper"), rusty, filepath.Join(dir, "bots", "needy")}
}

// envWithout is this process's environment with every PATH folder that holds one of tools
// left out (the test fails if a tool is still found).
func envWithout(t *testing.T, tools ...string) []string {
	t.Helper()
	var keep []string
	for _, d := range filepath.SplitList(os.Getenv("PATH")) {
		if !slices.ContainsFunc(tools, func(tool string) bool { _, err := os.Stat(filepath.Join(d, tool)); return err == nil }) {
			keep = append(keep, d)
		}
	}
	path := strings.Join(keep, string(filepath.ListSeparator))
	for _, tool := range tools {
		for _, d := range keep {
			if _, err := os.Stat(filepath.Join(d, tool)); err == nil {
				t.Fatalf("%s is still on PATH %s", tool, path)
			}
		}
	}
	if _, err := exec.LookPath("go"); err != nil {
		t.Fatal(err)
	}
	env := slices.DeleteFunc(os.Environ(), func(e string) bool { return strings.HasPrefix(e, "PATH=") })
	return append(env, "PATH="+path)
}

// checkCharged checks a finished tournament of the bots of unpreparable: the two that cannot
// be prepared played every match, each charged as a crash at its start with the reason and
// the fix, rank below the two others, and the command printed why.
func checkCharged(t *testing.T, out, db string) {
	t.Helper()
	for _, want := range []string{
		"bot rusty forfeits each of its matches", "cannot build Rust bots here: no rustc on PATH", "install Rust with rustup",
		"bot needy forfeits each of its matches", "cannot install a Python bot's requirements.txt here", "--wheels DIR",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("the tournament's output does not say %q:\n%s", want, out)
		}
	}
	st, err := store.Open(db)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	ctx := context.Background()
	tr, err := st.FindTournament(ctx, "t")
	if err != nil {
		t.Fatal(err)
	}
	s, err := tournament.Compute(ctx, st, tr.ID)
	if err != nil {
		t.Fatal(err)
	}
	if s.Done != s.Total || s.Total != 12 || tr.Status != "finished" {
		t.Fatalf("%d of %d matches done, status %s; want all 12, finished", s.Done, s.Total, tr.Status)
	}
	rank := map[string]tournament.Row{}
	for _, r := range s.Rows {
		rank[r.Bot] = r
		if r.Matches != 6 || r.Unrated {
			t.Errorf("bot %s: %d matches (unrated %v), want 6", r.Bot, r.Matches, r.Unrated)
		}
	}
	for _, bad := range []string{"rusty", "needy"} {
		for _, good := range []string{"paper", "freq"} {
			if rank[bad].Rank <= rank[good].Rank {
				t.Errorf("%s (rank %d, charged in every match) ranks above %s (rank %d)", bad, rank[bad].Rank, good, rank[good].Rank)
			}
		}
	}
	faults, err := st.Faults(ctx, tr.ID, -1)
	if err != nil {
		t.Fatal(err)
	}
	bots, err := st.Bots(ctx, tr.ID)
	if err != nil {
		t.Fatal(err)
	}
	idx := map[string]int{}
	for _, b := range bots {
		idx[b.Name] = b.Idx
	}
	ms, err := st.Matches(ctx, tr.ID)
	if err != nil {
		t.Fatal(err)
	}
	reasons := map[string]string{"rusty": "cannot build Rust bots here: no rustc on PATH", "needy": "requirements.txt here"}
	for name, why := range reasons {
		charged := map[int]bool{}
		for _, f := range faults {
			if f.BotIdx == idx[name] && f.Kind == "crash" && strings.Contains(f.Detail, why) {
				charged[f.MatchIdx] = true
			}
		}
		for _, m := range ms {
			if slices.Contains(m.Players, idx[name]) && !charged[m.Idx] {
				t.Errorf("match %s: %s is not charged with %q (faults: %+v)", m.MatchID, name, why, faults)
			}
		}
	}
	for _, f := range faults {
		if f.BotIdx == idx["paper"] || f.BotIdx == idx["freq"] {
			t.Errorf("a bot that could play is charged: %+v", f)
		}
	}
}

// TestUnpreparableBotsCharged: a Rust bot on a machine without rustc (a PATH without it, for
// the arena process) and a Python bot whose requirements.txt has nowhere to be installed
// from are each charged in every one of their matches, with the reason and the fix, and the
// tournament completes: played directly, and as jobs through an embedded NATS server and
// the coordinator's own workers.
func TestUnpreparableBotsCharged(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	bots := unpreparable(t, dir)
	env := envWithout(t, "rustc", "cargo")
	for _, mode := range []string{"--queue=false", "--queue"} {
		t.Run(strings.TrimPrefix(mode, "--"), func(t *testing.T) {
			db := filepath.Join(dir, strings.Trim(mode, "-=")+".db")
			args := append([]string{"tournament", "dynamite", "--store", db, "--name", "t", "--seed", "5", "--jobs", "2",
				"--target", "30", "--rounds", "100", "--plain", mode}, bots...)
			cmd := exec.Command(arenaBin, args...)
			cmd.Dir, cmd.Env = dir, env
			out, err := cmd.CombinedOutput()
			if err != nil {
				t.Fatalf("arena %s: %v\n%s", strings.Join(args, " "), err, out)
			}
			checkCharged(t, string(out), db)
		})
	}
}

var (
	reDeclined = regexp.MustCompile(`job \S+ declined \(delivery (\d+) of (\d+)\), back in the queue in (\S+): (.*)`)
	reJobDone  = regexp.MustCompile(`job \S+ done: `)
)

// TestWorkerDeclinesThenCharged: the same bots through a coordinator and one arena worker
// process that has no rustc and no wheel folder. The worker says at its start which
// languages it builds; it declines each job with rusty or needy, and the job comes back
// after a delay that doubles with each delivery (the worker's log counts the deliveries and
// names each delay: nothing here measures time), until its last delivery, where the worker
// charges the bot with the reason.
func TestWorkerDeclinesThenCharged(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	bots := unpreparable(t, dir)
	db := filepath.Join(dir, "q.db")
	coord := startArena(t, "coordinator", append([]string{"tournament", "dynamite", "--store", db, "--name", "t", "--seed", "5",
		"--target", "30", "--rounds", "100", "--plain", "--nats-listen", "127.0.0.1:0", "--jobs", "0", "--max-deliver", "3"}, bots...)...)
	coord.WaitFor(reURL, 1, 0, 60*time.Second)
	m := addWorker(t, dir, db, "w1")
	cmd := exec.Command(arenaBin, "worker", "--nats", m[1], "--nats-ca", m[2], "--credentials", m[3], "--jobs", "2", "--retry-delay", "100ms")
	cmd.Dir, cmd.Env = root, envWithout(t, "rustc", "cargo")
	worker := testenv.Start(t, "worker", cmd)
	select {
	case <-coord.Done:
	case <-time.After(slack.Of(t, 3*time.Minute)): // 2 s on a quiet machine
		t.Fatal("the tournament did not finish within 3 minutes (outputs below)")
	}
	if coord.Err != nil {
		t.Fatalf("coordinator: %v\n%s", coord.Err, coord.Output())
	}
	checkCharged(t, coord.Output(), db)

	wout := worker.Output()
	for _, want := range []string{"this worker builds and runs: Go, Python", "Rust: cannot build Rust bots here: no rustc on PATH"} {
		if !strings.Contains(wout, want) {
			t.Errorf("the worker's start does not say %q:\n%s", want, wout)
		}
	}
	// Every job with rusty or needy (10 of the 12) is declined at its deliveries 1 and 2,
	// 100ms and then 200ms, and played, with the bot charged, at its third and last.
	deliveries := map[string]int{}
	for _, l := range strings.Split(wout, "\n") {
		d := reDeclined.FindStringSubmatch(l)
		if d == nil {
			continue
		}
		want := map[string]string{"1": "100ms", "2": "200ms"}[d[1]]
		if d[2] != "3" || want == "" || d[3] != want {
			t.Errorf("declined at delivery %s of %s, back after %s; want deliveries 1 and 2 of 3, back after 100ms and 200ms: %s", d[1], d[2], d[3], l)
		}
		if !strings.Contains(d[4], "cannot build Rust bots here") && !strings.Contains(d[4], "requirements.txt here") {
			t.Errorf("declined for another reason: %s", l)
		}
		deliveries[d[1]]++
	}
	if deliveries["1"] != 10 || deliveries["2"] != 10 {
		t.Errorf("declines at deliveries 1 and 2: %d and %d, want 10 and 10 (each job with rusty or needy):\n%s", deliveries["1"], deliveries["2"], wout)
	}
	if n, _ := worker.Count(reJobDone, 0); n != 12 {
		t.Errorf("the worker finished %d jobs, want 12", n)
	}
	if !strings.Contains(coord.Output(), "and on every worker this job reached: 3 deliveries") {
		t.Errorf("no charge names the deliveries it took:\n%s", coord.Output())
	}
}

// addWorker gives a worker its credential on the coordinator's store, as an organiser does
// (arena worker add), and returns the command's URL, certificate and credential file.
func addWorker(t *testing.T, dir, db, name string) []string {
	t.Helper()
	out, err := exec.Command(arenaBin, "worker", "add", name, "--store", db, "--out", filepath.Join(dir, name+".creds")).CombinedOutput()
	m := reCommand.FindStringSubmatch(string(out))
	if err != nil || m == nil {
		t.Fatalf("arena worker add %s: %v\n%s", name, err, out)
	}
	return m
}

// TestWorkerWithoutPythonDeclines: of two workers, one has no Python with the arena SDK. It
// says so at its start and declines the jobs with the Python bot; the other plays them:
// every match is recorded and nobody is charged for a machine's lack.
func TestWorkerWithoutPythonDeclines(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	bare := filepath.Join(dir, "bare")
	if out, err := exec.Command(testenv.Python(), "-m", "venv", "--without-pip", bare).CombinedOutput(); err != nil {
		t.Fatalf("a Python without the SDK: %v\n%s", err, out)
	}
	bots := unpreparable(t, dir)[:2] // freq (Python) and paper (Go)
	bots = append(bots, filepath.Join(root, "bots/dynamite/cmd/scissors"))
	db := filepath.Join(dir, "q.db")
	coord := startArena(t, "coordinator", append([]string{"tournament", "dynamite", "--store", db, "--name", "t", "--seed", "5",
		"--target", "30", "--rounds", "100", "--plain", "--nats-listen", "127.0.0.1:0", "--jobs", "0", "--max-deliver", "8"}, bots...)...)
	coord.WaitFor(reURL, 1, 0, 60*time.Second)
	m, m2 := addWorker(t, dir, db, "lacking"), addWorker(t, dir, db, "able")
	// The worker without the SDK first, alone until it declined a job: the other one then
	// takes what it hands back (its delays leave the other 2 + 4 + 8 s to start). Whichever
	// worker is waiting gets a job handed back, and a decline spends a delivery: the able worker
	// waits with 4 slots against the other's 1, and 8 deliveries leave it room, so a job the
	// lacking worker holds to its last delivery (and charges) is a one-in-many-thousands chance,
	// not a coin toss. (Jobs routed by language would make it none; see the README.)
	lacking := exec.Command(arenaBin, "worker", "--nats", m[1], "--nats-ca", m[2], "--credentials", m[3], "--jobs", "1", "--retry-delay", "2s")
	lacking.Dir, lacking.Env = root, append(os.Environ(), "ARENA_PYTHON="+filepath.Join(bare, "bin", "python"))
	a := testenv.Start(t, "worker without the SDK", lacking)
	a.WaitFor(reDeclined, 1, 0, 5*time.Minute)
	b := startArena(t, "worker with the SDK", "worker", "--nats", m2[1], "--nats-ca", m2[2], "--credentials", m2[3], "--jobs", "4")
	select {
	case <-coord.Done:
	case <-time.After(slack.Of(t, 10*time.Minute)):
		t.Fatal("the tournament did not finish within 10 minutes")
	}
	if coord.Err != nil {
		t.Fatalf("coordinator: %v\n%s", coord.Err, coord.Output())
	}
	if strings.Contains(coord.Output(), "forfeits") {
		t.Errorf("a bot was charged though a worker could play it:\n%s", coord.Output())
	}
	if !strings.Contains(a.Output(), "Python: cannot run Python bots here") {
		t.Errorf("the worker without the SDK does not say so at its start:\n%s", a.Output())
	}
	for _, l := range strings.Split(a.Output(), "\n") {
		if d := reDeclined.FindStringSubmatch(l); d != nil && !strings.Contains(d[4], "cannot run Python bots here") {
			t.Errorf("declined for another reason: %s", l)
		}
	}
	if n, _ := b.Count(reJobDone, 0); n == 0 {
		t.Errorf("the worker with the SDK played nothing:\n%s", b.Output())
	}
	st, err := store.Open(db)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	ctx := context.Background()
	tr, err := st.FindTournament(ctx, "t")
	if err != nil {
		t.Fatal(err)
	}
	ms, err := st.Matches(ctx, tr.ID)
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range ms {
		if m.Status != store.StatusDone {
			t.Errorf("match %s: %s %s", m.MatchID, m.Status, m.Error)
		}
	}
	faults, err := st.Faults(ctx, tr.ID, -1)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range faults {
		if strings.Contains(f.Detail, "cannot") {
			t.Errorf("a bot is charged for a worker's lack: %+v", f)
		}
	}
}

// TestInfrastructureFailureRetried: where the arena itself fails to prepare a bot (here its
// Go compiler cache cannot be made: XDG_CACHE_HOME names a path under a file), that bot's
// matches are recorded as infrastructure failures naming the cause, charged to no bot, the
// others are played, and --resume, with the cache back, plays the failed ones.
func TestInfrastructureFailureRetried(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	bots := unpreparable(t, dir)[:1] // freq
	// A Go bot of this test's own (its hash is new: no other test's build of it is cached).
	gobot := filepath.Join(dir, "bots", "gopaper")
	if err := os.MkdirAll(gobot, 0o755); err != nil {
		t.Fatal(err)
	}
	src := "// Command gopaper: paper, built for TestInfrastructureFailureRetried " + dir + "\npackage main\n\nimport (\n\tdynamitebots \"github.com/botarena/arena/bots/dynamite\"\n\t\"github.com/botarena/arena/sdk\"\n)\n\nfunc main() { sdk.Serve(dynamitebots.Paper()) }\n"
	if err := os.WriteFile(filepath.Join(gobot, "main.go"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	py, _ := os.ReadFile(pythonBot)
	other := filepath.Join(dir, "bots", "freq2")
	if err := os.MkdirAll(other, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(other, "bot.py"), py, 0o644); err != nil {
		t.Fatal(err)
	}
	bots = append(bots, other, gobot)
	db := filepath.Join(dir, "i.db")
	args := append([]string{"tournament", "dynamite", "--store", db, "--name", "t", "--seed", "5", "--jobs", "2",
		"--target", "30", "--rounds", "100", "--plain", "--queue=false"}, bots...)
	cmd := exec.Command(arenaBin, args...)
	cmd.Dir = root
	cmd.Env = append(os.Environ(), "XDG_CACHE_HOME="+filepath.Join(pythonBot, "cache"))
	out, err := cmd.CombinedOutput()
	if err == nil {
		t.Fatalf("the tournament finished though a bot could not be built:\n%s", out)
	}
	for _, want := range []string{"FAILED: infrastructure failure, charged to no bot: bot gopaper could not be prepared", "--resume t", "2 of 6 matches done, 4 failed"} {
		if !strings.Contains(string(out), want) {
			t.Errorf("the output does not say %q:\n%s", want, out)
		}
	}
	if strings.Contains(string(out), "forfeits") {
		t.Errorf("a bot was charged for the arena's failure:\n%s", out)
	}
	st, err := store.Open(db)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	tr, err := st.FindTournament(ctx, "t")
	if err != nil {
		t.Fatal(err)
	}
	faults, err := st.Faults(ctx, tr.ID, -1)
	if err != nil {
		t.Fatal(err)
	}
	st.Close()
	if len(faults) > 0 {
		t.Errorf("faults charged for the arena's failure: %+v", faults)
	}
	res := exec.Command(arenaBin, "tournament", "--resume", "t", "--store", db, "--plain", "--jobs", "2", "--queue=false")
	res.Dir = root
	if out, err := res.CombinedOutput(); err != nil || !strings.Contains(string(out), "6/6 matches done") {
		t.Fatalf("--resume with the cache back: %v\n%s", err, out)
	}
}

// TestDoctor: arena doctor lists every language with the checks the builds make: here, on a
// PATH without rustc, Rust is not ready (with the fix) and the others are; it exits 0 unless
// --strict.
func TestDoctor(t *testing.T) {
	t.Parallel()
	env := envWithout(t, "rustc", "cargo")
	cmd := exec.Command(arenaBin, "doctor")
	cmd.Dir, cmd.Env = t.TempDir(), env
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("arena doctor: %v\n%s", err, out)
	}
	for _, want := range []string{
		`(?m)^Go\s+ready\s+go1\.`, `(?m)^Python\s+ready\s+\S+ \(Python 3\.\d+`, `(?m)^JavaScript\s+ready\s`, `(?m)^TypeScript\s+ready\s`,
		`(?m)^Rust\s+not ready\s+cannot build Rust bots here: no rustc on PATH: .*install Rust with rustup`,
		`(?m)^Java\s+ready\s`, `(?m)^C\+\+\s+ready\s`, `(?m)^stdio\s+ready\s`,
		`(?m)^\s+a bot with requirements.txt cannot be installed here .*--wheels DIR or --build-network`,
	} {
		if !regexp.MustCompile(want).Match(out) {
			t.Errorf("arena doctor does not say %s:\n%s", want, out)
		}
	}
	cmd = exec.Command(arenaBin, "doctor", "--strict", "--wheels", t.TempDir())
	cmd.Dir, cmd.Env = t.TempDir(), env
	out, err = cmd.CombinedOutput()
	if err == nil || !strings.Contains(string(out), "languages not ready: [Rust]") || !strings.Contains(string(out), "requirements.txt installs from the wheel folder") {
		t.Fatalf("arena doctor --strict without rustc: %v\n%s", err, out)
	}
}
