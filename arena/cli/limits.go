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
	f.Int64Var(&memMiB, "memory", sandbox.DefaultMemoryBytes>>20, "memory limit per bot, MiB")
	f.IntVar(&procs, "procs", sandbox.DefaultProcesses, "process and thread limit per bot")
	f.IntVar(&cpuSecs, "cpu-seconds", sandbox.DefaultCPUSeconds, "total CPU time per bot process, seconds")
	f.Float64Var(&cpus, "cpus", sandbox.DefaultCPUs, "cores a bot may use at once")
	f.Int64Var(&outMiB, "output", sandbox.DefaultOutputBytes>>20, "stdout+stderr a bot may write, MiB")
	f.Int64Var(&diskMiB, "disk", sandbox.DefaultDiskBytes>>20, "what a bot may write into its private directory, MiB")
	return func(o *host.Options) {
		o.Strict = strict
		o.Limits = sandbox.Limits{MemoryBytes: memMiB << 20, Processes: procs, CPUSeconds: cpuSecs, CPUs: cpus,
			OutputBytes: outMiB << 20, DiskBytes: diskMiB << 20}
	}
}
