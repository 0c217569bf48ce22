package match

import (
	"testing"

	"github.com/botarena/arena/arena/game"
)

// Seats of one process acting in the same step share its cgroup: each counts them all.
func TestShareSeatsCountsAProcessesPendingSeats(t *testing.T) {
	t.Parallel()
	// Seats 0-2 belong to player 0 (one process), seat 3 to player 1.
	list := []game.Seat{{Player: 0}, {Player: 0}, {Player: 0}, {Player: 1}}
	seats := make([]*seatState, len(list))
	for i := range seats {
		seats[i] = &seatState{share: 1}
	}
	shareSeats(list, seats, []int{0, 2, 3})
	if got := []int{seats[0].share, seats[2].share, seats[3].share}; got[0] != 2 || got[1] != 2 || got[2] != 1 {
		t.Fatalf("shares %v, want [2 2 1]", got)
	}
	shareSeats(list, seats, []int{1})
	if seats[1].share != 1 {
		t.Fatalf("a lone seat's share %d, want 1", seats[1].share)
	}
}
