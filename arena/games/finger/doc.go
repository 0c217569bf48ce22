// Package finger is the engine of the finger game (docs/rules/finger.md): two
// players take turns hitting each other's hands or switching their own fingers, and whoever
// loses both hands loses the game. A match is a series of games (default 1000) whose starting
// player alternates; the player with more games won wins the match.
//
// Importing the package registers the game under the name "finger".
package finger
