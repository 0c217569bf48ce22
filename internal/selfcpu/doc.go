// Package selfcpu reads the calling process's own CPU time, every thread, user and system: what
// the bench and the move benchmarks charge the host (or the bridge) per move, where wall time
// on a loaded machine is mostly waiting for a core.
package selfcpu
