// Package matchplay plays one match of bots the one way every caller does: `arena play` (and
// its re-runs of a recorded match), a tournament's matches in this process or on a worker,
// and so the ladder's matches and each new version's smoke match, which workers play. Play
// runs the match (arena/match), records it (arena/replay) and keeps what each seat's bot
// wrote in it; getting the players (a pool of processes, fresh launches, a bot that could not
// start) and keeping the record are the caller's.
package matchplay
