// Command stdiospend is a stdio program (docs/protocol.md section 11) that uses 80 % of each
// move's budget in CPU time, then plays rock: behind the stdio bridge, under the CPU clock, it
// must never time out however busy the machine is.
package main

import (
	"bufio"
	"encoding/json"
	"os"
	"strconv"
	"syscall"
	"time"
)

// request holds the only fields the answers need.
type request struct {
	Describe *struct{} `json:"describe"`
	Act      *struct {
		Step     json.RawMessage `json:"step"`
		BudgetUs string          `json:"budgetUs"`
	} `json:"act"`
}

func main() {
	in := bufio.NewReaderSize(os.Stdin, 1<<20)
	out := bufio.NewWriter(os.Stdout)
	for {
		line, err := in.ReadSlice('\n')
		if err != nil {
			return
		}
		var req request
		switch {
		case json.Unmarshal(line, &req) != nil:
			out.WriteString("{}\n")
		case req.Describe != nil:
			out.WriteString(`{"name":"spend80-stdio","games":["dynamite"],"sdk":"go-stdio/bench"}` + "\n")
		case req.Act != nil:
			us, _ := strconv.ParseInt(req.Act.BudgetUs, 10, 64)
			burn(time.Duration(us) * time.Microsecond * 8 / 10)
			out.WriteString(`{"step":`)
			out.Write(req.Act.Step)
			out.WriteString(`,"dynamite":{"move":"DYNAMITE_MOVE_ROCK"}}` + "\n")
		default:
			out.WriteString("{}\n")
		}
		if err := out.Flush(); err != nil {
			return
		}
	}
}

// burn spins until the process has used d more CPU time.
func burn(d time.Duration) {
	end := cpuTime() + d
	for cpuTime() < end {
	}
}

func cpuTime() time.Duration {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
