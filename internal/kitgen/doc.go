// Package kitgen writes each language kit's per-game wire tables from the protocol itself:
// the descriptors of proto/arena/v1 compiled into the Go package arenav1 (protoreflect), so no
// protoc and no hand-kept copy of the wire format is involved. For every kit it writes one
// file holding the game list (which oneof case of StartRequest, ActRequest and ActResponse is
// which game), every enum's value names by number, every message's fields with their JSON and
// proto names and kinds and, where the language has types, the message types themselves.
//
// The kits' generic any-game path plays a game from these tables alone, so a new game in the
// protos is playable by every kit once scripts/generate.sh has run; the hand-written per-game
// layer (state with history, helpers) builds on the same tables. Files returns every generated
// file; cmd/kitgen writes them and the package's test fails when a committed one is stale.
package kitgen
