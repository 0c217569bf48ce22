// Package realtv is the engine of steemian's "AI Contest #2 (Real TV)" as
// docs/rules/realtv.md states it.
//
// A match is a whole contest: every script (player) is instantiated 11 times with strengths
// 0..10, and each instance is a seat that lives, keeps its score and keeps its bot-side memory
// for every phase. Each phase shuffles the instances over islands of 12, filled with filler
// bots the engine plays itself. On each island, day after day: everyone votes; invalid votes
// are betrayal and traitors leave; the rest face a trial (strengths summing to 7n-3 or more);
// a failed trial ends the island and splits 100 points among its traitors; otherwise +3 each
// and the most voted player leaves (tie: a revote among the tied, then the weakest, then a
// seeded coin); the last one standing gets +100.
//
// Every island advances one vote per engine step, so the votes of all islands are asked at
// once. Scores are kept exactly in units of 1/27720 of a point (27720 = lcm(1..12)), so that
// 100 points split among up to 12 traitors never rounds.
//
// The rules live by stage, one file each: phase.go (islands, filler bots, the days begun),
// day.go (a day's named stages: firstVotes, traitorsLeave, fewLeft, trial, elimination),
// tie.go (tieVotes, breakTie), votes.go (reading a vote, the filler bots' rule, charging a
// fault) and outcome.go (results and the ranking); realtv.go holds the Spec, the state and
// the game.Engine methods.
package realtv
