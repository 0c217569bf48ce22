// Package realtvbots holds the Real TV house bots: LikesThemStrong (the seed's first opponent:
// always votes for the weakest, itself included), Filler (the engine's filler bot as a script:
// the weakest 80% of the time, the strongest 20%) and Schemer, the strong baseline (it betrays
// when the island is bound to fail its trial, to share the traitors' 100 points, and plays for
// the last-man bounty otherwise).
package realtvbots
