package ladder

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"sync"
	"time"

	"github.com/botarena/arena/arena/botspec"
	"github.com/botarena/arena/arena/game"
	"github.com/botarena/arena/arena/host"
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
