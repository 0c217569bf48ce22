package cli

import (
	"time"

	"github.com/spf13/cobra"

	"github.com/botarena/arena/arena/botspec"
	"github.com/botarena/arena/arena/build"
	"github.com/botarena/arena/arena/filestore"
	"github.com/botarena/arena/arena/host"
	"github.com/botarena/arena/sandbox"
)

// sandboxFlags declares the sandbox flags shared by play and tournament and returns a
// function that applies them to host options.
func sandboxFlags(cmd *cobra.Command) func(*host.Options) {
	var (
		strict         bool
		memMiB, outMiB int64
		diskMiB        int64
		procs, cpuSecs int
		cpus           float64
	)
	f := cmd.Flags()
	f.BoolVar(&strict, "strict", false, "refuse to start a bot when any sandbox layer is missing (see arena sandbox check)")
	// No 0 or negative values: the sandbox reads 0 as "the default" and a negative value as
	// "no limit", neither of which a user typing a number means.
	rangeVar(f, &memMiB, "memory", sandbox.DefaultMemoryBytes>>20, 16, 1<<20, "memory limit per bot, MiB")
	rangeVar(f, &procs, "procs", sandbox.DefaultProcesses, 1, 1<<16, "process and thread limit per bot")
	rangeVar(f, &cpuSecs, "cpu-seconds", sandbox.DefaultCPUSeconds, 1, 7*24*3600, "total CPU time per bot process, seconds")
	rangeVar(f, &cpus, "cpus", sandbox.DefaultCPUs, 0.01, 1024, "cores a bot may use at once")
	rangeVar(f, &outMiB, "output", sandbox.DefaultOutputBytes>>20, 1, 1<<20, "stdout+stderr a bot may write, MiB")
	rangeVar(f, &diskMiB, "disk", sandbox.DefaultDiskBytes>>20, 1, 1<<20, "what a bot may write into its private directory, MiB")
	return func(o *host.Options) {
		o.Strict = strict
		o.Limits = sandbox.Limits{MemoryBytes: memMiB << 20, Processes: procs, CPUSeconds: cpuSecs, CPUs: cpus,
			OutputBytes: outMiB << 20, DiskBytes: diskMiB << 20}
	}
}

// buildFlags declares the build sandbox's flags (Go builds, pip installs) and returns a
// function that makes the resolver they describe.
func buildFlags(cmd *cobra.Command) func(strict bool) *botspec.Resolver {
	var (
		memMiB, diskMiB  int64
		procs, cpuSecs   int
		wall             time.Duration
		network, cgo     bool
		wheels, python   string
		quotaMiB, capMiB int64
	)
	d := build.DefaultLimits()
	f := cmd.Flags()
	rangeVar(f, &memMiB, "build-memory", d.MemoryBytes>>20, 64, 1<<20, "memory limit of a bot's build, MiB")
	rangeVar(f, &procs, "build-procs", d.Processes, 8, 1<<16, "process and thread limit of a bot's build")
	rangeVar(f, &cpuSecs, "build-cpu-seconds", d.CPUSeconds, 1, 7*24*3600, "total CPU time of a bot's build, seconds")
	rangeVar(f, &wall, "build-time", d.WallTime, time.Second, 24*time.Hour, "wall time a bot's build may take")
	rangeVar(f, &diskMiB, "build-disk", d.DiskBytes>>20, 16, 1<<20, "what a bot's build may write (its private copy, caches, output), MiB")
	f.BoolVar(&network, "build-network", false, "let builds reach the network (pip's index, the Go module proxy, npm, crates.io, Maven Central); off: dependencies come only from local folders (--wheels, vendored sources, node_modules)")
	f.BoolVar(&cgo, "cgo", false, "build Go bots with cgo (still in the build sandbox)")
	f.StringVar(&wheels, "wheels", "", "folder of Python wheels a bot's requirements.txt installs from")
	rangeVar(f, &quotaMiB, "build-output", build.DefaultOutputQuota>>20, 1, 1<<20, "what one build of a submission may add to the files store (its output: a binary, dependencies, a built copy), MiB; a build over it fails with this quota named")
	rangeVar(f, &capMiB, "files-cap", filestore.DefaultCap()>>20, 64, 1<<30, "size the files store (snapshots and artefacts, in memory) is kept under: what no live arena process uses goes, least recently used first; default a quarter of this machine's memory")
	// The cap holds from the moment the flag is parsed: a tournament snapshots its bots (and
	// the store collects) before it makes its resolver.
	f.Lookup("files-cap").Value.(*rangeFlag[int64]).then = func() { filestore.SetCap(capMiB << 20) }
	f.StringVar(&python, "python", "", "Python interpreter with the arena SDK for Python bots (default $ARENA_PYTHON, else the arena's own environment in the user's cache, made on first need)")
	return func(strict bool) *botspec.Resolver {
		return &botspec.Resolver{Authoring: cmd.Name() == "play", Python: python, Build: build.Options{
			Limits: sandbox.Limits{MemoryBytes: memMiB << 20, Processes: procs, CPUSeconds: cpuSecs,
				DiskBytes: diskMiB << 20, WallTime: wall},
			Network: network, CGO: cgo, Wheels: wheels, Strict: strict, OutputQuota: quotaMiB << 20, Log: cmd.ErrOrStderr(),
			// Ctrl-C and SIGTERM (root.go's context) stop a build in progress too.
			Stop: cmd.Context(),
		}}
	}
}
