package viewer_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"testing"

	"github.com/botarena/arena/arena/game"
	"github.com/botarena/arena/arena/game/gametest"
	"github.com/botarena/arena/arena/match"
	"github.com/botarena/arena/arena/players"
	"github.com/botarena/arena/arena/replay"
	"github.com/botarena/arena/arena/viewer"
	"github.com/botarena/arena/bots/house"
	"github.com/botarena/arena/sdk"
	sdkrealtv "github.com/botarena/arena/sdk/realtv"

	_ "github.com/botarena/arena/arena/games/all"
)

// short is one short match per game, played by the house bots through the real runner, with a
// crash in some so that their faults show; every test of the page starts from these.
type short struct {
	game    string
	seed    uint64
	params  map[string]string
	players func() []match.Player
}

// shorts is every registered game's short match, as its Spec.Short declares it.
var shorts = shortMatches(true)

// shortMatches reads every game's Spec.Short; without crash, nobody crashes.
func shortMatches(crash bool) []short {
	var out []short
	for _, name := range game.Names() {
		spec, err := game.Lookup(name)
		if err != nil {
			panic(err)
		}
		if !crash {
			spec.Short.CrashFrom = 0
		}
		out = append(out, short{game: name, seed: spec.Short.Seed, params: spec.Short.Params, players: gametest.Fresh(spec, house.Seeded)})
	}
	return out
}

func shortOf(t testing.TB, name string) short {
	for _, s := range shorts {
		if s.game == name {
			return s
		}
	}
	t.Fatalf("no short match for %s", name)
	return short{}
}

// record plays s and returns its record as `arena play --replay` writes it (through the file
// format).
func record(t testing.TB, s short) *replay.Record {
	t.Helper()
	return recordWith(t, s, s.players())
}

func recordWith(t testing.TB, s short, ps []match.Player) *replay.Record {
	t.Helper()
	spec, err := game.Lookup(s.game)
	if err != nil {
		t.Fatal(err)
	}
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
		t.Fatalf("%s: %v", s.game, err)
	}
	rec.Rec.Outcome = &res.Outcome
	b, err := json.Marshal(rec.Rec)
	if err != nil {
		t.Fatal(err)
	}
	back, err := replay.Decode(bytes.NewReader(b), id)
	if err != nil {
		t.Fatal(err)
	}
	return back
}

// pageOf writes rec's page.
func pageOf(t testing.TB, rec *replay.Record) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := viewer.Write(&b, rec); err != nil {
		t.Fatalf("Write: %v", err)
	}
	return b.Bytes()
}

// dataOf reads the page's data back, as its script does.
func dataOf(t testing.TB, html []byte) (*viewer.Data, []byte) {
	t.Helper()
	open := `<script type="application/json" id="` + viewer.DataID + `">`
	i := bytes.Index(html, []byte(open))
	if i < 0 {
		t.Fatalf("no data element %q in the page", open)
	}
	rest := html[i+len(open):]
	j := bytes.Index(rest, []byte("</script>"))
	if j < 0 {
		t.Fatal("the data element is not closed")
	}
	raw := rest[:j]
	var d viewer.Data
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&d); err != nil {
		t.Fatalf("the page's data does not parse: %v", err)
	}
	return &d, raw
}

// canonical is v as generic JSON, for comparisons that ignore field order.
func canonical(t testing.TB, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var x any
	if err := json.Unmarshal(b, &x); err != nil {
		t.Fatal(err)
	}
	out, _ := json.Marshal(x)
	return string(out)
}

// renamed plays as p under another name.
type renamed struct {
	match.Player
	name string
}

func (r renamed) Label() string { return r.name }

// markupVoter is a realtv bot whose every vote is markup (a betrayal each time).
func markupVoter() match.Player {
	vote := func(*sdkrealtv.Context) string { return `<img src=x onerror=alert(3)>` }
	return players.NewInProcess("markup", sdk.Bot{Name: "markup", Games: []sdk.Game{
		sdkrealtv.Play(func(sdkrealtv.Setup) sdkrealtv.Player { return sdkrealtv.Funcs{Elimination: vote, Tie: vote} })}})
}
