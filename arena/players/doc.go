// Package players adapts the two kinds of bot to the match runner: a bot process launched by
// arena/host, and a Go bot running inside the host's own process (no plugin at all), which
// the benchmarks use as the ceiling and the tests as a fast opponent.
package players
