package main

import (
	"testing"

	"github.com/botarena/arena/sdk/finger"
)

// The example answers a legal move in every position where both players still have a hand.
func TestMoveIsAlwaysLegal(t *testing.T) {
	for a := range 6 {
		for b := range 6 {
			for c := range 6 {
				for d := range 6 {
					if a+b == 0 || c+d == 0 {
						continue
					}
					s := &finger.State{OwnLeft: a, OwnRight: b, OpponentLeft: c, OpponentRight: d}
					if m := move(s); !s.Legal(m) {
						t.Fatalf("%d %d vs %d %d: %v is illegal", a, b, c, d, m)
					}
				}
			}
		}
	}
	// It takes a knock-out when there is one: my 3 on the left + their 2 on the right = 5.
	if m := move(&finger.State{OwnLeft: 3, OwnRight: 0, OpponentLeft: 1, OpponentRight: 2}); m != finger.LeftToRight {
		t.Fatalf("played %v, want LEFT TO RIGHT", m)
	}
}
