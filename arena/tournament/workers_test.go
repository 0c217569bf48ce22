package tournament_test

import (
	"context"
	"fmt"
	neturl "net/url"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/botarena/arena/arena/internal/testenv"
	"github.com/botarena/arena/arena/store"
	"github.com/botarena/arena/arena/tournament"
	"github.com/botarena/arena/internal/slack"
)

// startArena runs an arena command in the checkout (Go bots build against it).
func startArena(t *testing.T, name string, args ...string) *testenv.Proc {
	t.Helper()
	cmd := exec.Command(arenaBin, args...)
	cmd.Dir = root
	return testenv.Start(t, name, cmd)
}

var (
	reURL     = regexp.MustCompile(`NATS listening on (tls://\S+) `)
	reCommand = regexp.MustCompile(`arena worker --nats (\S+) --nats-ca (\S+) --credentials (\S+)`)
	reStarted = regexp.MustCompile(`job (\S+) started`)
	reDone    = regexp.MustCompile(`^\[done (\d+)/(\d+)`)
)

// TestWorkersKilledStoppedCoordinatorRestarted: a coordinator with its embedded server on
// loopback and three arena worker processes play a tournament while one worker is killed
// with SIGKILL mid-match, another is stopped (SIGSTOP) for longer than the ack wait and the
// coordinator itself is killed and restarted. Every match is recorded exactly once and the
// standings equal those of the in-process run with the same seed.
func TestWorkersKilledStoppedCoordinatorRestarted(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	bots := []string{filepath.Join(root, "bots/dynamite/cmd/paper"), filepath.Join(root, "bots/dynamite/cmd/scissors"), pythonBot}
	common := []string{"--seed", "11", "--reps", "3", "--deadline", "3s", "--plain"}
	// The in-process run first: it also builds the bots (and warms the compiler cache), so
	// the workers' time below is the matches'.
	ref := startArena(t, "in-process run", append(append([]string{"tournament", "dynamite", "--store", filepath.Join(dir, "ref.db"), "--name", "t", "--jobs", "1"}, common...), bots...)...)
	select {
	case <-ref.Done:
	case <-time.After(slack.Of(t, 10*time.Minute)):
		t.Fatal("the in-process run did not finish within 10 minutes")
	}
	if ref.Err != nil {
		t.Fatalf("in-process run: %v", ref.Err)
	}

	db := filepath.Join(dir, "q.db")
	queueFlags := []string{"--jobs", "0", "--ack-wait", "1s", "--max-deliver", "50"}
	coord := startArena(t, "coordinator", append(append(append([]string{"tournament", "dynamite", "--store", db, "--name", "t", "--nats-listen", "127.0.0.1:0"}, queueFlags...), common...), bots...)...)
	coord.WaitFor(reURL, 1, 0, 30*time.Second)
	var workers []*testenv.Proc
	var url string
	for i := range 3 {
		// Each worker its own credential, as the organiser gives it (arena worker add).
		name := fmt.Sprintf("w%d", i+1)
		add := exec.Command(arenaBin, "worker", "add", name, "--store", db, "--out", filepath.Join(dir, name+".creds"))
		out, err := add.CombinedOutput()
		m := reCommand.FindStringSubmatch(string(out))
		if err != nil || m == nil {
			t.Fatalf("arena worker add %s: %v\n%s", name, err, out)
		}
		url = m[1]
		workers = append(workers, startArena(t, fmt.Sprintf("worker %d", i+1), "worker", "--nats", m[1], "--nats-ca", m[2], "--credentials", m[3], "--jobs", "1"))
	}

	// Worker 1: killed in the middle of its second match (its first one includes its builds).
	workers[0].WaitFor(reStarted, 2, 0, 90*time.Second)
	time.Sleep(50 * time.Millisecond)
	if err := workers[0].Cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	// The coordinator: killed once a few matches are recorded, restarted on the same port.
	coord.WaitFor(reDone, 3, 0, 90*time.Second)
	if err := coord.Cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	<-coord.Done
	_, last := coord.Count(reDone, 0)
	if last[1] == last[2] {
		t.Fatalf("the coordinator was not killed mid-tournament (%v):\n%s", last, coord.Output())
	}
	u, err := neturl.Parse(url)
	if err != nil || u.User != nil {
		t.Fatalf("NATS URL %q: %v, or it carries a secret", url, err)
	}
	addr := u.Host
	again := startArena(t, "restarted coordinator", append(append([]string{"tournament", "--resume", "t", "--store", db, "--nats-listen", addr}, queueFlags...), "--plain")...)
	// Worker 2: stopped mid-match for three ack waits; its job goes to another worker and
	// its own result, once it runs again, is dropped.
	from := workers[1].Len()
	stopped := workers[1].WaitFor(reStarted, 1, from, 60*time.Second)[1]
	time.Sleep(50 * time.Millisecond)
	workers[1].Cmd.Process.Signal(syscall.SIGSTOP)
	time.Sleep(3 * time.Second)
	workers[1].Cmd.Process.Signal(syscall.SIGCONT)
	workers[1].WaitFor(regexp.MustCompile(`job `+regexp.QuoteMeta(stopped)+`( lost .*result dropped|: a result was already in)`), 1, from, 60*time.Second)
	select {
	case <-again.Done:
	case <-time.After(slack.Of(t, 120*time.Second)):
		t.Fatalf("the restarted coordinator did not finish:\n%s", again.Output())
	}
	if again.Err != nil {
		t.Fatalf("restarted coordinator: %v\n%s", again.Err, again.Output())
	}

	ctx := context.Background()
	want := standingsOf(t, filepath.Join(dir, "ref.db"))
	got := standingsOf(t, db)
	sameStandings(t, want, got)
	st, err := store.OpenReadOnly(db)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	ms, _ := st.Matches(ctx, 1)
	if len(ms) != 18 {
		t.Fatalf("%d matches, want 18", len(ms))
	}
	for _, m := range ms {
		if m.Status != store.StatusDone || m.Attempts != 1 {
			t.Errorf("match %s: %s, recorded %d times", m.MatchID, m.Status, m.Attempts)
		}
		if _, err := st.Replay(ctx, 1, m.Idx); err != nil {
			t.Errorf("match %s: %v", m.MatchID, err)
		}
	}
	var played int
	for _, w := range workers {
		n, _ := w.Count(regexp.MustCompile(`job \S+ done`), 0)
		played += n
	}
	for _, p := range append(workers, coord, again) {
		var keep []string
		for _, l := range strings.Split(p.Output(), "\n") {
			if strings.Contains(l, "delivery 2") || strings.Contains(l, "lost") || strings.Contains(l, "discarded") || strings.Contains(l, "already in") || strings.Contains(l, "NATS") {
				keep = append(keep, l)
			}
		}
		t.Logf("%s: %d lines; of note:\n%s", p.Name, p.Len(), strings.Join(keep, "\n"))
	}
	if played < 18 {
		t.Errorf("workers report %d matches played, want at least 18", played)
	}
}

func standingsOf(t *testing.T, db string) *tournament.Standings {
	t.Helper()
	st, err := store.OpenReadOnly(db)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	s, err := tournament.Compute(context.Background(), st, 1)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestSeparateNatsServer: the same coordinator and worker code against a NATS server run as
// its own process (nats-server, built from the module the arena embeds): the tournament
// finishes with the standings of the in-process run.
func TestSeparateNatsServer(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	bin := filepath.Join(dir, "nats-server")
	build := exec.Command("go", "build", "-o", bin, "github.com/nats-io/nats-server/v2")
	build.Dir = root
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("building nats-server: %v\n%s", err, out)
	}
	ns := testenv.Start(t, "nats-server", exec.Command(bin, "-js", "-sd", filepath.Join(dir, "js"), "-a", "127.0.0.1", "-p", "-1"))
	port := ns.WaitFor(regexp.MustCompile(`Listening for client connections on 127\.0\.0\.1:(\d+)`), 1, 0, 30*time.Second)[1]
	url := "nats://127.0.0.1:" + port

	bots := []string{filepath.Join(root, "bots/dynamite/cmd/paper"), filepath.Join(root, "bots/dynamite/cmd/scissors"), pythonBot} // deterministic bots
	common := []string{"--seed", "3", "--reps", "1", "--target", "50", "--plain"}
	ref := startArena(t, "in-process run", append(append([]string{"tournament", "dynamite", "--store", filepath.Join(dir, "ref.db"), "--name", "t", "--queue=false"}, common...), bots...)...)
	coord := startArena(t, "coordinator", append(append([]string{"tournament", "dynamite", "--store", filepath.Join(dir, "q.db"), "--name", "t", "--nats", url, "--jobs", "0"}, common...), bots...)...)
	startArena(t, "worker", "worker", "--nats", url, "--jobs", "2")
	for _, p := range []*testenv.Proc{ref, coord} {
		select {
		case <-p.Done:
		case <-time.After(slack.Of(t, 5*time.Minute)):
			t.Fatalf("%s did not finish within 5 minutes", p.Name)
		}
		if p.Err != nil {
			t.Fatalf("%s: %v", p.Name, p.Err)
		}
	}
	sameStandings(t, standingsOf(t, filepath.Join(dir, "ref.db")), standingsOf(t, filepath.Join(dir, "q.db")))
}
