package bounded

import (
	"strconv"
	"strings"
)

const pyHeader = "Traceback (most recent call last):"

// libraryPaths mark a Python frame that is not the bot's own code.
var libraryPaths = []string{"/site-packages/", "/dist-packages/", "/lib/python", "/arena_sdk/", "<frozen ", "<string>"}

// Traceback cuts a traceback or stack to about max bytes. A Python traceback keeps its
// header, the bot's own frames, the innermost frames and the final error; anything else
// (a Go stack) keeps its head and its tail like Text.
func Traceback(tb string, max int) string {
	if len(tb) <= max {
		return Lines(tb, max)
	}
	i := strings.LastIndex(tb, pyHeader)
	if i < 0 {
		return Lines(tb, max)
	}
	// Chained exceptions come first; the last traceback is the one that ended the move.
	var b strings.Builder
	if i > 0 {
		b.WriteString("[... " + strconv.Itoa(i) + " bytes of earlier chained exceptions cut ...]\n")
	}
	t := parsePy(tb[i:])
	final := Lines(t.final, max/4)
	budget := max - b.Len() - len(pyHeader) - len(final) - 2
	keep := make([]bool, len(t.frames))
	// Priority: the frame that raised, the bot's frames from the innermost out, then the
	// outermost frame and the rest from the innermost out, while they fit.
	order := make([]int, 0, len(t.frames))
	if n := len(t.frames); n > 0 {
		order = append(order, n-1)
		for j := n - 2; j >= 0; j-- {
			if t.frames[j].own {
				order = append(order, j)
			}
		}
		order = append(order, 0)
		for j := n - 2; j > 0; j-- {
			if !t.frames[j].own {
				order = append(order, j)
			}
		}
	}
	for _, j := range order {
		if keep[j] {
			continue
		}
		c := len(t.frames[j].text) + 40
		if c > budget && j == len(t.frames)-1 {
			// The frame that raised is always kept, but only what is left of the budget of it
			// (a quarter of max at least): one frame's lines may be many and long.
			t.frames[j].text = Text(t.frames[j].text, atLeast(budget-40, max/4))
			c = len(t.frames[j].text) + 40
		}
		if c <= budget || j == len(t.frames)-1 {
			keep[j] = true
			budget -= c
		}
	}
	b.WriteString(pyHeader)
	b.WriteByte('\n')
	cut := 0
	for j, f := range t.frames {
		if !keep[j] {
			cut++
			continue
		}
		if cut > 0 {
			b.WriteString("  [... " + strconv.Itoa(cut) + " frames cut ...]\n")
			cut = 0
		}
		b.WriteString(f.text)
	}
	if cut > 0 {
		b.WriteString("  [... " + strconv.Itoa(cut) + " frames cut ...]\n")
	}
	b.WriteString(final)
	return strings.ToValidUTF8(b.String(), "?")
}

type pyFrame struct {
	text string // its lines, each cut to Line, ending in "\n"
	own  bool
}

type pyTrace struct {
	frames []pyFrame
	final  string
}

// parsePy splits a traceback that starts with its header into frames and the final error.
func parsePy(tb string) pyTrace {
	var t pyTrace
	rest := tb[len(pyHeader):]
	rest = strings.TrimPrefix(rest, "\n")
	var cur *strings.Builder
	flush := func(own bool) {
		if cur != nil {
			t.frames = append(t.frames, pyFrame{text: cur.String(), own: own})
			cur = nil
		}
	}
	own := false
	for rest != "" {
		line := rest
		if k := strings.IndexByte(rest, '\n'); k >= 0 {
			line, rest = rest[:k], rest[k+1:]
		} else {
			rest = ""
		}
		switch {
		case strings.HasPrefix(line, `  File "`):
			flush(own)
			cur = &strings.Builder{}
			own = isOwnFrame(line)
		case strings.HasPrefix(line, "    ") || strings.HasPrefix(line, "  [Previous line repeated"):
			// Source line, carets or a repeat note: part of the current frame.
		default:
			// The first unindented line after the frames starts the final error.
			flush(own)
			t.final = line + "\n" + rest
			return t
		}
		if cur != nil {
			if len(line) > Line {
				line = Text(line, Line)
			}
			cur.WriteString(line)
			cur.WriteByte('\n')
		}
	}
	flush(own)
	return t
}

func isOwnFrame(line string) bool {
	path := strings.TrimPrefix(line, `  File "`)
	if k := strings.IndexByte(path, '"'); k >= 0 {
		path = path[:k]
	}
	for _, p := range libraryPaths {
		if strings.Contains(path, p) {
			return false
		}
	}
	return true
}

func atLeast(n, floor int) int {
	if n < floor {
		return floor
	}
	return n
}
