package botspec

import (
	"errors"

	"github.com/botarena/arena/arena/build"
	"github.com/botarena/arena/arena/submission"
	"github.com/botarena/arena/sandbox"
)

// Cause says whose a failed Prepare is, which decides what a tournament or a worker does with
// it. This is the one place that decides it.
type Cause int

const (
	// Ready is no failure.
	Ready Cause = iota
	// BotFault is the bot's own: its build failed (compiler errors, pip refusing its
	// requirements, a build over its limits). It is charged in each of its matches, wherever
	// they are played, with the build's last lines.
	BotFault
	// Unavailable is this machine's lack (build.ErrUnavailable): its language's toolchain, a
	// Python with the arena SDK, somewhere to install requirements.txt from, a sandbox layer a
	// strict worker insists on. A worker declines the job, for one that can; where none can
	// (a local tournament, the job's last delivery) the bot is charged with the reason and
	// the fix, like a bot that crashes at its start.
	Unavailable
	// Submission is a bot's files that are no longer what was entered (gone, grown too big, a
	// link): the organiser's to fix before the tournament goes on.
	Submission
	// Infrastructure is the arena's own failure (the files store full or unwritable, an I/O
	// error, a sandbox that could not start): charged to no bot, retried.
	Infrastructure
)

func (c Cause) String() string {
	return [...]string{"ready", "the bot's fault", "cannot build here", "the submission changed", "infrastructure failure"}[c]
}

// Classify says whose err, returned by Prepare, is.
func Classify(err error) Cause {
	switch {
	case err == nil:
		return Ready
	case errors.Is(err, build.ErrUnavailable), errors.Is(err, build.ErrNoSource), errors.Is(err, ErrNoPython),
		errors.Is(err, sandbox.ErrStrict):
		return Unavailable
	case errors.Is(err, sandbox.ErrStart):
		return Infrastructure
	case errors.Is(err, build.ErrBuild):
		return BotFault
	case errors.Is(err, submission.ErrMissing), errors.Is(err, submission.ErrNotExecutable), errors.Is(err, submission.ErrUnknownKind),
		errors.Is(err, submission.ErrManifest), errors.Is(err, submission.ErrTooBig), errors.Is(err, submission.ErrLink):
		return Submission
	default:
		return Infrastructure
	}
}
