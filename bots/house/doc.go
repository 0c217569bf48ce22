// Package house plays the games' house bots in the host's own process: the arena's own Go
// code, played by whoever plays the match (the server's ladder, a worker taking a ladder job,
// tests), so there is no submission to build or sandbox. Each game's Spec.House says which
// bots it has and which one the ladder plays; that one is every smoke match's opponent and a
// ladder entrant, so a lone new bot has somebody to play.
package house
