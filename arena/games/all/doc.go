// Package all links every game engine into the binary. Its all.go is generated from the
// folders arena/games/<game> (internal/gamelist, run by scripts/generate.sh): a new game's
// folder registers it, with no hand-kept list.
package all
