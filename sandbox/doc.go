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
// # Cgroups
//
// On cgroup v2 the arena makes <cgroup>/arena-sandbox/<owner>/<process>, where <cgroup> is
// its own cgroup when it may enable the memory, pids and cpu controllers there: the real root
// (a VM, a host without systemd), a cgroup systemd delegated to it (systemd-run [--user]
// --scope -p Delegate=yes), or the root of a container's private cgroup namespace. cgroup v2
// lets a cgroup other than the real root enable controllers only while it holds no process,
// so the arena first moves every process of its cgroup (itself first) into
// <cgroup>/arena-leaf, as a container init does; an arena started in such a leaf uses the
// cgroup above it. As root in a cgroup systemd did not delegate (a login session) it leaves
// systemd's cgroups alone and uses the hierarchy's root. Controllers v2 does not give come
// from v1 hierarchies where mounted. The tree is killed by cgroup.kill (Linux 5.14), else by
// freezing it (v2 cgroup.freeze, 5.2, or the v1 freezer), killing every process and thawing,
// else by killing what cgroup.procs lists until it is empty. cgroupplan_test.go holds a fake
// cgroup v2 kernel that keeps the rules the planner lives with.
//
// # Honesty
//
// Probe tries every layer once per process by starting a real sandbox and reports each one,
// active or not and why, and for each missing one the command that would give it on this
// machine (Report.Write prints it for `arena sandbox check`). Features of newer kernels
// (cgroup.kill, Landlock's TCP rules and signal scoping, pressure stall information) degrade
// to the next best layer, and tests hide them (kernelHides) to prove it. Start uses what
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
