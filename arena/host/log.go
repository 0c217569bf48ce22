package host

import (
	"bytes"
	"io"
	"sort"
	"strings"
	"sync"

	"github.com/botarena/arena/arena/bounded"
)

// Log keeps what a bot wrote to stderr (and stray stdout), capped: the first HeadCap bytes
// and the last TailCap bytes are kept, the middle is counted and dropped.
type Log struct {
	mu      sync.Mutex
	head    []byte
	tail    []byte // ring of the most recent bytes, at most tailCap
	headCap int
	tailCap int
	total   int64
	// Limit and OnLimit: OnLimit runs once when the total passes Limit (0 = no limit).
	Limit   int64
	OnLimit func()
	fired   bool
	// Live, when set, gets every write as it comes (after it is counted; its errors are
	// ignored): a live view of the bot's output.
	Live io.Writer
	// marks say from which byte of the stream the output is a step's (Mark), oldest first,
	// at strictly increasing offsets, at most maxMarks.
	marks []logMark
}

// logMark: the output from byte at on was written during step.
type logMark struct{ step, at int64 }

// maxMarks bounds the step marks a log keeps (a step that wrote nothing takes no mark).
const maxMarks = 4096

// NewLog makes a log keeping headCap + tailCap bytes.
func NewLog(headCap, tailCap int) *Log {
	return &Log{headCap: headCap, tailCap: tailCap}
}

// Write never fails and never blocks on anything but the mutex.
func (l *Log) Write(p []byte) (int, error) {
	l.mu.Lock()
	l.total += int64(len(p))
	fire := l.Limit > 0 && l.total > l.Limit && !l.fired && l.OnLimit != nil
	if fire {
		l.fired = true
	}
	rest := p
	if n := l.headCap - len(l.head); n > 0 {
		if n > len(rest) {
			n = len(rest)
		}
		l.head = append(l.head, rest[:n]...)
		rest = rest[n:]
	}
	if len(rest) > 0 {
		if len(rest) >= l.tailCap {
			l.tail = append(l.tail[:0], rest[len(rest)-l.tailCap:]...)
		} else {
			l.tail = append(l.tail, rest...)
			if over := len(l.tail) - l.tailCap; over > 0 {
				l.tail = append(l.tail[:0], l.tail[over:]...)
			}
		}
	}
	l.mu.Unlock()
	if l.Live != nil {
		_, _ = l.Live.Write(p)
	}
	if fire {
		l.OnLimit()
	}
	return len(p), nil
}

// Mark says that what the bot writes from now on belongs to step (the match's step, as in
// ActRequest.step; 0 before the first move). A step that writes nothing replaces its mark.
func (l *Log) Mark(step int64) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if n := len(l.marks); n > 0 && l.marks[n-1].at == l.total {
		l.marks[n-1].step = step
		return
	}
	if len(l.marks) == maxMarks {
		l.marks = append(l.marks[:0], l.marks[maxMarks/2:]...)
	}
	l.marks = append(l.marks, logMark{step: step, at: l.total})
}

// StepLine is one line of a bot's output and the step it was written in.
type StepLine struct {
	Step int64
	Text string
}

// StepTailSince is TailSince with the step of each line (the step its first byte was
// written in).
func (l *Log) StepTailSince(since int64, n int) []StepLine {
	l.mu.Lock()
	src := l.tail
	start := l.total - int64(len(l.tail))
	if len(src) == 0 {
		src, start = l.head, 0
	}
	if skip := since - start; skip > 0 {
		if skip >= int64(len(src)) {
			src = nil
		} else {
			src, start = src[skip:], since
		}
	}
	src = bytes.Clone(src)
	marks := append([]logMark(nil), l.marks...)
	l.mu.Unlock()
	var out []StepLine
	for end := len(src); end > 0 && len(out) < n; {
		begin := bytes.LastIndexByte(src[:end], '\n') + 1
		if s := strings.TrimRight(strings.ToValidUTF8(string(src[begin:end]), "?"), "\r "); s != "" {
			if len(s) > bounded.Line {
				s = bounded.Text(s, bounded.Line)
			}
			out = append(out, StepLine{Step: stepAt(marks, start+int64(begin)), Text: s})
		}
		end = begin - 1
	}
	for i, j := 0, len(out)-1; i < j; i, j = i+1, j-1 {
		out[i], out[j] = out[j], out[i]
	}
	return out
}

// stepAt is the step of the byte at offset: the last mark at or before it (0: none).
func stepAt(marks []logMark, at int64) int64 {
	i := sort.Search(len(marks), func(i int) bool { return marks[i].at > at })
	if i == 0 {
		return 0
	}
	return marks[i-1].step
}

// StepHeading is the line that starts a step's output in FormatSteps' text.
func StepHeading(step int64) string {
	if step == 0 {
		return StepPrefix + "before the first move ---"
	}
	return StepPrefix + "step " + itoa(step) + " ---"
}

// StepPrefix begins every heading line of FormatSteps; a bot's own line that begins so is
// shown indented, so no output can pass for a heading.
const StepPrefix = "--- "

// FormatSteps writes lines as text with a heading line where the step changes.
func FormatSteps(lines []StepLine) string {
	var b strings.Builder
	last := int64(-1)
	for _, ln := range lines {
		if ln.Step != last {
			b.WriteString(StepHeading(ln.Step) + "\n")
			last = ln.Step
		}
		if strings.HasPrefix(ln.Text, StepPrefix) {
			b.WriteByte(' ')
		}
		b.WriteString(ln.Text + "\n")
	}
	return strings.TrimSuffix(b.String(), "\n")
}

// Total is the number of bytes written so far.
func (l *Log) Total() int64 {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.total
}

// String is the kept text, with a marker where bytes were dropped.
func (l *Log) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	var b strings.Builder
	b.Write(l.head)
	dropped := l.total - int64(len(l.head)) - int64(len(l.tail))
	if dropped > 0 {
		b.WriteString("\n[... " + itoa(dropped) + " bytes dropped ...]\n")
	}
	b.Write(l.tail)
	return b.String()
}

// Tail returns the last n non-empty lines written.
func (l *Log) Tail(n int) []string { return l.TailSince(0, n) }

// TailSince returns the last n non-empty lines among the bytes written after the first since
// bytes (since = an earlier Total), so a bot process reused across matches shows in a fault
// report only what it wrote during that match.
func (l *Log) TailSince(since int64, n int) []string {
	l.mu.Lock()
	src := l.tail
	start := l.total - int64(len(l.tail)) // offset of src[0] in the whole stream
	if len(src) == 0 {
		src, start = l.head, 0
	}
	if skip := since - start; skip > 0 {
		if skip >= int64(len(src)) {
			src = nil
		} else {
			src = src[skip:]
		}
	}
	src = bytes.Clone(src)
	l.mu.Unlock()
	lines := strings.Split(strings.ToValidUTF8(string(src), "?"), "\n")
	var out []string
	for i := len(lines) - 1; i >= 0 && len(out) < n; i-- {
		if s := strings.TrimRight(lines[i], "\r "); s != "" {
			if len(s) > bounded.Line {
				s = bounded.Text(s, bounded.Line)
			}
			out = append(out, s)
		}
	}
	for i, j := 0, len(out)-1; i < j; i, j = i+1, j-1 {
		out[i], out[j] = out[j], out[i]
	}
	return out
}

func itoa(n int64) string {
	var buf [20]byte
	i := len(buf)
	if n == 0 {
		return "0"
	}
	for n > 0 {
		i--
		buf[i] = byte('0' + n%10)
		n /= 10
	}
	return string(buf[i:])
}
