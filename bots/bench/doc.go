// Package benchbots holds the trivial bots the benchmark measures the arena with: they answer
// at once, so a measured move is the arena's own cost and nothing else.
package benchbots
