package server

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/botarena/arena/arena/botspec"
	"github.com/botarena/arena/arena/game"
	"github.com/botarena/arena/arena/host"
	"github.com/botarena/arena/arena/internal/testenv"
	"github.com/botarena/arena/arena/match"
	"github.com/botarena/arena/arena/players"
	"github.com/botarena/arena/arena/replay"
	"github.com/botarena/arena/arena/rerun"
	"github.com/botarena/arena/arena/store"
	"github.com/botarena/arena/internal/slack"
)

// rockBot is bob's bot: rock every time, and a secret on its stderr.
const rockBot = `import sys

def make_move(rounds):
    print("bob's secret debug line", file=sys.stderr)
    return "R"
`

// Two authors over a real server: ada downloads the record of a ladder match she played
// against bob, and on her own machine plays it again with her bot live (the same file: every
// answer as recorded; a new version: stopped at its first different answer). The record has
// the seed as an exact string and none of bob's code or logs.
func TestAuthorReRunsHerLadderMatchLocally(t *testing.T) {
	e := newEnv(t, envOptions{})
	ada, bob := e.register("ada"), e.register("bob")
	adaBot := exampleBot(t)
	va := ada.uploadAPI("dynamite", "freq", "bot.py", adaBot, http.StatusAccepted)
	vb := bob.uploadAPI("dynamite", "rock", "bot.py", []byte(rockBot), http.StatusAccepted)
	for _, v := range []struct {
		c  *client
		id int64
	}{{ada, va.ID}, {bob, vb.ID}} {
		if got := v.c.waitVersion(v.id); got.Status != store.VersionOK {
			t.Fatalf("%s's bot: %s: %s", v.c.name, got.Status, got.Verdict)
		}
	}
	// A ladder match between the two.
	var m store.LadderMatch
	deadline := time.Now().Add(slack.Of(t, 3*time.Minute))
	for m.ID == 0 && time.Now().Before(deadline) {
		var ms struct{ Matches []store.LadderMatch }
		ada.apiJSON("GET", fmt.Sprintf("/api/v1/games/dynamite/matches?kind=ladder&status=done&bot=%d", va.BotID), nil, http.StatusOK, &ms)
		for _, x := range ms.Matches {
			// One without faults: on a loaded machine a bot may miss its start (recorded as a
			// crash, which a live re-run rightly reports as its first difference).
			if len(x.Seats) == 2 && (x.Seats[0].Author == "bob" || x.Seats[1].Author == "bob") && x.Seats[0].Faults+x.Seats[1].Faults == 0 {
				m = x
				break
			}
		}
		time.Sleep(200 * time.Millisecond)
	}
	if m.ID == 0 {
		t.Fatal("no ladder match between ada and bob after 3 minutes")
	}
	raw := ada.apiJSON("GET", fmt.Sprintf("/api/v1/matches/%d/replay", m.ID), nil, http.StatusOK, nil)
	if !regexp.MustCompile(`"seed":"[0-9]+"`).MatchString(raw) || !strings.Contains(raw, fmt.Sprintf(`"seed":"%d"`, m.Seed)) {
		t.Fatalf("the downloaded record's seed is not the match's (%d) as a string: %.400s", m.Seed, raw)
	}
	apiMatch := ada.apiJSON("GET", fmt.Sprintf("/api/v1/matches/%d", m.ID), nil, http.StatusOK, nil)
	mustContain(t, apiMatch, fmt.Sprintf(`"seed": "%d"`, m.Seed))
	mustNotContain(t, raw, "bob's secret", "make_move", `return "R"`)
	dir := t.TempDir()
	path := filepath.Join(dir, fmt.Sprintf("match-%d.json", m.ID))
	if err := os.WriteFile(path, []byte(raw), 0o600); err != nil {
		t.Fatal(err)
	}
	rec, err := replay.Read(path)
	if err != nil {
		t.Fatal(err)
	}
	if rec.Config.Seed != m.Seed {
		t.Fatalf("record seed %d, match seed %d", rec.Config.Seed, m.Seed)
	}
	seat := 0
	if m.Seats[1].Author == "ada" {
		seat = 1
	}
	// Ada names her seat as the site does (the recorded player's name).
	p, err := rerun.PlayerByName(rec, rec.Config.Players[seat].Name)
	if err != nil || p != seat || !strings.HasPrefix(rec.Config.Players[seat].Name, "freq") {
		t.Fatalf("ada's seat %d: %v (players %s)", seat, err, rerun.Players(rec))
	}

	v1 := filepath.Join(dir, "bot.py")
	if err := os.WriteFile(v1, adaBot, 0o644); err != nil {
		t.Fatal(err)
	}
	res, plan, err := reRun(t, rec, seat, v1)
	if err != nil || plan.Divergence() != nil {
		t.Fatalf("ada's re-run: %v, divergence %v", err, plan.Divergence())
	}
	if res.Outcome.Summary != rec.Outcome.Summary {
		t.Fatalf("ada's re-run: %q, recorded %q", res.Outcome.Summary, rec.Outcome.Summary)
	}
	// Her next version throws water at round 7.
	v2 := filepath.Join(dir, "bot2.py")
	changed := strings.Replace(string(adaBot), "        if state.rounds:", "        if len(state.rounds) == 6:\n            return dynamite.WATER\n        if state.rounds:", 1)
	if changed == string(adaBot) {
		t.Fatal("examples/python/dynamite/bot.py changed: update the test's edit")
	}
	if err := os.WriteFile(v2, []byte(changed), 0o644); err != nil {
		t.Fatal(err)
	}
	_, _, err = reRun(t, rec, seat, v2)
	var div *rerun.Divergence
	if !errors.As(err, &div) || div.Step != 7 || div.Diffs[0].Seat != seat || !strings.Contains(div.Diffs[0].Live, "WATER") {
		t.Fatalf("ada's new version: %v", err)
	}
	t.Log(div)
}

// reRun plays rec with bot live in seat and the other seats from the record.
func reRun(t *testing.T, rec *replay.Record, seat int, bot string) (*match.Result, *rerun.Plan, error) {
	t.Helper()
	ctx := context.Background()
	procs, err := players.Launch(ctx, &botspec.Resolver{Python: testenv.Python()}, []string{bot}, host.Options{StartTimeout: time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	defer players.CloseAll(procs)
	ps := make([]match.Player, len(rec.Config.Players))
	live := make([]bool, len(ps))
	for i := range ps {
		ps[i] = &rerun.Recorded{Name: rec.Config.Players[i].Name, Rec: rec}
	}
	ps[seat], live[seat] = players.Process{Bot: procs[0]}, true
	spec, err := game.Lookup(rec.Game)
	if err != nil {
		t.Fatal(err)
	}
	plan := &rerun.Plan{Rec: rec, Live: live}
	res, err := match.Run(ctx, plan.Spec(spec), rec.Config, ps, match.Options{MatchID: rec.MatchID})
	return res, plan, err
}
