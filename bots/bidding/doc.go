// Package biddingbots holds the house bots of the bidding game: Random, the seed's RandomBot,
// and Strong, a baseline that paces its money over the rounds it still needs and bids the
// sure-win price once that price fits its purse. Their mains live in cmd/.
package biddingbots
