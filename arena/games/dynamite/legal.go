package dynamite

import (
	"math/rand/v2"

	arenav1 "github.com/botarena/arena/proto/arena/v1"
)

// RandomLegal answers with a random legal move, for the contract suite and fuzzing.
func RandomLegal(r *rand.Rand, req *arenav1.ActRequest) *arenav1.ActResponse {
	o := req.GetDynamite()
	m := arenav1.DynamiteMove(1 + r.IntN(5))
	if m == dyn && o.GetOwnDynamiteLeft() == 0 {
		m = rock
	}
	return &arenav1.ActResponse{Step: req.GetStep(), Action: &arenav1.ActResponse_Dynamite{Dynamite: &arenav1.DynamiteAction{Move: m}}}
}
