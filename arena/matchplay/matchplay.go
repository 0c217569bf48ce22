package matchplay

import (
	"context"

	"github.com/botarena/arena/arena/game"
	"github.com/botarena/arena/arena/match"
	"github.com/botarena/arena/arena/replay"
)

// LogLines is how much of each bot's stderr a match keeps for its author (the tail, with a
// heading line where the step it was written in changes: host.FormatSteps).
const LogLines = 40

// Match is one match to play.
type Match struct {
	Spec game.Spec
	// Config is the game's configuration; Config.Players names each seat's player.
	Config game.Config
	// Players play Config.Players, in order.
	Players []match.Player
	// Options tune the runner; Options.MatchID names the match and Options.Clock is recorded.
	// Options.Recorder is Play's own.
	Options match.Options
	// Bots names each player in the record (default: the names in Config.Players).
	Bots []string
	// Unrecorded plays without a record (Played.Record is nil): a local match nobody keeps.
	Unrecorded bool
	// Wrap, when set, is given the record's recorder and returns what the runner records into
	// (a re-run of a recorded match records its plan's steps through it).
	Wrap func(*replay.Recorder) match.Recorder
}

// Played is what a match leaves.
type Played struct {
	Result *match.Result
	// Record is the match's record with its outcome and the runner's figures (Extra "stats"
	// and "duration_ns"), for the caller to add to and keep.
	Record *replay.Record
	// Logs holds, per player, what its bot wrote in this match (LogLines of it), or why it
	// never played: for every player with a method StepLog(lines int) string.
	Logs []string
}

// Config is a match's game configuration: its seed and parameters, one player per name.
func Config(seed uint64, params map[string]string, names []string) game.Config {
	cfg := game.Config{Seed: seed, Params: params}
	for _, n := range names {
		cfg.Players = append(cfg.Players, game.Player{Name: n})
	}
	return cfg
}

// Play plays m to its end. Its errors are match.Run's: an engine bug, cancellation, or a
// match the machine stalled (match.ErrStalled).
func Play(ctx context.Context, m Match) (Played, error) {
	opt := m.Options
	var rec *replay.Recorder
	if !m.Unrecorded {
		bots := m.Bots
		if bots == nil {
			for _, p := range m.Config.Players {
				bots = append(bots, p.Name)
			}
		}
		rec = replay.NewRecorder(m.Spec.Name, opt.MatchID, m.Config, bots)
		rec.Rec.Clock = string(opt.Clock)
		opt.Recorder = rec
		if m.Wrap != nil {
			opt.Recorder = m.Wrap(rec)
		}
	}
	res, err := match.Run(ctx, m.Spec, m.Config, m.Players, opt)
	if err != nil {
		return Played{}, err
	}
	out := Played{Result: res, Logs: make([]string, len(m.Players))}
	for i, p := range m.Players {
		if l, ok := p.(interface{ StepLog(lines int) string }); ok {
			out.Logs[i] = l.StepLog(LogLines)
		}
	}
	if rec != nil {
		rec.Rec.Outcome = &res.Outcome
		rec.Rec.Extra = map[string]any{"stats": res.Stats, "duration_ns": res.Duration}
		out.Record = rec.Rec
	}
	return out, nil
}
