package host

import (
	"bytes"
	"os"
	"strconv"
	"time"
)

// hostRunQueue is the run-queue delay of the host's own threads so far (the second field of
// /proc/self/task/<tid>/schedstat, summed; 0 where there is none). It over-counts for a host
// playing several matches (a thread of another match waiting counts too): that only gives
// bots more room, never less.
func hostRunQueue() time.Duration {
	d, err := os.Open("/proc/self/task")
	if err != nil {
		return 0
	}
	names, _ := d.Readdirnames(-1)
	_ = d.Close()
	var sum time.Duration
	var buf [128]byte
	for _, n := range names {
		f, err := os.Open("/proc/self/task/" + n + "/schedstat")
		if err != nil {
			continue
		}
		k, _ := f.Read(buf[:])
		_ = f.Close()
		fields := bytes.Fields(buf[:k])
		if len(fields) < 2 {
			continue
		}
		if ns, err := strconv.ParseInt(string(fields[1]), 10, 64); err == nil {
			sum += time.Duration(ns)
		}
	}
	return sum
}
