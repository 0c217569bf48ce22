package cli

import (
	"strings"
	"testing"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// TestRangeVar checks the one mechanism behind every numeric flag, for each type it takes.
func TestRangeVar(t *testing.T) {
	t.Parallel()
	var (
		i int
		n int64
		u uint64
		f float64
		d time.Duration
	)
	fs := pflag.NewFlagSet("t", pflag.ContinueOnError)
	rangeVar(fs, &i, "i", 3, 1, 10, "an int")
	rangeVar(fs, &n, "n", 0, -5, 5, "an int64")
	rangeVar(fs, &u, "u", 7, 0, 1<<40, "a uint64")
	rangeVar(fs, &f, "f", 1, 0.5, 2, "a float")
	rangeVar(fs, &d, "d", time.Second, time.Millisecond, time.Minute, "a duration")
	if i != 3 || n != 0 || u != 7 || f != 1 || d != time.Second {
		t.Fatalf("defaults not set: %v %v %v %v %v", i, n, u, f, d)
	}
	if !strings.Contains(fs.Lookup("d").Usage, "(1ms to 1m0s)") {
		t.Errorf("usage does not show the range: %q", fs.Lookup("d").Usage)
	}
	good := []string{"--i=10", "--n=-5", "--u=1099511627776", "--f=0.5", "--d=1m0s"}
	bad := map[string]string{
		"--i=0":                    `"0" for "--i" flag: 0 is out of range: allowed 1 to 10`,
		"--i=11":                   "11 is out of range: allowed 1 to 10",
		"--i=x":                    "not a whole number",
		"--i=99999999999999999999": "not a whole number",
		"--n=6":                    "6 is out of range: allowed -5 to 5",
		"--u=-1":                   "not a whole number from 0",
		"--u=1099511627777":        "out of range: allowed 0 to 1099511627776",
		"--f=NaN":                  "not a number",
		"--f=Inf":                  "not a number",
		"--f=2.5":                  "2.5 is out of range: allowed 0.5 to 2",
		"--d=-1s":                  `"-1s" for "--d" flag: -1s is out of range: allowed 1ms to 1m0s`,
		"--d=0":                    "0s is out of range",
		"--d=5":                    "not a duration",
		"--d=2m1s":                 "2m1s is out of range",
	}
	if err := fs.Parse(good); err != nil {
		t.Fatal(err)
	}
	if i != 10 || n != -5 || u != 1<<40 || f != 0.5 || d != time.Minute {
		t.Fatalf("values: %v %v %v %v %v", i, n, u, f, d)
	}
	for arg, want := range bad {
		before := [5]any{i, n, u, f, d}
		err := fs.Parse([]string{arg})
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want %q", arg, err, want)
		}
		if after := [5]any{i, n, u, f, d}; after != before {
			t.Errorf("%s changed a value: %v -> %v", arg, before, after)
		}
	}
}

// TestEveryNumericFlagIsRanged walks the whole command tree: no numeric flag is declared
// without a range (every one is a rangeFlag), so a flag added later cannot skip the check.
func TestEveryNumericFlagIsRanged(t *testing.T) {
	t.Parallel()
	root := NewRoot(nil, nil)
	var n int
	for _, cmd := range allCommands(root) {
		cmd.Flags().VisitAll(func(f *pflag.Flag) {
			switch f.Value.Type() {
			case "int", "int64", "uint64", "float", "float64", "duration", "uint", "int32", "uint32", "float32":
				if !isRanged(f.Value) {
					t.Errorf("%s --%s is a %s flag without a range: declare it with rangeVar", cmd.CommandPath(), f.Name, f.Value.Type())
				}
				n++
			}
		})
	}
	if n < 20 {
		t.Fatalf("only %d numeric flags found; the walk is broken", n)
	}
}

func allCommands(c *cobra.Command) []*cobra.Command {
	out := []*cobra.Command{c}
	for _, sub := range c.Commands() {
		out = append(out, allCommands(sub)...)
	}
	return out
}

func isRanged(v pflag.Value) bool {
	switch v.(type) {
	case *rangeFlag[int], *rangeFlag[int64], *rangeFlag[uint64], *rangeFlag[float64], *rangeFlag[time.Duration]:
		return true
	}
	return false
}
