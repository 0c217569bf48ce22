// Package house names each game's house bot: the arena's own Go code, played in-process by
// whoever plays the match (the server's ladder, a worker taking a ladder job), so there is no
// submission to build or sandbox. It is every smoke match's opponent and a ladder entrant,
// so a lone new bot has somebody to play.
package house
