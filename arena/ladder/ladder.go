package ladder

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"sync"
	"time"

	"github.com/botarena/arena/arena/botspec"
	"github.com/botarena/arena/arena/game"
	"github.com/botarena/arena/arena/host"
	"github.com/botarena/arena/arena/match"
	"github.com/botarena/arena/arena/queue"
	"github.com/botarena/arena/arena/rating"
	"github.com/botarena/arena/arena/store"
	"github.com/botarena/arena/arena/submission"
	"github.com/botarena/arena/arena/tournament"
	"github.com/botarena/arena/bots/house"
)

// NewMatches is how many ladder matches a version plays before it is paired like the others:
// until then it goes first.
const NewMatches = 4

// infraTries is how often a validation whose smoke match fell to an infrastructure failure
// (no worker could play it) is tried again before the version is failed.
const infraTries = 3

// EventKind says what changed.
type EventKind string

// Event kinds.
const (
	MatchStarted  EventKind = "match-started"
	MatchFinished EventKind = "match-finished"
	Validated     EventKind = "validated"
)

// Event tells the server what changed, for live pages.
type Event struct {
	Kind      EventKind `json:"kind"`
	Game      string    `json:"game"`
	MatchID   int64     `json:"match_id,omitempty"`
	VersionID int64     `json:"version_id,omitempty"`
	Status    string    `json:"status,omitempty"`
	Summary   string    `json:"summary,omitempty"`
}

// Ladder validates versions and plays ladder matches, each match a job on the queue that any
// worker (this process's own, or arena worker elsewhere) plays. Set the fields, then call Run.
type Ladder struct {
	Store *store.Store
	// Queue carries every smoke and ladder match as a job (arena/tournament's Job); required.
	Queue *queue.Queue
	// Key names this ladder's jobs and results on the queue (default: from the store's own
	// id, so a restarted server finds its own and two stores never share one).
	Key string
	// Resolver snapshots uploads here and builds them in this process's workers.
	Resolver *botspec.Resolver
	// Jobs is how many matches (validations included) are in flight at once; at least 1.
	Jobs int
	// LocalJobs is how many of them this process plays itself (0: only arena worker does).
	LocalJobs int
	// WorkRoot for the local workers' bot processes (default os.TempDir()).
	WorkRoot string
	// Host carries the sandbox limits every job is played with, wherever.
	Host host.Options
	// Deadline per move (0: the runner's default, 1 s).
	Deadline time.Duration
	// Clock times every ladder and smoke match's moves (arena serve's clock flags; the zero
	// value is wall time); it travels in each job, and a worker that cannot give it declines.
	Clock tournament.Clock
	// Games the ladder plays (default: every game with a house bot).
	Games []string
	// Params per game for ladder and smoke matches (default: each game's Spec.Ladder).
	Params map[string]map[string]string
	// Pause is how long an idle scheduler waits before looking again (default 200 ms).
	Pause time.Duration
	// Stopped pauses ladder matches (validations still run): the organiser's switch.
	Stopped func() bool
	// OnEvent is called from worker goroutines, one call at a time.
	OnEvent func(Event)
	// DataDir is the server's folder of uploads: version N's files are DataDir/versions/N.
	// Versions nobody plays any more have them collected (see collect); empty: never.
	DataDir string
	// KeepVersions is how many passing versions of each bot keep their files (0:
	// store.KeptVersions), so its author can go back to one; older ones are collected.
	KeepVersions int

	mu      sync.Mutex
	queue   []int64 // versions waiting for validation
	busy    map[int64]bool
	wake    chan struct{}
	replayQ []int64 // ladder matches to play again (organiser)
	tries   map[int64]int
	files   map[int64]tournament.JobBot // versions whose files are on the queue
	waiting map[int64]chan arrival
	// unaudited lists, per worker, the ladder matches recorded on its word alone (this run):
	// played again if it is quarantined.
	unaudited map[string][]int64
	gen       int // this Run's attempt number for matches it publishes again (random, never 0)
	eventsMu  sync.Mutex

	// played counts each author's ladder matches per game (user id), for Pick's fair shares;
	// playing its matches running now.
	played  map[string]map[int64]int
	playing map[author]int
	// validating is how many validations are in flight; lastValidate whether the last job
	// started was one (validations and ladder matches take turns).
	validating   int
	lastValidate bool
	// pinned versions keep their files whatever collect finds (an organiser's tournament
	// plays them); a count per version.
	pinned map[int64]int
	// collectDue is when the scheduler next collects files (zero: at its next turn).
	collectDue time.Time
}

func (l *Ladder) emit(e Event) {
	if l.OnEvent == nil {
		return
	}
	l.eventsMu.Lock()
	defer l.eventsMu.Unlock()
	l.OnEvent(e)
}

func (l *Ladder) init() {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.wake == nil {
		l.wake = make(chan struct{}, 1)
		l.busy = map[int64]bool{}
		l.tries = map[int64]int{}
		l.files = map[int64]tournament.JobBot{}
		l.waiting = map[int64]chan arrival{}
		l.played = map[string]map[int64]int{}
		l.playing = map[author]int{}
		l.pinned = map[int64]int{}
		l.unaudited = map[string][]int64{}
	}
	if l.Jobs <= 0 {
		l.Jobs = 1
	}
	if l.Pause <= 0 {
		l.Pause = 200 * time.Millisecond
	}
	if len(l.Games) == 0 {
		l.Games = game.Names() // every registered game; SeedHouse fails for one without a house bot
	}
	if l.Resolver == nil {
		l.Resolver = &botspec.Resolver{}
	}
}

func (l *Ladder) poke() {
	select {
	case l.wake <- struct{}{}:
	default:
	}
}

// Enqueue asks for a version's validation; it runs before any ladder match.
func (l *Ladder) Enqueue(versionID int64) {
	l.init()
	l.mu.Lock()
	l.queue = append(l.queue, versionID)
	l.mu.Unlock()
	l.poke()
}

// Replay asks for a finished ladder match to be played again with the same versions and seed
// (the organiser's check of a disputed result); the new match is a ladder match of its own.
func (l *Ladder) Replay(matchID int64) {
	l.init()
	l.mu.Lock()
	l.replayQ = append(l.replayQ, matchID)
	l.mu.Unlock()
	l.poke()
}

// SeedHouse makes sure every game has its house bot as an active version, owned by owner.
func (l *Ladder) SeedHouse(ctx context.Context, owner int64) error {
	l.init()
	for _, g := range l.Games {
		h, ok := house.Bots[g]
		if !ok {
			return fmt.Errorf("game %q has no house bot for its ladder: mark one of its Spec.House Ladder: true (with its constructor in bots/house/house.go)", g)
		}
		b, err := l.Store.EnsureBot(ctx, owner, g, h.Name, h.Name)
		if err != nil {
			return err
		}
		vs, err := l.Store.Versions(ctx, b.ID)
		if err != nil {
			return err
		}
		if len(vs) > 0 {
			continue
		}
		v, err := l.Store.AddVersion(ctx, b.ID, rating.DefaultMu, rating.DefaultSigma)
		if err != nil {
			return err
		}
		if err := l.Store.SetVersionDir(ctx, v.ID, "", "go"); err != nil {
			return err
		}
		if err := l.Store.SetVerdict(ctx, v.ID, store.VersionOK, "house bot: the arena's own, played in-process", "", ""); err != nil {
			return err
		}
	}
	return nil
}

// job is one unit of work for the scheduler.
type job struct {
	validate int64 // a version to validate, or
	game     string
	versions []store.Version // a ladder match
	seed     uint64
	resume   int64 // a ladder match already running (a restart): published again
}

// Run schedules until ctx ends: validations first, then ladder matches, Jobs at a time, each
// a job on the queue. Versions left validating by a stopped server are validated again; the
// jobs it left queued are purged and its running ladder matches published again under job ids
// of their own, each recorded once when a result comes (the old attempt's, if it was on its
// way, or the new one's), so a restart loses none.
func (l *Ladder) Run(ctx context.Context) error {
	l.init()
	if l.Queue == nil {
		return errors.New("ladder: no queue to publish matches on (arena/queue)")
	}
	if l.Key == "" {
		id, err := l.Store.ID(ctx)
		if err != nil {
			return err
		}
		l.Key = "ladder-" + id[:min(16, len(id))]
	}
	// A match published again after a restart gets a job id of its own: the queue keeps the
	// ids of jobs it has already handed out (for its de-duplication window) and would drop it.
	l.gen = 1 + rand.IntN(1<<30)
	if err := l.Store.AbandonRunning(ctx, store.KindSmoke); err != nil {
		return err
	}
	pending, err := l.Store.Pending(ctx)
	if err != nil {
		return err
	}
	for _, v := range pending {
		l.Enqueue(v.ID)
	}
	running, err := l.Store.LadderMatches(ctx, store.MatchFilter{Kind: store.KindLadder, Status: store.LadderRunning, Limit: 1 << 20})
	if err != nil {
		return err
	}
	// What a stopped server left queued is either abandoned (smoke matches) or published
	// again below: workers need not play it.
	if err := l.Queue.PurgeJobs(ctx, l.Key); err != nil {
		return err
	}
	var resumed []*job
	for _, m := range running {
		j := l.replayJob(ctx, m.ID)
		if j == nil {
			_ = l.Store.FailLadderMatch(ctx, m.ID, "the server stopped during the match and its versions are gone")
			continue
		}
		j.resume = m.ID
		l.markBusy(j.versions, true)
		l.expect(m.ID) // before any result is routed
		resumed = append(resumed, j)
	}
	inbox, err := l.Queue.Listen(ctx, l.Key)
	if err != nil {
		return err
	}
	defer inbox.Close()
	go l.route(ctx, inbox)
	var wg sync.WaitGroup
	defer wg.Wait()
	if l.LocalJobs > 0 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			// They take no job that asks more than the ladder's own limits.
			_ = tournament.Work(ctx, l.Queue, tournament.WorkOptions{Jobs: l.LocalJobs, Resolver: l.Resolver, WorkRoot: l.WorkRoot, Name: "serve",
				Most: tournament.Policy{Limits: l.Host.Limits, Deadline: max(l.Deadline, l.Host.StartTimeout, tournament.DefaultDeadline)}})
		}()
	}
	sem := make(chan struct{}, l.Jobs)
	start := func(j *job) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer func() { <-sem; l.poke() }()
			l.do(ctx, j)
		}()
	}
	for _, j := range resumed {
		select {
		case sem <- struct{}{}:
			start(j)
		case <-ctx.Done():
			return nil
		}
	}
	gameTurn := 0
	for {
		select {
		case sem <- struct{}{}:
		case <-ctx.Done():
			return nil
		}
		var j *job
		for j == nil {
			l.maybeCollect(ctx)
			j = l.next(ctx, &gameTurn)
			if j != nil {
				break
			}
			select {
			case <-ctx.Done():
				<-sem
				return nil
			case <-l.wake:
			case <-time.After(l.Pause):
			}
		}
		start(j)
	}
}

// next picks the next job, or nil when there is nothing to do now. Validations and ladder
// matches take turns while both wait, and validations hold at most half the slots then: a
// stream of uploads never stops the ladder (nor the ladder validations).
func (l *Ladder) next(ctx context.Context, turn *int) *job {
	l.mu.Lock()
	validateFirst := len(l.queue) > 0 && !l.lastValidate && l.validating < max(1, l.Jobs/2)
	l.mu.Unlock()
	if validateFirst {
		return l.takeValidation()
	}
	if j := l.nextMatch(ctx, turn); j != nil {
		l.mu.Lock()
		l.lastValidate = false
		l.mu.Unlock()
		return j
	}
	return l.takeValidation()
}

// takeValidation takes the oldest waiting validation (nil when none waits).
func (l *Ladder) takeValidation() *job {
	l.mu.Lock()
	defer l.mu.Unlock()
	if len(l.queue) == 0 {
		return nil
	}
	id := l.queue[0]
	l.queue = l.queue[1:]
	l.validating++
	l.lastValidate = true
	return &job{validate: id}
}

// nextMatch picks an organiser's replay or a ladder match (nil when there is none to play).
func (l *Ladder) nextMatch(ctx context.Context, turn *int) *job {
	l.mu.Lock()
	var again int64
	if len(l.replayQ) > 0 {
		again, l.replayQ = l.replayQ[0], l.replayQ[1:]
	}
	l.mu.Unlock()
	if again != 0 {
		if j := l.replayJob(ctx, again); j != nil {
			l.markBusy(j.versions, true)
			return j
		}
	}
	if l.Stopped != nil && l.Stopped() {
		return nil
	}
	for i := range l.Games {
		g := l.Games[(*turn+i)%len(l.Games)]
		vs, err := l.Store.Active(ctx, g)
		if err != nil {
			continue
		}
		// An author plays one ladder match at a time, whatever its number of bots: with a
		// version in every free slot, it would otherwise take the seats the others' single
		// versions leave while they play.
		l.mu.Lock()
		free := vs[:0]
		authors, freeAuthors := map[int64]bool{}, map[int64]bool{}
		for _, v := range vs {
			authors[v.Bot.UserID] = true
			if !l.busy[v.ID] && l.playing[author{g, v.Bot.UserID}] == 0 {
				free = append(free, v)
				freeAuthors[v.Bot.UserID] = true
			}
		}
		// A table waits until it can be full (every author of the game when there are
		// fewer than its seats): a short table while its other authors play would rate a
		// different game than the one the others play.
		seats := l.seats(g)
		if len(freeAuthors) < min(seats, len(authors)) {
			l.mu.Unlock()
			continue
		}
		table := Pick(free, l.shares(g, free), seats, rand.Float64)
		if table == nil {
			l.mu.Unlock()
			continue
		}
		for _, v := range table {
			l.played[g][v.Bot.UserID]++
		}
		l.mu.Unlock()
		*turn = (*turn + i + 1) % len(l.Games)
		l.markBusy(table, true)
		return &job{game: g, versions: table, seed: rand.Uint64()}
	}
	return nil
}

// shares is how many ladder matches each author has been given in game g since this Run
// began (l.mu held). An author seen for the first time starts level with the least served of
// the others, so a newcomer gets its share from now on, not every match until it caught up.
func (l *Ladder) shares(g string, vs []store.Version) map[int64]int {
	p := l.played[g]
	if p == nil {
		p = map[int64]int{}
		l.played[g] = p
	}
	floor, known := 0, false
	for _, v := range vs {
		if n, ok := p[v.Bot.UserID]; ok && (!known || n < floor) {
			floor, known = n, true
		}
	}
	for _, v := range vs {
		if _, ok := p[v.Bot.UserID]; !ok {
			p[v.Bot.UserID] = floor
		}
	}
	return p
}

func (l *Ladder) replayJob(ctx context.Context, id int64) *job {
	m, err := l.Store.LadderMatchByID(ctx, id)
	if err != nil || m.Kind != store.KindLadder {
		return nil
	}
	j := &job{game: m.Game, seed: m.Seed}
	for _, s := range m.Seats {
		v, err := l.Store.VersionByID(ctx, s.VersionID)
		if err != nil || !v.Collected.IsZero() {
			return nil
		}
		j.versions = append(j.versions, v)
	}
	return j
}

func (l *Ladder) markBusy(vs []store.Version, on bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	for _, v := range vs {
		a := author{v.Bot.Game, v.Bot.UserID}
		if on {
			l.busy[v.ID] = true
			l.playing[a]++
		} else {
			delete(l.busy, v.ID)
			if l.playing[a]--; l.playing[a] <= 0 {
				delete(l.playing, a)
			}
		}
	}
}

// author is one author in one game.
type author struct {
	game string
	user int64
}

func (l *Ladder) do(ctx context.Context, j *job) {
	if j.validate != 0 {
		defer func() {
			l.mu.Lock()
			l.validating--
			l.mu.Unlock()
		}()
		l.validate(ctx, j.validate)
		return
	}
	defer l.markBusy(j.versions, false)
	_, _, _ = l.play(ctx, j.game, store.KindLadder, j.versions, j.seed, j.resume)

}

// validate builds a version and plays its smoke match.
func (l *Ladder) validate(ctx context.Context, id int64) {
	v, err := l.Store.VersionByID(ctx, id)
	if err != nil || v.Status != store.VersionValidating {
		return
	}
	status, verdict, log, hash, infra := l.check(ctx, v)
	if ctx.Err() != nil {
		return // validated again at the next start
	}
	if infra != "" {
		l.mu.Lock()
		l.tries[id]++
		n := l.tries[id]
		l.mu.Unlock()
		if n < infraTries {
			time.AfterFunc(10*l.Pause, func() { l.Enqueue(id) })
			return
		}
		status, verdict = store.VersionFailed, fmt.Sprintf("not validated: %d tries fell to an infrastructure failure, charged to no bot (upload it again, or ask the organiser): %s", n, infra)
	}
	_ = l.Store.SetVerdict(context.WithoutCancel(ctx), id, status, verdict, log, hash)
	l.mu.Lock()
	l.collectSoon() // a failed version, or the one a passing version replaced
	l.mu.Unlock()
	l.emit(Event{Kind: Validated, Game: v.Bot.Game, VersionID: id, Status: status, Summary: verdict})
	l.poke()
}

// check snapshots a version, publishes its files and plays its smoke match through the
// queue: the worker builds it in the build sandbox and plays it against the house bot. infra
// is set when the arena, not the version, kept it from being validated.
func (l *Ladder) check(ctx context.Context, v store.Version) (status, verdict, log, hash, infra string) {
	if _, ok := house.Bots[v.Bot.Game]; !ok {
		return store.VersionFailed, fmt.Sprintf("no house bot for game %q", v.Bot.Game), "", "", ""
	}
	jb, err := l.versionFiles(ctx, v)
	hash = jb.Hash
	switch {
	case errors.Is(err, tournament.ErrInfrastructure):
		return "", "", "", hash, err.Error()
	case err != nil:
		return store.VersionFailed, "not a bot the arena can run: " + strings.ReplaceAll(err.Error(), v.Dir, "(upload)"), "", hash, ""
	}
	hv, err := l.houseVersion(ctx, v.Bot.Game)
	if err != nil {
		return store.VersionFailed, "no house bot to play: " + err.Error(), "", hash, ""
	}
	mid, out, err := l.play(ctx, v.Bot.Game, store.KindSmoke, []store.Version{v, hv}, rand.Uint64()>>1, 0)
	switch {
	case err != nil:
		return store.VersionFailed, fmt.Sprintf("the smoke match could not be played: %v", err), "", hash, ""
	case out.infra != "":
		return "", "", "", hash, out.infra
	}
	if len(out.res.Logs) > 0 {
		log = out.res.Logs[0]
	}
	if len(out.res.Broken) > 0 && out.res.Broken[0] != "" {
		first, rest, _ := strings.Cut(out.res.Broken[0], "\n")
		rest = strings.TrimPrefix(strings.TrimSpace(rest), "last lines of the build:")
		var tail []string
		for _, line := range strings.Split(rest, "\n") {
			if line = strings.TrimSpace(line); line != "" {
				tail = append(tail, line)
			}
		}
		return store.VersionFailed, first, strings.Join(tail, "\n"), hash, ""
	}
	if first, rest, ok := couldNotStart(log); ok {
		// One cause, said once: how it ended and its own stderr lines, not a fault per game.
		return store.VersionFailed, first, rest, hash, ""
	}
	var mine []string
	for _, f := range out.match.Outcome.Faults {
		if f.Seat >= 0 && f.Seat < len(out.match.Seats) && out.match.Seats[f.Seat].Player == 0 {
			line := fmt.Sprintf("%s at %s (%s)", f.Kind, f.Where, f.Penalty)
			if f.Detail != "" {
				line += ": " + f.Detail
			}
			mine = append(mine, line)
		}
	}
	if len(mine) > 0 {
		causes := map[string]bool{}
		for _, m := range mine {
			_, cause, _ := strings.Cut(m, ": ")
			causes[cause] = true
		}
		count := fmt.Sprintf("%d faults", len(mine))
		if len(causes) == 1 && len(mine) > 1 {
			count += ", all the same"
		}
		return store.VersionFailed, fmt.Sprintf("faulted in its smoke match %d against %s (%s); the first: %s", mid, hv.Bot.Name, count, mine[0]), log, hash, ""
	}
	return store.VersionOK, fmt.Sprintf("passed: built, then played smoke match %d against %s without a fault (%s)", mid, hv.Bot.Name, out.match.Outcome.Summary), log, hash, ""
}

// versionFiles snapshots a version's folder and puts it on the queue for workers, once per
// version (its files never change).
func (l *Ladder) versionFiles(ctx context.Context, v store.Version) (tournament.JobBot, error) {
	l.mu.Lock()
	jb, ok := l.files[v.ID]
	l.mu.Unlock()
	if ok {
		return jb, nil
	}
	var lim submission.Limits
	if l.Resolver != nil {
		lim = l.Resolver.Snapshot
	}
	jb, err := tournament.PublishBot(ctx, l.Queue, seatName(v), v.Dir, lim)
	if err != nil {
		return jb, err
	}
	l.mu.Lock()
	l.files[v.ID] = jb
	l.mu.Unlock()
	return jb, nil
}

func seatName(v store.Version) string { return fmt.Sprintf("%s v%d", v.Bot.Name, v.N) }

func (l *Ladder) houseVersion(ctx context.Context, g string) (store.Version, error) {
	vs, err := l.Store.Active(ctx, g)
	if err != nil {
		return store.Version{}, err
	}
	for _, v := range vs {
		if v.Bot.House != "" {
			return v, nil
		}
	}
	// A disabled house bot still plays smoke matches.
	b, err := l.Store.BotByName(ctx, g, house.Bots[g].Name)
	if err != nil {
		return store.Version{}, err
	}
	all, err := l.Store.Versions(ctx, b.ID)
	if err != nil || len(all) == 0 {
		return store.Version{}, fmt.Errorf("house bot %s has no version", b.Name)
	}
	return all[0], nil
}

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

// seats is how many players a ladder match of game g seats: its Spec's format, the one place
// that says how a game plays on the ladder (a pair, or a table of the game's own).
func (l *Ladder) seats(g string) int {
	spec, err := game.Lookup(g)
	if err != nil {
		return 2
	}
	return spec.LadderSeats()
}

// GameParams are the parameters ladder and smoke matches of a game are played with.
func (l *Ladder) GameParams(g string) map[string]string {
	if l.Params != nil {
		return l.Params[g]
	}
	spec, err := game.Lookup(g)
	if err != nil {
		return nil
	}
	return spec.Ladder
}

// Language names what a version's folder is, as botspec classifies it.
func Language(dir string) (string, error) {
	src, err := submission.Parse(dir)
	if err != nil {
		return "", err
	}
	return string(src.Kind), nil
}

// couldNotStart splits the log of a seat whose bot never started (tournament's "could not
// start: ..." report) into its first line and the rest (its own last stderr lines).
func couldNotStart(log string) (first, rest string, ok bool) {
	if !strings.HasPrefix(log, tournament.CouldNotStart) {
		return "", "", false
	}
	first, rest, _ = strings.Cut(log, "\n")
	var lines []string
	for _, l := range strings.Split(rest, "\n") {
		// The report indents the bot's lines by 4; their own indent (a caret) stays.
		if t := strings.TrimSpace(l); t != "" && t != "its last stderr lines:" {
			lines = append(lines, strings.TrimPrefix(strings.TrimRight(l, " "), "    "))
		}
	}
	return first, strings.Join(lines, "\n"), true
}
