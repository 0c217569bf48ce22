package rerun_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/botarena/arena/arena/game"
	"github.com/botarena/arena/arena/game/gametest"
	"github.com/botarena/arena/arena/match"
	"github.com/botarena/arena/arena/players"
	"github.com/botarena/arena/arena/replay"
	"github.com/botarena/arena/arena/rerun"
	"github.com/botarena/arena/bots/house"
	arenav1 "github.com/botarena/arena/proto/arena/v1"

	_ "github.com/botarena/arena/arena/games/all"
)

// short is one short match per game between seeded house bots (the same bots again answer the
// same), some with a crash so that recorded faults are re-run too.
type short struct {
	game    string
	seed    uint64
	params  map[string]string
	players func() []match.Player
}

// shorts is every registered game's short match, as its Spec.Short declares it.
var shorts = func() []short {
	var out []short
	for _, name := range game.Names() {
		spec, err := game.Lookup(name)
		if err != nil {
			panic(err)
		}
		out = append(out, short{game: name, seed: spec.Short.Seed, params: spec.Short.Params, players: gametest.Fresh(spec, house.Seeded)})
	}
	return out
}()

// dynamiteShort is dynamite's short match with a seed past int64's range (it must come back
// from the record's JSON), which the tests of a divergence read move by move.
var dynamiteShort = func() short {
	for _, s := range shorts {
		if s.game == "dynamite" {
			s.seed = 18446744073709365019
			return s
		}
	}
	panic("dynamite is not registered")
}()

// record plays s through the runner and returns its record as read back from JSON.
func record(t *testing.T, s short) *replay.Record {
	t.Helper()
	spec, err := game.Lookup(s.game)
	if err != nil {
		t.Fatal(err)
	}
	ps := s.players()
	cfg := game.Config{Seed: s.seed, Params: s.params}
	var names []string
	for _, p := range ps {
		cfg.Players = append(cfg.Players, game.Player{Name: p.Label()})
		names = append(names, p.Label())
	}
	id := fmt.Sprintf("%s-%d", s.game, s.seed)
	rec := replay.NewRecorder(spec.Name, id, cfg, names)
	res, err := match.Run(context.Background(), spec, cfg, ps, match.Options{MatchID: id, Recorder: rec})
	if err != nil {
		t.Fatal(err)
	}
	rec.Rec.Outcome = &res.Outcome
	b, err := json.Marshal(rec.Rec)
	if err != nil {
		t.Fatal(err)
	}
	back, err := replay.Decode(strings.NewReader(string(b)), id)
	if err != nil {
		t.Fatal(err)
	}
	if back.Config.Seed != s.seed {
		t.Fatalf("seed %d came back as %d", s.seed, back.Config.Seed)
	}
	return back
}

// again re-runs rec with ps (a nil entry is answered from the record) under plan.
func again(t *testing.T, rec *replay.Record, plan *rerun.Plan, ps []match.Player) (*match.Result, *replay.Recorder, error) {
	t.Helper()
	spec, err := game.Lookup(rec.Game)
	if err != nil {
		t.Fatal(err)
	}
	for i, p := range ps {
		if p == nil {
			ps[i] = &rerun.Recorded{Name: rec.Config.Players[i].Name, Rec: rec}
		}
	}
	out := replay.NewRecorder(rec.Game, rec.MatchID, rec.Config, rec.Bots)
	plan.Rec, plan.Recorder = rec, out
	res, err := match.Run(context.Background(), plan.Spec(spec), rec.Config, ps, match.Options{MatchID: rec.MatchID, Recorder: rerun.Begin{R: out}})
	return res, out, err
}

func actions(st replay.Step) string {
	var b strings.Builder
	for _, a := range st.Answers {
		// protojson spaces its output at random (on purpose, per build), so compare compacted.
		var act bytes.Buffer
		if len(a.Action) > 0 {
			if err := json.Compact(&act, a.Action); err != nil {
				act.WriteString("not JSON: " + err.Error())
			}
		}
		fmt.Fprintf(&b, "%d:%s/%v/%d ", a.Seat, act.String(), a.Fault != nil, a.Order)
	}
	return b.String()
}

// Every player of every game, re-run live against the record of its own match, answers as
// recorded all the way: the same steps and the same outcome.
func TestAgainstTheSameBotNeverDiverges(t *testing.T) {
	t.Parallel()
	for _, s := range shorts {
		t.Run(s.game, func(t *testing.T) {
			t.Parallel()
			rec := record(t, s)
			for p := range rec.Config.Players {
				ps := make([]match.Player, len(rec.Config.Players))
				ps[p] = s.players()[p]
				live := make([]bool, len(ps))
				live[p] = true
				plan := &rerun.Plan{Live: live}
				res, out, err := again(t, rec, plan, ps)
				if err != nil {
					t.Fatalf("player %d live: %v", p, err)
				}
				if plan.Divergence() != nil || res.Outcome.Summary != rec.Outcome.Summary || len(out.Rec.Steps) != len(rec.Steps) {
					t.Fatalf("player %d live: %q in %d steps (divergence %v), recorded %q in %d", p, res.Outcome.Summary, len(out.Rec.Steps),
						plan.Divergence(), rec.Outcome.Summary, len(rec.Steps))
				}
				for k := range rec.Steps {
					if a, b := actions(out.Rec.Steps[k]), actions(rec.Steps[k]); a != b {
						t.Fatalf("player %d live, step %d: applied %s, recorded %s", p, k+1, a, b)
					}
				}
			}
		})
	}
}

// deviant answers like its bot except at one step, where it throws water (or rock).
type deviant struct {
	match.Player
	at int64
}

func (d deviant) Open(ctx context.Context, req *arenav1.StartRequest, timeout time.Duration) (match.Conn, error) {
	c, err := d.Player.Open(ctx, req, timeout)
	return deviantConn{c, d.at}, err
}

type deviantConn struct {
	match.Conn
	at int64
}

func (c deviantConn) Act(req *arenav1.ActRequest, timeout time.Duration) (*arenav1.ActResponse, error) {
	resp, err := c.Conn.Act(req, timeout)
	if req.GetStep() != c.at || err != nil {
		return resp, err
	}
	move := arenav1.DynamiteMove_DYNAMITE_MOVE_WATER
	if resp.GetDynamite().GetMove() == move {
		move = arenav1.DynamiteMove_DYNAMITE_MOVE_ROCK
	}
	return &arenav1.ActResponse{Step: req.GetStep(), Action: &arenav1.ActResponse_Dynamite{Dynamite: &arenav1.DynamiteAction{Move: move}}}, nil
}

func (c deviantConn) Inline() bool { return true }

// A live bot that answers differently at step 17 stops the re-run there, which says both
// answers; with Continue the match goes on live from there.
func TestAgainstStopsAtTheFirstDifference(t *testing.T) {
	t.Parallel()
	s := dynamiteShort
	rec := record(t, s)
	ps := []match.Player{nil, deviant{s.players()[1], 17}}
	_, out, err := again(t, rec, &rerun.Plan{Live: []bool{false, true}}, ps)
	var div *rerun.Divergence
	if !errors.As(err, &div) || !errors.Is(err, rerun.ErrDiverged) {
		t.Fatalf("want a divergence, got %v", err)
	}
	if div.Step != 17 || len(div.Diffs) != 1 || div.Diffs[0].Seat != 1 || div.Diffs[0].Name != "beatlast" ||
		div.Diffs[0].Recorded == div.Diffs[0].Live || !strings.Contains(div.Diffs[0].Live, "DYNAMITE_MOVE_") {
		t.Fatalf("divergence %+v", div)
	}
	if len(out.Rec.Steps) != 16 {
		t.Fatalf("%d steps applied before the divergence, want 16", len(out.Rec.Steps))
	}
	t.Log(div)

	// Continue: the recorded player is played by its own bot live from the start (shadowed),
	// so after step 17 the match is the two live bots'.
	ps = []match.Player{s.players()[0], deviant{s.players()[1], 17}}
	plan := &rerun.Plan{Live: []bool{false, true}, Continue: true}
	res, out, err := again(t, rec, plan, ps)
	if err != nil || plan.Divergence() == nil || plan.Divergence().Step != 17 {
		t.Fatalf("continued: %v, divergence %v", err, plan.Divergence())
	}
	for k := 0; k < 16; k++ {
		if a, b := actions(out.Rec.Steps[k]), actions(rec.Steps[k]); a != b {
			t.Fatalf("step %d: applied %s, recorded %s", k+1, a, b)
		}
	}
	if a, b := actions(out.Rec.Steps[16]), actions(rec.Steps[16]); a == b {
		t.Fatalf("step 17 applied as recorded: %s", a)
	}
	out.Rec.Outcome = &res.Outcome
	if _, err := replay.Run(out.Rec, nil); err != nil {
		t.Fatalf("the continued match does not replay: %v", err)
	}
}

// A fork at step K replays steps 1..K-1 as recorded and then plays the new bots: here paper
// from step K on.
func TestForkAtAStep(t *testing.T) {
	t.Parallel()
	s := dynamiteShort
	rec := record(t, s)
	const k = 12
	paper, err := house.Seeded("dynamite", "paper", 1)
	if err != nil {
		t.Fatal(err)
	}
	ps := []match.Player{s.players()[0], players.NewInProcess("paper", paper)}
	res, out, err := again(t, rec, &rerun.Plan{From: k}, ps)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < k-1; i++ {
		if a, b := actions(out.Rec.Steps[i]), actions(rec.Steps[i]); a != b {
			t.Fatalf("step %d: applied %s, recorded %s", i+1, a, b)
		}
	}
	for i := k - 1; i < len(out.Rec.Steps); i++ {
		for _, a := range out.Rec.Steps[i].Answers {
			if a.Seat == 1 && !strings.Contains(string(a.Action), "PAPER") {
				t.Fatalf("step %d: seat 1 answered %s, want paper", i+1, a.Action)
			}
		}
	}
	out.Rec.Outcome = &res.Outcome
	if _, err := replay.Run(out.Rec, nil); err != nil {
		t.Fatalf("the fork does not replay: %v", err)
	}
}

// A record whose answers do not fit the engine (a seat missing) is a clear error.
func TestRecordThatDoesNotFit(t *testing.T) {
	t.Parallel()
	rec := record(t, dynamiteShort)
	rec.Steps[3].Answers = rec.Steps[3].Answers[:1]
	_, _, err := again(t, rec, &rerun.Plan{Live: []bool{true, false}}, []match.Player{dynamiteShort.players()[0], nil})
	if !errors.Is(err, rerun.ErrRecord) || !strings.Contains(err.Error(), "step 4") {
		t.Fatalf("want ErrRecord at step 4, got %v", err)
	}
}

func TestPlayerByName(t *testing.T) {
	t.Parallel()
	rec := &replay.Record{Config: game.Config{Players: []game.Player{{Name: "alice/bot v2"}, {Name: "house"}}}}
	for in, want := range map[string]int{"0": 0, "1": 1, "house": 1, "alice/bot v2": 0} {
		if got, err := rerun.PlayerByName(rec, in); got != want || err != nil {
			t.Errorf("%q: %d, %v", in, got, err)
		}
	}
	if _, err := rerun.PlayerByName(rec, "2"); err == nil || !strings.Contains(err.Error(), "0 (alice/bot v2), 1 (house)") {
		t.Errorf("unknown player: %v", err)
	}
}
