package sdk

// BiddingPlayer plays one bidding match. Placeholder until the bidding API lands.
type BiddingPlayer interface {
	biddingPlaceholder()
}
