package main

import (
	"testing"

	"github.com/botarena/arena/sdk"
)

func TestMove(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name string
		s    sdk.DynamiteState
		want sdk.DynamiteMove
	}{
		{"first round", sdk.DynamiteState{Stake: 1, OwnDynamiteLeft: 100}, sdk.Rock},
		{"beats last", sdk.DynamiteState{Stake: 1, Rounds: []sdk.DynamiteRound{{Own: sdk.Rock, Opponent: sdk.Scissors}}}, sdk.Rock},
		{"water on dynamite", sdk.DynamiteState{Stake: 1, Rounds: []sdk.DynamiteRound{{Own: sdk.Rock, Opponent: sdk.Dynamite}}}, sdk.Water},
		{"dynamite on a raised stake", sdk.DynamiteState{Stake: 3, OwnDynamiteLeft: 1}, sdk.Dynamite},
		{"none left", sdk.DynamiteState{Stake: 3, Rounds: []sdk.DynamiteRound{{Own: sdk.Rock, Opponent: sdk.Paper}}}, sdk.Scissors},
	}
	for _, c := range cases {
		if got := move(&c.s); got != c.want {
			t.Errorf("%s: %v, want %v", c.name, got, c.want)
		}
	}
}
