package cli

import (
	"github.com/spf13/cobra"

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
