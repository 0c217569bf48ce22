// Package bridge is the stdio bridge: it runs inside a bot's sandbox in front of a program that
// speaks one JSON object per line (docs/protocol.md section 11), serves the gRPC plugin
// contract to the host like any bot, and turns each call into one line on the program's stdin
// and one line back from its stdout. What the program gets wrong becomes that bot's fault: a
// line that is not the answer (garbage), a line over MaxLine, an exit (the bridge exits with it:
// a crash), silence (the host's deadline).
//
// The bridge is the arena binary itself, re-executed in the sandbox with Arg as its first
// argument (see init in reexec.go); the host shows a copy of that binary at build.BridgeDir.
package bridge
