package gametest

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/botarena/arena/arena/game"
	arenav1 "github.com/botarena/arena/proto/arena/v1"
)

// fake is a broken engine: it can be made to never end, or to ignore its seed.
type fake struct {
	cfg     game.Config
	forever bool
	random  bool
	n       int
}

func (f *fake) Seats() []game.Seat {
	return []game.Seat{{Player: 0, Name: "a"}, {Player: 1, Name: "b"}}
}
func (f *fake) Setup(int, *arenav1.StartRequest)     {}
func (f *fake) Pending() []int                       { return []int{0, 1} }
func (f *fake) Apply([]game.Answer) error            { f.n++; return nil }
func (f *fake) Done() bool                           { return !f.forever && f.n >= 3 }
func (f *fake) Final(_ int, req *arenav1.EndRequest) { req.Result = arenav1.Result_RESULT_DRAW }
func (f *fake) Observe(_ int, req *arenav1.ActRequest) {
	r := int32(f.n)
	if f.random {
		r = rand.Int32()
	}
	req.Observation = &arenav1.ActRequest_Dynamite{Dynamite: &arenav1.DynamiteObservation{Round: r}}
}
func (f *fake) Outcome() game.Outcome {
	return game.Outcome{Summary: "draw", Players: []game.PlayerOutcome{{Result: game.ResultDraw, Rank: 1}, {Result: game.ResultDraw, Rank: 1}}}
}

func harness(e *fake) Harness {
	return Harness{
		Spec: game.Spec{Name: "fake", MinPlayers: 2, MaxPlayers: 2, New: func(cfg game.Config) (game.Engine, error) {
			c := *e
			c.cfg = cfg
			return &c, nil
		}},
		Legal:    func(*rand.Rand, *arenav1.ActRequest) *arenav1.ActResponse { return &arenav1.ActResponse{} },
		MaxSteps: 100,
	}
}

func TestPlayCatchesEndlessEngine(t *testing.T) {
	t.Parallel()
	h := harness(&fake{forever: true})
	_, err := Play(h, 1, 2, LegalChooser(h, 1))
	if err == nil || !strings.Contains(err.Error(), "not over after 100 steps") {
		t.Fatalf("endless engine: %v", err)
	}
}

func TestPlayHashSeesNondeterminism(t *testing.T) {
	t.Parallel()
	h := harness(&fake{random: true})
	a, err := Play(h, 1, 2, LegalChooser(h, 1))
	if err != nil {
		t.Fatal(err)
	}
	b, _ := Play(h, 1, 2, LegalChooser(h, 1))
	if a.Hash == b.Hash {
		t.Fatal("two different matches hashed the same")
	}
	h = harness(&fake{})
	c, _ := Play(h, 1, 2, LegalChooser(h, 1))
	d, _ := Play(h, 1, 2, LegalChooser(h, 1))
	if c.Hash != d.Hash || c.Steps != 3 {
		t.Fatalf("deterministic matches differ: %+v %+v", c, d)
	}
}
