// Package build turns a submission's snapshot into what runs: a Go binary, or a Python bot's
// own dependencies. Every step runs in the same sandbox as a bot (its own uid, a clean
// environment, no network unless the organiser allows it, limits on memory, CPU, wall time,
// processes, output and disk), sees the toolchain and dependency cache read-only and only a
// private writable copy of the submission, and its artefact is cached by the hash of the
// submission's files, the toolchain and the recipe. A failed build is an *Error carrying the
// compiler's last lines: the bot's verdict, never the host's.
//
// Go bots compile against the arena's own module (the SDK and the house bots' packages),
// copied into the files store as a kit of its Go files only; its compiler cache is warmed
// once per toolchain and kit, from trusted code, and each build writes through a private
// overlay on top of it, so no build can poison another's.
package build
