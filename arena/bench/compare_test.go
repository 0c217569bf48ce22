package bench

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestCompareSetsTwoRunsSideBySide(t *testing.T) {
	t.Parallel()
	yes, no := true, false
	a := &Report{PipeFloor: 20 * time.Microsecond, PeerGo: 80 * time.Microsecond, Machine: Machine{CPUs: 2, Load: [2]string{"0.5", "0.6"}}, Figures: []Figure{
		{Section: "move", Name: "Go bot p50", Value: 100e3, Unit: "ns", FloorX: 5, Target: "<= 1.5x Go peer", Holds: &yes, PeerX: 1.25, Peer: "Go peer"},
		{Section: "move", Name: "gone since", Value: 1, Unit: "x"},
	}}
	b := &Report{PipeFloor: 20 * time.Microsecond, PeerGo: 80 * time.Microsecond, Machine: Machine{CPUs: 2, Load: [2]string{"2.1", "2.0"}}, Figures: []Figure{
		{Section: "move", Name: "Go bot p50", Value: 150e3, Unit: "ns", FloorX: 7.5, Target: "<= 1.5x Go peer", Holds: &no, PeerX: 1.875, Peer: "Go peer"},
		{Section: "move", Name: "new figure", Value: 3, Unit: "x"},
	}}
	dir := t.TempDir()
	write := func(name string, r *Report) string {
		var buf bytes.Buffer
		if err := r.WriteJSON(&buf); err != nil {
			t.Fatal(err)
		}
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, buf.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	ra, err := ReadReport(write("a.json", a))
	if err != nil {
		t.Fatal(err)
	}
	rb, err := ReadReport(write("b.json", b))
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if err := WriteCompare(&out, "A", ra, "B", rb); err != nil {
		t.Fatal(err)
	}
	text := out.String()
	var goRow string
	for _, line := range strings.Split(text, "\n") {
		if strings.Contains(line, "Go bot p50") {
			goRow = strings.Join(strings.Fields(line), " ")
		}
	}
	if want := "move Go bot p50 100.0us 150.0us 1.50 1.25x Go peer 1.88x Go peer 5.0x 7.5x <= 1.5x Go peer met not met"; goRow != want {
		t.Errorf("row %q, want %q\n%s", goRow, want, text)
	}
	for _, want := range []string{"peer Go 80.0us, Python not measured", "load 0.5 -> 0.6", "load 2.1 -> 2.0", "new figure", "gone since"} {
		if !strings.Contains(text, want) {
			t.Errorf("no %q in\n%s", want, text)
		}
	}
	if _, err := ReadReport(write("bad.json", &Report{})); !errors.Is(err, ErrNotReport) || !strings.Contains(err.Error(), "--json") {
		t.Errorf("an empty report gives %v", err)
	}
}
