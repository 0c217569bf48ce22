// Package bench measures the arena against the physical floor of the machine it runs on: the
// round trip of one byte between two processes over a pipe and over a unix socket. Every other
// figure (a move to a Go or Python bot, start-up, whole matches, payload, memory, scaling) is
// reported next to that floor, measured in the same run. Each measurement is also a Go
// benchmark in bench_test.go, so a regression shows in `go test -bench`.
package bench
