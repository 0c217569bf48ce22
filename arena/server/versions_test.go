package server

import (
	"context"
	"fmt"
	"math"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"github.com/botarena/arena/arena/rating"
	"github.com/botarena/arena/arena/store"
)

// A new version starts from its predecessor's rating with a wider uncertainty; a new bot
// starts from the default. Its author (and nobody else) pins the active version and goes back.
func TestVersionsRatingInheritedAndPinned(t *testing.T) {
	e := newEnv(t, envOptions{})
	orga := e.organiser("orga")
	// No ladder match may move the ratings while the test sets and reads them (validation goes on).
	orga.apiJSON("POST", "/api/v1/ladder?running=false", nil, http.StatusOK, nil)
	ada := e.register("ada")
	v1 := ada.uploadAPI("dynamite", "freq", "bot.py", exampleBot(t), http.StatusAccepted)
	if v1.Mu != rating.DefaultMu || v1.Sigma != rating.DefaultSigma {
		t.Fatalf("a new bot starts at %v/%v, want the default", v1.Mu, v1.Sigma)
	}
	if got := ada.waitVersion(v1.ID); got.Status != store.VersionOK {
		t.Fatalf("v1: %s: %s", got.Status, got.Verdict)
	}
	// v1 has played its way to 40 +- 2 (a ladder match's rating update, as the ladder records it).
	ctx := context.Background()
	mid, err := e.st.StartLadderMatch(ctx, "dynamite", store.KindLadder, 1, []int64{v1.ID})
	if err != nil {
		t.Fatal(err)
	}
	if err := e.st.FinishLadderMatch(ctx, mid, store.LadderFinish{Summary: "x", Seats: []store.Seat{{Seat: 0, Result: "win", Rank: 1}},
		Replay: []byte("{}"), Ratings: map[int64][2]float64{v1.ID: {40, 2}}}); err != nil {
		t.Fatal(err)
	}
	// Ada pins v1 before she uploads v2, to keep it playing (and its files) until she decides.
	ada.apiJSON("POST", fmt.Sprintf("/api/v1/bots/%d/pin", v1.BotID), map[string]int{"version": 1}, http.StatusOK, nil)
	v2 := ada.uploadAPI("dynamite", "freq", "bot.py", append(exampleBot(t), []byte("\n# v2\n")...), http.StatusAccepted)
	if v2.N != 2 || v2.Mu != 40 || math.Abs(v2.Sigma-math.Hypot(2, rating.InheritSigma)) > 1e-9 {
		t.Fatalf("v2 starts at %v +- %v (n %d), want 40 +- %v", v2.Mu, v2.Sigma, v2.N, math.Hypot(2, rating.InheritSigma))
	}
	if got := ada.waitVersion(v2.ID); got.Status != store.VersionOK {
		t.Fatalf("v2: %s: %s", got.Status, got.Verdict)
	}
	active := func() int {
		t.Helper()
		vs, err := e.st.Active(ctx, "dynamite")
		if err != nil {
			t.Fatal(err)
		}
		for _, v := range vs {
			if v.BotID == v1.BotID {
				return v.N
			}
		}
		t.Fatal("ada's bot is not active")
		return 0
	}
	if n := active(); n != 1 {
		t.Fatalf("active v%d with v1 pinned, want v1", n)
	}
	// Bob cannot touch ada's bot; a version that does not exist cannot be pinned.
	bob := e.register("bob")
	mustContain(t, bob.apiJSON("POST", fmt.Sprintf("/api/v1/bots/%d/pin", v1.BotID), map[string]int{"version": 2}, http.StatusForbidden, nil), "another author's bot")
	ada.apiJSON("POST", fmt.Sprintf("/api/v1/bots/%d/pin", v1.BotID), map[string]int{"version": 9}, http.StatusNotFound, nil)
	var bv BotView
	ada.apiJSON("GET", fmt.Sprintf("/api/v1/bots/%d", v1.BotID), nil, http.StatusOK, &bv)
	if bv.Pinned != 1 || bv.Bot.Pinned != v1.ID {
		t.Fatalf("bot view: pinned v%d (id %d)", bv.Pinned, bv.Bot.Pinned)
	}
	// The page shows it, and its form (the author's only) goes back to the newest.
	page := ada.get(fmt.Sprintf("/bots/%d", v1.BotID), http.StatusOK)
	mustContain(t, page, `id="pinned"`, "v1 pinned as the active version", `action="/bots/`+fmt.Sprint(v1.BotID)+`/pin"`, `<option value="1" selected>v1</option>`)
	mustNotContain(t, bob.get(fmt.Sprintf("/bots/%d", v1.BotID), http.StatusOK), `id="pin"`)
	csrf := regexp.MustCompile(`name="csrf" value="([^"]+)"`).FindStringSubmatch(page)
	if csrf == nil {
		t.Fatal("no CSRF token in the bot page")
	}
	form := url.Values{"csrf": {csrf[1]}, "version": {"0"}}
	req, _ := http.NewRequest("POST", e.ts.URL+fmt.Sprintf("/bots/%d/pin", v1.BotID), strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	ada.do(req, http.StatusSeeOther)
	if n := active(); n != 2 {
		t.Fatalf("active v%d after unpinning on the page", n)
	}
}

// The comparison of two versions: results per opponent, head to head, and for matches with the
// same seed and opponents, the first step where the versions answered differently.
func TestCompareVersions(t *testing.T) {
	e := newEnv(t, envOptions{})
	orga := e.organiser("orga")
	orga.apiJSON("POST", "/api/v1/ladder?running=false", nil, http.StatusOK, nil)
	ada := e.register("ada")
	v1 := ada.uploadAPI("dynamite", "freq", "bot.py", exampleBot(t), http.StatusAccepted)
	v2 := ada.uploadAPI("dynamite", "freq", "bot.py", append(exampleBot(t), []byte("\n# v2\n")...), http.StatusAccepted)
	ctx := context.Background()
	house, err := e.st.Active(ctx, "dynamite")
	if err != nil || len(house) == 0 {
		t.Fatalf("house: %v", err)
	}
	hv := house[0].ID
	// Two matches against the house bot with seed 77: v1 throws rock, rock, paper; v2 rock, rock, scissors.
	rec := func(third string) []byte {
		step := func(n int, move string) string {
			return fmt.Sprintf(`{"n":%d,"answers":[{"seat":0,"order":0,"elapsed_us":1,"action":{"step":"%d","dynamite":{"move":"DYNAMITE_MOVE_%s"}}},`+
				`{"seat":1,"order":1,"elapsed_us":1,"action":{"step":"%d","dynamite":{"move":"DYNAMITE_MOVE_WATER"}}}]}`, n, n, move, n)
		}
		return []byte(`{"format":1,"game":"dynamite","match_id":"x","config":{"seed":"77","players":[{"name":"freq"},{"name":"house"}]},"bots":["freq","house"],` +
			`"started":"2026-01-01T00:00:00Z","steps":[` + step(1, "ROCK") + "," + step(2, "ROCK") + "," + step(3, third) + `]}`)
	}
	finish := func(v int64, result string, replayJSON []byte, seed uint64) {
		mid, err := e.st.StartLadderMatch(ctx, "dynamite", store.KindLadder, seed, []int64{v, hv})
		if err != nil {
			t.Fatal(err)
		}
		other := map[string]string{"win": "loss", "loss": "win"}[result]
		if err := e.st.FinishLadderMatch(ctx, mid, store.LadderFinish{Summary: "x", Replay: replayJSON,
			Seats: []store.Seat{{Seat: 0, Result: result, Rank: 1}, {Seat: 1, Result: other, Rank: 2}}}); err != nil {
			t.Fatal(err)
		}
	}
	finish(v1.ID, "loss", rec("PAPER"), 77)
	finish(v2.ID, "win", rec("SCISSORS"), 77)
	finish(v2.ID, "win", rec("ROCK"), 78)
	var got struct{ Comparison Comparison }
	ada.apiJSON("GET", fmt.Sprintf("/api/v1/bots/%d/compare?a=1&b=2", v1.BotID), nil, http.StatusOK, &got)
	c := got.Comparison
	if len(c.Opponents) != 1 || c.Opponents[0].A != (Tally{Losses: 1}) || c.Opponents[0].B != (Tally{Wins: 2}) {
		t.Fatalf("per opponent: %+v", c.Opponents)
	}
	if len(c.SameSeed) != 1 || c.SameSeed[0].Seed != 77 || c.SameSeed[0].FirstDiff != 3 ||
		!strings.Contains(c.SameSeed[0].AnswerA, "PAPER") || !strings.Contains(c.SameSeed[0].AnswerB, "SCISSORS") {
		t.Fatalf("same seed: %+v", c.SameSeed)
	}
	ada.apiJSON("GET", fmt.Sprintf("/api/v1/bots/%d/compare?a=1&b=1", v1.BotID), nil, http.StatusNotFound, nil)
	// The page shows the same (the newest two by default), linked from the bot's page.
	mustContain(t, ada.get(fmt.Sprintf("/bots/%d", v1.BotID), http.StatusOK), `id="compare"`)
	page := ada.get(fmt.Sprintf("/bots/%d/compare", v1.BotID), http.StatusOK)
	mustContain(t, page, "v1 and v2", "<td>0/0/1</td><td>2/0/0</td>", `/viewer#step=3">3</a>`, "DYNAMITE_MOVE_PAPER", "DYNAMITE_MOVE_SCISSORS", "<td>77</td>")
}
