package realtv

import (
	"fmt"

	"github.com/botarena/arena/arena/game"
	arenav1 "github.com/botarena/arena/proto/arena/v1"
)

// A day on an island, as the rules' named stages (RULES.md, realtv, "Each day on an island"):
// firstVotes, traitorsLeave, fewLeft, trial, elimination; then tie.go when the vote is tied.

// resolveFirst applies the day's elimination votes, stage by stage: each stage either ends
// the day (the island over, or the next day begun, or a tie vote called) or hands on to the
// next.
func (e *Engine) resolveFirst(isl *island, got map[int]*game.Answer) {
	act, target := e.firstVotes(isl, got)
	e.traitorsLeave(isl, act, target)
	rest := isl.activeMembers()
	if e.fewLeft(isl, rest) || !e.trial(isl, rest) {
		return
	}
	e.elimination(isl, rest, target)
}

// firstVotes is stage 1: every active player votes for elimination. It returns the active
// members and, for each, the member voted for, or -1 for a betrayal (a vote for oneself, for
// a player who is not active, no vote, or a fault).
func (e *Engine) firstVotes(isl *island, got map[int]*game.Answer) (act, target []int) {
	act = isl.activeMembers()
	target = make([]int, len(isl.members))
	where := ""
	for _, m := range act {
		mb := &isl.members[m]
		target[m] = -1
		day := &arenav1.RealtvVotes{}
		mb.votes = append(mb.votes, day)
		if mb.seat < 0 {
			t := e.fillerVote(isl, act)
			day.FirstVote = isl.members[t].id
			if t != m {
				target[m] = t
			}
			continue
		}
		if where == "" {
			where = e.where(isl, false)
		}
		id, k, detail := e.vote(got[mb.seat])
		day.FirstVote = id
		if k != game.FaultNone {
			e.charge(mb.seat, where, k, detail, "betrayal")
			continue
		}
		t := isl.find(id)
		switch {
		case id == "" || t == m:
			// No vote, or a vote for oneself: the seed's way to betray. Not a fault.
		case t < 0 || isl.members[t].status != active:
			e.charge(mb.seat, where, game.FaultIllegal, fmt.Sprintf("voted for %q, who is not an active player", id), "betrayal")
		default:
			target[m] = t
		}
	}
	return act, target
}

// traitorsLeave is the rest of stage 1: all traitors leave the island now and are remembered
// as its betrayers.
func (e *Engine) traitorsLeave(isl *island, act, target []int) {
	for _, m := range act {
		if target[m] < 0 {
			isl.members[m].status = betrayer
			if s := isl.members[m].seat; s >= 0 {
				e.inst[s].betrayals++
			}
		}
	}
}

// fewLeft is stage 2: with no one left the island ends and nobody scores; with one left that
// player wins, with no trial. It reports whether the island ended.
func (e *Engine) fewLeft(isl *island, rest []int) bool {
	switch len(rest) {
	case 0:
		isl.stage = stageOver // nobody scores
		return true
	case 1:
		e.lastMan(isl, rest[0])
		return true
	}
	return false
}

// trial is stage 3: it succeeds when the strengths of the n players left sum to 7n-3 or more,
// and every one of them scores; a failure ends the island (trialFailed). It reports success.
func (e *Engine) trial(isl *island, rest []int) bool {
	sum := 0
	for _, m := range rest {
		sum += isl.members[m].strength
	}
	if sum < Difficulty(len(rest)) {
		e.trialFailed(isl)
		return false
	}
	for _, m := range rest {
		e.award(&isl.members[m], ScoreForTrial*unit)
		if s := isl.members[m].seat; s >= 0 {
			e.inst[s].trials++
		}
	}
	return true
}

// elimination is stages 4 and 5: votes for today's traitors are lost (and traitors' own votes
// do not count); no valid vote: nobody leaves and the next day begins; the single most voted
// leaves (eliminate, which ends the island when one is left); a tie calls the tie vote.
func (e *Engine) elimination(isl *island, rest, target []int) {
	count := make([]int, len(isl.members))
	any := false
	for _, m := range rest {
		if t := target[m]; t >= 0 && isl.members[t].status == active {
			count[t]++
			any = true
		}
	}
	if !any {
		e.beginDay(isl) // nobody leaves
		return
	}
	top := mostVoted(rest, count)
	if len(top) == 1 {
		e.eliminate(isl, top[0])
		return
	}
	isl.stage = stageTie
	isl.ties = append(isl.ties[:0], top...)
}

// mostVoted returns the candidates with the most votes, in island order.
func mostVoted(candidates, count []int) []int {
	best := -1
	var top []int
	for _, m := range candidates {
		switch {
		case count[m] > best:
			best = count[m]
			top = append(top[:0], m)
		case count[m] == best:
			top = append(top, m)
		}
	}
	return top
}

func (e *Engine) eliminate(isl *island, m int) {
	isl.members[m].status = eliminated
	if s := isl.members[m].seat; s >= 0 {
		e.inst[s].eliminated++
	}
	if rest := isl.activeMembers(); len(rest) == 1 {
		e.lastMan(isl, rest[0])
		return
	}
	e.beginDay(isl)
}

func (e *Engine) lastMan(isl *island, m int) {
	e.award(&isl.members[m], ScoreForLastMan*unit)
	if s := isl.members[m].seat; s >= 0 {
		e.inst[s].won++
	}
	isl.stage = stageOver
}

// trialFailed ends the island and splits the bounty among all its traitors so far.
func (e *Engine) trialFailed(isl *island) {
	isl.stage = stageOver
	var traitors []int
	for m := range isl.members {
		if isl.members[m].status == betrayer {
			traitors = append(traitors, m)
		}
	}
	if len(traitors) == 0 {
		return
	}
	share := int64(ScoreForAllTraitors*unit) / int64(len(traitors))
	for _, m := range traitors {
		e.award(&isl.members[m], share)
		if s := isl.members[m].seat; s >= 0 {
			e.inst[s].bounties++
		}
	}
}
