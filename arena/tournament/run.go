package tournament

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"runtime"
	"strconv"
	"sync"
	"time"

	"github.com/botarena/arena/arena/botspec"
	"github.com/botarena/arena/arena/game"
	"github.com/botarena/arena/arena/host"
	"github.com/botarena/arena/arena/match"
	"github.com/botarena/arena/arena/matchplay"
	"github.com/botarena/arena/arena/players"
	"github.com/botarena/arena/arena/queue"
	"github.com/botarena/arena/arena/store"
	"github.com/botarena/arena/arena/submission"
	arenav1 "github.com/botarena/arena/proto/arena/v1"
	"github.com/botarena/arena/sandbox"
	"github.com/botarena/arena/sdk"
)

// Create schedules a new tournament and writes it, schedule included, to the store.
func Create(ctx context.Context, st *store.Store, name string, cfg Config) (int64, error) {
	spec, err := game.Lookup(cfg.Game)
	if err != nil {
		return 0, err
	}
	cfg.Entries = Unique(cfg.Entries)
	if err := Check(spec, cfg); err != nil {
		return 0, err
	}
	matches, err := Schedule(spec, cfg)
	if err != nil {
		return 0, err
	}
	// Each bot's snapshot is taken as it enters: its hash says afterwards what ran.
	var errs []error
	for i := range cfg.Entries {
		h, err := snapshotHash(cfg.Entries[i].Spec)
		if err != nil {
			errs = append(errs, fmt.Errorf("bot %s: %w", cfg.Entries[i].Name, err))
		}
		cfg.Entries[i].Hash = h
	}
	if err := errors.Join(errs...); err != nil {
		return 0, err
	}
	raw, err := json.Marshal(cfg)
	if err != nil {
		return 0, err
	}
	bots := make([]store.Bot, len(cfg.Entries))
	for i, e := range cfg.Entries {
		bots[i] = store.Bot{Idx: i, Name: e.Name, Spec: e.Spec, Author: e.Author, Language: e.Language, Hash: e.Hash}
	}
	return st.CreateTournament(ctx, store.Tournament{Name: name, Game: cfg.Game, Config: raw}, bots, matches)
}

// snapshotHash takes the snapshot of a bot argument (no build) and returns its content hash.
func snapshotHash(spec string) (string, error) {
	src, err := submission.Parse(spec)
	if err != nil {
		return "", err
	}
	store, err := sandbox.FilesDir()
	if err != nil {
		return "", err
	}
	snap, err := submission.Take(src, store, submission.Limits{})
	return snap.Hash, err
}

// LoadConfig reads a stored tournament's config.
func LoadConfig(t store.Tournament) (Config, error) {
	var cfg Config
	if err := json.Unmarshal(t.Config, &cfg); err != nil {
		return cfg, fmt.Errorf("tournament %s: stored config: %w", t.Name, err)
	}
	return cfg, nil
}

// EventKind says what happened to a match.
type EventKind int

// Event kinds.
const (
	MatchStarted EventKind = iota
	MatchDone
	MatchFailed
)

// Event reports progress; counts are totals over the whole tournament.
type Event struct {
	Kind  EventKind
	Match store.Match
	// Bot names the bot of a BotCharged event.
	Bot     string
	Summary string
	Err     error
	Total   int
	Done    int
	Running int
	Failed  int
	// Resumed counts matches already done before this run started.
	Resumed int
}

// Options tune a run.
type Options struct {
	// Jobs is the number of matches played at once (default: the number of cores).
	Jobs     int
	Resolver *botspec.Resolver
	// OnEvent is called from worker goroutines, one call at a time.
	OnEvent func(Event)
	// WorkRoot for bot processes (default os.TempDir()).
	WorkRoot string
	// Fresh starts new bot processes for every match. Otherwise each worker keeps one process
	// per bot and reuses it for its next matches (a bot process holds any number of seats, each
	// call naming its match); a process that died or was killed is started again.
	Fresh bool
	// Host holds the sandbox limits and strictness for every bot (its StartTimeout and
	// WorkRoot are taken from the tournament).
	Host host.Options
	// MeasureMoves reads every bot's CPU time and memory around each move (into the stored
	// timings and replays); it costs two small reads per move.
	MeasureMoves bool
	// Queue, when set, publishes every match as a job on NATS JetStream for workers anywhere
	// (arena worker) and records their results; Jobs then counts local workers pulling from
	// the same queue (0: none, every match is played elsewhere).
	Queue *queue.Queue
	// Alone says this process's workers are the queue's only ones (an embedded server
	// without a port): a bot they cannot build is charged at once, as in a direct run.
	Alone bool
	// OnStall is told of every match the machine stalled (voided and played again; see
	// MaxStalls); nil: not told.
	OnStall func(matchID string, err error)
}

// Summary of a run.
type Summary struct {
	Total, Done, Failed, Played int
	Elapsed                     time.Duration
}

// ErrIncomplete means the run ended with matches still pending (interrupted or failed).
var ErrIncomplete = errors.New("tournament not complete")

// load reads what running a tournament needs: its record, its configuration, its game and
// its schedule.
func load(ctx context.Context, st *store.Store, id int64) (store.Tournament, Config, game.Spec, []store.Match, error) {
	t, err := st.FindTournament(ctx, fmt.Sprint(id))
	if err != nil {
		return t, Config{}, game.Spec{}, nil, err
	}
	cfg, err := LoadConfig(t)
	if err != nil {
		return t, cfg, game.Spec{}, nil, err
	}
	spec, err := game.Lookup(cfg.Game)
	if err != nil {
		return t, cfg, spec, nil, err
	}
	all, err := st.Matches(ctx, id)
	return t, cfg, spec, all, err
}

// Run plays every match of tournament id that is not done yet, in this process or, with
// opt.Queue, as jobs. Each match takes its bot processes from a per-worker pool (see
// Options.Fresh) and is recorded (result, faults, timings, replay) in one transaction when it
// ends; a cancelled match is left pending for --resume.
func Run(ctx context.Context, st *store.Store, id int64, opt Options) (Summary, error) {
	if opt.Queue != nil {
		return runQueued(ctx, st, id, opt)
	}
	t, cfg, spec, all, err := load(ctx, st, id)
	if err != nil {
		return Summary{}, err
	}
	if opt.Resolver == nil {
		opt.Resolver = &botspec.Resolver{}
	}
	if opt.Jobs <= 0 {
		opt.Jobs = runtime.NumCPU()
	}
	// Resolve (snapshot and build) every bot before the first match. A bot that cannot be
	// prepared for a reason of its own (its build failed, its toolchain or its requirements
	// are not to be had here, and this machine is the only one) is charged in each of its
	// matches; one the arena failed (its files store, say) leaves its matches failed, charged
	// to no bot, for --resume; one whose files changed stops the run (see botspec.Classify).
	cmds := make([]host.Command, len(cfg.Entries))
	broken := make([]error, len(cfg.Entries))
	infra := make([]error, len(cfg.Entries))
	var errs []error
	for i, e := range cfg.Entries {
		p, err := opt.Resolver.Prepare(e.Spec)
		if e.Hash != "" && p.Snapshot.Hash != "" && p.Snapshot.Hash != e.Hash {
			errs = append(errs, fmt.Errorf("bot %s changed since the tournament started (%s: snapshot %.12s, now %.12s): restore its files, or start a new tournament with it", e.Name, e.Spec, e.Hash, p.Snapshot.Hash))
			continue
		}
		switch botspec.Classify(err) {
		case botspec.Ready:
			p.Command.Name = e.Name
			cmds[i] = p.Command
		case botspec.BotFault, botspec.Unavailable:
			broken[i] = err
			if opt.OnEvent != nil {
				opt.OnEvent(Event{Kind: BotCharged, Bot: e.Name, Summary: err.Error()})
			}
		case botspec.Infrastructure:
			infra[i] = fmt.Errorf("infrastructure failure, charged to no bot: bot %s could not be prepared: %w; retry with --resume %s", e.Name, err, t.Name)
		default:
			errs = append(errs, fmt.Errorf("bot %s: %w", e.Name, err))
		}
	}
	if err := errors.Join(errs...); err != nil {
		return Summary{}, err
	}
	var pending []store.Match
	sum := Summary{Total: len(all)}
	for _, m := range all {
		if m.Status == store.StatusDone {
			sum.Done++
		} else {
			pending = append(pending, m)
		}
	}
	resumed := sum.Done
	if err := st.SetStatus(ctx, id, "running"); err != nil {
		return sum, err
	}
	start := time.Now()
	var mu sync.Mutex
	running := 0
	emit := func(kind EventKind, m store.Match, summary string, err error) {
		mu.Lock()
		defer mu.Unlock()
		switch kind {
		case MatchStarted:
			running++
		case MatchDone:
			running--
			sum.Done++
			sum.Played++
		case MatchFailed:
			running--
			sum.Failed++
		}
		if opt.OnEvent != nil {
			opt.OnEvent(Event{Kind: kind, Match: m, Summary: summary, Err: err, Total: sum.Total, Done: sum.Done,
				Running: running, Failed: sum.Failed, Resumed: resumed})
		}
	}
	work := make(chan store.Match)
	var storeErr error
	var storeOnce sync.Once
	cctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var wg sync.WaitGroup
	// Never more workers than matches to play: each one holds its own bot processes.
	for w := 0; w < min(opt.Jobs, len(pending)); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			// Each worker has its own processes, so a bot killed in one match never takes a
			// concurrent match down with it.
			pl := &pool{fresh: opt.Fresh, bots: map[string]*host.Bot{}}
			defer pl.close()
			for m := range work {
				emit(MatchStarted, m, "", nil)
				if err := infraOf(m, infra); err != nil {
					_ = st.FailMatch(context.WithoutCancel(ctx), id, m.Idx, err.Error())
					emit(MatchFailed, m, "", err)
					continue
				}
				summary, err := playOne(cctx, st, id, spec, cfg, cmds, broken, m, opt, pl)
				switch {
				case err == nil:
					emit(MatchDone, m, summary, nil)
				case cctx.Err() != nil:
					emit(MatchFailed, m, "", cctx.Err())
				case errors.As(err, new(*storeError)):
					emit(MatchFailed, m, "", err)
					storeOnce.Do(func() { storeErr = err; cancel() })
				default:
					_ = st.FailMatch(context.WithoutCancel(ctx), id, m.Idx, err.Error())
					emit(MatchFailed, m, "", err)
				}
			}
		}()
	}
feed:
	for _, m := range pending {
		select {
		case work <- m:
		case <-cctx.Done():
			break feed
		}
	}
	close(work)
	wg.Wait()
	sum.Elapsed = time.Since(start)
	bg := context.WithoutCancel(ctx)
	switch {
	case storeErr != nil:
		_ = st.SetStatus(bg, id, "interrupted")
		return sum, storeErr
	case sum.Done == sum.Total:
		return sum, st.SetStatus(bg, id, "finished")
	case ctx.Err() != nil:
		_ = st.SetStatus(bg, id, "interrupted")
		return sum, fmt.Errorf("%w: interrupted with %d of %d matches done; continue with --resume %s: %w", ErrIncomplete, sum.Done, sum.Total, t.Name, ctx.Err())
	default:
		_ = st.SetStatus(bg, id, "incomplete")
		return sum, fmt.Errorf("%w: %d of %d matches done, %d failed (see arena show); retry them with --resume %s", ErrIncomplete, sum.Done, sum.Total, sum.Failed, t.Name)
	}
}

// infraOf is the arena's failure to prepare one of m's bots, if any.
func infraOf(m store.Match, infra []error) error {
	for _, b := range m.Players {
		if infra[b] != nil {
			return infra[b]
		}
	}
	return nil
}

type storeError struct{ err error }

func (e *storeError) Error() string { return "store: " + e.err.Error() }
func (e *storeError) Unwrap() error { return e.err }

// pool hands out bot processes to one worker: fresh ones, or the worker's live one per bot.
type pool struct {
	fresh bool
	mu    sync.Mutex
	bots  map[string]*host.Bot
}

// get returns the live process kept under key (a bot's index here; a worker keys by
// tournament too), or starts one.
func (p *pool) get(ctx context.Context, key string, cmd host.Command, opt host.Options) (*host.Bot, error) {
	if !p.fresh {
		p.mu.Lock()
		bot := p.bots[key]
		p.mu.Unlock()
		if bot != nil && bot.Alive() {
			return bot, nil
		}
	}
	bot, err := host.Launch(ctx, cmd, opt)
	if err != nil || p.fresh {
		return bot, err
	}
	p.mu.Lock()
	old := p.bots[key]
	p.bots[key] = bot
	p.mu.Unlock()
	if old != nil {
		old.Close()
	}
	return bot, nil
}

// release ends a match's use of its processes.
func (p *pool) release(procs []*host.Bot) {
	if p.fresh {
		players.CloseAll(procs)
	}
}

func (p *pool) close() {
	p.mu.Lock()
	defer p.mu.Unlock()
	for b, bot := range p.bots {
		bot.Close()
		delete(p.bots, b)
	}
}

// playOne plays one match and records it.
func playOne(ctx context.Context, st *store.Store, id int64, spec game.Spec, cfg Config, cmds []host.Command, broken []error, m store.Match, opt Options, pl *pool) (string, error) {
	p, err := play(ctx, spec, cfg, cmds, broken, nil, m, opt, pl, strconv.Itoa)
	if err != nil {
		return "", err
	}
	// Record even if the run is being cancelled now: the match is finished and must not be lost.
	if err := st.FinishMatch(context.WithoutCancel(ctx), id, m.Idx, p.fin); err != nil {
		return "", &storeError{err}
	}
	return p.summary, nil
}

// relaunch prepares again a bot whose files were missing from the files store at launch (a
// direct run has its spec and resolver: the snapshot is taken and built again, and must still
// have the hash the bot entered with) and launches that; otherwise it returns why.
func relaunch(ctx context.Context, opt Options, e Entry, pl *pool, key string, hopt host.Options, why error) (*host.Bot, error) {
	if opt.Resolver == nil || e.Spec == "" {
		return nil, why
	}
	p, err := opt.Resolver.Prepare(e.Spec)
	if err == nil && e.Hash != "" && p.Snapshot.Hash != e.Hash {
		err = fmt.Errorf("its files changed since the tournament started (snapshot %.12s, now %.12s)", e.Hash, p.Snapshot.Hash)
	}
	if err != nil {
		return nil, fmt.Errorf("%w; taking and building it again failed: %v", why, err)
	}
	c := p.Command
	c.Name = e.Name
	return pl.get(ctx, key, c, hopt)
}

// played is what one match leaves: the record, its summary line, and per seat (in the order
// of Match.Players) the tail of the bot's log in this match, or why it did not play.
type played struct {
	fin     store.Finish
	summary string
	logs    []string
	// stalls is how often the machine stalled the match before this play (each voided).
	stalls int
}

// MaxStalls is how often a match the machine stalled (match.ErrStalled: a bot runnable but
// given no CPU past its stall limit) is voided and played again before it fails, charged to
// no bot.
const MaxStalls = 3

// play plays one match (playOnce) and, when the machine stalls it, voids it and plays it
// again with fresh processes for the stalled bots: what the machine did is charged to no bot.
// played.stalls counts the voided plays.
func play(ctx context.Context, spec game.Spec, cfg Config, cmds []host.Command, broken []error, houses map[int]*sdk.Bot, m store.Match, opt Options, pl *pool, poolKey func(int) string) (played, error) {
	for stalls := 0; ; stalls++ {
		p, err := playOnce(ctx, spec, cfg, cmds, broken, houses, m, opt, pl, poolKey)
		p.stalls = stalls
		if !errors.Is(err, match.ErrStalled) || ctx.Err() != nil {
			return p, err
		}
		if opt.OnStall != nil {
			opt.OnStall(m.MatchID, err)
		}
		if stalls+1 >= MaxStalls {
			return p, fmt.Errorf("infrastructure failure, charged to no bot: the machine stalled the match %d times, the last: %w", stalls+1, err)
		}
	}
}

// playOnce gets processes for one match from the pool (under poolKey(bot index)), plays it and
// returns what is recorded: the same wherever it runs (here, or on a worker). A bot index
// with a house bot plays it in-process; one with a broken build or no process is a fault in
// its seat.
func playOnce(ctx context.Context, spec game.Spec, cfg Config, cmds []host.Command, broken []error, houses map[int]*sdk.Bot, m store.Match, opt Options, pl *pool, poolKey func(int) string) (played, error) {
	names := make([]string, len(m.Players))
	for i, b := range m.Players {
		names[i] = cfg.Entries[b].Name
	}
	procs := make([]*host.Bot, len(m.Players))
	ps := make([]match.Player, len(m.Players))
	var wg sync.WaitGroup
	var infraMu sync.Mutex
	var infra error
	for i, b := range m.Players {
		if h := houses[b]; h != nil {
			ps[i] = players.NewInProcess(names[i], *h)
			continue
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			if broken[b] != nil {
				ps[i] = deadPlayer{name: names[i], why: broken[b].Error(), built: true}
				return
			}
			hopt := opt.Host
			hopt.StartTimeout, hopt.WorkRoot = cfg.StartTimeout, opt.WorkRoot
			p, err := pl.get(ctx, poolKey(b), cmds[b], hopt)
			if errors.Is(err, host.ErrMissingFiles) {
				p, err = relaunch(ctx, opt, cfg.Entries[b], pl, poolKey(b), hopt, err)
			}
			if errors.Is(err, host.ErrMissingFiles) || errors.Is(err, match.ErrStalled) {
				// The arena lost the bot's files, or the machine stalled its start: the match
				// fails (or is played again), charged to no bot.
				infraMu.Lock()
				infra = errors.Join(infra, err)
				infraMu.Unlock()
				return
			}
			if err != nil {
				// A bot that cannot start is a fault in its seat, not a broken tournament.
				ps[i] = deadPlayer{name: names[i], why: err.Error()}
				return
			}
			procs[i] = p
			ps[i] = players.Process{Bot: p, Since: p.Log.Total()}
		}()
	}
	wg.Wait()
	defer pl.release(procs)
	if err := ctx.Err(); err != nil {
		return played{}, err
	}
	if infra != nil {
		return played{}, infra
	}
	p, err := matchplay.Play(ctx, matchplay.Match{Spec: spec, Config: matchplay.Config(m.Seed, cfg.Params, names), Players: ps,
		Options: match.Options{MatchID: m.MatchID, Deadline: cfg.Deadline, StartDeadline: cfg.StartDeadline, EndDeadline: cfg.EndDeadline,
			ClockMs: cfg.ClockMs, MeasureMoves: opt.MeasureMoves, Clock: cfg.ClockMode(), WallFactor: cfg.WallFactor, Bank: cfg.Bank}})
	if err != nil {
		return played{}, err
	}
	pl.release(procs)
	res := p.Result
	rp, err := json.Marshal(p.Record)
	if err != nil {
		return played{}, err
	}
	result, err := json.Marshal(res)
	if err != nil {
		return played{}, err
	}
	// The same derivation Verify checks a worker's result against.
	fin := store.Finish{Result: result, Replay: rp, Duration: res.Duration, Faults: faults(m, res), Timings: timings(m, res),
		Clock: string(cfg.ClockMode())}
	return played{fin: fin, summary: res.Outcome.Summary, logs: p.Logs}, nil
}

// deadPlayer stands in for a bot that could not be built or started.
type deadPlayer struct {
	name, why string
	built     bool // why is a build failure, which says so itself
}

func (d deadPlayer) Label() string { return d.name }
func (d deadPlayer) Alive() bool   { return false }
func (d deadPlayer) Why() string {
	if d.built {
		return d.why
	}
	return CouldNotStart + d.why
}

// CouldNotStart begins the report of a bot whose process never became ready (its log in the
// match, its faults): the ladder's verdict says it once.
const CouldNotStart = "could not start: "

func (d deadPlayer) Tail(int) []string {
	return nil
}

// StepLog is the player's log in its match: why it never played.
func (d deadPlayer) StepLog(int) string { return d.Why() }
func (d deadPlayer) Open(context.Context, *arenav1.StartRequest, time.Duration) (match.Conn, error) {
	return nil, errors.New(d.Why())
}
