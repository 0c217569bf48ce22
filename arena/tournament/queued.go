package tournament

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/botarena/arena/arena/botspec"
	"github.com/botarena/arena/arena/queue"
	"github.com/botarena/arena/arena/store"
	"github.com/botarena/arena/arena/submission"
	"github.com/botarena/arena/sandbox"
)

// MatchNote is an event that changes no count: a result discarded, say.
const MatchNote EventKind = MatchFailed + 1

// BotCharged is a bot that could not be prepared for a reason of its own (its build failed,
// its toolchain or its requirements are not to be had where its matches are played): it
// forfeits its matches under the game's rule for a crash at start, and Summary says why,
// with the fix. It comes once per bot and run, and changes no count.
const BotCharged EventKind = MatchNote + 1

// runQueued plays a tournament's pending matches as jobs on opt.Queue: it publishes each
// bot's snapshot and each pending match, then writes the results into the store as they
// come, each exactly once, until every match is done or failed.
func runQueued(ctx context.Context, st *store.Store, id int64, opt Options) (Summary, error) {
	q := opt.Queue
	t, cfg, _, all, err := load(ctx, st, id)
	if err != nil {
		return Summary{}, err
	}
	bots, err := publishBots(ctx, q, cfg, opt)
	if err != nil {
		return Summary{}, err
	}
	key := QueueKey(st.Path, t)
	sum := Summary{Total: len(all)}
	pending := map[int]*store.Match{}
	for i := range all {
		if all[i].Status == store.StatusDone {
			sum.Done++
		} else {
			pending[all[i].Idx] = &all[i]
		}
	}
	resumed := sum.Done
	if err := st.SetStatus(ctx, id, "running"); err != nil {
		return sum, err
	}
	start := time.Now()
	inbox, err := q.Listen(ctx, key)
	if err != nil {
		return sum, err
	}
	defer inbox.Close()
	jobCfg := cfg
	jobCfg.Entries = nil
	trials := map[int]*Trial{}
	// Published a batch at a time: memory stays bounded for a schedule of a million.
	const batch = 4096
	var out []queue.Outgoing
	var outIdx []int
	flush := func() error {
		seqs, err := q.PublishJobs(ctx, key, out)
		for i, seq := range seqs {
			trials[outIdx[i]].Seq = seq
		}
		out, outIdx = out[:0], outIdx[:0]
		return err
	}
	audit := q.Audit()
	for _, m := range all {
		if m.Status == store.StatusDone {
			continue
		}
		job := Job{Key: key, Tournament: t.Name, Match: m, Attempt: m.Attempts, Config: jobCfg,
			Limits: opt.Host.Limits, Strict: opt.Host.Strict, MeasureMoves: opt.MeasureMoves, Fresh: opt.Fresh}
		job.Match.Result, job.Match.Error = nil, ""
		for _, b := range m.Players {
			job.Bots = append(job.Bots, bots[b])
		}
		tr := NewTrial(q, job, audit > 0 && rand.Float64() < audit)
		trials[m.Idx] = tr
		data, err := json.Marshal(tr.Job)
		if err != nil {
			return sum, err
		}
		out, outIdx = append(out, queue.Outgoing{ID: tr.Job.ID(), Data: data}), append(outIdx, m.Idx)
		if len(out) == batch {
			if err := flush(); err != nil {
				return sum, err
			}
		}
	}
	if err := flush(); err != nil {
		return sum, err
	}
	// Local workers pull from the same queue as remote ones, and take no job that asks more
	// than this coordinator's own limits.
	wctx, stopWorkers := context.WithCancel(ctx)
	var wg sync.WaitGroup
	if opt.Jobs > 0 && len(pending) > 0 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_ = Work(wctx, q, WorkOptions{Jobs: min(opt.Jobs, len(pending)), Resolver: localResolver(opt.Resolver), WorkRoot: opt.WorkRoot, Name: "local", Alone: opt.Alone,
				Most: Policy{Limits: opt.Host.Limits, Deadline: max(cfg.Deadline, cfg.StartTimeout, cfg.StartDeadline, cfg.EndDeadline, DefaultDeadline)}})
		}()
	}
	defer func() { stopWorkers(); wg.Wait() }()
	emit := func(kind EventKind, m store.Match, summary string, err error) {
		switch kind {
		case MatchDone:
			sum.Done++
			sum.Played++
		case MatchFailed:
			sum.Failed++
		}
		if opt.OnEvent != nil {
			opt.OnEvent(Event{Kind: kind, Match: m, Summary: summary, Err: err, Total: sum.Total, Done: sum.Done, Failed: sum.Failed, Resumed: resumed})
		}
	}
	bg := context.WithoutCancel(ctx)
	charged := map[int]bool{} // bots reported as charged (BotCharged), once each
	open := len(pending)
	// unaudited lists, per worker, the matches recorded on its word alone: if it is
	// quarantined later, they are named for the organiser to play again (--resume cannot:
	// they are done).
	unaudited := map[string][]string{}
	// apply carries out what a trial asks for; it returns a store error, which ends the run.
	apply := func(m *store.Match, tr *Trial, s Step) error {
		if s.Note != "" {
			emit(MatchNote, *m, "discarded "+s.Note, nil)
		}
		for w, why := range s.Quarantine {
			if err := q.Quarantine(w, why); err != nil {
				emit(MatchNote, *m, fmt.Sprintf("worker %s could not be quarantined: %v", w, err), nil)
			}
			msg := fmt.Sprintf("worker %s quarantined (its credential disabled): %s", w, why)
			if ms := unaudited[w]; len(ms) > 0 {
				msg += fmt.Sprintf("; matches recorded on its word alone, to play again: %s", strings.Join(ms, " "))
			}
			emit(MatchNote, *m, msg, nil)
		}
		switch {
		case s.Fail != "":
			if err := st.FailMatch(bg, id, m.Idx, s.Fail); err != nil {
				return &storeError{err}
			}
			delete(pending, m.Idx)
			delete(trials, m.Idx)
			open--
			emit(MatchFailed, *m, "", errors.New(s.Fail))
		case s.Again:
			tr.Next(ctx, q)
			data, err := json.Marshal(tr.Job)
			if err == nil {
				tr.Seq, err = q.PublishJob(ctx, key, tr.Job.ID(), data)
			}
			if err != nil && ctx.Err() == nil {
				emit(MatchNote, *m, fmt.Sprintf("publishing job %s again: %v (tried again later)", tr.Job.ID(), err), nil)
			}
		case s.Record != nil:
			r := s.Record.Result
			if r.Job != tr.Job.ID() {
				_ = q.DropJob(bg, tr.Seq) // an earlier round's result settled it
			}
			switch {
			case r.Infra != "" || r.Error != "":
				msg := r.Error
				if r.Infra != "" {
					msg = "infrastructure failure, charged to no bot: " + r.Infra
				}
				if err := st.FailMatch(bg, id, m.Idx, msg); err != nil {
					return &storeError{err}
				}
				emit(MatchFailed, *m, "", errors.New(msg))
			default:
				fin := r.Finish
				fin.Replay = r.Replay
				fin.Clock = string(cfg.ClockMode()) // the job's, which Verify held the replay to
				err := st.FinishMatch(bg, id, m.Idx, fin)
				if errors.Is(err, store.ErrAlreadyDone) {
					emit(MatchNote, *m, "discarded a second result (already done)", nil)
					break
				}
				if err != nil {
					return &storeError{err}
				}
				if !s.Record.Audited {
					unaudited[s.Record.Worker] = append(unaudited[s.Record.Worker], m.MatchID)
				}
				emit(MatchDone, *m, s.Record.Match.Outcome.Summary, nil) // the verified summary, not the worker's words
				for seat, why := range r.Broken {
					if b := m.Players[seat]; why != "" && !charged[b] && opt.OnEvent != nil {
						charged[b] = true
						opt.OnEvent(Event{Kind: BotCharged, Bot: cfg.Entries[b].Name, Summary: why, Total: sum.Total, Done: sum.Done, Failed: sum.Failed, Resumed: resumed})
					}
				}
			}
			delete(pending, m.Idx)
			delete(trials, m.Idx)
			open--
		}
		return nil
	}
	sweep := time.NewTicker(q.AckWait)
	defer sweep.Stop()
	for open > 0 && ctx.Err() == nil {
		var in queue.Incoming
		select {
		case in = <-inbox.C:
		case <-sweep.C:
			// A job a worker took off the queue without a result is published again; cheap
			// when every open match still has its job queued.
			if n, err := q.Pending(ctx); err != nil || n >= uint64(open) {
				continue
			}
			for idx, tr := range trials {
				if err := apply(pending[idx], tr, tr.Lost(ctx, q, q.AckWait)); err != nil {
					return sum, err
				}
			}
			continue
		case <-ctx.Done():
			continue
		}
		if in.Result == nil {
			if m, ok := exhaustedMatch(in, trials, pending); ok {
				s := trials[m.Idx].Exhausted(in.Deliveries)
				if s.Fail != "" {
					s.Fail += "; retry with --resume " + t.Name
				}
				if err := apply(m, trials[m.Idx], s); err != nil {
					return sum, err
				}
			}
			_ = q.DropJob(bg, in.JobSeq)
			_ = in.Ack()
			continue
		}
		m, tr := pending[in.Idx], trials[in.Idx]
		if m == nil || tr == nil {
			emit(MatchNote, store.Match{Idx: in.Idx}, fmt.Sprintf("discarded a result from %s for match %d, which is not waiting for one", in.Worker, in.Idx), nil)
			_ = in.Ack()
			continue
		}
		// Acked only once committed: a coordinator killed in between gets it again, and
		// then finds the match done.
		if err := apply(m, tr, tr.Take(q, in)); err != nil {
			return sum, err
		}
		_ = in.Ack()
	}
	sum.Elapsed = time.Since(start)
	switch {
	case sum.Done == sum.Total:
		q.Forget(bg, key)
		return sum, st.SetStatus(bg, id, "finished")
	case ctx.Err() != nil:
		_ = st.SetStatus(bg, id, "interrupted")
		return sum, fmt.Errorf("%w: interrupted with %d of %d matches done; the queued jobs stay queued: continue with --resume %s: %w", ErrIncomplete, sum.Done, sum.Total, t.Name, ctx.Err())
	default:
		_ = st.SetStatus(bg, id, "incomplete")
		return sum, fmt.Errorf("%w: %d of %d matches done, %d failed (see arena show); retry them with --resume %s", ErrIncomplete, sum.Done, sum.Total, sum.Failed, t.Name)
	}
}

// exhaustedMatch finds the pending match of an exhausted job: the job out now for it.
func exhaustedMatch(in queue.Incoming, trials map[int]*Trial, pending map[int]*store.Match) (*store.Match, bool) {
	var job Job
	if json.Unmarshal(in.Job, &job) != nil {
		return nil, false
	}
	tr, m := trials[job.Match.Idx], pending[job.Match.Idx]
	if tr == nil || m == nil || tr.Job.ID() != job.ID() {
		return nil, false
	}
	return m, true
}

// publishBots snapshots every bot (refusing one changed since the tournament started) and
// puts its snapshot into the object store under its hash.
func publishBots(ctx context.Context, q *queue.Queue, cfg Config, opt Options) ([]JobBot, error) {
	var lim submission.Limits
	if opt.Resolver != nil {
		lim = opt.Resolver.Snapshot
	}
	out := make([]JobBot, len(cfg.Entries))
	var errs []error
	for i, e := range cfg.Entries {
		jb, err := PublishBot(ctx, q, e.Name, e.Spec, lim)
		switch {
		case err != nil:
			errs = append(errs, err)
		case e.Hash != "" && jb.Hash != e.Hash:
			errs = append(errs, fmt.Errorf("bot %s changed since the tournament started (%s: snapshot %.12s, now %.12s): restore its files, or start a new tournament with it", e.Name, e.Spec, e.Hash, jb.Hash))
		default:
			out[i] = jb
		}
	}
	return out, errors.Join(errs...)
}

// ErrInfrastructure is a bot's files the arena could not publish (its files store or the
// queue failed): the arena's failure, not the bot's.
var ErrInfrastructure = errors.New("the arena could not publish the bot's files")

// PublishBot snapshots the bot at spec (a folder or a file, as a tournament entry names it)
// and puts the snapshot into the queue's object store under its content hash, for any
// worker to fetch: the JobBot is what a job names it by. Nothing of the bot runs here.
func PublishBot(ctx context.Context, q *queue.Queue, name, spec string, lim submission.Limits) (JobBot, error) {
	files, err := sandbox.FilesDir()
	if err != nil {
		return JobBot{}, fmt.Errorf("%w: %v", ErrInfrastructure, err)
	}
	src, err := submission.Parse(spec)
	if err != nil {
		return JobBot{}, fmt.Errorf("bot %s: %w", name, err)
	}
	snap, err := submission.Take(src, files, lim)
	if err != nil {
		return JobBot{}, fmt.Errorf("bot %s: %w", name, err)
	}
	jb := JobBot{Name: name, Hash: snap.Hash}
	if !isFolder(src.Root) {
		jb.Entry = filepath.Base(src.Root)
		if src.Class != "" {
			jb.Entry += ":" + src.Class
		}
	}
	if err := q.PutFiles(ctx, snap.Hash, snap.Dir); err != nil {
		return jb, fmt.Errorf("%w: bot %s: %v", ErrInfrastructure, name, err)
	}
	return jb, nil
}

func isFolder(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.IsDir()
}

// localResolver is the coordinator's resolver for its own workers: a copy of its settings (the
// kits come from the binary, so nothing depends on where the bots were found).
func localResolver(r *botspec.Resolver) *botspec.Resolver {
	if r == nil {
		return &botspec.Resolver{}
	}
	return &botspec.Resolver{Python: r.Python, Build: r.Build, Snapshot: r.Snapshot}
}
