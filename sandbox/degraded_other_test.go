//go:build !linux || arenadegraded

package sandbox

import (
	"io"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/botarena/arena/internal/slack"
)

// The degraded sandbox (macOS; on Linux with -tags arenadegraded, as scripts/test.sh runs it):
// a program runs with the given environment and rlimits, its group dies with Kill, the wall
// time limit stops it, and the report names every missing layer.

func TestMain(m *testing.M) {
	Init()
	os.Exit(m.Run())
}

func TestDegradedRuns(t *testing.T) {
	p, err := Start(Spec{Name: "sh", Path: "/bin/sh", Args: []string{"sh", "-c", "echo $GREETING; ulimit -n; ulimit -c"},
		Env: []string{"GREETING=hello"}, WorkDir: t.TempDir(), Limits: Limits{OpenFiles: 77}})
	if err != nil {
		t.Fatal(err)
	}
	out, _ := io.ReadAll(p.Stdout())
	if err := p.Wait(); err != nil {
		t.Fatal(err)
	}
	if got := strings.Fields(string(out)); len(got) != 3 || got[0] != "hello" || got[1] != "77" || got[2] != "0" {
		t.Fatalf("output %q, want hello, 77 open files, no core dumps", out)
	}
}

func TestDegradedKillAndWallTime(t *testing.T) {
	p, err := Start(Spec{Name: "sleep", Path: "/bin/sh", Args: []string{"sh", "-c", "sleep 60 & sleep 60"},
		WorkDir: t.TempDir(), Limits: Limits{WallTime: 300 * time.Millisecond}})
	if err != nil {
		t.Fatal(err)
	}
	select {
	case <-p.Done():
	case <-time.After(slack.Of(t, 5*time.Second)):
		t.Fatal("the wall-time limit did not stop the process group")
	}
	if r := p.Reason(); r.Kind != KindTimeLimit {
		t.Fatalf("reason %v, want the time limit", r)
	}
	if p.Kill() != nil {
		t.Fatal("Kill after the end failed")
	}
}

func TestDegradedReport(t *testing.T) {
	rep := Probe()
	if !rep.Active(LayerRlimits) || rep.Active(LayerUserNS) || rep.Active(LayerSeccomp) {
		t.Fatalf("report:\n%+v", rep)
	}
	if _, err := Start(Spec{Name: "strict", Path: "/bin/true", Strict: true}); err == nil {
		t.Fatal("strict mode started a bot without the Linux layers")
	}
}
