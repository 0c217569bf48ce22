package finger

import (
	"math/rand/v2"

	arenav1 "github.com/botarena/arena/proto/arena/v1"
)

// RandomLegal answers req with a legal move drawn uniformly from r, for contract tests and
// fuzzing. It returns nil when req carries no finger observation or the seat has no hand left
// (the engine never asks in that case).
func RandomLegal(r *rand.Rand, req *arenav1.ActRequest) *arenav1.ActResponse {
	o := req.GetFinger()
	if o == nil {
		return nil
	}
	moves := legalMoves(Hands{o.GetOwnLeft(), o.GetOwnRight()}, Hands{o.GetOpponentLeft(), o.GetOpponentRight()})
	if len(moves) == 0 {
		return nil
	}
	return &arenav1.ActResponse{Step: req.GetStep(), Action: &arenav1.ActResponse_Finger{Finger: moves[r.IntN(len(moves))]}}
}
