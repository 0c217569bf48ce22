package bench

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"time"
)

// Figure is one measured number.
type Figure struct {
	Section string  `json:"section"`
	Name    string  `json:"name"`
	Value   float64 `json:"value"`
	Unit    string  `json:"unit"`
	// FloorX is the value divided by the pipe round trip of the same run (time figures only).
	FloorX float64 `json:"floor_x,omitempty"`
	// PeerX is the figure as a multiple of the same figure of Peer, the stdio referee measured
	// in the same run (see peer.go): value / the peer's for a time, the peer's rate / value for
	// a rate, so that both read "costs this many times what the peer costs".
	PeerX float64 `json:"peer_x,omitempty"`
	// Peer names the anchor of PeerX: "Go peer" or "Python peer".
	Peer string `json:"peer,omitempty"`
	// Target says what the issue asks for, if it sets a target for this figure.
	Target string `json:"target,omitempty"`
	// Holds is set when the figure has a target.
	Holds *bool  `json:"holds,omitempty"`
	Note  string `json:"note,omitempty"`
	// Missing says why a figure could not be measured (Value is then 0).
	Missing string `json:"missing,omitempty"`
}

// Machine describes where the bench ran.
type Machine struct {
	CPUs      int    `json:"cpus"`
	CPUModel  string `json:"cpu_model"`
	GoVersion string `json:"go_version"`
	Python    string `json:"python,omitempty"`
	// Load is the 1-minute load average at the start and at the end of the run: on a shared
	// machine every figure, the floor included, moves with it.
	Load [2]string `json:"load"`
}

// Report is the outcome of one bench run.
type Report struct {
	Machine Machine       `json:"machine"`
	Quick   bool          `json:"quick"`
	Took    time.Duration `json:"took_ns"`
	// PipeFloor is the pipe round trip p50 every FloorX is relative to.
	PipeFloor time.Duration `json:"pipe_floor_ns"`
	// PeerGo and PeerPython are the peers' move p50s (0: not measured), the anchors of PeerX.
	PeerGo     time.Duration `json:"peer_go_ns,omitempty"`
	PeerPython time.Duration `json:"peer_python_ns,omitempty"`
	Figures    []Figure      `json:"figures"`
}

// Find returns the figure with this section and name.
func (r *Report) Find(section, name string) (Figure, bool) {
	for _, f := range r.Figures {
		if f.Section == section && f.Name == name {
			return f, true
		}
	}
	return Figure{}, false
}

// WriteJSON writes the report as indented JSON.
func (r *Report) WriteJSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(r)
}

// WriteTable writes the report as a table: every figure next to the floor and its target.
func (r *Report) WriteTable(w io.Writer) error {
	fmt.Fprintf(w, "arena bench%s: %d CPUs, %s, %s", map[bool]string{true: " --quick"}[r.Quick], r.Machine.CPUs, r.Machine.CPUModel, r.Machine.GoVersion)
	if r.Machine.Python != "" {
		fmt.Fprintf(w, ", %s", r.Machine.Python)
	}
	fmt.Fprintf(w, "\npeer (a line to a minimal stdio bot in the bots' sandbox and back, p50): Go %s, Python %s: x peer is a figure's multiple of its peer's\n",
		peerText(r.PeerGo), peerText(r.PeerPython))
	fmt.Fprintf(w, "floor (pipe round trip p50, for reference): %s; took %v; load average %s at the start, %s at the end\n\n",
		fmtDur(r.PipeFloor), r.Took.Round(time.Millisecond), r.Machine.Load[0], r.Machine.Load[1])
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "section\tfigure\tvalue\tx peer\tx pipe\ttarget\tok\tnote")
	for _, f := range r.Figures {
		val, x, ok := f.value(), "", ""
		if f.FloorX > 0 {
			x = fmt.Sprintf("%.1fx", f.FloorX)
		}
		if f.Holds != nil {
			ok = mark(*f.Holds)
		}
		note := f.Note
		if f.Missing != "" {
			note = "not measured: " + f.Missing
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", f.Section, f.Name, val, f.peerX(), x, f.Target, ok, note)
	}
	return tw.Flush()
}

// WriteMarkdown writes the figures as a Markdown table, the form of README.md's performance
// table, so the README is pasted from a saved run (arena bench --markdown --from RUN.json)
// instead of typed by hand.
func (r *Report) WriteMarkdown(w io.Writer) error {
	var b strings.Builder
	b.WriteString("| section | figure | value | x peer | x pipe | target | holds |\n|---|---|---|---|---|---|---|\n")
	for _, f := range r.Figures {
		x, ok := "", ""
		if f.FloorX > 0 {
			x = fmt.Sprintf("%.1fx", f.FloorX)
		}
		if f.Holds != nil {
			ok = map[bool]string{true: "✓", false: "✗"}[*f.Holds]
		}
		fmt.Fprintf(&b, "| %s | %s | %s | %s | %s | %s | %s |\n", f.Section, cell(f.Name), f.value(), f.peerX(), x, cell(f.Target), ok)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// cell keeps a figure's text from breaking its Markdown row.
func cell(s string) string { return strings.ReplaceAll(s, "|", "\\|") }

func (f Figure) value() string {
	if f.Missing != "" {
		return "-"
	}
	switch f.Unit {
	case "ns":
		return fmtDur(time.Duration(f.Value))
	case "B":
		if f.Value >= 1<<20 {
			return fmt.Sprintf("%.1f MiB", f.Value/(1<<20))
		}
		return fmt.Sprintf("%.0f B", f.Value)
	case "/s":
		if f.Value >= 100 {
			return fmt.Sprintf("%.0f/s", f.Value)
		}
		return fmt.Sprintf("%.2f/s", f.Value)
	case "x":
		return fmt.Sprintf("%.2fx", f.Value)
	default:
		return strings.TrimSpace(fmt.Sprintf("%.4g %s", f.Value, f.Unit))
	}
}

// peerX is how the table shows PeerX: "2.1x Go peer", three significant digits (the in-process
// ceiling is a few thousandths of the peer).
func (f Figure) peerX() string {
	if f.PeerX <= 0 {
		return ""
	}
	return fmt.Sprintf("%.3gx %s", f.PeerX, f.Peer)
}

func peerText(d time.Duration) string {
	if d <= 0 {
		return "not measured"
	}
	return fmtDur(d)
}

func fmtDur(d time.Duration) string {
	switch {
	case d >= time.Second:
		return fmt.Sprintf("%.2fs", d.Seconds())
	case d >= 10*time.Millisecond:
		return fmt.Sprintf("%.0fms", float64(d)/1e6)
	case d >= time.Millisecond:
		return fmt.Sprintf("%.2fms", float64(d)/1e6)
	default:
		return fmt.Sprintf("%.1fus", float64(d)/1e3)
	}
}

// mark is how a target is shown: a target is a benchmark's claim, printed, never asserted.
func mark(holds bool) string {
	if holds {
		return "met"
	}
	return "not met"
}
