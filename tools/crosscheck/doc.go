// Command crosscheck type-checks packages and their tests for another platform, from source:
// its -goos and -goarch select the files, as GOOS and GOARCH would for the go command.
//
//	go -C tools run ./crosscheck -goos darwin -goarch arm64 -C .. ./...
//
// A platform's breakage in Go is almost always a type error: a Linux-only name used by a
// file that also builds elsewhere, a test without its build tag. Finding it with `go vet` or
// `go build` for that platform compiles every dependency to machine code first, which for
// the arena (modernc's SQLite, nats-server) cost about 200 CPU-seconds cold; checking types
// from source needs no code generation. The analyzers of go vet still run, on the host's
// platform, in the test command.
package main
