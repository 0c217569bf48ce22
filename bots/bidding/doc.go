// Package biddingbots holds the house bots of the bidding game: Random, the seed's RandomBot,
// and Strong, the baseline. Their mains live in cmd/.
//
// Strong solves, for the game's start money and round count, what each side can force against
// an opponent who sees its bid before bidding (solve.go). The start is a forced draw, and Strong
// only ever bids what keeps the best outcome it can force, so it never loses a game; among such
// bids it takes the one nearest a pacing heuristic, which wins most games against the seed's
// RandomBot and against the simple pacing of the Go example.
package biddingbots
