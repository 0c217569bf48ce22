// Package benchbots holds the trivial bots the benchmark measures the arena with: they answer
// at once, so a measured move is the arena's own cost and nothing else. Spend and Spin (and
// their Python twins in python/) are the CPU clock's test bots: one uses a fixed share of each
// move's budget, the other busy-loops past it.
package benchbots
