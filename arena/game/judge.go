package game

import (
	"errors"
	"fmt"
	"strings"

	"google.golang.org/protobuf/proto"

	"github.com/botarena/arena/arena/bounded"
	arenav1 "github.com/botarena/arena/proto/arena/v1"
)

// The errors a seat's transport reports; the host returns them and the runner tests them with
// errors.Is. They are the only ones: arena/host and arena/match re-export these values.
var (
	// ErrTimeout means a seat did not answer (or open, or close) within its deadline.
	ErrTimeout = errors.New("no answer within the deadline")
	// ErrDead means the bot process is gone (crashed, killed, or closed).
	ErrDead = errors.New("bot is not running")
	// ErrStalled means the machine, not the bot, kept a move (or a start) from finishing: its
	// bot was runnable but given no CPU for so long that the move passed its stall limit. No
	// one is charged; the runner voids the match and plays it again.
	ErrStalled = errors.New("the machine stalled the bot")
)

// MaxAction bounds an answer that carries an action: a real one is a few bytes, and an
// action's strings (a Real TV vote) reach replays and fault reports.
const MaxAction = 1 << 10

var actionCases = (&arenav1.ActResponse{}).ProtoReflect().Descriptor().Oneofs().ByName("action")

// Judge is the one place a bot's answer becomes an action or a fault. It returns resp when resp
// carries an action of the game named gameName (the oneof case is named after the game), and
// otherwise the fault it is: an answer to another request (when step is not 0), the error the
// bot's SDK reported (its own code raised: a crash; it answered something that is no move: garbage,
// the same for every game), an oversized answer, or no action of this game (garbage). Engines
// then see only their own game's action or a fault, and judge legality alone.
func Judge(gameName string, step int64, resp *arenav1.ActResponse) (*arenav1.ActResponse, *Fault) {
	switch {
	case resp == nil:
		return nil, &Fault{Kind: FaultGarbage, Detail: "no answer"}
	case step != 0 && resp.GetStep() != step:
		return nil, &Fault{Kind: FaultGarbage, Detail: fmt.Sprintf("answered step %d to request %d", resp.GetStep(), step)}
	case resp.GetError() != nil:
		return nil, ErrorFault(resp.GetError())
	case resp.GetAction() != nil && proto.Size(resp) > MaxAction:
		return nil, &Fault{Kind: FaultGarbage, Detail: fmt.Sprintf("an answer of %d bytes (an action is at most %d)", proto.Size(resp), MaxAction)}
	}
	got := "nothing"
	if f := resp.ProtoReflect().WhichOneof(actionCases); f != nil {
		if string(f.Name()) == gameName {
			// The fast lane's echoes say whose answer it is, not what it is: a recorded
			// answer is the action (and its step) alone, whichever way it came.
			resp.MatchId, resp.Seat = "", 0
			return resp, nil
		}
		got = "a " + string(f.Name()) + " move"
	}
	return nil, &Fault{Kind: FaultGarbage, Detail: fmt.Sprintf("answered %s, not a %s move", got, gameName)}
}

// JudgeAnswer is Judge for an answer built in-process (by a test, a driver or a replay): a
// fault stays the fault it is (one of kind none counts as garbage), an action is judged
// without its step.
func JudgeAnswer(gameName string, a Answer) Answer {
	if a.Fault != nil {
		if a.Fault.Kind == FaultNone {
			f := *a.Fault
			f.Kind = FaultGarbage
			a.Fault = &f
		}
		a.Action = nil
		return a
	}
	a.Action, a.Fault = Judge(gameName, 0, a.Action)
	return a
}

// ErrorFault turns a BotError into the fault it is, its text bounded: the message and the
// traceback each keep their head and tail (a traceback its header, the bot's frames and the
// final error), so a 4 MiB error costs the store and replays a few kilobytes.
func ErrorFault(e *arenav1.BotError) *Fault {
	msg := bounded.Text(e.GetMessage(), bounded.Message)
	if e.GetKind() == arenav1.BotErrorKind_BOT_ERROR_KIND_INVALID_ANSWER {
		return &Fault{Kind: FaultGarbage, Detail: msg}
	}
	d := "raised: " + msg
	if tb := strings.TrimSpace(e.GetTraceback()); tb != "" {
		d += "\n" + bounded.Traceback(tb, bounded.Trace)
	}
	return &Fault{Kind: FaultCrash, Detail: d}
}
