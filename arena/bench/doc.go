// Package bench measures the arena against a peer: a minimal stdio referee's bot (one line in,
// one line out, a Go and a Python program) run in the same sandbox as the arena's bots and
// driven by the host over plain blocking pipes, as Halite or CodinGame would drive it (peer.go).
// Every move and match figure is printed as a multiple of its peer's figure from the same run
// (Go figures against the Go peer; Python and kit figures against the Python peer; host CPU
// against the peer's host CPU), which holds still while the machine's load moves the figures
// themselves. The physical floor, one byte's round trip between two processes over a pipe and
// a unix socket, stays beside them for reference. Each measurement is also a Go benchmark in
// bench_test.go, so a regression shows in `go test -bench`.
package bench
