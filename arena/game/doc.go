// Package game is the contract between the match runner and the game engines.
//
// An engine is pure and deterministic given its Config (seed included) and the answers it is
// fed: it says which seats must act, what each seat sees, applies the answers (or the game's
// penalty for a fault) and reports the outcome. It never talks to a process, never reads a
// clock and never draws randomness from anywhere but the seed, so a match replays exactly from
// its record. Faults are game events handed to the engine, never Go errors; an error returned
// by an engine means a bug in the engine.
package game
