package realtv

import (
	"math/rand/v2"
	"slices"

	arenav1 "github.com/botarena/arena/proto/arena/v1"
)

// RandomLegal votes for a random player who may be voted for: another active player for the
// elimination vote (now and then itself, which is the legal way to betray), one of the tied
// for a tie vote. For the contract suite and fuzzing.
func RandomLegal(r *rand.Rand, req *arenav1.ActRequest) *arenav1.ActResponse {
	o := req.GetRealtv()
	from := o.GetActivePlayers()
	if o.GetDecision() == arenav1.RealtvDecision_REALTV_DECISION_TIE {
		from = o.GetCurrentTies()
	}
	// Sorted ids: map order is random and the choice must depend on r only.
	ids := make([]string, 0, len(from))
	for id := range from {
		if id != o.GetOwnId() || o.GetDecision() == arenav1.RealtvDecision_REALTV_DECISION_TIE || r.IntN(10) == 0 {
			ids = append(ids, id)
		}
	}
	slices.Sort(ids)
	vote := o.GetOwnId()
	if len(ids) > 0 {
		vote = ids[r.IntN(len(ids))]
	}
	return &arenav1.ActResponse{Step: req.GetStep(),
		Action: &arenav1.ActResponse_Realtv{Realtv: &arenav1.RealtvAction{VoteId: vote}}}
}
