package proctable

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// stat returns the fields of /proc/<pid>/stat after the command name (state, ppid, pgrp...).
func stat(pid string) (string, []string, bool) {
	b, err := os.ReadFile(filepath.Join("/proc", pid, "stat"))
	if err != nil {
		return "", nil, false
	}
	s := string(b)
	i := strings.LastIndexByte(s, ')')
	if i < 0 {
		return "", nil, false
	}
	return s[:i+1], strings.Fields(s[i+1:]), true
}

func pids() []string {
	ents, _ := os.ReadDir("/proc")
	var out []string
	for _, e := range ents {
		if _, err := strconv.Atoi(e.Name()); err == nil {
			out = append(out, e.Name())
		}
	}
	return out
}

// Of lists the processes that are pid itself (even a zombie) or in its process group.
func Of(pid int) []string {
	want := strconv.Itoa(pid)
	var out []string
	for _, p := range pids() {
		name, f, ok := stat(p)
		if ok && len(f) > 2 && (p == want || f[2] == want) {
			out = append(out, fmt.Sprintf("pid %s state %s %s", p, f[0], name))
		}
	}
	return out
}

// UIDOf is the real uid of pid, or -1.
func UIDOf(pid string) int {
	b, err := os.ReadFile(filepath.Join("/proc", pid, "status"))
	if err != nil {
		return -1
	}
	for _, line := range strings.Split(string(b), "\n") {
		if f := strings.Fields(line); len(f) > 1 && f[0] == "Uid:" {
			n, _ := strconv.Atoi(f[1])
			return n
		}
	}
	return -1
}

// WithUID lists the processes running as uid.
func WithUID(uid int) []string {
	var out []string
	for _, p := range pids() {
		if UIDOf(p) == uid {
			out = append(out, p)
		}
	}
	return out
}

// Children lists the direct children of pid.
func Children(pid int) []int {
	var out []int
	tasks, _ := filepath.Glob(filepath.Join("/proc", strconv.Itoa(pid), "task", "*", "children"))
	for _, task := range tasks {
		b, _ := os.ReadFile(task)
		for _, f := range strings.Fields(string(b)) {
			if n, err := strconv.Atoi(f); err == nil {
				out = append(out, n)
			}
		}
	}
	return out
}

// WaitGone fails the test when left still returns processes after a few seconds.
func WaitGone(t testing.TB, what string, left func() []string) {
	t.Helper()
	deadline := time.Now().Add(3 * time.Second)
	for {
		l := left()
		if len(l) == 0 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s: processes left: %v", what, l)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// AssertGone checks that pid and its process group have left the process table.
func AssertGone(t testing.TB, pid int) {
	t.Helper()
	if pid <= 0 {
		t.Fatal("proctable: no pid to check")
	}
	WaitGone(t, fmt.Sprintf("process %d", pid), func() []string { return Of(pid) })
}
