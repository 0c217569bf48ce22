// Package auctionbots holds the auction house bots: Sample, the seed's sample client (a random
// bid below its money), and Collector, the strong baseline (it races for the artist it can
// complete soonest and blocks any rival one work away from winning).
package auctionbots
