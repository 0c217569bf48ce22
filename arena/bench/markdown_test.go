package bench

import (
	"bytes"
	"strings"
	"testing"
	"time"
)

// TestMarkdownIsOneRowPerFigure: README.md's performance table is pasted from this output, so
// every figure must make exactly one well-formed row, with its target's verdict.
func TestMarkdownIsOneRowPerFigure(t *testing.T) {
	t.Parallel()
	yes, no := true, false
	r := &Report{PipeFloor: 20 * time.Microsecond, Figures: []Figure{
		{Section: "move", Name: "Go bot p50", Value: 30e3, Unit: "ns", FloorX: 1.5, PeerX: 2.5, Peer: "Go peer", Target: "<= 1.5x Go peer", Holds: &no},
		{Section: "scaling", Name: "in-process, 2 / 1 workers", Value: 1.9, Unit: "x", Target: ">= 1.8x", Holds: &yes},
		{Section: "odd", Name: "a | b", Value: 3, Unit: "B"},
	}}
	var buf bytes.Buffer
	if err := r.WriteMarkdown(&buf); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(buf.String(), "\n"), "\n")
	if len(lines) != 2+len(r.Figures) {
		t.Fatalf("%d lines for %d figures:\n%s", len(lines), len(r.Figures), buf.String())
	}
	for _, want := range []string{
		"| move | Go bot p50 | 30.0us | 2.5x Go peer | 1.5x | <= 1.5x Go peer | ✗ |",
		"| scaling | in-process, 2 / 1 workers | 1.90x |  |  | >= 1.8x | ✓ |",
		`| odd | a \| b | 3 B |  |  |  |  |`,
	} {
		if !strings.Contains(buf.String(), want+"\n") {
			t.Errorf("no row %q in:\n%s", want, buf.String())
		}
	}
}
