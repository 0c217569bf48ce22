package host

import (
	"strings"
	"testing"
)

// TestLogByStep: each line is shown under the step it was written in; a step that wrote
// nothing leaves no heading; a line of the bot's that looks like a heading is indented, so
// the page cannot take it for one; since leaves out an earlier match's lines.
func TestLogByStep(t *testing.T) {
	l := NewLog(1<<10, 1<<10)
	l.Write([]byte("loading\n"))
	l.Mark(1)
	l.Write([]byte("move one\n"))
	l.Mark(2) // writes nothing
	l.Mark(3)
	l.Write([]byte("move three, "))
	l.Write([]byte("one line in two writes\n--- step 9 ---\n"))
	got := FormatSteps(l.StepTailSince(0, 10))
	want := strings.Join([]string{
		"--- before the first move ---", "loading",
		"--- step 1 ---", "move one",
		"--- step 3 ---", "move three, one line in two writes", " --- step 9 ---",
	}, "\n")
	if got != want {
		t.Fatalf("got\n%s\nwant\n%s", got, want)
	}
	since := l.Total()
	l.Mark(1)
	l.Write([]byte("next match\n"))
	if got := FormatSteps(l.StepTailSince(since, 10)); got != "--- step 1 ---\nnext match" {
		t.Fatalf("since the next match: %q", got)
	}
	if got := l.StepTailSince(0, 2); len(got) != 2 || got[0].Text != "--- step 9 ---" || got[1].Step != 1 {
		t.Fatalf("the last 2 lines: %+v", got)
	}
}

// TestLogMarksBounded: a match of many steps keeps at most maxMarks marks, the newest.
func TestLogMarksBounded(t *testing.T) {
	l := NewLog(64, 64)
	for step := int64(1); step <= 3*maxMarks; step++ {
		l.Mark(step)
		l.Write([]byte("x\n"))
	}
	if len(l.marks) > maxMarks {
		t.Fatalf("%d marks kept", len(l.marks))
	}
	if got := l.StepTailSince(0, 1); len(got) != 1 || got[0].Step != 3*maxMarks {
		t.Fatalf("the last line: %+v", got)
	}
}
