// Package bidding is the engine of the bidding game (docs/rules/bidding.md):
// two players, A and B, bid sealed whole dollars each round for a bottle that moves one place
// toward the round's winner; the bottle reaching a player's end wins the game, ten rounds
// without that is a draw. A match is a series of games (default 100) in which the players swap
// sides every game; the player with more games won wins the match.
//
// Importing the package registers the game under the name "bidding".
package bidding
