package bench

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"text/tabwriter"
)

// ErrNotReport means a file is not a report written by 'arena bench --json'.
var ErrNotReport = errors.New("not an arena bench report")

// ReadReport reads a report written by 'arena bench --json'.
func ReadReport(path string) (*Report, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var r Report
	if err := json.Unmarshal(b, &r); err != nil {
		return nil, fmt.Errorf("%s: %w (%v): write one with 'arena bench --json > FILE'", path, ErrNotReport, err)
	}
	if len(r.Figures) == 0 || r.PipeFloor <= 0 {
		return nil, fmt.Errorf("%s: %w (no figures or no floor): write one with 'arena bench --json > FILE'", path, ErrNotReport)
	}
	return &r, nil
}

// WriteCompare sets two runs side by side, figure by figure (matched by section and name, in
// b's order, then those only a has): both values, b / a, each one's multiple of its own floor
// and each one's target mark, so a regression shows in review. The machines and loads are
// printed first: figures of different machines or loads are not comparable one to one.
func WriteCompare(w io.Writer, aName string, a *Report, bName string, b *Report) error {
	for _, x := range []struct {
		name string
		r    *Report
	}{{aName, a}, {bName, b}} {
		fmt.Fprintf(w, "%s: %d CPUs, %s, %s, %s; peer Go %s, Python %s; floor %s; load %s -> %s\n", x.name, x.r.Machine.CPUs, x.r.Machine.CPUModel,
			x.r.Machine.GoVersion, x.r.Machine.Python, peerText(x.r.PeerGo), peerText(x.r.PeerPython), fmtDur(x.r.PipeFloor), x.r.Machine.Load[0], x.r.Machine.Load[1])
	}
	fmt.Fprintln(w)
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintf(tw, "section\tfigure\tA\tB\tB / A\tA x peer\tB x peer\tA x pipe\tB x pipe\ttarget\tA\tB\n")
	seen := map[[2]string]bool{}
	row := func(fa, fb *Figure) {
		f := fb
		if f == nil {
			f = fa
		}
		seen[[2]string{f.Section, f.Name}] = true
		val, px, x, ok := func(g *Figure) string {
			if g == nil {
				return "-"
			}
			return g.value()
		}, func(g *Figure) string {
			if g == nil {
				return ""
			}
			return g.peerX()
		}, func(g *Figure) string {
			if g == nil || g.FloorX == 0 {
				return ""
			}
			return fmt.Sprintf("%.1fx", g.FloorX)
		}, func(g *Figure) string {
			if g == nil || g.Holds == nil {
				return ""
			}
			return mark(*g.Holds)
		}
		ratio := ""
		if fa != nil && fb != nil && fa.Missing == "" && fb.Missing == "" && fa.Value != 0 {
			ratio = fmt.Sprintf("%.2f", fb.Value/fa.Value)
		}
		target := f.Target
		if target == "" && fa != nil {
			target = fa.Target
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", f.Section, f.Name, val(fa), val(fb), ratio, px(fa), px(fb), x(fa), x(fb), target, ok(fa), ok(fb))
	}
	for i := range b.Figures {
		fb := &b.Figures[i]
		var fa *Figure
		if g, ok := a.Find(fb.Section, fb.Name); ok {
			fa = &g
		}
		row(fa, fb)
	}
	for i := range a.Figures {
		if fa := &a.Figures[i]; !seen[[2]string{fa.Section, fa.Name}] {
			row(fa, nil)
		}
	}
	return tw.Flush()
}
