package tournament

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/botarena/arena/arena/match"
	"github.com/botarena/arena/arena/queue"
)

// maxRounds bounds the jobs one attempt of a match is published as (the first, one for each
// refused result, an audit, a tie-break): then the match fails, charged to no bot.
const maxRounds = 6

// Trial follows one match through the queue, from its first job to the result that counts.
// A result counts once it is verified (Verify) and, for an audited match, once another
// worker's verified result agrees with it: a result that does not prove itself, or that
// the agreeing workers contradict, gets its worker quarantined, and the match is published
// again (a new round, with a new nonce) for a worker that has not answered it yet. A job a
// worker acknowledged without a result is published again too: nothing waits for ever.
// The coordinator's own workers (queue.LocalWorker) are trusted: one of their verified
// results settles a match.
type Trial struct {
	// Job is the job out now, Seq its stream sequence (set by the coordinator once it has
	// published it).
	Job Job
	Seq uint64
	// Audit makes the match count only once two workers agree.
	Audit bool

	got     []Accepted
	gone    time.Time // when the job out now was first seen acknowledged with no result
	refused []string
}

// Accepted is a verified result and its worker.
type Accepted struct {
	Worker string
	Result Result
	Match  match.Result
	// Audited says another worker's result agreed (or the worker is the coordinator's).
	Audited bool
}

// Step is what the coordinator does next for a trial; at most one of Record, Again and Fail.
type Step struct {
	// Record is the result to record: the match is done.
	Record *Accepted
	// Again asks for Job (a new round) to be published.
	Again bool
	// Fail is the message of a match no worker gave an acceptable result for, charged to no bot.
	Fail string
	// Quarantine holds workers to cut off, and why.
	Quarantine map[string]string
	// Note says what happened to a result that was set aside ("" when nothing to say).
	Note string
}

// NewTrial starts a trial of job, its nonce taken from q.
func NewTrial(q *queue.Queue, job Job, audit bool) *Trial {
	job.Nonce = q.Nonce(job.ID())
	return &Trial{Job: job, Audit: audit}
}

// Take judges a result that came for this trial's match.
func (t *Trial) Take(q *queue.Queue, in queue.Incoming) Step {
	w := in.Worker
	if why := q.Quarantined(w); why != "" {
		return Step{Note: fmt.Sprintf("a result from quarantined worker %s set aside", w)}
	}
	r, err := DecodeResult(in.Result)
	if err != nil {
		return t.refuse(q, w, fmt.Sprintf("worker %s sent a result for match %d that cannot be read: %v", w, t.Job.Match.Idx, err))
	}
	job, ok := t.round(q, r.Job)
	if !ok {
		// Another attempt's, or not a job of this match at all.
		return Step{Note: fmt.Sprintf("a result of job %q from %s, not of the job out now (%s): set aside", trim(r.Job), w, t.Job.ID())}
	}
	if slices.Contains(t.Job.Avoid, w) {
		return Step{Note: fmt.Sprintf("a second result from %s for job %s: set aside", w, t.Job.ID())}
	}
	// An earlier round's result (slow to come, or from before a restart) counts as well,
	// checked against the job it answers.
	m, err := Verify(job, r)
	if err != nil {
		return t.refuse(q, w, fmt.Sprintf("worker %s: %v", w, err))
	}
	a := Accepted{Worker: w, Result: r, Match: m, Audited: w == queue.LocalWorker}
	played := r.Infra == "" && r.Error == ""
	if !played && len(t.got) > 0 {
		// An auditor that did not play: another is asked.
		if w != queue.LocalWorker {
			t.refused = append(t.refused, w)
		}
		return t.again(fmt.Sprintf("match %s: the audit by %s was not played (%s): asked of another worker", t.Job.Match.MatchID, w, r.Infra+r.Error), w)
	}
	if !t.Audit || !played || (a.Audited && len(t.got) == 0) {
		return Step{Record: &a}
	}
	// An audit: the result counts once another agrees (or the coordinator's own played it).
	for _, g := range t.got {
		if a.Audited || Agree(g.Match, m) {
			s := Step{Quarantine: map[string]string{}}
			rec := g
			if a.Audited {
				rec = a
			}
			rec.Audited = true
			s.Record = &rec
			for _, o := range append(t.got, a) {
				if !Agree(o.Match, rec.Match) {
					s.Quarantine[o.Worker] = fmt.Sprintf("its result for match %s (%q) disagrees with %s's (%q) in an audit", t.Job.Match.MatchID, o.Match.Outcome.Summary, rec.Worker, rec.Match.Outcome.Summary)
				}
			}
			return s
		}
	}
	t.got = append(t.got, a)
	return t.again(fmt.Sprintf("match %s audited: %s's result is played again by another worker", t.Job.Match.MatchID, w), w)
}

// round is the job of this trial's attempt that id names (any round: one published before a
// restart may be ahead of this run's), with its nonce.
func (t *Trial) round(q *queue.Queue, id string) (Job, bool) {
	j := t.Job
	for k := 0; k < maxRounds; k++ {
		if j.Round = k; j.ID() == id {
			j.Nonce = q.Nonce(id)
			return j, true
		}
	}
	return Job{}, false
}

// refuse fails the delivery a worker answered with a result that does not prove itself: the
// worker is quarantined and the match published again for another.
func (t *Trial) refuse(q *queue.Queue, w, why string) Step {
	s := t.again(why, w)
	// The coordinator's own workers share one name: avoiding it would leave them nothing.
	if w != queue.LocalWorker {
		s.Quarantine = map[string]string{w: why}
		t.refused = append(t.refused, w)
	}
	return s
}

// again moves the trial to a new round that avoids every worker that answered it.
func (t *Trial) again(note, worker string) Step {
	if t.Job.Round+1 >= maxRounds {
		return Step{Note: note, Fail: fmt.Sprintf("infrastructure failure, charged to no bot: no worker gave an acceptable result in %d rounds (the last: %s)", maxRounds, note)}
	}
	return Step{Note: note, Again: true}
}

// Next makes the trial's next round: the job out now is taken off the queue (a result of
// it is set aside), and the new one has a new ID and nonce and avoids every worker that
// answered or was refused. The caller publishes it and sets Seq.
func (t *Trial) Next(ctx context.Context, q *queue.Queue) {
	if t.Seq != 0 {
		_ = q.DropJob(ctx, t.Seq)
	}
	t.Job.Round++
	for _, w := range t.refused {
		if !slices.Contains(t.Job.Avoid, w) {
			t.Job.Avoid = append(t.Job.Avoid, w)
		}
	}
	for _, g := range t.got {
		if !slices.Contains(t.Job.Avoid, g.Worker) {
			t.Job.Avoid = append(t.Job.Avoid, g.Worker)
		}
	}
	t.Job.Nonce = q.Nonce(t.Job.ID())
	t.Seq, t.gone = 0, time.Time{}
}

// Exhausted is what a job handed out MaxDeliver times without a result comes to: an audit
// no other worker took (every worker online had answered it) records the result it was to
// check, as unaudited; anything else is an infrastructure failure, charged to no bot.
// Two results that disagree are never settled so: the tie-break is published again (a new
// round, its deliveries counted afresh) while rounds are left, and then the match fails. Under
// load the third worker can be busy while the two that answered spend the job's deliveries
// handing it back, and recording the first result recorded a forger's (seen in CI).
func (t *Trial) Exhausted(deliveries uint64) Step {
	switch {
	case len(t.got) > 1:
		names := make([]string, len(t.got))
		for i, g := range t.got {
			names[i] = g.Worker
		}
		return t.again(fmt.Sprintf("match %s: the results of %s disagree and no other worker took the tie-break in %d deliveries: published again",
			t.Job.Match.MatchID, strings.Join(names, " and "), deliveries), "")
	case len(t.got) == 1:
		a := t.got[0]
		return Step{Record: &a, Note: fmt.Sprintf("match %s: no other worker took its audit; %s's result recorded unaudited", t.Job.Match.MatchID, a.Worker)}
	}
	return Step{Fail: fmt.Sprintf("infrastructure failure, charged to no bot: the job was handed out %d times without a result (workers killed, stopped, cut off, or none left that has not answered it)", deliveries)}
}

// Lost checks whether the job out now was acknowledged by a worker that sent no result:
// gone from the queue for longer than grace with nothing come for it (an honest worker
// publishes its result before it acknowledges the job). Then the match is published again.
func (t *Trial) Lost(ctx context.Context, q *queue.Queue, grace time.Duration) Step {
	if t.Seq == 0 {
		return Step{}
	}
	waiting, err := q.JobWaiting(ctx, t.Seq)
	if err != nil || waiting {
		t.gone = time.Time{}
		return Step{}
	}
	if t.gone.IsZero() {
		t.gone = time.Now()
		return Step{}
	}
	if time.Since(t.gone) < grace {
		return Step{}
	}
	return t.again(fmt.Sprintf("job %s was taken off the queue without a result: published again", t.Job.ID()), "")
}

func trim(s string) string {
	if len(s) > 80 {
		return s[:80] + "..."
	}
	return strings.ToValidUTF8(s, "?")
}
