// Package seat is what the Go SDK's core and its game packages share: an open seat, a game a
// bot plays, the clock a player sees and the answer for a bad move. Bot authors use these
// through sdk.Game and sdk.Clock; each sdk/<game> package builds on the rest.
package seat

import (
	"fmt"
	"time"

	arenav1 "github.com/botarena/arena/proto/arena/v1"
)

// Seat is one open seat of one game inside a bot process. Calls to one seat never overlap.
type Seat interface {
	// Act answers one move into resp (already reset, with its step set): an action, or an
	// error for a bad answer. A panic is turned into an exception by the caller.
	Act(req *arenav1.ActRequest, resp *arenav1.ActResponse)
	// End applies the final observation and calls the player's end hook, if any.
	End(req *arenav1.EndRequest)
}

// Game is one game a bot plays: the game's registry name and how to open a fresh seat of it.
// Each game package makes one with its Play function.
type Game struct {
	Name string
	Open func(req *arenav1.StartRequest) Seat
	// HouseBot is a house bot of the game to suggest as an opponent when the bot is run by
	// hand (a path in the arena's repository).
	HouseBot string
}

// Clock tells a player how much time it has for the current move.
type Clock struct {
	// Deadline is when the host stops waiting for this move, were the move's budget wall time
	// (under the CPU clock, a bot using one core has at least this long).
	Deadline time.Time
	// ClockRemaining is what is left of the seat's total clock (0 when the game has none).
	ClockRemaining time.Duration
	// CPU is set when moves are charged the CPU time of the bot's own processes rather than
	// wall time: waiting for the machine costs nothing, computing does.
	CPU bool
	// Budget is this move's budget (CPU time when CPU is set, else wall time).
	Budget time.Duration
	// BankRemaining is what is left of the seat's overage bank: the move may spend Budget plus
	// this, and what it spends past Budget leaves the bank (0 when there is none).
	BankRemaining time.Duration
	// WallCap is the wall time after which the move is a timeout whatever its CPU time.
	WallCap time.Duration
}

// TimeLeft is the time until Deadline.
func (c Clock) TimeLeft() time.Duration { return time.Until(c.Deadline) }

// ClockOf is the clock of a request, counted from now.
func ClockOf(req *arenav1.ActRequest) Clock {
	c := Clock{Deadline: time.Now().Add(time.Duration(req.GetDeadlineMs()) * time.Millisecond),
		ClockRemaining: time.Duration(req.GetClockRemainingMs()) * time.Millisecond,
		CPU:            req.GetClockMode() == arenav1.ClockMode_CLOCK_MODE_CPU,
		Budget:         time.Duration(req.GetBudgetUs()) * time.Microsecond,
		BankRemaining:  time.Duration(req.GetBankRemainingUs()) * time.Microsecond,
		WallCap:        time.Duration(req.GetWallCapMs()) * time.Millisecond}
	if c.Budget == 0 { // an older host: the deadline is the budget
		c.Budget = time.Duration(req.GetDeadlineMs()) * time.Millisecond
	}
	if c.WallCap == 0 {
		c.WallCap = time.Duration(req.GetDeadlineMs()) * time.Millisecond
	}
	return c
}

// Invalid answers resp with an invalid-answer error.
func Invalid(resp *arenav1.ActResponse, format string, args ...any) {
	resp.Error = &arenav1.BotError{Kind: arenav1.BotErrorKind_BOT_ERROR_KIND_INVALID_ANSWER, Message: fmt.Sprintf(format, args...)}
}
