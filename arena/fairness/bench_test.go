//go:build linux

package fairness_test

import (
	"fmt"
	"strings"
	"testing"
)

// BenchmarkFairClock plays, per iteration and under the hog (two busy processes per core),
// one match of every honest bot (Go, Python, stdio; 80 % of each move's budget), one of each
// spinner and one of the sleeper at the default wall factor, and reports how many honest moves
// were charged (target 0), the spinners' overshoot and the attribution of every timeout:
//
//	go test -p 1 -run '^$' -bench FairClock -benchtime 1x ./arena/fairness
func BenchmarkFairClock(b *testing.B) {
	requireCPUClock(b)
	prepare(b, append(honest, goSpinner, pySpinner, goSleeper)...)
	hog(b)
	b.ResetTimer()
	var moves, charged, stalls, spins int
	var overshoot float64
	var timeouts []string
	for range b.N {
		for _, bot := range honest {
			p := play(b, bot, honestRounds)
			moves += len(p.moves)
			stalls += p.stalls
			for _, f := range p.res.Outcome.Faults {
				if f.Seat == 0 {
					charged++
					timeouts = append(timeouts, fmt.Sprintf("HONEST %s %s: %s", bot, f.Where, f.Detail))
				}
			}
		}
		for _, bot := range []string{goSpinner, pySpinner, goSleeper} {
			p := play(b, bot, 10)
			stalls += p.stalls
			for _, f := range p.res.Outcome.Faults {
				timeouts = append(timeouts, fmt.Sprintf("%s %s: %s", bot, f.Where, f.Detail))
			}
			if last := p.moves[len(p.moves)-1]; bot != goSleeper && last.Fault != nil {
				overshoot += float64(us(last.CPU)) / float64(budget)
				spins++
			}
		}
	}
	b.StopTimer()
	b.ReportMetric(float64(charged), "honest-charged")
	b.ReportMetric(float64(moves), "honest-moves")
	b.ReportMetric(float64(stalls), "stalls")
	if spins > 0 {
		b.ReportMetric(overshoot/float64(spins), "spin-cpu/budget")
	}
	b.Logf("honest moves charged: %d of %d (budget %v, default wall factor); machine stalls (voided, played again): %d\n  %s",
		charged, moves, budget, stalls, strings.Join(timeouts, "\n  "))
}
