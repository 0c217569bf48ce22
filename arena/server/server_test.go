package server

import (
	"archive/tar"
	"archive/zip"
	"bufio"
	"bytes"
	"context"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/botarena/arena/arena/botspec"
	"github.com/botarena/arena/arena/match"
	"github.com/botarena/arena/arena/store"
	"github.com/botarena/arena/arena/tournament"
	"github.com/botarena/arena/internal/slack"
)

// TestValidationAndLadder: a good Python bot passes validation and climbs the ladder against
// the house bot, with ratings after every match; a crashing one fails with its verdict and
// stderr tail shown to its author only, and never plays a ladder match.
func TestValidationAndLadder(t *testing.T) {
	t.Parallel()
	// The ladder's clock (wall time here, so that any machine runs it) with a wall factor
	// of its own, which the organiser's tournament must take too.
	e := newEnv(t, envOptions{clock: tournament.Clock{Mode: match.ClockWall, WallFactor: 7}})
	ada := e.register("ada")
	good := ada.uploadAPI("dynamite", "frequency", "strategy.py", exampleBot(t), http.StatusAccepted)
	bad := ada.uploadAPI("dynamite", "crasher", "crasher.py", []byte(crashingBot), http.StatusAccepted)
	if good.Status != store.VersionValidating || good.Language != "python" {
		t.Fatalf("new version: %+v", good)
	}
	t0 := time.Now()
	g := ada.waitVersion(good.ID)
	t.Logf("%v: good validated", time.Since(t0))
	if g.Status != store.VersionOK || !strings.Contains(g.Verdict, "smoke match") {
		t.Fatalf("good bot: %s: %s\n%s", g.Status, g.Verdict, g.LogTail)
	}
	b := ada.waitVersion(bad.ID)
	if b.Status != store.VersionFailed {
		t.Fatalf("crashing bot passed validation: %+v", b)
	}
	mustContain(t, b.Verdict, "faulted in its smoke match", "crash")
	mustContain(t, b.LogTail, "boom on purpose", "about to fail on purpose")

	row := ada.waitMatches("dynamite", "frequency", 2)
	t.Logf("%v: 2 ladder matches", time.Since(t0))
	if row.Sigma >= 25.0/3 || row.Language != "python" || row.Author != "ada" {
		t.Fatalf("leaderboard row after 2 matches: %+v", row)
	}
	var lb struct{ Leaderboard []BoardRow }
	ada.apiJSON("GET", "/api/v1/games/dynamite/leaderboard", nil, http.StatusOK, &lb)
	for i, r := range lb.Leaderboard {
		if r.Bot == "crasher" {
			t.Fatal("a failed version is on the leaderboard")
		}
		if i > 0 && r.Ordinal > lb.Leaderboard[i-1].Ordinal {
			t.Fatalf("leaderboard not ranked by mu - 3 sigma: %+v", lb.Leaderboard)
		}
	}
	var bv BotView
	ada.apiJSON("GET", fmt.Sprintf("/api/v1/bots/%d", b.BotID), nil, http.StatusOK, &bv)
	for _, m := range bv.Matches {
		if m.Kind == store.KindLadder {
			t.Fatalf("the failed version played ladder match %d", m.ID)
		}
	}
	ada.apiJSON("GET", fmt.Sprintf("/api/v1/bots/%d", good.BotID), nil, http.StatusOK, &bv)
	if len(bv.Ratings) < 2 {
		t.Fatalf("rating history: %+v", bv.Ratings)
	}
	// The pages show the same, without JavaScript.
	page := ada.get("/games/dynamite", http.StatusOK)
	mustContain(t, page, `data-bot="frequency"`, "house-beatlast")
	mustNotContain(t, page, `data-bot="crasher"`)
	page = ada.get(fmt.Sprintf("/bots/%d", good.BotID), http.StatusOK)
	mustContain(t, page, "<svg", "passed: built")
	var ms struct{ Matches []store.LadderMatch }
	ada.apiJSON("GET", fmt.Sprintf("/api/v1/games/dynamite/matches?kind=ladder&status=done&bot=%d", good.BotID), nil, http.StatusOK, &ms)
	if len(ms.Matches) < 2 {
		t.Fatalf("filtered matches: %+v", ms.Matches)
	}
	for _, m := range ms.Matches {
		if m.Kind != store.KindLadder || m.Status != store.LadderDone {
			t.Fatalf("filter let through %+v", m)
		}
	}
	mp := ada.get(fmt.Sprintf("/matches/%d", ms.Matches[0].ID), http.StatusOK)
	mustContain(t, mp, "Your bot's log", "replay-link")
	mustContain(t, ada.get(fmt.Sprintf("/matches/%d/viewer", ms.Matches[0].ID), http.StatusOK), `content="arena viewer"`, "frequency v1")
	rp := ada.get(fmt.Sprintf("/api/v1/matches/%d/replay", ms.Matches[0].ID), http.StatusOK)
	mustContain(t, rp, `"game":"dynamite"`, `"steps"`)

	// Another language through the same path: the JavaScript kit's example, zipped as a folder.
	bob := e.register("bob")
	js := bob.uploadAPI("dynamite", "jsfreq", "jsfreq.zip", zipFolder(t, "../../examples/javascript/dynamite"), http.StatusAccepted)
	if j := bob.waitVersion(js.ID); j.Status != store.VersionOK || j.Language != "javascript" {
		t.Fatalf("JavaScript bot: %s (%s): %s\n%s", j.Status, j.Language, j.Verdict, j.LogTail)
	}
	t.Logf("%v: js validated", time.Since(t0))
	bob.waitMatches("dynamite", "jsfreq", 1)
	t.Logf("%v: js played", time.Since(t0))

	// The organiser replays a ladder match (same versions, same seed) and makes a tournament of
	// the current versions (the house bot, played in-process, is not an entrant).
	orga := e.organiser("orga")
	orga.apiJSON("POST", fmt.Sprintf("/api/v1/matches/%d/replay", ms.Matches[0].ID), nil, http.StatusAccepted, nil)
	ada.apiJSON("POST", fmt.Sprintf("/api/v1/matches/%d/replay", ms.Matches[0].ID), nil, http.StatusForbidden, nil)
	var made struct {
		TournamentID int64 `json:"tournament_id"`
		Entries      int
	}
	orga.apiJSON("POST", "/api/v1/tournaments", map[string]any{"game": "dynamite", "name": "cup"}, http.StatusCreated, &made)
	if made.Entries != 2 {
		t.Fatalf("tournament of %d entries, want 2 (frequency, jsfreq)", made.Entries)
	}
	deadline := time.Now().Add(slack.Of(t, 90*time.Second))
	var tst tournament.Standings
	for time.Now().Before(deadline) {
		orga.apiJSON("GET", fmt.Sprintf("/api/v1/tournaments/%d", made.TournamentID), nil, http.StatusOK, &tst)
		if tst.Status == "finished" {
			break
		}
		time.Sleep(200 * time.Millisecond)
	}
	t.Logf("%v: tournament", time.Since(t0))
	if tst.Status != "finished" || tst.Done != 2 {
		t.Fatalf("organiser's tournament: %+v", tst)
	}
	if tr, err := e.st.FindTournament(context.Background(), fmt.Sprint(made.TournamentID)); err != nil {
		t.Fatal(err)
	} else if cfg, err := tournament.LoadConfig(tr); err != nil || cfg.ClockSetting() != e.lad.Clock {
		t.Fatalf("the organiser's tournament plays on %+v, the ladder on %+v (%v)", cfg.ClockSetting(), e.lad.Clock, err)
	}
	for _, m := range tst.Matches {
		if m.Clock != "wall" {
			t.Fatalf("organiser's tournament match %s recorded with the %q clock", m.MatchID, m.Clock)
		}
	}
	again := false
	for time.Now().Before(deadline) && !again {
		var all struct{ Matches []store.LadderMatch }
		ada.apiJSON("GET", "/api/v1/games/dynamite/matches?kind=ladder&status=done&limit=200", nil, http.StatusOK, &all)
		for _, m := range all.Matches {
			again = again || (m.ID != ms.Matches[0].ID && m.Seed == ms.Matches[0].Seed && m.Summary == ms.Matches[0].Summary)
		}
		time.Sleep(200 * time.Millisecond)
	}
	if !again {
		t.Fatal("the replayed match did not come out the same")
	}
}

// zipFolder zips a folder's files (no subfolders needed here).
func zipFolder(t *testing.T, dir string) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	des, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, de := range des {
		if de.IsDir() {
			continue
		}
		b, _ := os.ReadFile(filepath.Join(dir, de.Name()))
		f, _ := zw.Create("bot/" + de.Name())
		f.Write(b)
	}
	zw.Close()
	return buf.Bytes()
}

// TestSecurityRules: passwords, sessions, CSRF, cross-origin posts, the rate limit, another
// author's code and logs, organiser-only actions and hostile uploads.
func TestSecurityRules(t *testing.T) {
	t.Parallel()
	e := newEnv(t, envOptions{maxUpload: 64 << 10})
	ada := e.register("ada")
	bob := e.register("bob")
	orga := e.organiser("orga")
	anon := &client{e: e}

	t.Run("cookie", func(t *testing.T) {
		se := newEnv(t, envOptions{secure: true, noLadder: true})
		resp, err := noRedirect.PostForm(se.ts.URL+"/register", url.Values{"name": {"zed"}, "password": {"long enough"}})
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		sc := resp.Header.Get("Set-Cookie")
		mustContain(t, sc, SessionCookie+"=", "HttpOnly", "Secure", "SameSite=Lax")
		// Only the token's hash is stored.
		tok := strings.SplitN(strings.TrimPrefix(sc, SessionCookie+"="), ";", 2)[0]
		if _, _, err := se.st.SessionUser(context.Background(), tok); err == nil {
			t.Fatal("the raw session token is a key of the store")
		}
	})
	t.Run("wrong password", func(t *testing.T) {
		for _, name := range []string{"ada", "nobody"} {
			resp, err := noRedirect.PostForm(e.ts.URL+"/login", url.Values{"name": {name}, "password": {"wrong password"}})
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			if resp.StatusCode != http.StatusUnauthorized || len(resp.Cookies()) > 0 {
				t.Fatalf("login %s with a wrong password: %s, cookies %v", name, resp.Status, resp.Cookies())
			}
		}
		s := anon.apiJSON("POST", "/api/v1/tokens", map[string]string{"name": "ada", "password": "nope nope"}, http.StatusUnauthorized, nil)
		mustContain(t, s, "wrong user name or password")
		anon.apiJSON("POST", "/api/v1/users", map[string]string{"name": "short", "password": "1234"}, http.StatusBadRequest, nil)
		anon.apiJSON("POST", "/api/v1/users", map[string]string{"name": "ADA", "password": "12345678"}, http.StatusConflict, nil)
		bogus := &client{e: e, token: "arena_forged"}
		bogus.apiJSON("GET", "/api/v1/me", nil, http.StatusUnauthorized, nil)
		anon.apiJSON("GET", "/api/v1/me", nil, http.StatusUnauthorized, nil)
	})
	t.Run("rate limit", func(t *testing.T) {
		// Four attempts a minute from one address; the fifth is refused even with the right password.
		e := newEnv(t, envOptions{noLadder: true, loginRate: 4})
		anon := &client{e: e}
		anon.apiJSON("POST", "/api/v1/users", map[string]string{"name": "ada", "password": "password-ada"}, http.StatusCreated, nil)
		codes := []int{}
		for i := 0; i < 5; i++ {
			pw := "wrong"
			if i == 4 {
				pw = "password-ada"
			}
			resp, err := noRedirect.PostForm(e.ts.URL+"/login", url.Values{"name": {"ada"}, "password": {pw}})
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			codes = append(codes, resp.StatusCode)
		}
		if codes[4] != http.StatusTooManyRequests {
			t.Fatalf("login codes %v: the fifth attempt was not limited", codes)
		}
	})
	t.Run("csrf", func(t *testing.T) {
		bot := exampleBot(t)
		mustContain(t, ada.uploadForm("", "dynamite", "nocsrf", "bot.py", bot, http.StatusForbidden), "CSRF token")
		ada.uploadForm("forged", "dynamite", "nocsrf", "bot.py", bot, http.StatusForbidden)
		ada.uploadForm(bob.csrf, "dynamite", "nocsrf", "bot.py", bot, http.StatusForbidden) // another session's token
		// A cross-site form post is refused before any handler, even with the right token.
		ct, body := multipartBody(map[string]string{"game": "dynamite", "name": "x", "csrf": ada.csrf}, "bot.py", bot)
		req, _ := http.NewRequest("POST", e.ts.URL+"/upload", bytes.NewReader(body))
		req.Header.Set("Content-Type", ct)
		req.Header.Set("Sec-Fetch-Site", "cross-site")
		ada.do(req, http.StatusForbidden)
		req, _ = http.NewRequest("POST", e.ts.URL+"/logout", nil)
		req.Header.Set("Origin", "https://evil.example")
		ada.do(req, http.StatusForbidden)
		if bots, _ := e.st.WebBots(context.Background(), "", 0); len(bots) != 1 { // the house bot only
			t.Fatalf("a refused upload made a bot: %+v", bots)
		}
		ada.uploadForm(ada.csrf, "dynamite", "withcsrf", "bot.py", bot, http.StatusSeeOther)
	})
	t.Run("another author's code and logs", func(t *testing.T) {
		// The code of a passing version (a failed version's files are collected: TestCollection).
		code := ada.uploadAPI("dynamite", "code", "bot.py", append(exampleBot(t), "\n# ada's secret marker\n"...), http.StatusAccepted)
		if g := ada.waitVersion(code.ID); g.Status != store.VersionOK {
			t.Fatalf("ada's bot: %s: %s", g.Status, g.Verdict)
		}
		var mine map[string]any
		ada.apiJSON("GET", fmt.Sprintf("/api/v1/versions/%d/files", code.ID), nil, http.StatusOK, &mine)
		mustContain(t, fmt.Sprint(mine), "ada's secret marker")
		mustContain(t, bob.apiJSON("GET", fmt.Sprintf("/api/v1/versions/%d/files", code.ID), nil, http.StatusForbidden, nil), "another author's code")
		anon.apiJSON("GET", fmt.Sprintf("/api/v1/versions/%d/files", code.ID), nil, http.StatusUnauthorized, nil)
		v := ada.uploadAPI("dynamite", "secret", "bot.py", []byte(crashingBot), http.StatusAccepted)
		v = ada.waitVersion(v.ID)
		// The validation log and verdict: the author's only.
		var seen VersionView
		bob.apiJSON("GET", fmt.Sprintf("/api/v1/versions/%d", v.ID), nil, http.StatusOK, &seen)
		if seen.LogTail != "" || strings.Contains(seen.Verdict, "boom") {
			t.Fatalf("bob sees ada's validation: %+v", seen)
		}
		// The smoke match's logs and fault details.
		var bv BotView
		ada.apiJSON("GET", fmt.Sprintf("/api/v1/bots/%d", v.BotID), nil, http.StatusOK, &bv)
		if len(bv.Matches) == 0 || len(bv.Faults) == 0 || !strings.Contains(bv.Faults[0].Detail, "boom") {
			t.Fatalf("ada's own view of her bot: %+v", bv)
		}
		mid := bv.Matches[0].ID
		logs := ada.apiJSON("GET", fmt.Sprintf("/api/v1/matches/%d/logs", mid), nil, http.StatusOK, nil)
		// By step: the line it printed in its first move, under that step's heading.
		mustContain(t, logs, "about to fail on purpose", `--- step 1 ---\nabout to fail on purpose`, `"step": 1,`)
		mustContain(t, bob.apiJSON("GET", fmt.Sprintf("/api/v1/matches/%d/logs", mid), nil, http.StatusForbidden, nil), "only their own")
		for _, s := range []string{
			bob.apiJSON("GET", fmt.Sprintf("/api/v1/matches/%d", mid), nil, http.StatusOK, nil),
			bob.apiJSON("GET", fmt.Sprintf("/api/v1/bots/%d", v.BotID), nil, http.StatusOK, nil),
			bob.get(fmt.Sprintf("/matches/%d", mid), http.StatusOK),
			bob.get(fmt.Sprintf("/bots/%d", v.BotID), http.StatusOK),
			anon.get(fmt.Sprintf("/bots/%d", v.BotID), http.StatusOK),
		} {
			mustNotContain(t, s, "boom on purpose", "about to fail")
		}
		mustContain(t, ada.get(fmt.Sprintf("/matches/%d", mid), http.StatusOK), "about to fail on purpose")
		// Nor through the replay or the viewer, which replay the match without the quotes.
		mustContain(t, ada.apiJSON("GET", fmt.Sprintf("/api/v1/matches/%d/replay", mid), nil, http.StatusOK, nil), "boom on purpose")
		mustContain(t, ada.get(fmt.Sprintf("/matches/%d/viewer", mid), http.StatusOK), "boom on purpose")
		for _, c := range []*client{bob, anon} {
			rp := c.apiJSON("GET", fmt.Sprintf("/api/v1/matches/%d/replay", mid), nil, http.StatusOK, nil)
			mustContain(t, rp, `"crash"`)
			mustNotContain(t, rp, "boom on purpose", "about to fail")
			mustNotContain(t, c.get(fmt.Sprintf("/matches/%d/viewer", mid), http.StatusOK), "boom on purpose", "about to fail")
		}
		// Bob cannot upload under ada's bot name.
		mustContain(t, bob.uploadAPI2("dynamite", "secret", "bot.py", exampleBot(t), http.StatusConflict), "another author")
	})
	t.Run("organiser only", func(t *testing.T) {
		bots, _ := e.st.WebBots(context.Background(), "dynamite", 0)
		id := bots[0].ID
		mustContain(t, bob.apiJSON("POST", fmt.Sprintf("/api/v1/bots/%d/disable", id), nil, http.StatusForbidden, nil), "organiser")
		anon.apiJSON("POST", fmt.Sprintf("/api/v1/bots/%d/disable", id), nil, http.StatusUnauthorized, nil)
		bob.apiJSON("POST", "/api/v1/tournaments", map[string]any{"game": "dynamite", "name": "t"}, http.StatusForbidden, nil)
		orga.apiJSON("POST", fmt.Sprintf("/api/v1/bots/%d/disable", id), nil, http.StatusOK, nil)
		if b, _ := e.st.WebBotByID(context.Background(), id); !b.Disabled {
			t.Fatal("not disabled")
		}
		orga.apiJSON("POST", fmt.Sprintf("/api/v1/bots/%d/enable", id), nil, http.StatusOK, nil)
	})
	t.Run("uploads", func(t *testing.T) {
		big := bytes.Repeat([]byte("# padding\n"), 10<<10) // 100 KiB > 64 KiB
		mustContain(t, ada.uploadAPI2("dynamite", "big", "bot.py", big, http.StatusRequestEntityTooLarge), "larger than")
		var tr bytes.Buffer
		tw := tar.NewWriter(&tr)
		tw.WriteHeader(&tar.Header{Name: "../../../etc/cron.d/evil", Mode: 0o644, Size: 1, Typeflag: tar.TypeReg})
		tw.Write([]byte("x"))
		tw.Close()
		mustContain(t, ada.uploadAPI2("dynamite", "climb", "bot.tar", tr.Bytes(), http.StatusBadRequest), "climbs out")
		var zb bytes.Buffer
		zw := zip.NewWriter(&zb)
		h := &zip.FileHeader{Name: "bot.py"}
		h.SetMode(os.ModeSymlink | 0o777)
		f, _ := zw.CreateHeader(h)
		f.Write([]byte("/etc/shadow"))
		zw.Close()
		mustContain(t, ada.uploadAPI2("dynamite", "link", "bot.zip", zb.Bytes(), http.StatusBadRequest), "symbolic link")
		// A zip bomb: 40 MiB of zeros in a few KiB; the unpack stops at the per-file bound.
		zb.Reset()
		zw = zip.NewWriter(&zb)
		f, _ = zw.Create("bot.py")
		f.Write(make([]byte, 40<<20))
		zw.Close()
		if zb.Len() > 64<<10 {
			t.Fatalf("bomb is %d bytes", zb.Len())
		}
		mustContain(t, ada.uploadAPI2("dynamite", "bomb", "bot.zip", zb.Bytes(), http.StatusRequestEntityTooLarge), "bot.py is more than 8 MiB, the most one file may hold")
		mustContain(t, ada.uploadAPI2("chess", "x", "bot.py", exampleBot(t), http.StatusBadRequest), "unknown game")
		mustContain(t, ada.uploadAPI2("dynamite", "../x", "bot.py", exampleBot(t), http.StatusBadRequest), "bot name")
		mustContain(t, ada.uploadAPI2("dynamite", "noext", "README", []byte("hello"), http.StatusBadRequest), "upload a .py")
		// An author has at most MaxValidating versions validating at once (the ladder of this
		// test is paused, so nothing validates meanwhile).
		pe := newEnv(t, envOptions{noLadder: true})
		carl := pe.register("carl")
		for i := 0; i < MaxValidating; i++ {
			carl.uploadAPI("dynamite", fmt.Sprintf("q%d", i), "bot.py", exampleBot(t), http.StatusAccepted)
		}
		mustContain(t, carl.uploadAPI2("dynamite", "one-more", "bot.py", exampleBot(t), http.StatusTooManyRequests), "still validating")
		// Nothing refused left a bot, a version or files behind.
		for _, n := range []string{"big", "climb", "link", "bomb", "noext"} {
			if _, err := e.st.BotByName(context.Background(), "dynamite", n); err == nil {
				t.Fatalf("refused upload %s made a bot", n)
			}
		}
		left, _ := filepath.Glob(filepath.Join(e.srv.opt.DataDir, "versions", ".incoming-*"))
		if len(left) > 0 {
			t.Fatalf("leftovers: %v", left)
		}
	})
}

// uploadAPI2 uploads and returns the raw answer (for refused uploads).
func (c *client) uploadAPI2(game, name, filename string, data []byte, want int) string {
	ct, body := multipartBody(map[string]string{"game": game, "name": name}, filename, data)
	req, _ := http.NewRequest("POST", c.e.ts.URL+"/api/v1/uploads", bytes.NewReader(body))
	req.Header.Set("Content-Type", ct)
	req.Header.Set("Authorization", "Bearer "+c.token)
	return c.do(req, want)
}

// TestTournamentsShow: a tournament that arena tournament recorded in the store shows on the
// pages and in the API, standings, matches and replays.
func TestTournamentsShow(t *testing.T) {
	t.Parallel()
	e := newEnv(t, envOptions{noLadder: true})
	ctx := context.Background()
	dir := t.TempDir()
	crash := filepath.Join(dir, "crasher.py")
	os.WriteFile(crash, []byte(crashingBot), 0o644)
	cfg := tournament.Config{Game: "dynamite", Reps: 1, Seed: 5, Entries: []tournament.Entry{
		{Name: "frequency", Spec: "../../examples/python/dynamite/bot.py", Author: "kit"}, {Name: "crasher", Spec: crash, Author: "eve"}}}
	id, err := tournament.Create(ctx, e.st, "night", cfg)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tournament.Run(ctx, e.st, id, tournament.Options{Jobs: 1, Resolver: &botspec.Resolver{Python: e.lad.Resolver.Python}}); err != nil {
		t.Fatal(err)
	}
	c := &client{e: e}
	mustContain(t, c.get("/", http.StatusOK), "night")
	mustContain(t, c.get("/games/dynamite", http.StatusOK), "night")
	page := c.get(fmt.Sprintf("/tournaments/%d", id), http.StatusOK)
	mustContain(t, page, "frequency", "crasher", "kit", "Bradley-Terry", "finished")
	var st tournament.Standings
	c.apiJSON("GET", fmt.Sprintf("/api/v1/tournaments/%d", id), nil, http.StatusOK, &st)
	if len(st.Rows) != 2 || st.Rows[0].Bot != "frequency" || st.Rows[1].Faults == 0 || st.Done != 2 {
		t.Fatalf("standings %+v", st)
	}
	mp := c.get(fmt.Sprintf("/tournaments/%d/matches/0", id), http.StatusOK)
	mustContain(t, mp, "crash", "Download the replay")
	mustNotContain(t, mp, "boom on purpose") // fault details are the organisers'
	rp := c.get(fmt.Sprintf("/api/v1/tournaments/%d/matches/0/replay", id), http.StatusOK)
	mustContain(t, rp, `"steps"`, `"crash"`)
	mustNotContain(t, rp, "boom on purpose")
	mustNotContain(t, c.get(fmt.Sprintf("/tournaments/%d/matches/0/viewer", id), http.StatusOK), "boom on purpose")
	mustContain(t, mp, `iframe id="viewer"`)
	resp, err := http.Get(e.ts.URL + fmt.Sprintf("/tournaments/%d/matches/0/viewer", id))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK || !strings.HasPrefix(resp.Header.Get("Content-Security-Policy"), "sandbox allow-scripts;") {
		t.Fatalf("tournament viewer: %s, CSP %q", resp.Status, resp.Header.Get("Content-Security-Policy"))
	}
	var ts struct{ Tournaments []map[string]any }
	c.apiJSON("GET", "/api/v1/tournaments", nil, http.StatusOK, &ts)
	if len(ts.Tournaments) != 1 {
		t.Fatalf("tournaments %+v", ts)
	}
}

// TestGoUpload: a Go bot (the Go kit's example, zipped) builds in the build sandbox against the
// arena's own module (whose packages, this one included, must compile there) and passes.
func TestGoUpload(t *testing.T) {
	t.Parallel()
	e := newEnv(t, envOptions{jobs: 2})
	gus := e.register("gus")
	v := gus.uploadAPI("dynamite", "gobot", "gobot.zip", zipFolder(t, "../../examples/go/dynamite"), http.StatusAccepted)
	if g := gus.waitVersion(v.ID); g.Status != store.VersionOK || g.Language != "go" {
		t.Fatalf("Go bot: %s (%s): %s\n%s", g.Status, g.Language, g.Verdict, g.LogTail)
	}
	gus.waitMatches("dynamite", "gobot", 1)
}

// TestEvents: /events streams the ladder's events as server-sent events (what live pages
// listen to): a validation and the matches it starts.
func TestEvents(t *testing.T) {
	t.Parallel()
	e := newEnv(t, envOptions{})
	resp, err := http.Get(e.ts.URL + "/events")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if ct := resp.Header.Get("Content-Type"); ct != "text/event-stream" {
		t.Fatalf("content type %q", ct)
	}
	got := make(chan string, 64)
	go func() {
		sc := bufio.NewScanner(resp.Body)
		for sc.Scan() {
			got <- sc.Text()
		}
		close(got)
	}()
	ada := e.register("ada")
	v := ada.uploadAPI("dynamite", "frequency", "bot.py", exampleBot(t), http.StatusAccepted)
	want := map[string]bool{"event: validated": false, "event: match-started": false, "event: match-finished": false}
	timeout := time.After(slack.Of(t, 90*time.Second))
	for missing := len(want); missing > 0; {
		select {
		case line, ok := <-got:
			if !ok {
				t.Fatal("the event stream ended")
			}
			if seen, known := want[line]; known && !seen {
				want[line] = true
				missing--
			}
			if strings.HasPrefix(line, "data: ") && strings.Contains(line, `"validated"`) && !strings.Contains(line, fmt.Sprintf(`"version_id":%d`, v.ID)) {
				t.Fatalf("validated event of another version: %s", line)
			}
		case <-timeout:
			t.Fatalf("events seen: %v", want)
		}
	}
}
