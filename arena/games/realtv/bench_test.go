package realtv_test

import (
	"testing"

	"github.com/botarena/arena/arena/game/gametest"
	"github.com/botarena/arena/arena/games/realtv"
)

// BenchmarkRealtvContest plays a full 100-phase contest of 10 scripts with random legal votes.
func BenchmarkRealtvContest(b *testing.B) {
	h := gametest.For(realtv.Spec)
	h.Params, h.MaxSteps = nil, 0
	for i := range b.N {
		tr, err := gametest.Play(h, uint64(i), 10, gametest.LegalChooser(h, uint64(i)))
		if err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(float64(tr.Steps), "steps/contest")
	}
}
