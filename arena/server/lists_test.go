package server

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/botarena/arena/arena/store"
)

// fixtureVersion records a passing version of the user's bot straight in the store, with its
// files in a folder of its own: the lists and the organiser's views read it like an upload's.
func fixtureVersion(t *testing.T, e *env, user, game, bot string, files map[string]string) store.Version {
	t.Helper()
	ctx := context.Background()
	u, err := e.st.UserByName(ctx, user)
	if err != nil {
		t.Fatal(err)
	}
	b, err := e.st.EnsureBot(ctx, u.ID, game, bot, "")
	if err != nil {
		t.Fatal(err)
	}
	v, err := e.st.AddVersion(ctx, b.ID, 25, 25.0/3)
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), fmt.Sprintf("v%d", v.ID))
	for name, text := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := e.st.SetVersionDir(ctx, v.ID, dir, "python"); err != nil {
		t.Fatal(err)
	}
	if err := e.st.SetVerdict(ctx, v.ID, store.VersionOK, "passed", "", fmt.Sprintf("hash-%s-%d", bot, v.N)); err != nil {
		t.Fatal(err)
	}
	v, err = e.st.VersionByID(ctx, v.ID)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// fixtureMatch records a finished ladder match of versions a (the winner) and b.
func fixtureMatch(t *testing.T, e *env, a, b store.Version, draw bool) int64 {
	t.Helper()
	ctx := context.Background()
	id, err := e.st.StartLadderMatch(ctx, "dynamite", store.KindLadder, 7, []int64{a.ID, b.ID})
	if err != nil {
		t.Fatal(err)
	}
	ra, rb := "win", "loss"
	if draw {
		ra, rb = "draw", "draw"
	}
	err = e.st.FinishLadderMatch(ctx, id, store.LadderFinish{Summary: "fixture", Replay: []byte("{}"),
		Seats:   []store.Seat{{Seat: 0, Result: ra, Rank: 1}, {Seat: 1, Result: rb, Rank: 2}},
		Ratings: map[int64][2]float64{a.ID: {26, 8}, b.ID: {24, 8}}})
	if err != nil {
		t.Fatal(err)
	}
	return id
}

type matchPage struct {
	Matches []store.LadderMatch
	Pages   struct{ Older, Newer string }
}

func ids(ms []store.LadderMatch) []int64 {
	out := make([]int64, len(ms))
	for i, m := range ms {
		out[i] = m.ID
	}
	return out
}

// TestMatchListFilters: a game's matches filtered by bot name, author, a seat's result and the
// day, paged by stable links that show the same matches after new ones are played.
func TestMatchListFilters(t *testing.T) {
	t.Parallel()
	e := newEnv(t, envOptions{noLadder: true})
	ada, bob := e.register("ada"), e.register("bob")
	fa := fixtureVersion(t, e, "ada", "dynamite", "fast", map[string]string{"bot.py": "x"})
	sb := fixtureVersion(t, e, "bob", "dynamite", "slow", map[string]string{"bot.py": "y"})
	var adaWins, draws []int64
	for i := range 7 {
		id := fixtureMatch(t, e, fa, sb, i%3 == 2)
		if i%3 == 2 {
			draws = append(draws, id)
		} else {
			adaWins = append(adaWins, id)
		}
	}
	get := func(c *client, q string, want int) matchPage {
		t.Helper()
		var p matchPage
		var out any = &p
		if want != http.StatusOK {
			out = nil
		}
		c.apiJSON("GET", "/api/v1/games/dynamite/matches?"+q, nil, want, out)
		return p
	}
	// By author and result: ada's wins are bob's losses, newest first.
	p := get(bob, "author=ada&result=win", http.StatusOK)
	if got := fmt.Sprint(ids(p.Matches)); got != fmt.Sprint(reverse(adaWins)) {
		t.Fatalf("ada's wins: %s, want %v", got, reverse(adaWins))
	}
	if p2 := get(bob, "author=BOB&result=loss", http.StatusOK); fmt.Sprint(ids(p2.Matches)) != fmt.Sprint(reverse(adaWins)) {
		t.Fatalf("bob's losses (any case): %v", ids(p2.Matches))
	}
	if p2 := get(bob, "bot_name=slow&result=draw", http.StatusOK); fmt.Sprint(ids(p2.Matches)) != fmt.Sprint(reverse(draws)) {
		t.Fatalf("slow's draws: %v, want %v", ids(p2.Matches), reverse(draws))
	}
	// One seat matches every seat filter: fast never lost, so bot_name=fast&result=loss is empty.
	if p2 := get(bob, "bot_name=fast&result=loss", http.StatusOK); len(p2.Matches) != 0 {
		t.Fatalf("fast's losses: %v", ids(p2.Matches))
	}
	// By day: every fixture started today (UTC), none tomorrow.
	m0, _ := e.st.LadderMatchByID(context.Background(), adaWins[0])
	today := m0.Started.UTC().Format("2006-01-02")
	tomorrow := m0.Started.UTC().AddDate(0, 0, 1).Format("2006-01-02")
	if p2 := get(ada, "from="+today+"&to="+today, http.StatusOK); len(p2.Matches) != 7 {
		t.Fatalf("today's matches: %d, want 7", len(p2.Matches))
	}
	if p2 := get(ada, "from="+tomorrow, http.StatusOK); len(p2.Matches) != 0 {
		t.Fatalf("tomorrow's matches: %v", ids(p2.Matches))
	}

	// Pages of 3: the older link, followed after two more matches were played, shows the same
	// matches as before (a cursor, not an offset).
	first := get(ada, "author=ada&limit=3", http.StatusOK)
	if len(first.Matches) != 3 || first.Pages.Older == "" || first.Pages.Newer != "" {
		t.Fatalf("first page: %v %+v", ids(first.Matches), first.Pages)
	}
	older := get(ada, strings.SplitN(first.Pages.Older, "?", 2)[1], http.StatusOK)
	fixtureMatch(t, e, fa, sb, false)
	fixtureMatch(t, e, fa, sb, false)
	again := get(ada, strings.SplitN(first.Pages.Older, "?", 2)[1], http.StatusOK)
	if fmt.Sprint(ids(older.Matches)) != fmt.Sprint(ids(again.Matches)) || len(again.Matches) != 3 {
		t.Fatalf("the older page moved: %v then %v", ids(older.Matches), ids(again.Matches))
	}
	if !strings.Contains(again.Pages.Newer, "author=ada") || !strings.Contains(again.Pages.Newer, "limit=3") {
		t.Fatalf("the newer link lost the filters: %q", again.Pages.Newer)
	}
	// Newer from the second page is the first page, as it was.
	back := get(ada, strings.SplitN(again.Pages.Newer, "?", 2)[1], http.StatusOK)
	if fmt.Sprint(ids(back.Matches)) != fmt.Sprint(ids(first.Matches)) {
		t.Fatalf("newer from page 2: %v, want %v", ids(back.Matches), ids(first.Matches))
	}

	// The page has the same filters and links, in real Chromium elsewhere (TestBrowserLists).
	page := ada.get("/games/dynamite/matches?author=ada&limit=3", http.StatusOK)
	mustContain(t, page, `id="older"`, `value="ada"`)
	// The filter form sends every field, the empty ones too: empty is no filter.
	page = ada.get("/games/dynamite/matches?kind=&status=&bot_name=&author=ada&result=win&from=&to=", http.StatusOK)
	mustContain(t, page, fmt.Sprintf(`href="/matches/%d"`, adaWins[0]))
	mustNotContain(t, page, fmt.Sprintf(`href="/matches/%d"`, draws[0]))
}

func reverse(xs []int64) []int64 {
	out := make([]int64, len(xs))
	for i, x := range xs {
		out[len(xs)-1-i] = x
	}
	return out
}

// TestHostileListFilters: every bad filter is a 400 naming it, before the store is asked;
// nothing in a filter is read as SQL or as a pattern; a page is never larger than MaxPage.
func TestHostileListFilters(t *testing.T) {
	t.Parallel()
	e := newEnv(t, envOptions{noLadder: true})
	ada := e.register("ada")
	fa := fixtureVersion(t, e, "ada", "dynamite", "fast", map[string]string{"bot.py": "x"})
	fb := fixtureVersion(t, e, "ada", "dynamite", "fast_2", map[string]string{"bot.py": "x"})
	fixtureMatch(t, e, fa, fb, false)
	for _, c := range []struct{ q, says string }{
		{"limit=1000000", "limit"},
		{"limit=0", "limit"},
		{"limit=-5", "limit"},
		{"limit=9999999999999999999999", "limit"},
		{"kind=ladder'--", "kind"},
		{"status=done%20OR%201=1", "status"},
		{"author=" + url.QueryEscape("ada' OR '1'='1"), "author"},
		{"bot_name=" + url.QueryEscape("%"), "bot_name"},
		{"bot=1;DROP%20TABLE%20users", "cannot be read"},
		{"bot=1%3BDROP", "bot"},
		{"result=win", "result needs"},
		{"author=ada&result=victory", "result"},
		{"from=yesterday", "from"},
		{"from=2026-12-03&to=2026-12-01", "from is not before to"},
		{"before=5&after=3", "before or after"},
		{"limit=5&limit=6", "given 2 times"},
		{"offset=100", "unknown filter"},
		{"order=id", "unknown filter"},
		{"author=" + strings.Repeat("a", 3000), "too long"},
	} {
		body := ada.apiJSON("GET", "/api/v1/games/dynamite/matches?"+c.q, nil, http.StatusBadRequest, nil)
		if !strings.Contains(body, c.says) {
			t.Errorf("%s: %s, want it to name %q", c.q, body, c.says)
		}
	}
	// The page answers the same 400s, as a page.
	mustContain(t, ada.get("/games/dynamite/matches?limit=100000", http.StatusBadRequest), "page size from 1 to 200")
	// The bot list too; a part of a name holding a LIKE pattern is refused, not matched.
	for _, q := range []string{"name=" + url.QueryEscape("%"), "game=chess", "limit=201", "author=" + url.QueryEscape("x' --"), "sort=name"} {
		ada.apiJSON("GET", "/api/v1/bots?"+q, nil, http.StatusBadRequest, nil)
	}
	// At most MaxPage rows whatever is asked: 250 matches, limit=200 answers 200.
	for range 250 {
		fixtureMatch(t, e, fa, fb, true)
	}
	var p matchPage
	ada.apiJSON("GET", "/api/v1/games/dynamite/matches?limit=200", nil, http.StatusOK, &p)
	if len(p.Matches) != MaxPage || p.Pages.Older == "" {
		t.Fatalf("limit=200: %d matches, older %q", len(p.Matches), p.Pages.Older)
	}
	// An unknown game is a 404 naming it.
	mustContain(t, ada.apiJSON("GET", "/api/v1/games/nosuch/matches", nil, http.StatusNotFound, nil), "nosuch")
}

// TestBotList: bots filtered by game, a part of the name and the author, paged by id.
func TestBotList(t *testing.T) {
	t.Parallel()
	e := newEnv(t, envOptions{noLadder: true})
	ada := e.register("ada")
	e.register("bob")
	for i := range 5 {
		fixtureVersion(t, e, "ada", "dynamite", fmt.Sprintf("ada-bot-%d", i), map[string]string{"bot.py": "x"})
	}
	fixtureVersion(t, e, "bob", "dynamite", "Bobs_Bot", map[string]string{"bot.py": "x"})
	type botPage struct {
		Bots  []BotRow
		Pages struct{ Older, Newer string }
	}
	var p botPage
	ada.apiJSON("GET", "/api/v1/bots?game=dynamite&name=bobs", nil, http.StatusOK, &p)
	if len(p.Bots) != 1 || p.Bots[0].Name != "Bobs_Bot" || p.Bots[0].Author != "bob" || p.Bots[0].Link == "" {
		t.Fatalf("name contains bobs: %+v", p.Bots)
	}
	ada.apiJSON("GET", "/api/v1/bots?author=ada&limit=2", nil, http.StatusOK, &p)
	if len(p.Bots) != 2 || p.Bots[0].Name != "ada-bot-4" || p.Pages.Older == "" {
		t.Fatalf("ada's newest two: %+v %+v", p.Bots, p.Pages)
	}
	var seen []string
	next := "/api/v1/bots?author=ada&limit=2"
	for next != "" && len(seen) < 10 {
		var p botPage
		ada.apiJSON("GET", next, nil, http.StatusOK, &p)
		for _, b := range p.Bots {
			seen = append(seen, b.Name)
		}
		next = p.Pages.Older
	}
	if fmt.Sprint(seen) != "[ada-bot-4 ada-bot-3 ada-bot-2 ada-bot-1 ada-bot-0]" {
		t.Fatalf("ada's bots page by page: %v", seen)
	}
	// The underscore in a name part is a letter, not a pattern.
	ada.apiJSON("GET", "/api/v1/bots?name=s_b", nil, http.StatusOK, &p)
	if len(p.Bots) != 1 {
		t.Fatalf("name contains s_b: %+v", p.Bots)
	}
	mustContain(t, ada.get("/bots?author=bob", http.StatusOK), "Bobs_Bot")
}
