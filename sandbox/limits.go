package sandbox

import "time"

// Limits bound what a process tree may use. Zero means the default; negative means unlimited.
type Limits struct {
	// MemoryBytes caps the tree's memory (cgroup; rlimit on data size as the fallback).
	MemoryBytes int64
	// Processes caps the number of processes and threads of the tree.
	Processes int
	// CPUSeconds caps the total CPU time of the tree.
	CPUSeconds int
	// CPUs caps the share of the machine the tree may use at any moment (1 = one core).
	CPUs float64
	// OutputBytes caps what the process may write to stdout and stderr together.
	OutputBytes int64
	// FileBytes caps the size of any one file it writes.
	FileBytes int64
	// DiskBytes caps everything it writes into its work directory (a tmpfs of that size).
	DiskBytes int64
	// OpenFiles caps open file descriptors per process.
	OpenFiles int
	// WallTime caps the lifetime of the process (0 = default = none).
	WallTime time.Duration
}

// Default limits: enough for a Python bot with grpc (about 60-120 MB, a few dozen threads)
// or a Go bot, small enough that a hostile bot cannot hurt the machine.
const (
	DefaultMemoryBytes = 512 << 20
	DefaultProcesses   = 128
	DefaultCPUSeconds  = 600
	DefaultCPUs        = 1.0
	DefaultOutputBytes = 64 << 20
	DefaultFileBytes   = 64 << 20
	DefaultDiskBytes   = 64 << 20
	DefaultOpenFiles   = 256
)

// DefaultLimits returns the limits used for every zero field.
func DefaultLimits() Limits {
	return Limits{
		MemoryBytes: DefaultMemoryBytes, Processes: DefaultProcesses, CPUSeconds: DefaultCPUSeconds,
		CPUs: DefaultCPUs, OutputBytes: DefaultOutputBytes, FileBytes: DefaultFileBytes,
		DiskBytes: DefaultDiskBytes, OpenFiles: DefaultOpenFiles,
	}
}

// withDefaults fills zero fields with the defaults and turns negative ones into 0 (= none).
func (l Limits) withDefaults() Limits {
	d := DefaultLimits()
	pick64 := func(v, def int64) int64 {
		switch {
		case v == 0:
			return def
		case v < 0:
			return 0
		}
		return v
	}
	pick := func(v, def int) int { return int(pick64(int64(v), int64(def))) }
	l.MemoryBytes = pick64(l.MemoryBytes, d.MemoryBytes)
	l.Processes = pick(l.Processes, d.Processes)
	l.CPUSeconds = pick(l.CPUSeconds, d.CPUSeconds)
	switch {
	case l.CPUs == 0:
		l.CPUs = d.CPUs
	case l.CPUs < 0:
		l.CPUs = 0
	}
	l.OutputBytes = pick64(l.OutputBytes, d.OutputBytes)
	l.FileBytes = pick64(l.FileBytes, d.FileBytes)
	l.DiskBytes = pick64(l.DiskBytes, d.DiskBytes)
	l.OpenFiles = pick(l.OpenFiles, d.OpenFiles)
	if l.WallTime < 0 {
		l.WallTime = 0
	}
	return l
}
