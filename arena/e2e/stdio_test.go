package e2e_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/botarena/arena/arena/botspec"
	"github.com/botarena/arena/arena/game"
	_ "github.com/botarena/arena/arena/games/all"
	"github.com/botarena/arena/arena/host"
	"github.com/botarena/arena/arena/match"
	"github.com/botarena/arena/arena/players"
	"github.com/botarena/arena/internal/slack"
)

// playGame plays one match of any registered game between bots (paths or folders) with the
// full sandbox, and returns the result and the launched processes' logs.
func playGame(t *testing.T, name string, deadline time.Duration, params map[string]string, bots ...string) (*match.Result, []*host.Bot) {
	t.Helper()
	return playWith(t, resolver, name, deadline, params, bots...)
}

// playWith is playGame with a resolver of its own (build options).
func playWith(t *testing.T, r *botspec.Resolver, name string, deadline time.Duration, params map[string]string, bots ...string) (*match.Result, []*host.Bot) {
	t.Helper()
	spec, err := game.Lookup(name)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	procs, err := players.Launch(ctx, r, bots, host.Options{StartTimeout: slack.Of(t, 30*time.Second)})
	if err != nil {
		t.Fatalf("launch %v: %v", bots, err)
	}
	t.Cleanup(func() { players.CloseAll(procs) })
	cfg := game.Config{Seed: 7, Params: params}
	ps := make([]match.Player, len(procs))
	for i, p := range procs {
		ps[i] = players.Process{Bot: p}
		cfg.Players = append(cfg.Players, game.Player{Name: bots[i]})
	}
	res, err := match.Run(ctx, spec, cfg, ps, match.Options{MatchID: "stdio-" + name, Deadline: deadline})
	if err != nil {
		t.Fatal(err)
	}
	return res, procs
}

// misbehaving is a stdio program that plays rock until round 3 of dynamite, then does what
// its mode says.
const misbehaving = `
const mode = %q;
let buf = "";
process.stdin.on("data", (chunk) => {
  buf += chunk;
  let i;
  while ((i = buf.indexOf("\n")) >= 0) {
    const req = JSON.parse(buf.slice(0, i));
    buf = buf.slice(i + 1);
    answer(req);
  }
});
function answer(req) {
  if (req.act && req.act.dynamite.round === 3) {
    switch (mode) {
    case "garbage": process.stdout.write("hello, host\n"); return;
    case "shape": process.stdout.write(JSON.stringify({ step: req.act.step, dynamite: "ROCK" }) + "\n"); return;
    case "exit": process.stderr.write("leaving now\n"); process.exit(3);
    case "hang": return;
    case "flood": process.stdout.write("x".repeat(1 << 20) + "\n"); return;
    case "throw": process.stdout.write(JSON.stringify({ step: req.act.step, error: { kind: "BOT_ERROR_KIND_EXCEPTION", message: "oops in round 3" } }) + "\n"); return;
    }
  }
  let out = {};
  if (req.describe) out = { name: "misbehaving-" + mode };
  if (req.act) out = { step: req.act.step, dynamite: { move: "DYNAMITE_MOVE_ROCK" } };
  process.stdout.write(JSON.stringify(out) + "\n");
}
`

// TestStdioFaults: what a stdio program gets wrong is charged to it under the game's rule,
// with the bridge's reason, in the full sandbox; the other bot plays on unharmed.
func TestStdioFaults(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	cases := []struct {
		mode   string
		kind   game.FaultKind
		detail string
	}{
		{"garbage", game.FaultGarbage, `stdout line 5 is not an ActResponse: `},
		{"shape", game.FaultGarbage, `is not an ActResponse`},
		{"exit", game.FaultCrash, "leaving now"},
		{"hang", game.FaultTimeout, ""},
		{"flood", game.FaultGarbage, "stdout line 5 is over 64 KiB"},
		{"throw", game.FaultCrash, "oops in round 3"},
	}
	for _, c := range cases {
		t.Run(c.mode, func(t *testing.T) {
			t.Parallel()
			prog := filepath.Join(dir, c.mode+".js")
			if err := os.WriteFile(prog, []byte(strings.Replace(misbehaving, "%q", `"`+c.mode+`"`, 1)), 0o644); err != nil {
				t.Fatal(err)
			}
			res, procs := playGame(t, "dynamite", 2*time.Second, nil, prog, bot("bots/dynamite/cmd/paper"))
			o := res.Outcome
			if len(o.Faults) != 1 {
				t.Fatalf("faults %+v", o.Faults)
			}
			f := o.Faults[0]
			if f.Seat != 0 || f.Kind != c.kind || f.Where != "round 3" || !strings.Contains(f.Detail, c.detail) {
				t.Fatalf("fault %+v, want seat 0 %v at round 3 with %q", f, c.kind, c.detail)
			}
			if o.Players[0].Result != game.ResultLoss || o.Players[1].Result != game.ResultWin {
				t.Fatalf("players %+v", o.Players)
			}
			if c.mode == "exit" {
				if log := strings.Join(procs[0].Log.TailSince(0, 10), "\n"); !strings.Contains(log, "the bot's program exited (exit status 3)") {
					t.Fatalf("the log does not say how the program ended:\n%s", log)
				}
			}
		})
	}
}

// TestStdioBridgeIsNotCharged: the bridge in front of a stdio program is the arena's own
// process; the CPU time the host charges and records (Snapshot) is the program's, while the
// tree's usage holds both. The bridge, a Go binary that starts a gRPC server, uses some
// milliseconds of CPU time before the first move.
func TestStdioBridgeIsNotCharged(t *testing.T) {
	t.Parallel()
	prog := filepath.Join(t.TempDir(), "rock.js")
	if err := os.WriteFile(prog, []byte(strings.Replace(misbehaving, "%q", `"none"`, 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	res, procs := playGame(t, "dynamite", 2*time.Second, nil, prog, bot("bots/dynamite/cmd/paper"))
	if n := len(res.Outcome.Faults); n > 0 {
		t.Fatalf("faults %+v", res.Outcome.Faults)
	}
	charged, _ := procs[0].Snapshot()
	tree := procs[0].Usage().CPU
	t.Logf("the program's CPU time %v, the tree's %v", charged, tree)
	if charged <= 0 || tree-charged < time.Millisecond {
		t.Fatalf("charged %v of the tree's %v: want the program's alone, the bridge's milliseconds left out", charged, tree)
	}
}
