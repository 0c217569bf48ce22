// Package ladder validates uploaded bot versions and plays the live ladder.
//
// Validation takes a version's folder through the same path as every bot (arena/botspec: the
// snapshot, the build in the build sandbox, the launch in the bot sandbox) and plays one smoke
// match against the game's house bot. A version that does not build, cannot start, or faults in
// the smoke match is failed, with the verdict and the log tail kept for its author, and never
// plays on the ladder.
//
// The scheduler keeps up to Jobs matches running among each game's active versions (the newest
// passing version of every bot that is not disabled), authors first (Pick): the author given
// fewest matches takes the first seat with its version that most needs a match (few matches,
// else the most uncertain), against one of the other authors whose best version gives the
// closest match (TrueSkill's match quality on the OpenSkill mu and sigma); an author plays one
// ladder match at a time, and validations and matches take turns, so no number of bots or
// uploads buys more than an author's share. A game whose own format is a table (its
// Spec.LadderTable: the auction's m players, a realtv contest of scripts whose engine seats
// each as its 11 instances) plays ladder matches of that many authors, the least served
// first, and a table waits until it can be full; its ratings come from the ranks of the
// whole table. Files of versions nobody plays any more (failed,
// or replaced by a newer passing version) are collected (collect.go). Ratings are OpenSkill's Plackett-Luce
// (arena/rating), updated in the same transaction that records the match; rank by mu - 3 sigma.
package ladder
