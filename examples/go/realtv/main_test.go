package main

import (
	"testing"

	"github.com/botarena/arena/sdk/realtv"
)

func TestWeakestOtherNeverPicksMe(t *testing.T) {
	g := map[string]*realtv.PlayerContext{
		"ME": {ID: "ME", Strength: 0}, "B": {ID: "B", Strength: 4}, "A": {ID: "A", Strength: 4}, "C": {ID: "C", Strength: 9},
	}
	if v := weakestOther(g, "ME"); v != "A" {
		t.Fatalf("voted %q, want A (weakest other, smallest id)", v)
	}
	if v := weakestOther(map[string]*realtv.PlayerContext{"ME": {ID: "ME"}}, "ME"); v != "" {
		t.Fatalf("voted %q with nobody else", v)
	}
}
