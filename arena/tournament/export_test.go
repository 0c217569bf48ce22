package tournament

import (
	"context"
	"fmt"

	"github.com/botarena/arena/arena/game"
	"github.com/botarena/arena/arena/host"
	"github.com/botarena/arena/sdk"
)

// EncodeResult is the encoding a worker publishes, for hostile workers in tests.
var EncodeResult = encodeResult

// PlayWith plays a job's match as a hostile worker would to forge a result that proves
// itself: with bots of its choosing (one per seat, in-process) under the job's names, so
// the replay reproduces and only the answers are not the real bots'.
func PlayWith(ctx context.Context, j Job, bots []sdk.Bot) (Result, error) {
	spec, err := game.Lookup(j.Config.Game)
	if err != nil {
		return Result{}, err
	}
	n := 0
	for _, b := range j.Match.Players {
		n = max(n, b+1)
	}
	cfg := j.Config
	cfg.Entries = make([]Entry, n)
	houses := map[int]*sdk.Bot{}
	for s, b := range j.Match.Players {
		cfg.Entries[b] = Entry{Name: j.Bots[s].Name}
		houses[b] = &bots[s]
	}
	p, err := play(ctx, spec, cfg, make([]host.Command, n), make([]error, n), houses, j.Match,
		Options{MeasureMoves: j.MeasureMoves}, &pool{fresh: true}, func(b int) string { return fmt.Sprint(b) })
	if err != nil {
		return Result{}, err
	}
	r := Result{Key: j.Key, Idx: j.Match.Idx, Attempt: j.Attempt, Job: j.ID(), Nonce: j.Nonce, Worker: "forger",
		Summary: p.summary, Finish: p.fin, Replay: p.fin.Replay, Logs: p.logs}
	r.Finish.Replay = nil
	return r, nil
}
