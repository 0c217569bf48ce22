// Package replay records a match (its config and every answer, with arrival order, elapsed
// time and faults) and replays it: re-running the engine on the recorded answers must give the
// same outcome, since engines are deterministic given the seed and the answers.
package replay
