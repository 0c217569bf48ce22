// Package dynamite is the engine of Dynamite!: rock-paper-scissors with dynamite and water
// balloons, as docs/rules/dynamite.md states it (rollover draws, first to 1000, 2500-round cap,
// 100 dynamite each, forfeit on the 101st, on an illegal move, a timeout or a crash).
package dynamite
