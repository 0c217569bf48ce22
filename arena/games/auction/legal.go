package auction

import (
	"math/rand/v2"

	arenav1 "github.com/botarena/arena/proto/arena/v1"
)

// RandomLegal bids a random whole number the seat can afford, for the contract suite and
// fuzzing.
func RandomLegal(r *rand.Rand, req *arenav1.ActRequest) *arenav1.ActResponse {
	money := req.GetAuction().GetOwnMoney()
	bid := int64(0)
	if money > 0 {
		bid = r.Int64N(money + 1)
	}
	return &arenav1.ActResponse{Step: req.GetStep(),
		Action: &arenav1.ActResponse_Auction{Auction: &arenav1.AuctionAction{Bid: float64(bid)}}}
}
