package bench

import (
	"slices"
	"time"
)

// Sample is a set of timings.
type Sample []time.Duration

// Quantile returns the q-quantile (0..1) by nearest rank; 0 for an empty sample.
func (s Sample) Quantile(q float64) time.Duration {
	if len(s) == 0 {
		return 0
	}
	c := slices.Clone(s)
	slices.Sort(c)
	i := int(q*float64(len(c)-1) + 0.5)
	return c[min(max(i, 0), len(c)-1)]
}

// P50 is the median.
func (s Sample) P50() time.Duration { return s.Quantile(0.5) }

// P99 is the 99th percentile.
func (s Sample) P99() time.Duration { return s.Quantile(0.99) }
