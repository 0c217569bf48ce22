package realtv

import (
	"fmt"

	"github.com/botarena/arena/arena/game"
	arenav1 "github.com/botarena/arena/proto/arena/v1"
)

// The tie vote: among the tied only, an invalid one ignored; a second tie removes the weakest.

// resolveTie applies the tie votes (tieVotes) and removes the most voted of the tied
// (breakTie).
func (e *Engine) resolveTie(isl *island, got map[int]*game.Answer) {
	count := e.tieVotes(isl, got)
	e.eliminate(isl, e.breakTie(isl, count))
}

// tieVotes has every active player vote again among the tied; an invalid tie vote is ignored.
// It returns the votes each member got.
func (e *Engine) tieVotes(isl *island, got map[int]*game.Answer) []int {
	act := isl.activeMembers()
	count := make([]int, len(isl.members))
	inTie := make([]bool, len(isl.members))
	for _, m := range isl.ties {
		inTie[m] = true
	}
	where := ""
	for _, m := range act {
		mb := &isl.members[m]
		n := len(mb.votes)
		day := &arenav1.RealtvVotes{FirstVote: mb.votes[n-1].GetFirstVote()}
		// Copy on write: earlier observations still hold the old slice and entry.
		mb.votes = append(mb.votes[:n-1:n-1], day)
		if mb.seat < 0 {
			t := e.fillerVote(isl, isl.ties)
			day.TieVote = isl.members[t].id
			count[t]++
			continue
		}
		if where == "" {
			where = e.where(isl, true)
		}
		id, k, detail := e.vote(got[mb.seat])
		day.TieVote = id
		if k != game.FaultNone {
			e.charge(mb.seat, where, k, detail, "tie vote ignored")
			continue
		}
		t := isl.find(id)
		switch {
		case id == "":
			// No tie vote: ignored, as an abstention.
		case t < 0 || !inTie[t]:
			e.charge(mb.seat, where, game.FaultIllegal, fmt.Sprintf("tie vote for %q, who is not among the tied", id), "tie vote ignored")
		default:
			count[t]++
		}
	}
	return count
}

// breakTie picks who leaves: the most voted of the tied; a second tie removes the weakest of
// them, and among equal strengths one chosen at random (from the match seed).
func (e *Engine) breakTie(isl *island, count []int) int {
	top := mostVoted(isl.ties, count)
	if len(top) > 1 {
		weakest := isl.members[top[0]].strength
		for _, m := range top {
			weakest = min(weakest, isl.members[m].strength)
		}
		var equal []int
		for _, m := range top {
			if isl.members[m].strength == weakest {
				equal = append(equal, m)
			}
		}
		top = equal
		if len(top) > 1 {
			top = []int{top[e.r.IntN(len(top))]}
		}
	}
	return top[0]
}
