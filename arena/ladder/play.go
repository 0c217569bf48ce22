package ladder

// Playing a match through the queue: publishing its job, judging the results that come back
// (arena/tournament's Trial), and recording it.

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"time"

	"github.com/botarena/arena/arena/match"
	"github.com/botarena/arena/arena/queue"
	"github.com/botarena/arena/arena/rating"
	"github.com/botarena/arena/arena/store"
	"github.com/botarena/arena/arena/tournament"
	"github.com/botarena/arena/bots/house"
)

// played is what a match through the queue came back with: the worker's result and, when
// the match was played, its record; infra when it was not, for a reason charged to no bot.
type played struct {
	res   tournament.Result
	match match.Result
	infra string
}

// play publishes one match among versions as a job, waits for its result and records it
// (ratings only for ladder matches). mid is a match already recorded as running (0: a new
// one). A match whose wait ctx ended stays running: a restarted ladder publishes it again.
func (l *Ladder) play(ctx context.Context, g, kind string, vs []store.Version, seed uint64, mid int64) (int64, *played, error) {
	resumed := mid != 0
	if !resumed {
		ids := make([]int64, len(vs))
		for i, v := range vs {
			ids[i] = v.ID
		}
		var err error
		if mid, err = l.Store.StartLadderMatch(ctx, g, kind, seed, ids); err != nil {
			return 0, nil, err
		}
		l.expect(mid)
	}
	defer l.unexpect(mid)
	l.emit(Event{Kind: MatchStarted, Game: g, MatchID: mid})
	bg := context.WithoutCancel(ctx)
	fail := func(msg string) error {
		err := l.Store.FailLadderMatch(bg, mid, msg)
		l.emit(Event{Kind: MatchFinished, Game: g, MatchID: mid, Status: store.LadderError})
		return err
	}
	attempt := 0
	if resumed {
		attempt = l.gen
	}
	j, err := l.job(ctx, g, mid, vs, seed, attempt)
	if ctx.Err() != nil {
		return mid, nil, ctx.Err()
	}
	if err != nil {
		msg := "infrastructure failure, charged to no bot: the match could not be queued: " + err.Error()
		fail(msg)
		return mid, &played{infra: msg}, nil
	}
	q := l.Queue
	audit := q.Audit()
	tr := tournament.NewTrial(q, j, audit > 0 && rand.Float64() < audit)
	publish := func() error {
		data, err := json.Marshal(tr.Job)
		if err == nil {
			tr.Seq, err = q.PublishJob(ctx, l.Key, tr.Job.ID(), data)
		}
		return err
	}
	if err := publish(); err != nil {
		if ctx.Err() != nil {
			return mid, nil, ctx.Err()
		}
		msg := "infrastructure failure, charged to no bot: the match could not be queued: " + err.Error()
		fail(msg)
		return mid, &played{infra: msg}, nil
	}
	// Wait for a result that counts (Trial: verified, audited if drawn), publishing the
	// match again for another worker whenever one is refused or lost.
	var rec *tournament.Accepted
	var held queue.Incoming
	sweep := time.NewTicker(q.AckWait)
	defer sweep.Stop()
	for rec == nil {
		var step tournament.Step
		var a arrival
		select {
		case <-ctx.Done():
			return mid, nil, ctx.Err()
		case <-sweep.C:
			step = tr.Lost(ctx, q, q.AckWait)
		case a = <-l.arrivals(mid):
			switch {
			case a.exhausted && a.job != tr.Job.ID():
				_ = a.in.Ack() // an earlier round's
				continue
			case a.exhausted:
				step = tr.Exhausted(a.in.Deliveries)
			default:
				step = tr.Take(q, a.in)
			}
		}
		l.quarantine(step.Quarantine)
		switch {
		case step.Fail != "":
			recordedAck(a.in, fail(step.Fail))
			return mid, &played{infra: step.Fail}, nil
		case step.Again:
			tr.Next(ctx, q)
			if err := publish(); err != nil && ctx.Err() == nil {
				recordedAck(a.in, fail("infrastructure failure, charged to no bot: the match could not be queued again: "+err.Error()))
				return mid, &played{infra: err.Error()}, nil
			}
		case step.Record != nil:
			rec, held = step.Record, a.in
			continue
		}
		if a.in.Result != nil || a.exhausted {
			_ = a.in.Ack()
		}
	}
	if rec.Result.Job != tr.Job.ID() {
		_ = q.DropJob(bg, tr.Seq) // an earlier round's result settled it
	}
	if !rec.Audited {
		l.trust(rec.Worker, mid)
	}
	// Acknowledged only once recorded: a result whose write failed comes again, and a server
	// killed before it was written publishes the match again when it restarts.
	recorded := func(err error) bool { return recordedAck(held, err) }
	out := &played{res: rec.Result, match: rec.Match}
	switch {
	case rec.Result.Infra != "":
		out.infra = "infrastructure failure, charged to no bot: " + rec.Result.Infra
		recorded(fail(out.infra))
		return mid, out, nil
	case rec.Result.Error != "":
		err := errors.New(rec.Result.Error)
		recorded(fail(err.Error()))
		return mid, nil, err
	}
	fin := finish(vs, out)
	fin.Clock = string(tr.Job.Config.ClockMode()) // the job's, which Verify held the replay to
	if kind == store.KindLadder {
		skills := make([]rating.Skill, len(vs))
		idx := make([]int, len(vs))
		ranks := make([]int, len(vs))
		for i, v := range vs {
			skills[i], idx[i], ranks[i] = rating.Skill{Mu: v.Mu, Sigma: v.Sigma}, i, out.match.Outcome.Players[i].Rank
			// Ratings are read now, not when the match was picked: another match may have moved them.
			if cur, err := l.Store.VersionByID(bg, v.ID); err == nil {
				skills[i] = rating.Skill{Mu: cur.Mu, Sigma: cur.Sigma}
			}
		}
		rating.PlackettLuce(skills, idx, ranks)
		fin.Ratings = map[int64][2]float64{}
		for i, v := range vs {
			fin.Ratings[v.ID] = [2]float64{skills[i].Mu, skills[i].Sigma}
		}
	}
	if err := l.Store.FinishLadderMatch(bg, mid, fin); !recorded(err) || err != nil {
		return mid, nil, err
	}
	l.emit(Event{Kind: MatchFinished, Game: g, MatchID: mid, Status: store.LadderDone, Summary: out.match.Outcome.Summary})
	return mid, out, nil
}

// job is the queue's job for ladder match mid: uploads by their files' hash, the house bot
// by name (the worker plays the arena's own code), every limit the ladder's, new processes
// for every match (a version's state and its process's limits never carry over).
func (l *Ladder) job(ctx context.Context, g string, mid int64, vs []store.Version, seed uint64, attempt int) (tournament.Job, error) {
	j := tournament.Job{Key: l.Key, Tournament: "ladder", Attempt: attempt,
		Match:  store.Match{Idx: int(mid), MatchID: fmt.Sprintf("%s-%d", g, mid), Seed: seed},
		Config: tournament.Config{Game: g, Params: l.GameParams(g), Deadline: l.Deadline, StartTimeout: l.Host.StartTimeout},
		Limits: l.Host.Limits, Strict: l.Host.Strict, MeasureMoves: true, Fresh: true}
	j.Config.SetClock(l.Clock)
	for i, v := range vs {
		j.Match.Players = append(j.Match.Players, i)
		if v.Bot.House != "" {
			j.Bots = append(j.Bots, tournament.JobBot{Name: seatName(v), House: house.Bots[g].Name, HouseSeed: seed + uint64(i) + 1})
			continue
		}
		jb, err := l.versionFiles(ctx, v)
		if err != nil {
			return j, err
		}
		jb.Name = seatName(v)
		j.Bots = append(j.Bots, jb)
	}
	return j, nil
}

// arrival is what the queue brought for a match: a worker's result (judged by the match's
// Trial), or word that the queue gave up on one of its jobs.
type arrival struct {
	in        queue.Incoming
	exhausted bool
	job       string // the exhausted job's ID
}

func (l *Ladder) expect(mid int64) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.waiting[mid] = make(chan arrival, 4)
}

// unexpect stops waiting for mid. Whatever else came for it stays unacknowledged: the queue
// delivers it again, to a restarted server that still waits for it, or to route, which drops it.
func (l *Ladder) unexpect(mid int64) {
	l.mu.Lock()
	defer l.mu.Unlock()
	delete(l.waiting, mid)
}

func (l *Ladder) arrivals(mid int64) chan arrival {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.waiting[mid]
}

// recordedAck acknowledges what was recorded (or found recorded already); anything else
// comes again.
func recordedAck(in queue.Incoming, err error) bool {
	if err == nil || errors.Is(err, store.ErrAlreadyDone) {
		if in.Result != nil || in.Job != nil {
			_ = in.Ack()
		}
		return true
	}
	return false
}

// quarantine cuts workers off, and plays again (as the organiser's replay does) the ladder
// matches this server recorded on each one's word alone.
func (l *Ladder) quarantine(ws map[string]string) {
	for w, why := range ws {
		_ = l.Queue.Quarantine(w, why)
		l.mu.Lock()
		again := l.unaudited[w]
		delete(l.unaudited, w)
		l.mu.Unlock()
		for _, mid := range again {
			l.Replay(mid)
		}
	}
}

// trust notes a ladder match recorded on one worker's word alone.
func (l *Ladder) trust(w string, mid int64) {
	if w == queue.LocalWorker {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	l.unaudited[w] = append(l.unaudited[w], mid)
}

// route hands each result (and each job the queue gave up on) to the match waiting for it,
// by the match its subject names, so that even a result that cannot be read reaches its
// match (which refuses it and publishes the match again); one nobody waits for (a smoke match
// abandoned by a restart, a second result) is dropped.
func (l *Ladder) route(ctx context.Context, ib *queue.Inbox) {
	for {
		var in queue.Incoming
		select {
		case in = <-ib.C:
		case <-ctx.Done():
			return
		}
		a := arrival{in: in}
		mid := int64(-1)
		if in.Result != nil {
			mid = int64(in.Idx)
		} else {
			var j tournament.Job
			if json.Unmarshal(in.Job, &j) == nil && j.Key == l.Key {
				mid, a.exhausted, a.job = int64(j.Match.Idx), true, j.ID()
			}
			_ = l.Queue.DropJob(ctx, in.JobSeq)
		}
		l.mu.Lock()
		c, waits := l.waiting[mid]
		l.mu.Unlock()
		if !waits {
			_ = in.Ack() // nobody will: a smoke match abandoned by a restart, a second result
			continue
		}
		select {
		case c <- a:
		default: // a match with copies waiting already: this one comes again
		}
	}
}

// finish is the store's record of a played match: each seat's result, moves, log and faults.
func finish(vs []store.Version, p *played) store.LadderFinish {
	res := p.match
	fin := store.LadderFinish{Summary: res.Outcome.Summary, Duration: res.Duration, Replay: p.res.Replay}
	seats := make([]store.Seat, len(vs))
	for i := range vs {
		po := res.Outcome.Players[i]
		seats[i] = store.Seat{Seat: i, Result: po.Result.String(), Score: po.Score, Rank: po.Rank}
		if i < len(p.res.Logs) {
			seats[i].Log = p.res.Logs[i]
		}
	}
	for s, st := range res.Stats {
		if s >= len(res.Seats) {
			continue
		}
		pl := res.Seats[s].Player
		seats[pl].Moves += st.Moves
		seats[pl].Total += st.Total
		seats[pl].Max = max(seats[pl].Max, st.Max)
	}
	for _, f := range res.Outcome.Faults {
		if f.Seat < 0 || f.Seat >= len(res.Seats) {
			continue
		}
		pl := res.Seats[f.Seat].Player
		seats[pl].Faults++
		fin.Faults = append(fin.Faults, store.LadderFault{Seat: pl, VersionID: vs[pl].ID, Where: f.Where, Kind: f.Kind.String(), Detail: f.Detail, Penalty: f.Penalty})
	}
	fin.Seats = seats
	return fin
}
