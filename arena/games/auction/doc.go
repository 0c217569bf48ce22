// Package auction is the engine of the NYU Heuristic Problem Solving auction game as
// docs/rules/auction.md states it: m players bid sealed whole numbers for a list of items by k
// artists; the first to own n works of one artist wins. Ties go to the earliest answer, an
// all-zero round is won for free by the earliest 0, a bid over the player's money (or negative,
// or not whole) counts as 0, and a timeout, crash, garbage answer or an empty chess clock
// disqualifies the player while the others play on.
package auction
