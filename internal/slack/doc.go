// Package slack is the one factor by which the arena's tests stretch the few wall-clock bounds
// they keep.
//
// Tests do not time the machine. A test that must bound a duration derives the bound from what
// its bots do (a bot that sleeps, a 400 ms deadline, a kill that must not wait for a grace
// period) and multiplies only the allowance on top of that by this factor. A loaded machine
// (CI beside other work, a laptop compiling, the suite run beside busy loops) is then answered
// by one knob, ARENA_TEST_SLACK, instead of by each test's own guess; a failure names the knob.
//
// The default, 2, keeps every bound that the tests had before the factor at half its stretched
// value, so a real regression (a kill that waits seconds, a match that runs to the end of a
// one-hour sleep) still fails. The language kits' own self-tests read the same variable with
// the same default.
package slack
