package bidding

import (
	"math/rand/v2"

	arenav1 "github.com/botarena/arena/proto/arena/v1"
)

// RandomLegal answers req with a legal bid drawn uniformly from r (1 up to all the seat's
// money, or 0 when it has none), for contract tests and fuzzing. It returns nil when req
// carries no bidding observation.
func RandomLegal(r *rand.Rand, req *arenav1.ActRequest) *arenav1.ActResponse {
	o := req.GetBidding()
	if o == nil {
		return nil
	}
	var bid int64
	if m := int64(o.GetOwnMoney()); m > 0 {
		bid = 1 + r.Int64N(m)
	}
	return &arenav1.ActResponse{Step: req.GetStep(), Action: &arenav1.ActResponse_Bidding{Bidding: &arenav1.BiddingAction{Bid: bid}}}
}
