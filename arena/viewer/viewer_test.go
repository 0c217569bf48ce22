package viewer_test

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/reflect/protoreflect"

	"github.com/botarena/arena/arena/game"
	"github.com/botarena/arena/arena/viewer"
	arenav1 "github.com/botarena/arena/proto/arena/v1"
)

// The page's JSON parses back into the record it was made from, with one frame per step and
// one for the end, and an observation for exactly the seats that answered each step.
func TestDataParsesBack(t *testing.T) {
	t.Parallel()
	for _, s := range shorts {
		t.Run(s.game, func(t *testing.T) {
			t.Parallel()
			rec := record(t, s)
			d, _ := dataOf(t, pageOf(t, rec))
			if got, want := canonical(t, d.Record), canonical(t, rec); got != want {
				t.Fatalf("the record inside the page differs from the one written:\n got %.300s\nwant %.300s", got, want)
			}
			if len(d.Frames) != len(rec.Steps)+1 {
				t.Fatalf("%d frames for %d steps, want steps+1", len(d.Frames), len(rec.Steps))
			}
			if d.Outcome.Summary != rec.Outcome.Summary || d.Outcome.Summary == "" {
				t.Fatalf("outcome %q, recorded %q", d.Outcome.Summary, rec.Outcome.Summary)
			}
			for i, st := range rec.Steps {
				f := d.Frames[i]
				if s.game == "realtv" {
					if len(f.Islands) == 0 {
						t.Fatalf("step %d: no island view", i)
					}
					continue
				}
				if len(f.Obs) != len(st.Answers) {
					t.Fatalf("step %d: %d observations for %d answers", i, len(f.Obs), len(st.Answers))
				}
				for _, a := range st.Answers {
					var req arenav1.ActRequest
					raw, ok := f.Obs[a.Seat]
					if !ok {
						t.Fatalf("step %d: no observation of seat %d", i, a.Seat)
					}
					// Each is the game's own observation message.
					if err := unmarshalObservation(s.game, raw, &req); err != nil {
						t.Fatalf("step %d seat %d: %v", i, a.Seat, err)
					}
				}
			}
		})
	}
}

// unmarshalObservation parses raw as the observation message of gameName's case of the
// ActRequest.observation oneof, found from the proto rather than from a list of games.
func unmarshalObservation(gameName string, raw []byte, req *arenav1.ActRequest) error {
	r := req.ProtoReflect()
	fd := r.Descriptor().Oneofs().ByName("observation").Fields().ByName(protoreflect.Name(gameName))
	if fd == nil || fd.Message() == nil {
		return errors.New("no observation type for " + gameName)
	}
	return protojson.Unmarshal(raw, r.NewField(fd).Message().Interface())
}

// A fault shows at the step where the engine charged it: the auction's third player crashes
// from step 5 (request steps count from 1), so the frame of step index 4 carries its fault.
func TestFaultsAtTheirStep(t *testing.T) {
	t.Parallel()
	rec := record(t, shortOf(t, "auction"))
	d, _ := dataOf(t, pageOf(t, rec))
	var at []int
	for i, f := range d.Frames {
		for _, c := range f.Charged {
			if c.Seat != 2 || c.Kind != game.FaultCrash {
				t.Fatalf("frame %d: unexpected fault %+v", i, c)
			}
			at = append(at, i)
		}
	}
	if len(at) != 1 || at[0] != 4 {
		t.Fatalf("the crash is charged at frames %v, want [4]", at)
	}
	if len(d.Outcome.Faults) != 1 {
		t.Fatalf("outcome faults %+v, want the one crash", d.Outcome.Faults)
	}
	a := rec.Steps[4].Answers
	crashed := false
	for _, x := range a {
		crashed = crashed || (x.Seat == 2 && x.Fault != nil)
	}
	if !crashed {
		t.Fatalf("step 4's answers %+v hold no fault of seat 2", a)
	}
}

// Every engine can tell its faults before the end, or the viewer could not place them.
func TestEveryEngineLogsFaults(t *testing.T) {
	t.Parallel()
	for _, s := range shorts {
		spec, err := game.Lookup(s.game)
		if err != nil {
			t.Fatal(err)
		}
		cfg := game.Config{Seed: 1, Params: s.params}
		for range spec.MinPlayers + 1 {
			cfg.Players = append(cfg.Players, game.Player{Name: "p"})
		}
		if spec.MaxPlayers > 0 && len(cfg.Players) > spec.MaxPlayers {
			cfg.Players = cfg.Players[:spec.MaxPlayers]
		}
		eng, err := spec.NewEngine(cfg)
		if err != nil {
			t.Fatal(err)
		}
		if _, ok := eng.(game.FaultLog); !ok {
			t.Errorf("%s's engine does not implement game.FaultLog", s.game)
		}
	}
}

// A match too long for one page is refused with an error that names the limit and the fix,
// and nothing is written.
func TestTooLargeIsRefused(t *testing.T) {
	t.Parallel()
	rec := record(t, shortOf(t, "dynamite"))
	var b bytes.Buffer
	err := viewer.WriteLimit(&b, rec, 16<<10)
	if !errors.Is(err, viewer.ErrTooLarge) {
		t.Fatalf("err = %v, want ErrTooLarge", err)
	}
	for _, want := range []string{"dynamite match dynamite-7", "limit", "record a shorter match", "arena games"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("the error %q does not say %q", err, want)
		}
	}
	if b.Len() != 0 {
		t.Fatalf("%d bytes written for a refused page", b.Len())
	}
	// The same match fits the real limit.
	if err := viewer.Write(&b, rec); err != nil {
		t.Fatal(err)
	}
}

// Bot names and answers never reach the markup as markup: the page holds only its own two
// script elements, and the text comes back intact from the data.
func TestBotTextIsEscaped(t *testing.T) {
	t.Parallel()
	const evil = `</script><script>alert(1)</script>`
	s := shortOf(t, "realtv")
	ps := s.players()
	ps[0] = renamed{ps[0], evil}
	ps[1] = renamed{markupVoter(), `<!-- <script>`}
	rec := recordWith(t, s, ps)
	html := string(pageOf(t, rec))
	if n := strings.Count(strings.ToLower(html), "<script"); n != 2 {
		t.Fatalf("%d <script in the page, want its own 2", n)
	}
	for _, bad := range []string{evil, "<img", "<!--"} {
		if strings.Contains(html, bad) {
			t.Errorf("the page holds %q as markup", bad)
		}
	}
	if !strings.Contains(html, "<title>realtv realtv-2: &lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt; vs &lt;!-- &lt;script&gt;</title>") {
		t.Errorf("the title is not the escaped names: %.300s", html[strings.Index(html, "<title>"):])
	}
	d, _ := dataOf(t, []byte(html))
	if d.Record.Bots[0] != evil {
		t.Fatalf("the name came back as %q", d.Record.Bots[0])
	}
	votes := 0
	for _, a := range d.Record.Steps[0].Answers {
		if strings.Contains(string(a.Action), "onerror") {
			votes++
		}
	}
	if votes == 0 {
		t.Fatal("the markup votes did not come back from the data")
	}
}
