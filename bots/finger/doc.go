// Package fingerbots holds the house bots of the finger game: Random, a uniformly random legal
// player, and Strong, which plays the solved game. Their mains live in cmd/.
package fingerbots
