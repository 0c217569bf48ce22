// Package sandbox turns a command and a set of limits into an isolated, measured, killable
// process. It knows nothing of the arena: callers give it a Spec and get a Process whose whole
// tree Kill removes.
//
// # How a sandbox is built
//
// Start re-executes the running binary (/proc/self/exe, argv[0] "arena-sandbox-init") in new
// user, PID, mount, network, IPC and UTS namespaces. That tiny init is PID 1 of its namespace.
// The host puts it into its cgroups (memory, pids, cpu, cpuacct, freezer; v1 or v2) and only
// then sends it its configuration over a pipe, so nothing of the bot ever runs outside them.
// The init builds a read-only tmpfs root holding only the read-only paths (attached as
// detached mounts the host made, since the init is unprivileged on the host), the work
// directory at its own host path (a size-limited tmpfs the host mounted, owned by the bot, so
// the plugin socket the bot makes there is the one the host connects to), a minimal /dev, its
// own /proc and a few /etc files; it pivots into it and detaches the host's tree. It then
// applies Landlock, rlimits, no_new_privs and a seccomp filter (architecture checked) on its
// own thread, starts the bot from that thread as an unprivileged uid of its own (1000 inside,
// a unique host uid outside), reaps it, and exits when the bot's main process ends; the kernel
// then kills whatever is left in the namespace. The init carries a parent-death signal, so a
// crashed arena takes every sandbox with it.
//
// # The hook
//
// A binary that starts sandboxes must let the init run before anything else: call Init first
// thing in main (the arena command) and in TestMain (test binaries that start bots):
//
//	func main() {
//		sandbox.Init()
//		...
//	}
//
// The package's own init function calls Init too, so a binary that forgets still works.
//
// Off Linux (macOS) the package builds a degraded sandbox instead: a re-executed init sets
// rlimits and execs the bot in its own process group, which Kill removes whole; Probe reports
// every Linux layer as missing, and Strict refuses to start.
//
// # Honesty
//
// Probe tries every layer once per process by starting a real sandbox and reports each one,
// active or not and why (Report.Write prints it for `arena sandbox check`). Start uses what
// works and degrades to rlimits, a process group and a child subreaper where namespaces or
// cgroups are missing; Spec.Strict makes Start refuse instead, naming the missing layer.
//
// # Measuring and killing
//
// Snapshot is a cheap CPU and memory reading for diffing around one move; Usage gives the
// final wall time, CPU time and peak memory; Reason says in plain words how the process
// ended (time, CPU, memory, output or file size limit, forbidden system call, signal, exit
// status). Kill freezes and kills the cgroup, kills the init (which empties its PID
// namespace) and returns once the tree is gone. Cleanup, run by the first Probe of every
// process, removes what crashed arenas left: cgroups, work-directory mounts, work dirs.
package sandbox
