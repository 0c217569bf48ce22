package slack

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

func TestParse(t *testing.T) {
	for s, want := range map[string]float64{"": Default, "1": 1, "2.5": 2.5, "10": 10} {
		if f, err := parse(s); err != nil || f != want {
			t.Errorf("parse(%q) = %v, %v; want %v", s, f, err, want)
		}
	}
	for _, s := range []string{"0.5", "0", "-3", "x", "1e9", "NaN"} {
		if f, err := parse(s); err == nil {
			t.Errorf("parse(%q) = %v, want an error", s, f)
		}
	}
}

func TestBoundStretchesOnlyTheAllowance(t *testing.T) {
	t.Setenv(Env, "3")
	if b := Bound(t, time.Second, 100*time.Millisecond); b != 1300*time.Millisecond {
		t.Fatalf("bound %v, want 1.3s", b)
	}
}

// A bound that does not hold fails the test it is given, naming the knob.
func TestWithinAndRatioFail(t *testing.T) {
	t.Setenv(Env, "2")
	rec := &recorder{TB: t}
	if !Within(rec, "x", 300*time.Millisecond, 0, 200*time.Millisecond) || !Ratio(rec, "y", 3*time.Second, time.Second, 1.5) {
		t.Fatal("a bound within its slack failed")
	}
	if Within(rec, "the kill", 500*time.Millisecond, 0, 200*time.Millisecond) || Ratio(rec, "y", 4*time.Second, time.Second, 1.5) {
		t.Fatal("a bound over its slack held")
	}
	if len(rec.errs) != 2 {
		t.Fatalf("errors %q", rec.errs)
	}
	for _, e := range rec.errs {
		if !strings.Contains(e, Env) {
			t.Errorf("error %q does not name %s", e, Env)
		}
	}
}

type recorder struct {
	testing.TB
	errs []string
}

func (r *recorder) Helper() {}
func (r *recorder) Errorf(format string, args ...any) {
	r.errs = append(r.errs, fmt.Sprintf(format, args...))
}
