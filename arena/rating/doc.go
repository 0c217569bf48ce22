// Package rating fits ratings with their uncertainty from match results.
//
// Two-player games use a Bradley-Terry fit (Hunter's MM algorithm, draws as half a win, a weak
// prior of one draw against an average player so that unbeaten bots stay finite) reported on the
// Elo scale (400 points = 10:1 odds, mean 1500) with a bootstrap standard error: the matches are
// resampled with replacement and refitted, with a fixed seed so standings are reproducible.
//
// Multi-player games (auction tables, realtv contests) use the Weng-Lin Bayesian approximation
// of the Plackett-Luce model (the "OpenSkill" method, Weng & Lin 2011, JMLR 12): each bot has a
// mean mu and an uncertainty sigma, updated match by match in schedule order; ties share a rank.
//
// No Go library for either was available through the module proxy from this machine, so both
// are small implementations here, tested against hand-computed values and known orderings.
package rating
