package bounded

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// Sizes of the text the host keeps from a bot, in bytes (before any cut marker).
const (
	// Name bounds a one-line field: a Describe name, author, version, game or SDK.
	Name = 128
	// Line bounds one kept line of stderr or of a traceback.
	Line = 512
	// Message bounds a one-line message: a BotError's message, a refusal, an error text.
	Message = 1 << 10
	// Trace bounds a traceback or stack.
	Trace = 3 << 10
	// Detail bounds a whole fault report (message, traceback, stderr lines).
	Detail = 6 << 10
	// Games bounds how many games a bot may list in Describe.
	Games = 16
)

// Text returns s cut to about max bytes: its head and its tail, valid UTF-8, with a marker
// saying how many bytes were cut. The result never shares memory with s.
func Text(s string, max int) string {
	if len(s) <= max {
		return clean(s)
	}
	marker := cutMarker(len(s) - max)
	head := max / 2
	tail := max - head
	h := s[:runeStart(s, head)]
	t := s[runeStart(s, len(s)-tail):]
	var b strings.Builder
	b.Grow(len(h) + len(marker) + len(t))
	b.WriteString(strings.ToValidUTF8(h, "?"))
	b.WriteString(marker)
	b.WriteString(strings.ToValidUTF8(t, "?"))
	return b.String()
}

// OneLine is Text for a field shown on one line: control characters (newlines included)
// become spaces, so a name cannot forge lines of a report or a table.
func OneLine(s string, max int) string {
	s = Text(s, max)
	if strings.IndexFunc(s, isControl) < 0 {
		return s
	}
	return strings.Map(func(r rune) rune {
		if isControl(r) {
			return ' '
		}
		return r
	}, s)
}

// Lines cuts each line to Line bytes, then the whole to max (head and tail kept).
func Lines(s string, max int) string {
	if len(s) > 4*max {
		// Cut first so a flood of short lines is not split into a huge slice.
		s = Text(s, 2*max)
	}
	ls := strings.Split(s, "\n")
	for i, l := range ls {
		if len(l) > Line {
			ls[i] = Text(l, Line)
		}
	}
	return Text(strings.Join(ls, "\n"), max)
}

func isControl(r rune) bool { return r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0) }

func cutMarker(n int) string { return "\n[... " + strconv.Itoa(n) + " bytes cut ...]\n" }

// runeStart moves i back to the start of a UTF-8 sequence (at most 3 bytes back).
func runeStart(s string, i int) int {
	for j := 0; j < utf8.UTFMax && i > 0 && i < len(s) && !utf8.RuneStart(s[i]); j++ {
		i--
	}
	return i
}

// clean copies s (so the result does not keep a larger string alive) as valid UTF-8.
func clean(s string) string {
	if utf8.ValidString(s) {
		return strings.Clone(s)
	}
	return strings.ToValidUTF8(s, "?")
}

// Size says a byte count as people read it: 64 MiB, 512 KiB, 1.5 GiB, 300 bytes.
func Size(n int64) string {
	units := []string{"KiB", "MiB", "GiB", "TiB"}
	if n < 1<<10 && n > -1<<10 {
		return strconv.FormatInt(n, 10) + " bytes"
	}
	v, u := float64(n)/(1<<10), 0
	for u < len(units)-1 && (v >= 1<<10 || v <= -1<<10) {
		v /= 1 << 10
		u++
	}
	s := strconv.FormatFloat(v, 'f', 1, 64)
	s = strings.TrimSuffix(s, ".0")
	return s + " " + units[u]
}
