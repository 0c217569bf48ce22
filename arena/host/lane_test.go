package host_test

import (
	"context"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/botarena/arena/arena/game"
	_ "github.com/botarena/arena/arena/games/all"
	"github.com/botarena/arena/arena/host"
	"github.com/botarena/arena/arena/internal/proctable"
	"github.com/botarena/arena/arena/match"
	"github.com/botarena/arena/arena/players"
)

// laneGames plays every game between two of its Go bots, with parameters that keep a match
// short.
var laneGames = []struct {
	name   string
	bots   [2]string
	params map[string]string
}{
	{"dynamite", [2]string{"dynamite/cmd/paper", "dynamite/cmd/beatlast"}, map[string]string{"target": "100", "rounds": "300"}},
	{"finger", [2]string{"finger/cmd/random", "finger/cmd/strong"}, map[string]string{"games": "20"}},
	{"bidding", [2]string{"bidding/cmd/random", "bidding/cmd/strong"}, map[string]string{"games": "10"}},
	{"auction", [2]string{"auction/cmd/sample", "auction/cmd/collector"}, nil},
	{"realtv", [2]string{"realtv/cmd/filler", "realtv/cmd/likesthemstrong"}, map[string]string{"phases": "10"}},
}

// TestEveryGameOnBothLanes plays every registered game between real bot processes twice: every
// move on the fast lane, then every move over gRPC (a bot that does not announce the lane),
// under both clocks, every match to its end without a fault.
func TestEveryGameOnBothLanes(t *testing.T) {
	t.Parallel()
	if len(laneGames) != len(game.Names()) {
		t.Fatalf("the test lists %d games, the registry %d: add the new game to laneGames", len(laneGames), len(game.Names()))
	}
	dir := t.TempDir()
	for _, g := range laneGames {
		for _, b := range g.bots {
			out := filepath.Join(dir, strings.ReplaceAll(b, "/", "-"))
			if msg, err := exec.Command("go", "build", "-o", out, "../../bots/"+b).CombinedOutput(); err != nil {
				t.Fatalf("build %s: %v\n%s", b, err, msg)
			}
		}
	}
	for _, g := range laneGames {
		t.Run(g.name, func(t *testing.T) {
			t.Parallel()
			spec, err := game.Lookup(g.name)
			if err != nil {
				t.Fatal(err)
			}
			for _, grpc := range []bool{false, true} {
				for _, clock := range []match.ClockMode{match.ClockWall, match.ClockCPU} {
					var ps []match.Player
					cfg := game.Config{Seed: 5, Params: g.params}
					for _, b := range g.bots {
						c := host.Command{Name: b, Path: filepath.Join(dir, strings.ReplaceAll(b, "/", "-"))}
						ps = append(ps, players.Process{Bot: launchOn(t, c, grpc)})
						cfg.Players = append(cfg.Players, game.Player{Name: b})
					}
					res, err := match.Run(context.Background(), spec, cfg, ps, match.Options{MatchID: "lanes", Deadline: 2 * time.Second, Clock: clock})
					if err != nil {
						t.Fatalf("grpc %v, %s clock: %v", grpc, clock, err)
					}
					if len(res.Outcome.Faults) > 0 || res.Steps == 0 {
						t.Fatalf("grpc %v, %s clock: %d steps, faults %+v", grpc, clock, res.Steps, res.Outcome.Faults)
					}
				}
			}
		})
	}
}

// TestHostileLaneIsTheBotsFault: a bot that announces the lane and then sends what is not its
// answer (garbage, an oversize length, another seat's, step's or match's answer, a flood of
// frames), closes it, or stops mid-frame, loses by a fault charged to it; the host carries on
// and the bot's processes are gone.
func TestHostileLaneIsTheBotsFault(t *testing.T) {
	t.Parallel()
	cases := []struct {
		mode string
		kind game.FaultKind
		text string
	}{
		{"garbage", game.FaultCrash, "a frame that is not an ActResponse"},
		{"oversize", game.FaultCrash, "a frame of 4294967280 bytes, over the limit of 1048576"},
		{"seat", game.FaultCrash, "seat 1 step 1, which no request on the lane is waiting for"},
		{"step", game.FaultCrash, "seat 0 step 2, which no request on the lane is waiting for"},
		{"match", game.FaultCrash, `match "another match" seat 0 step 1, which no request`},
		{"flood", game.FaultCrash, "which no request on the lane is waiting for"},
		{"close", game.FaultCrash, "the bot closed its lane"},
		{"half", game.FaultTimeout, "no answer within"},
	}
	for _, c := range cases {
		t.Run(c.mode, func(t *testing.T) {
			t.Parallel()
			cmd := command("lanehostile")
			cmd.Args = []string{c.mode}
			hb := launchOn(t, cmd, false)
			pap := launch(t, "paper")
			pid := hb.Pid()
			res := playDynamite(t, hb, pap, 500*time.Millisecond)
			o := res.Outcome
			if o.Players[0].Result != game.ResultLoss || len(o.Faults) != 1 {
				t.Fatalf("outcome %+v faults %+v", o.Players, o.Faults)
			}
			f := o.Faults[0]
			if f.Seat != 0 || f.Kind != c.kind || !strings.Contains(f.Detail, c.text) {
				t.Fatalf("fault %+v, want %s mentioning %q", f, c.kind, c.text)
			}
			if !pap.Alive() {
				t.Fatalf("the other bot was stopped: %s", pap.Why())
			}
			hb.Close()
			proctable.AssertGone(t, pid)
		})
	}
}
