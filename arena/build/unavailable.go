package build

import (
	"errors"
	"fmt"

	"github.com/botarena/arena/arena/submission"
)

// ErrUnavailable is what every *Unavailable matches with errors.Is.
var ErrUnavailable = errors.New("cannot build here")

// Unavailable means this machine lacks what a kind of bot needs: its language's toolchain, a
// Python with the arena SDK, or somewhere to install a bot's requirements from. It is not the
// bot's fault where another machine has it (a worker declines the job, for one that can); where
// no machine can (a local tournament, or every worker the job reached), it is the bot's verdict,
// charged in each of its matches with this text, which names the reason and the fix.
type Unavailable struct {
	// What cannot be done here: "build rust bots", "install a bot's requirements.txt".
	What string
	// Err says why, and how to fix it.
	Err error
}

func (e *Unavailable) Error() string { return fmt.Sprintf("cannot %s here: %v", e.What, e.Err) }

// Unwrap gives the reason.
func (e *Unavailable) Unwrap() error { return e.Err }

// Is makes errors.Is(err, ErrUnavailable) hold.
func (e *Unavailable) Is(target error) bool { return target == ErrUnavailable }

// Cannot wraps err, the reason this machine cannot do what, unless it already says so.
func Cannot(what string, err error) error {
	if err == nil || errors.Is(err, ErrUnavailable) {
		return err
	}
	return &Unavailable{What: what, Err: err}
}

// LanguageName is a kind of bot as people write it: Go, Python, JavaScript, TypeScript, Rust,
// Java, C++.
func LanguageName(k submission.Kind) string {
	switch k {
	case submission.Go:
		return "Go"
	case submission.Python:
		return "Python"
	case submission.JavaScript:
		return "JavaScript"
	case submission.TypeScript:
		return "TypeScript"
	case submission.Rust:
		return "Rust"
	case submission.Java:
		return "Java"
	case submission.Cpp:
		return "C++"
	}
	return string(k)
}
