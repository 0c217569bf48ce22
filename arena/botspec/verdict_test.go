package botspec

import (
	"errors"
	"fmt"
	"io/fs"
	"testing"

	"github.com/botarena/arena/arena/build"
	"github.com/botarena/arena/arena/submission"
	"github.com/botarena/arena/sandbox"
)

// TestClassify: whose each way of failing to prepare a bot is, as tournaments and workers act
// on it (the bot charged, declined for another machine, the organiser's to fix, retried).
func TestClassify(t *testing.T) {
	wrap := func(err error) error { return fmt.Errorf("bot x: %w", err) }
	cases := []struct {
		name string
		err  error
		want Cause
	}{
		{"prepared", nil, Ready},
		{"compiler error", wrap(&build.Error{Bot: "x", Step: "go build", Reason: "exited with status 1"}), BotFault},
		{"bot.json names a program outside", &build.Error{Bot: "x", Step: "bot.json", Reason: "outside"}, BotFault},
		{"no rustc", wrap(build.Cannot("build Rust bots", errors.New("no rustc on PATH"))), Unavailable},
		{"no Python with the SDK", fmt.Errorf("%w with the arena SDK", ErrNoPython), Unavailable},
		{"requirements with nowhere to install from", fmt.Errorf("%w: x carries requirements.txt", build.ErrNoSource), Unavailable},
		{"a strict worker missing a layer", &build.Error{Bot: "x", Step: "go build", Err: fmt.Errorf("%w go build x", sandbox.ErrStrict)}, Unavailable},
		{"the build sandbox could not start", &build.Error{Bot: "x", Step: "go build", Err: fmt.Errorf("%w go build x: clone", sandbox.ErrStart)}, Infrastructure},
		{"files gone", fmt.Errorf("%w %q", submission.ErrMissing, "x"), Submission},
		{"grown too big", fmt.Errorf("%w: x", submission.ErrTooBig), Submission},
		{"files store full", wrap(&fs.PathError{Op: "write", Path: "/run/arena-sandbox/files/x", Err: errors.New("no space left on device")}), Infrastructure},
	}
	for _, c := range cases {
		if got := Classify(c.err); got != c.want {
			t.Errorf("%s (%v): %v, want %v", c.name, c.err, got, c.want)
		}
	}
}
