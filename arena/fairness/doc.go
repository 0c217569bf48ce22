// Package fairness tests the CPU clock with real bots in the full sandbox while processes
// outside the bots load every core: a bot's move is charged its own CPU time, so a busy
// machine times out no bot that stays within its budget, and a bot that busy-loops past its
// budget is stopped near it and charged. It holds tests only.
package fairness
