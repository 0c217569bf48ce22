package sdk

// AuctionPlayer plays one auction match. Placeholder until the auction API lands.
type AuctionPlayer interface {
	auctionPlaceholder()
}
