package realtv

import (
	"strconv"

	"github.com/botarena/arena/arena/game"
)

// Votes: what a seat's answer says, the filler bots' rule, and how a fault is charged.

// vote reads an instance's answer: the id voted for, or the fault that stands for it.
func (e *Engine) vote(a *game.Answer) (id string, k game.FaultKind, detail string) {
	if a.Fault != nil {
		return "", a.Fault.Kind, a.Fault.Detail
	}
	// game.Judge let through only a realtv vote.
	return a.Action.GetRealtv().GetVoteId(), game.FaultNone, ""
}

func (e *Engine) where(isl *island, tie bool) string {
	w := "phase " + strconv.Itoa(e.phase+1) + ", island " + strconv.Itoa(isl.index+1) + ", day " + strconv.Itoa(isl.day)
	if tie {
		w += ", tie vote"
	}
	return w
}

func (e *Engine) charge(seat int, where string, k game.FaultKind, detail, penalty string) {
	in := &e.inst[seat]
	// A dead script faults on every later vote with the same text: keep the record short.
	if detail != "" && detail == in.lastDetail {
		detail = "(as before)"
	} else if detail != "" {
		in.lastDetail = detail
	}
	e.faults = append(e.faults, game.FaultRecord{Seat: seat, Where: where, Kind: k, Detail: detail, Penalty: penalty})
}

// fillerVote is the filler bots' rule: the weakest of the candidates 80% of the time, the
// strongest 20% (themselves included); among equals the first in island order.
func (e *Engine) fillerVote(isl *island, candidates []int) int {
	weakest := e.r.Float64() < 0.8
	best := -1
	for _, m := range candidates {
		s := isl.members[m].strength
		if best < 0 || (weakest && s < isl.members[best].strength) || (!weakest && s > isl.members[best].strength) {
			best = m
		}
	}
	return best
}
