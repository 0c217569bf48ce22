package cli

import (
	"fmt"
	"math"
	"runtime"
	"strconv"
	"time"

	"github.com/spf13/pflag"

	"github.com/botarena/arena/arena/host"
	"github.com/botarena/arena/arena/match"
)

// number is what a range-checked flag may hold.
type number interface {
	~int | ~int64 | ~uint64 | ~float64
}

// rangeFlag is a flag value that refuses, when it is parsed, anything outside [min, max]; the
// error names the flag (pflag adds it with the value), the value and the allowed range.
type rangeFlag[T number] struct {
	p        *T
	min, max T
	// then, when set, runs after each value is accepted (a setting that must hold at once).
	then func()
}

// rangeVar declares a numeric flag whose value must lie in [min, max]; the range is appended to
// the usage text. Use it for every numeric flag: an out-of-range value is refused at parse time,
// before anything is started, allocated or written. time.Duration flags parse as durations.
func rangeVar[T number](f *pflag.FlagSet, p *T, name string, def, min, max T, usage string) {
	if def < min || def > max {
		panic(fmt.Sprintf("flag --%s: default %v outside %v..%v", name, def, min, max))
	}
	*p = def
	r := &rangeFlag[T]{p: p, min: min, max: max}
	f.Var(r, name, fmt.Sprintf("%s (%s to %s)", usage, r.format(min), r.format(max)))
}

func (r *rangeFlag[T]) String() string {
	if r.p == nil {
		return ""
	}
	return r.format(*r.p)
}

func (r *rangeFlag[T]) Set(s string) error {
	v, err := r.parse(s)
	if err != nil {
		return err
	}
	if v < r.min || v > r.max {
		return fmt.Errorf("%s is out of range: allowed %s to %s", r.format(v), r.format(r.min), r.format(r.max))
	}
	*r.p = v
	if r.then != nil {
		r.then()
	}
	return nil
}

func (r *rangeFlag[T]) Type() string {
	switch any(*new(T)).(type) {
	case time.Duration:
		return "duration"
	case float64:
		return "float"
	}
	return "int"
}

func (r *rangeFlag[T]) parse(s string) (T, error) {
	var zero T
	switch any(zero).(type) {
	case time.Duration:
		d, err := time.ParseDuration(s)
		if err != nil {
			return zero, fmt.Errorf("not a duration (write it like 500ms, 2s or 1m30s)")
		}
		return T(d), nil
	case float64:
		f, err := strconv.ParseFloat(s, 64)
		if err != nil || math.IsNaN(f) || math.IsInf(f, 0) {
			return zero, fmt.Errorf("not a number")
		}
		return T(f), nil
	case uint64:
		u, err := strconv.ParseUint(s, 10, 64)
		if err != nil {
			return zero, fmt.Errorf("not a whole number from 0 to %d", uint64(math.MaxUint64))
		}
		return T(u), nil
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		return zero, fmt.Errorf("not a whole number")
	}
	if int64(T(n)) != n { // does not fit T (int on 32 bits)
		return zero, fmt.Errorf("too large")
	}
	return T(n), nil
}

func (r *rangeFlag[T]) format(v T) string {
	switch x := any(v).(type) {
	case time.Duration:
		return x.String()
	case float64:
		return strconv.FormatFloat(x, 'g', -1, 64)
	}
	return fmt.Sprint(v)
}

// timeFlags declares --deadline and --start-timeout, shared by play and tournament.
func timeFlags(f *pflag.FlagSet, deadline, startTimeout, startDeadline, endDeadline *time.Duration) {
	rangeVar(f, deadline, "deadline", time.Second, time.Millisecond, time.Hour, "time a bot has for each move")
	rangeVar(f, startTimeout, "start-timeout", host.DefaultStartTimeout, 100*time.Millisecond, time.Hour, "time a bot has to start and handshake")
	rangeVar(f, startDeadline, "start-deadline", 0, 0, time.Hour, fmt.Sprintf("time a bot has to open its seat (Start), once started; under the CPU clock its CPU time (0: %d x --deadline)", match.StartFactor))
	rangeVar(f, endDeadline, "end-deadline", match.DefaultEndDeadline, time.Millisecond, time.Hour, "time a bot has to close its seat (End)")
}

// maxJobs bounds --jobs: each job keeps its own bot processes, so far more jobs than cores only
// costs memory (a tournament never runs more jobs than it has pending matches either).
func maxJobs() int { return max(64, 8*runtime.NumCPU()) }
