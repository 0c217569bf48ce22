package tournament

import (
	"fmt"
	"math"
	"strconv"
	"time"

	"github.com/botarena/arena/sandbox"
)

// Policy is the most a job may ask of a worker: what the coordinator's jobs are expected to
// ask, set on the worker's side so that whoever publishes a job cannot make a machine run a
// bot with more memory, processes, CPU or time than its owner allows.
type Policy struct {
	// Limits are per bot; a zero field means the sandbox default, a negative one no limit.
	Limits sandbox.Limits
	// Deadline bounds a job's time per move and its bots' start timeout (0: 30 s).
	Deadline time.Duration
}

// DefaultDeadline is a worker's default bound on a job's time per move.
const DefaultDeadline = 30 * time.Second

// allows refuses a job that asks more than p.
func (p Policy) allows(j Job) error {
	most, ask := p.Limits, j.Limits
	d := sandbox.DefaultLimits()
	// 0 is the sandbox default (none for wall time), a negative value no limit: more than any.
	v := func(x, def float64) float64 {
		switch {
		case x < 0 || (x == 0 && def == 0):
			return math.Inf(1)
		case x == 0:
			return def
		}
		return x
	}
	for _, b := range []struct {
		what      string
		ask, most float64
		def       float64
	}{
		{"memory (bytes)", float64(ask.MemoryBytes), float64(most.MemoryBytes), float64(d.MemoryBytes)},
		{"processes", float64(ask.Processes), float64(most.Processes), float64(d.Processes)},
		{"CPU seconds", float64(ask.CPUSeconds), float64(most.CPUSeconds), float64(d.CPUSeconds)},
		{"cores", ask.CPUs, most.CPUs, d.CPUs},
		{"output (bytes)", float64(ask.OutputBytes), float64(most.OutputBytes), float64(d.OutputBytes)},
		{"file size (bytes)", float64(ask.FileBytes), float64(most.FileBytes), float64(d.FileBytes)},
		{"disk (bytes)", float64(ask.DiskBytes), float64(most.DiskBytes), float64(d.DiskBytes)},
		{"open files", float64(ask.OpenFiles), float64(most.OpenFiles), float64(d.OpenFiles)},
		{"wall time (ns)", float64(ask.WallTime), float64(most.WallTime), 0},
	} {
		if a, m := v(b.ask, b.def), v(b.most, b.def); a > m {
			return fmt.Errorf("it asks for %s %s, more than this worker allows (%s; raise the worker's --max-* flags if the coordinator means it)", b.what, limitText(a), limitText(m))
		}
	}
	most1 := p.Deadline
	if most1 <= 0 {
		most1 = DefaultDeadline
	}
	for _, t := range []time.Duration{j.Config.Deadline, j.Config.StartTimeout, j.Config.StartDeadline, j.Config.EndDeadline} {
		if t > most1 {
			return fmt.Errorf("it gives a bot %v for a move or a start, more than this worker allows (%v; raise its --max-move-time if the coordinator means it)", t, most1)
		}
	}
	// A whole-match clock or bank is many moves' worth, bounded too.
	for _, t := range []time.Duration{time.Duration(j.Config.ClockMs) * time.Millisecond, j.Config.Bank} {
		if t > 1000*most1 {
			return fmt.Errorf("it gives a bot a clock of %v, more than this worker allows (1000 x %v; raise its --max-move-time if the coordinator means it)", t, most1)
		}
	}
	return nil
}

func limitText(x float64) string {
	if math.IsInf(x, 1) {
		return "without limit"
	}
	return strconv.FormatFloat(x, 'f', -1, 64)
}
