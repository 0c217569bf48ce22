// Package build turns a submission's snapshot into what runs: a Go binary, or a Python bot's
// own dependencies. Every step runs in the same sandbox as a bot (its own uid, a clean
// environment, no network unless the organiser allows it, limits on memory, CPU, wall time,
// processes, output and disk), sees the toolchain and dependency cache read-only and only a
// private writable copy of the submission, and its artefact is cached by the hash of the
// submission's files, the toolchain and the recipe. A failed build is an *Error carrying the
// compiler's last lines: the bot's verdict, never the host's.
//
// Go bots compile against the Go kit the arena binary carries (the SDK, the protocol and the
// house bots' packages; arena/kit unpacks it into the files store), never against anything
// found on disk; the modules it needs are fetched once on the host from its own go.mod and
// go.sum (Modules), so the sandboxed builds run offline. Its compiler cache is warmed once per
// toolchain and kit, from trusted code, and each build writes through a private overlay on top
// of it, so no build can poison another's. Stdio languages get their kit library the same way
// (SDK), and the stdio bridge is the arena binary itself (Bridge).
package build
