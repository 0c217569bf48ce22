package main

import (
	"testing"

	"github.com/botarena/arena/sdk/dynamite"
)

func TestMove(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name string
		s    dynamite.State
		want dynamite.Move
	}{
		{"first round", dynamite.State{Stake: 1, OwnDynamiteLeft: 100}, dynamite.Rock},
		{"beats last", dynamite.State{Stake: 1, Rounds: []dynamite.Round{{Own: dynamite.Rock, Opponent: dynamite.Scissors}}}, dynamite.Rock},
		{"water on dynamite", dynamite.State{Stake: 1, Rounds: []dynamite.Round{{Own: dynamite.Rock, Opponent: dynamite.Dynamite}}}, dynamite.Water},
		{"dynamite on a raised stake", dynamite.State{Stake: 3, OwnDynamiteLeft: 1}, dynamite.Dynamite},
		{"none left", dynamite.State{Stake: 3, Rounds: []dynamite.Round{{Own: dynamite.Rock, Opponent: dynamite.Paper}}}, dynamite.Scissors},
	}
	for _, c := range cases {
		if got := move(&c.s); got != c.want {
			t.Errorf("%s: %v, want %v", c.name, got, c.want)
		}
	}
}
