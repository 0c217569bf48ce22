package build

import (
	"testing"
	"time"

	"github.com/botarena/arena/sandbox"
)

// Zero limits take the build defaults; limits the organiser set are kept.
func TestWithDefaults(t *testing.T) {
	got := Options{Limits: sandbox.Limits{MemoryBytes: 1 << 30, WallTime: time.Minute}}.WithDefaults()
	d := DefaultLimits()
	if got.Limits.MemoryBytes != 1<<30 || got.Limits.WallTime != time.Minute {
		t.Fatalf("set limits changed: %+v", got.Limits)
	}
	d.MemoryBytes, d.WallTime = 1<<30, time.Minute
	if got.Limits != d {
		t.Fatalf("limits %+v, want %+v", got.Limits, d)
	}
	if got.Cache == "" {
		t.Fatal("no cache folder")
	}
}
