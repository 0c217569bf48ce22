package slack

import (
	"fmt"
	"os"
	"strconv"
	"testing"
	"time"
)

// Env names the environment variable that sets the factor: a number of at least 1.
const Env = "ARENA_TEST_SLACK"

// Default is the factor when Env is unset.
const Default = 2.0

// Factor returns the slack factor: Env's value, or Default. A malformed value fails the test
// rather than silently meaning something else.
func Factor(tb testing.TB) float64 {
	tb.Helper()
	f, err := parse(os.Getenv(Env))
	if err != nil {
		tb.Fatal(err)
	}
	return f
}

func parse(s string) (float64, error) {
	if s == "" {
		return Default, nil
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil || !(f >= 1 && f <= 1000) { // written so that NaN fails too
		return 0, fmt.Errorf("%s=%q: want a number from 1 to 1000 (the factor that stretches the tests' time bounds on a loaded machine)", Env, s)
	}
	return f, nil
}

// Of stretches an allowance by the factor: use it for a wait whose end is a failure.
func Of(tb testing.TB, allowance time.Duration) time.Duration {
	tb.Helper()
	return time.Duration(float64(allowance) * Factor(tb))
}

// Bound is base plus the stretched allowance: base is what the bots make the thing take (a
// deadline, a sleep), allowance what the arena may add to it.
func Bound(tb testing.TB, base, allowance time.Duration) time.Duration {
	tb.Helper()
	return base + Of(tb, allowance)
}

// Within fails the test (without stopping it) when took is over Bound(base, allowance), with a
// message naming what was timed, the bound and how it was made. It reports whether it held.
func Within(tb testing.TB, what string, took, base, allowance time.Duration) bool {
	tb.Helper()
	bound := Bound(tb, base, allowance)
	if took <= bound {
		return true
	}
	tb.Errorf("%s took %v, over its bound %v (%v + %v × slack %g; on a loaded machine raise %s)",
		what, took.Round(time.Millisecond), bound.Round(time.Millisecond), base, allowance, Factor(tb), Env)
	return false
}

// Ratio fails the test when a is more than target × the factor times b (two timings taken on
// the same machine, such as a move's time under attack beside the same move's time in peace).
func Ratio(tb testing.TB, what string, a, b time.Duration, target float64) bool {
	tb.Helper()
	limit := target * Factor(tb)
	if float64(a) <= limit*float64(b) {
		return true
	}
	tb.Errorf("%s: %v is %.2fx %v, over %.2fx (target %gx × slack %g; on a loaded machine raise %s)",
		what, a, float64(a)/float64(b), b, limit, target, Factor(tb), Env)
	return false
}
