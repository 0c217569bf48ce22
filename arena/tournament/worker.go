package tournament

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/botarena/arena/arena/botspec"
	"github.com/botarena/arena/arena/filestore"
	"github.com/botarena/arena/arena/game"
	"github.com/botarena/arena/arena/host"
	"github.com/botarena/arena/arena/match"
	"github.com/botarena/arena/arena/queue"
	"github.com/botarena/arena/arena/submission"
	"github.com/botarena/arena/bots/house"
	"github.com/botarena/arena/sandbox"
	"github.com/botarena/arena/sdk"
)

// WorkOptions tune a worker.
type WorkOptions struct {
	// Jobs is the number of matches played at once (default 1).
	Jobs int
	// Resolver builds the fetched bots (its Build options are this machine's).
	Resolver *botspec.Resolver
	// WorkRoot for bot processes (default os.TempDir()).
	WorkRoot string
	// Name goes into every result (default host name and process id).
	Name string
	// Strict refuses to start a bot when a sandbox layer is missing, whatever the job says.
	Strict bool
	// Most is the most a job may ask of this machine (its sandbox limits and time per move):
	// a job asking more is refused, not played (see Policy).
	Most Policy
	// Log receives one line per job event, and the languages this machine builds at the
	// start; nil: silent.
	Log func(string)
	// Alone says no other worker takes this queue's jobs (a coordinator's own workers on an
	// embedded server without a port): a bot this worker cannot build is charged at once
	// instead of being left for a worker that can.
	Alone bool
	// RetryDelay is how long a job handed back (declined, or its bot's files not to be had
	// now) stays out of the queue after its first delivery; it doubles with every delivery,
	// up to MaxRetryDelay (default DefaultRetryDelay).
	RetryDelay time.Duration
	// CPUClock says whether this machine can charge a bot's CPU time, and why not (default
	// CPUClock): a job asking for the CPU clock where it cannot is declined, never played on
	// another clock.
	CPUClock func() (bool, string)
	// Files is the files store the worker keeps fetched bots in (default sandbox.FilesDir()):
	// a bot whose snapshot is there already (taken on this machine, by its hash) is not
	// fetched again. A test gives a worker one of its own, as on a machine of its own.
	Files string
}

// Redelivery delays: a job handed back after delivery n waits RetryDelay * 2^(n-1), at most
// MaxRetryDelay. With the queue's default five deliveries a job no worker can play is charged
// (or failed) about 30 s after it was first taken, not in milliseconds.
const (
	DefaultRetryDelay = 2 * time.Second
	MaxRetryDelay     = time.Minute
)

// retryDelay is how long a job handed back after its delivered-th delivery waits.
func (o WorkOptions) retryDelay(delivered uint64) time.Duration {
	d := o.RetryDelay
	for i := uint64(1); i < delivered && d < MaxRetryDelay; i++ {
		d *= 2
	}
	return min(d, MaxRetryDelay)
}

// poolBound is how many bot processes a worker slot keeps alive across tournaments.
const poolBound = 64

// Work pulls jobs from q and plays them until ctx ends. Each bot's files come from the
// object store by content hash and are snapshotted, built and run through the same botspec,
// build and sandbox path as a local tournament; a snapshot whose hash differs from the
// job's is refused.
func Work(ctx context.Context, q *queue.Queue, opt WorkOptions) error {
	if opt.Jobs <= 0 {
		opt.Jobs = 1
	}
	if opt.Resolver == nil {
		opt.Resolver = &botspec.Resolver{}
	}
	if opt.Name == "" {
		h, _ := os.Hostname()
		opt.Name = fmt.Sprintf("%s/%d", h, os.Getpid())
	}
	if opt.RetryDelay <= 0 {
		opt.RetryDelay = DefaultRetryDelay
	}
	if opt.CPUClock == nil {
		opt.CPUClock = CPUClock
	}
	if opt.Log == nil {
		opt.Log = func(string) {}
	} else {
		announce(opt)
	}
	files := opt.Files
	if files == "" {
		var err error
		if files, err = sandbox.FilesDir(); err != nil {
			return err
		}
	}
	w := &worker{q: q, opt: opt, files: files}
	var wg sync.WaitGroup
	for range opt.Jobs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			pl := &pool{bots: map[string]*host.Bot{}}
			defer pl.close()
			for ctx.Err() == nil {
				d, err := q.Next(ctx, 5*time.Second)
				if err != nil {
					if ctx.Err() == nil {
						opt.Log(fmt.Sprintf("waiting for jobs: %v", err))
						sleep(ctx, time.Second)
					}
					continue
				}
				if d != nil {
					w.handle(ctx, d, pl)
				}
			}
		}()
	}
	wg.Wait()
	return nil
}

type worker struct {
	q     *queue.Queue
	opt   WorkOptions
	files string     // the files store (snapshots)
	mu    sync.Mutex // one fetch at a time
	// stalls counts the matches this worker's machine stalled (each voided and played again):
	// a worker that stalls often is overloaded, and its log says so.
	stalls atomic.Int64
}

// lease tracks whether a job is still this worker's: it is not once the gap between two
// heartbeats exceeded the ack wait (the process was stopped, or starved), since by then the
// server has handed the job to another worker.
type lease struct {
	mu   sync.Mutex
	last time.Time
	wait time.Duration
	lost bool
}

func (l *lease) beat() bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	now := time.Now()
	if now.Sub(l.last) > l.wait {
		l.lost = true
	}
	l.last = now
	return !l.lost
}

func (l *lease) held() bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	return !l.lost && time.Since(l.last) <= l.wait
}

func (w *worker) handle(ctx context.Context, d *queue.Delivery, pl *pool) {
	var job Job
	if err := json.Unmarshal(d.Data(), &job); err != nil || job.Key == "" {
		w.opt.Log(fmt.Sprintf("message %d on the jobs stream is not a job (%v): dropped", d.Seq, err))
		_ = d.Done(ctx) // nothing to play and nobody to tell
		return
	}
	if slices.Contains(job.Avoid, w.q.Worker()) {
		// Another worker's turn: this one already answered the job (an audit, a retry).
		_ = d.RetryAfter(time.Second)
		return
	}
	w.opt.Log(fmt.Sprintf("job %s started: %s (delivery %d)", job.ID(), job.Match.MatchID, d.Delivered))
	ls := &lease{last: time.Now(), wait: w.q.AckWait}
	done := make(chan struct{})
	go func() {
		t := time.NewTicker(w.q.AckWait / 4)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-t.C:
				if ls.beat() {
					_ = d.Heartbeat()
				}
			}
		}
	}()
	// Heartbeats go on while the result is published (the server may be restarting).
	defer close(done)
	res, retry := w.play(ctx, job, d, pl)
	if retry != nil {
		if ctx.Err() != nil {
			_ = d.Retry() // stopping: another worker may take it at once
			return
		}
		// Declined (this machine cannot build one of its bots) or failed here (the files
		// store, fetching the files): back to the queue, held there a while, so that another
		// worker can take it and the deliveries are not spent in milliseconds.
		wait := w.opt.retryDelay(d.Delivered)
		verb := "handed back"
		if botspec.Classify(retry) == botspec.Unavailable || errors.Is(retry, ErrNoCPUClock) {
			verb = "declined"
		}
		w.opt.Log(fmt.Sprintf("job %s %s (delivery %d of %d), back in the queue in %v: %v", job.ID(), verb, d.Delivered, w.q.MaxDeliver, wait, retry))
		_ = d.RetryAfter(wait)
		return
	}
	data, err := encodeResult(res)
	if err != nil {
		_ = d.Retry()
		return
	}
	// Publish until it is in the stream, unless the job is no longer ours: then another
	// worker plays it again from its seed and this result is dropped.
	for {
		if !ls.held() {
			w.opt.Log(fmt.Sprintf("job %s lost (no heartbeat for longer than the ack wait %v): result dropped", job.ID(), w.q.AckWait))
			return
		}
		if ctx.Err() != nil {
			return // stopped: the job goes to another worker after the ack wait
		}
		pctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), w.q.AckWait/2)
		dup, err := w.q.PublishResult(pctx, job.Key, job.Match.Idx, job.ID(), data)
		cancel()
		if err == nil {
			if dup {
				w.opt.Log(fmt.Sprintf("job %s: a result was already in (late result discarded)", job.ID()))
			}
			break
		}
		w.opt.Log(fmt.Sprintf("job %s: publishing its result: %v (retrying)", job.ID(), err))
		sleep(ctx, 200*time.Millisecond)
	}
	actx, cancel := context.WithTimeout(context.WithoutCancel(ctx), w.q.AckWait/2)
	_ = d.Done(actx)
	cancel()
	msg := res.Summary + res.Infra + res.Error
	for s, why := range res.Broken {
		if why != "" {
			first, _, _ := strings.Cut(why, "\n")
			msg += fmt.Sprintf("; %s charged: %s", job.Bots[s].Name, first)
		}
	}
	w.opt.Log(fmt.Sprintf("job %s done: %s", job.ID(), msg))
}

// play plays a job's match. retry is set when the job should go to another worker (the
// files could not be fetched, this machine cannot build that kind of bot, ctx ended) and this
// is not its last delivery. On its last delivery a bot this machine cannot build is charged
// with the reason, and a failure of the arena's own is sent back as an infrastructure failure
// naming its cause, so the coordinator records why.
func (w *worker) play(ctx context.Context, job Job, d *queue.Delivery, pl *pool) (res Result, retry error) {
	res = Result{Key: job.Key, Idx: job.Match.Idx, Attempt: job.Attempt, Worker: w.opt.Name, Delivered: d.Delivered,
		Job: job.ID(), Nonce: job.Nonce}
	last := w.q.MaxDeliver > 0 && d.Delivered >= uint64(w.q.MaxDeliver)
	if err := job.check(); err != nil {
		res.Infra = "job refused: " + err.Error()
		return res, nil
	}
	if err := w.opt.Most.allows(job); err != nil {
		res.Infra = "job refused: " + err.Error()
		return res, nil
	}
	spec, err := game.Lookup(job.Config.Game)
	if err != nil {
		res.Infra = fmt.Sprintf("this worker does not know the game: %v", err)
		return res, nil
	}
	if err := w.clockFor(job); err != nil {
		if !w.opt.Alone && !last {
			return res, err // a worker that counts CPU time plays it
		}
		res.Infra = fmt.Sprintf("%v (the job's delivery %d, to %s: no worker that counts CPU time took it)", err, d.Delivered, w.opt.Name)
		return res, nil
	}
	n := 0
	for _, b := range job.Match.Players {
		n = max(n, b+1)
	}
	cfg := job.Config
	cfg.Entries = make([]Entry, n)
	cmds := make([]host.Command, n)
	broken := make([]error, n)
	houses := map[int]*sdk.Bot{}
	res.Broken = make([]string, len(job.Match.Players))
	for s, b := range job.Match.Players {
		jb := job.Bots[s]
		cfg.Entries[b] = Entry{Name: jb.Name, Hash: jb.Hash}
		if jb.House != "" {
			h, _ := house.New(job.Config.Game, jb.House, jb.HouseSeed) // check() knew it
			houses[b] = &h
			continue
		}
		p, err := w.prepare(ctx, jb)
		if refused := (*refusal)(nil); errors.As(err, &refused) {
			res.Infra = refused.Error()
			return res, nil
		}
		switch botspec.Classify(err) {
		case botspec.Ready:
			p.Command.Name = jb.Name
			if p.Command.Files != "" {
				p.Command.Files = "." // its author's upload: paths relative to its folder
			}
			cmds[b] = p.Command
		case botspec.BotFault:
			broken[b] = err // the bot's verdict, as in a local tournament
			res.Broken[s] = err.Error()
		case botspec.Unavailable:
			switch {
			case w.opt.Alone:
			case last:
				err = fmt.Errorf("%w (and on every worker this job reached: %d deliveries, the last to %s)", err, d.Delivered, w.opt.Name)
			default:
				return res, err // another worker may have what this one lacks
			}
			broken[b] = err // the bot's verdict, like a crash at its start
			res.Broken[s] = err.Error()
		default:
			if ctx.Err() != nil || !last {
				return res, err
			}
			res.Infra = fmt.Sprintf("worker %s could not prepare bot %s at the job's last delivery (%d): %v", w.opt.Name, jb.Name, d.Delivered, err)
			return res, nil
		}
	}
	opt := Options{Host: host.Options{Limits: job.Limits, Strict: job.Strict || w.opt.Strict}, WorkRoot: w.opt.WorkRoot, MeasureMoves: job.MeasureMoves,
		OnStall: func(id string, err error) {
			w.opt.Log(fmt.Sprintf("worker %s: the machine stalled match %s, played again (stalls so far: %d; a worker that stalls often is overloaded): %v", w.opt.Name, id, w.stalls.Add(1), err))
		}}
	if len(pl.bots) > poolBound {
		pl.close()
	}
	if job.Fresh {
		pl = &pool{fresh: true}
	}
	// Processes are pooled per queue key, seat and files: a ladder job's seat 0 is another
	// bot from one job to the next.
	key := func(b int) string { return job.Key + "/" + strconv.Itoa(b) + "/" + cfg.Entries[b].Hash }
	p, err := play(ctx, spec, cfg, cmds, broken, houses, job.Match, opt, pl, key)
	if ctx.Err() != nil {
		return res, ctx.Err()
	}
	res.Stalls = p.stalls
	if errors.Is(err, host.ErrMissingFiles) || errors.Is(err, match.ErrStalled) {
		// the next job prepares the bot again (botspec), which rebuilds it; a machine that
		// stalled the match MaxStalls times leaves it to another delivery
		res.Infra = err.Error()
		return res, nil
	}
	if err != nil {
		res.Error = err.Error()
		return res, nil
	}
	res.Summary, res.Finish, res.Replay, res.Logs = p.summary, p.fin, p.fin.Replay, p.logs
	res.Finish.Replay = nil
	return res, nil
}

// clockFor refuses a job asking for the CPU clock on a machine that cannot count a bot's CPU
// time: played on wall time instead, its bots would be charged a busy machine's delays, and
// its record would not be the match the coordinator scheduled.
func (w *worker) clockFor(job Job) error {
	if job.Config.ClockMode() != match.ClockCPU {
		return nil
	}
	if ok, why := w.opt.CPUClock(); !ok {
		return fmt.Errorf("%w: job %s is played on the CPU clock, and this machine cannot count a bot's CPU time (%s); "+
			"'arena sandbox check' says what is missing", ErrNoCPUClock, job.ID(), why)
	}
	return nil
}

// refusal is a job that must not be played anywhere: its files are not what it names.
type refusal struct{ msg string }

func (r *refusal) Error() string { return r.msg }

// prepare resolves a bot's files as a local tournament does, from its snapshot in the files
// store (snap/<hash>, stored once per machine): when it is not there, the files are fetched by
// hash into a folder of this process's lease, the snapshot is taken of them (which must have the
// job's hash) and the fetched copy goes.
func (w *worker) prepare(ctx context.Context, jb JobBot) (botspec.Prepared, error) {
	fs, err := filestore.Open(w.files)
	if err != nil {
		return botspec.Prepared{}, err
	}
	entry := filestore.Entry("snap", jb.Hash)
	w.mu.Lock()
	have, err := fs.Use(entry)
	if err == nil && !have {
		err = w.fetch(ctx, fs, jb)
	}
	w.mu.Unlock()
	if err != nil {
		return botspec.Prepared{}, err
	}
	arg := fs.Path(entry)
	if jb.Entry != "" {
		arg = filepath.Join(arg, jb.Entry)
	}
	p, err := w.opt.Resolver.Prepare(arg)
	if err != nil {
		err = &named{err: err, path: fs.Path(entry), name: jb.Name}
	}
	return p, err
}

// named is an error about a bot's files that names them as their author knows them (the
// bot's name), not by where this worker keeps them (its files store's snap/<hash>).
type named struct {
	err        error
	path, name string
}

func (e *named) Error() string { return strings.ReplaceAll(e.err.Error(), e.path, e.name) }
func (e *named) Unwrap() error { return e.err }

// fetch puts the files stored under jb.Hash into the files store as snap/<hash>: the hash is
// checked (by taking the snapshot) before anything is built from them.
func (w *worker) fetch(ctx context.Context, fs *filestore.Store, jb JobBot) error {
	tmp, err := fs.Temp("fetch")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	dir := filepath.Join(tmp, "files")
	if err := w.q.GetFiles(ctx, jb.Hash, dir); err != nil {
		if errors.Is(err, queue.ErrBadFiles) {
			return &refusal{fmt.Sprintf("bot %s: files %.12s refused: %v", jb.Name, jb.Hash, err)}
		}
		return err
	}
	arg := dir
	if jb.Entry != "" {
		arg = filepath.Join(dir, jb.Entry)
	}
	src, err := submission.Parse(arg)
	if err != nil {
		return &refusal{fmt.Sprintf("bot %s: files %.12s: %v", jb.Name, jb.Hash, err)}
	}
	snap, err := submission.Take(src, w.files, w.opt.Resolver.Snapshot)
	if err != nil || snap.Hash != jb.Hash {
		return &refusal{fmt.Sprintf("bot %s: the files fetched for %.12s have the content hash %.12s (%v): refused, nothing of them was built or ran", jb.Name, jb.Hash, snap.Hash, err)}
	}
	return nil
}

// announce logs which languages this machine builds and runs, and why not the others.
func announce(opt WorkOptions) {
	var ready, not []string
	for _, l := range opt.Resolver.Languages() {
		if l.Err != nil {
			not = append(not, fmt.Sprintf("  %s: %v", l.Name, l.Err))
			continue
		}
		ready = append(ready, l.Name)
	}
	opt.Log("this worker builds and runs: " + strings.Join(ready, ", "))
	if ok, why := opt.CPUClock(); !ok {
		opt.Log(fmt.Sprintf("it declines jobs on the CPU clock: this machine cannot count a bot's CPU time (%s)", why))
	}
	if len(not) > 0 {
		opt.Log(fmt.Sprintf("it declines jobs with bots in (each goes to another worker, or is charged to its bot at its last delivery):\n%s", strings.Join(not, "\n")))
	}
}

func sleep(ctx context.Context, d time.Duration) {
	select {
	case <-ctx.Done():
	case <-time.After(d):
	}
}
