// Package gametest is the contract suite every engine runs: random legal play terminates
// within the game's cap, the same seed gives the same match, every player gets an outcome,
// every fault kind is handled without an engine error, and a fuzz target feeds arbitrary
// answers while checking the same invariants.
package gametest
