package ladder

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/botarena/arena/arena/botspec"
	"github.com/botarena/arena/arena/build"
	"github.com/botarena/arena/arena/game"
	"github.com/botarena/arena/arena/host"
	"github.com/botarena/arena/arena/match"
	"github.com/botarena/arena/arena/players"
	"github.com/botarena/arena/arena/rating"
	"github.com/botarena/arena/arena/replay"
	"github.com/botarena/arena/arena/store"
	"github.com/botarena/arena/arena/submission"
	arenav1 "github.com/botarena/arena/proto/arena/v1"
)

// NewMatches is how many ladder matches a version plays before it is paired like the others:
// until then it goes first.
const NewMatches = 4

// LogLines is how much of a bot's stderr is kept per match (its tail) for its author.
const LogLines = 40

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

// Ladder validates versions and plays ladder matches. Set the fields, then call Run.
type Ladder struct {
	Store    *store.Store
	Resolver *botspec.Resolver
	// Jobs is how many matches (validations included) run at once; at least 1.
	Jobs int
	Host host.Options
	// Deadline per move (0: the runner's default, 1 s).
	Deadline time.Duration
	// Games the ladder plays (default: every game with a house bot).
	Games []string
	// Params per game for ladder and smoke matches (default: the package's Params).
	Params map[string]map[string]string
	// Pause is how long an idle scheduler waits before looking again (default 200 ms).
	Pause time.Duration
	// Stopped pauses ladder matches (validations still run): the organiser's switch.
	Stopped func() bool
	// OnEvent is called from worker goroutines, one call at a time.
	OnEvent func(Event)

	mu       sync.Mutex
	queue    []int64 // versions waiting for validation
	busy     map[int64]bool
	wake     chan struct{}
	replayQ  []int64 // ladder matches to play again (organiser)
	eventsMu sync.Mutex
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
	}
	if l.Jobs <= 0 {
		l.Jobs = 1
	}
	if l.Pause <= 0 {
		l.Pause = 200 * time.Millisecond
	}
	if len(l.Games) == 0 {
		for g := range HouseBots {
			l.Games = append(l.Games, g)
		}
		sort.Strings(l.Games)
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
		h := HouseBots[g]
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

// job is one unit of work for a worker.
type job struct {
	validate int64 // a version to validate, or
	game     string
	versions []store.Version // a ladder match
	seed     uint64
}

// Run schedules until ctx ends: validations first, then ladder matches, Jobs at a time.
// Versions left validating by a stopped server are validated again.
func (l *Ladder) Run(ctx context.Context) error {
	l.init()
	if err := l.Store.AbandonRunning(ctx); err != nil {
		return err
	}
	pending, err := l.Store.Pending(ctx)
	if err != nil {
		return err
	}
	for _, v := range pending {
		l.Enqueue(v.ID)
	}
	sem := make(chan struct{}, l.Jobs)
	var wg sync.WaitGroup
	defer wg.Wait()
	gameTurn := 0
	for {
		select {
		case sem <- struct{}{}:
		case <-ctx.Done():
			return nil
		}
		var j *job
		for j == nil {
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
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer func() { <-sem; l.poke() }()
			l.do(ctx, j)
		}()
	}
}

// next picks the next job, or nil when there is nothing to do now.
func (l *Ladder) next(ctx context.Context, turn *int) *job {
	l.mu.Lock()
	if len(l.queue) > 0 {
		id := l.queue[0]
		l.queue = l.queue[1:]
		l.mu.Unlock()
		return &job{validate: id}
	}
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
		l.mu.Lock()
		free := vs[:0]
		for _, v := range vs {
			if !l.busy[v.ID] {
				free = append(free, v)
			}
		}
		l.mu.Unlock()
		pair := Pick(free, rand.Float64)
		if pair == nil {
			continue
		}
		*turn = (*turn + i + 1) % len(l.Games)
		l.markBusy(pair, true)
		return &job{game: g, versions: pair, seed: rand.Uint64()}
	}
	return nil
}

func (l *Ladder) replayJob(ctx context.Context, id int64) *job {
	m, err := l.Store.LadderMatchByID(ctx, id)
	if err != nil || m.Kind != store.KindLadder {
		return nil
	}
	j := &job{game: m.Game, seed: m.Seed}
	for _, s := range m.Seats {
		v, err := l.Store.VersionByID(ctx, s.VersionID)
		if err != nil {
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
		if on {
			l.busy[v.ID] = true
		} else {
			delete(l.busy, v.ID)
		}
	}
}

// Pick chooses a ladder pair among free versions (nil when fewer than two): the version with
// the fewest matches while any has fewer than NewMatches, else the one with the largest sigma;
// its opponent is drawn among the three with the best match quality. rnd is in [0, 1).
func Pick(vs []store.Version, rnd func() float64) []store.Version {
	if len(vs) < 2 {
		return nil
	}
	first := 0
	for i, v := range vs {
		f := vs[first]
		switch {
		case v.Matches < NewMatches || f.Matches < NewMatches:
			if v.Matches < f.Matches {
				first = i
			}
		case v.Sigma > f.Sigma:
			first = i
		}
	}
	a := vs[first]
	type cand struct {
		v store.Version
		q float64
	}
	var cs []cand
	for i, v := range vs {
		if i != first && v.BotID != a.BotID {
			cs = append(cs, cand{v, Quality(a, v)})
		}
	}
	if len(cs) == 0 {
		return nil
	}
	sort.SliceStable(cs, func(i, j int) bool { return cs[i].q > cs[j].q })
	k := min(3, len(cs))
	b := cs[int(rnd()*float64(k))%k].v
	return []store.Version{a, b}
}

// Quality is TrueSkill's draw probability for two ratings (1: evenly matched and certain).
func Quality(a, b store.Version) float64 {
	const beta = rating.DefaultSigma / 2
	c2 := 2*beta*beta + a.Sigma*a.Sigma + b.Sigma*b.Sigma
	d := a.Mu - b.Mu
	return math.Sqrt(2*beta*beta/c2) * math.Exp(-d*d/(2*c2))
}

func (l *Ladder) do(ctx context.Context, j *job) {
	if j.validate != 0 {
		l.validate(ctx, j.validate)
		return
	}
	defer l.markBusy(j.versions, false)
	_, _, _ = l.play(ctx, j.game, store.KindLadder, j.versions, j.seed)
}

// validate builds a version and plays its smoke match.
func (l *Ladder) validate(ctx context.Context, id int64) {
	v, err := l.Store.VersionByID(ctx, id)
	if err != nil || v.Status != store.VersionValidating {
		return
	}
	status, verdict, log, hash := l.check(ctx, v)
	if ctx.Err() != nil {
		return // validated again at the next start
	}
	_ = l.Store.SetVerdict(context.WithoutCancel(ctx), id, status, verdict, log, hash)
	l.emit(Event{Kind: Validated, Game: v.Bot.Game, VersionID: id, Status: status, Summary: verdict})
	l.poke()
}

func (l *Ladder) check(ctx context.Context, v store.Version) (status, verdict, log, hash string) {
	if _, ok := HouseBots[v.Bot.Game]; !ok {
		return store.VersionFailed, fmt.Sprintf("no house bot for game %q", v.Bot.Game), "", ""
	}
	p, err := l.Resolver.Prepare(v.Dir)
	hash = p.Snapshot.Hash
	var be *build.Error
	switch {
	case errors.As(err, &be):
		return store.VersionFailed, "build failed: " + be.Step + ": " + be.Reason, strings.Join(be.Tail, "\n"), hash
	case err != nil:
		return store.VersionFailed, "not a bot the arena can run: " + strings.ReplaceAll(err.Error(), v.Dir, "(upload)"), "", hash
	}
	house, err := l.houseVersion(ctx, v.Bot.Game)
	if err != nil {
		return store.VersionFailed, "no house bot to play: " + err.Error(), "", hash
	}
	mid, res, err := l.play(ctx, v.Bot.Game, store.KindSmoke, []store.Version{v, house}, rand.Uint64())
	if err != nil {
		return store.VersionFailed, fmt.Sprintf("the smoke match could not be played: %v", err), "", hash
	}
	m, _ := l.Store.LadderMatchByID(ctx, mid)
	if len(m.Seats) > 0 {
		log = m.Seats[0].Log
	}
	var mine []string
	for _, f := range res.Outcome.Faults {
		if f.Seat >= 0 && f.Seat < len(res.Seats) && res.Seats[f.Seat].Player == 0 {
			line := fmt.Sprintf("%s at %s (%s)", f.Kind, f.Where, f.Penalty)
			if f.Detail != "" {
				line += ": " + f.Detail
			}
			mine = append(mine, line)
		}
	}
	if len(mine) > 0 {
		return store.VersionFailed, fmt.Sprintf("faulted in its smoke match %d against %s (%d faults); the first: %s", mid, house.Bot.Name, len(mine), mine[0]), log, hash
	}
	return store.VersionOK, fmt.Sprintf("passed: built, then played smoke match %d against %s without a fault (%s)", mid, house.Bot.Name, res.Outcome.Summary), log, hash
}

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
	b, err := l.Store.BotByName(ctx, g, HouseBots[g].Name)
	if err != nil {
		return store.Version{}, err
	}
	all, err := l.Store.Versions(ctx, b.ID)
	if err != nil || len(all) == 0 {
		return store.Version{}, fmt.Errorf("house bot %s has no version", b.Name)
	}
	return all[0], nil
}

// play plays one match among versions and records it (ratings only for ladder matches).
func (l *Ladder) play(ctx context.Context, g, kind string, vs []store.Version, seed uint64) (int64, *match.Result, error) {
	spec, err := game.Lookup(g)
	if err != nil {
		return 0, nil, err
	}
	ids := make([]int64, len(vs))
	names := make([]string, len(vs))
	for i, v := range vs {
		ids[i], names[i] = v.ID, fmt.Sprintf("%s v%d", v.Bot.Name, v.N)
	}
	mid, err := l.Store.StartLadderMatch(ctx, g, kind, seed, ids)
	if err != nil {
		return 0, nil, err
	}
	l.emit(Event{Kind: MatchStarted, Game: g, MatchID: mid})
	res, fin, err := l.run(ctx, spec, mid, vs, names, seed)
	bg := context.WithoutCancel(ctx)
	if err != nil {
		_ = l.Store.FailLadderMatch(bg, mid, err.Error())
		l.emit(Event{Kind: MatchFinished, Game: g, MatchID: mid, Status: store.LadderError})
		return mid, nil, err
	}
	if kind == store.KindLadder {
		skills := make([]rating.Skill, len(vs))
		idx := make([]int, len(vs))
		ranks := make([]int, len(vs))
		for i, v := range vs {
			skills[i], idx[i], ranks[i] = rating.Skill{Mu: v.Mu, Sigma: v.Sigma}, i, res.Outcome.Players[i].Rank
		}
		// Ratings are read now, not when the match was picked: another match may have moved them.
		for i, v := range vs {
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
	if err := l.Store.FinishLadderMatch(bg, mid, fin); err != nil {
		return mid, nil, err
	}
	l.emit(Event{Kind: MatchFinished, Game: g, MatchID: mid, Status: store.LadderDone, Summary: res.Outcome.Summary})
	return mid, res, nil
}

func (l *Ladder) run(ctx context.Context, spec game.Spec, mid int64, vs []store.Version, names []string, seed uint64) (*match.Result, store.LadderFinish, error) {
	gcfg := game.Config{Seed: seed, Params: l.GameParams(spec.Name)}
	for _, n := range names {
		gcfg.Players = append(gcfg.Players, game.Player{Name: n})
	}
	ps := make([]match.Player, len(vs))
	procs := make([]*host.Bot, len(vs))
	var wg sync.WaitGroup
	for i, v := range vs {
		if v.Bot.House != "" {
			ps[i] = players.NewInProcess(names[i], houseBot(spec.Name, seed+uint64(i)))
			continue
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			cmd, err := l.Resolver.Command(v.Dir)
			if err == nil {
				cmd.Name = names[i]
				procs[i], err = host.Launch(ctx, cmd, l.Host)
			}
			if err != nil {
				ps[i] = dead{name: names[i], why: err.Error()}
				return
			}
			ps[i] = players.Process{Bot: procs[i]}
		}()
	}
	wg.Wait()
	defer players.CloseAll(procs)
	matchID := fmt.Sprintf("%s-%d", spec.Name, mid)
	rec := replay.NewRecorder(spec.Name, matchID, gcfg, names)
	res, err := match.Run(ctx, spec, gcfg, ps, match.Options{MatchID: matchID, Deadline: l.Deadline, Recorder: rec, MeasureMoves: true})
	if err != nil {
		return nil, store.LadderFinish{}, err
	}
	players.CloseAll(procs)
	rec.Rec.Outcome = &res.Outcome
	rec.Rec.Extra = map[string]any{"stats": res.Stats, "duration_ns": res.Duration}
	rp, err := json.Marshal(rec.Rec)
	if err != nil {
		return nil, store.LadderFinish{}, err
	}
	fin := store.LadderFinish{Summary: res.Outcome.Summary, Duration: res.Duration, Replay: rp}
	seats := make([]store.Seat, len(vs))
	for i := range vs {
		po := res.Outcome.Players[i]
		seats[i] = store.Seat{Seat: i, Result: po.Result.String(), Score: po.Score, Rank: po.Rank}
		if procs[i] != nil {
			seats[i].Log = strings.Join(procs[i].Log.Tail(LogLines), "\n")
		} else if d, ok := ps[i].(dead); ok {
			seats[i].Log = d.Why()
		}
	}
	for s, st := range res.Stats {
		p := res.Seats[s].Player
		seats[p].Moves += st.Moves
		seats[p].Total += st.Total
		seats[p].Max = max(seats[p].Max, st.Max)
	}
	for _, f := range res.Outcome.Faults {
		if f.Seat < 0 || f.Seat >= len(res.Seats) {
			continue
		}
		p := res.Seats[f.Seat].Player
		seats[p].Faults++
		fin.Faults = append(fin.Faults, store.LadderFault{Seat: p, VersionID: vs[p].ID, Where: f.Where, Kind: f.Kind.String(), Detail: f.Detail, Penalty: f.Penalty})
	}
	fin.Seats = seats
	return res, fin, nil
}

// GameParams are the parameters ladder and smoke matches of a game are played with.
func (l *Ladder) GameParams(game string) map[string]string {
	if l.Params != nil {
		return l.Params[game]
	}
	return Params[game]
}

// Language names what a version's folder is, as botspec classifies it.
func Language(dir string) (string, error) {
	src, err := submission.Parse(dir)
	if err != nil {
		return "", err
	}
	return string(src.Kind), nil
}

// dead stands in for a version that could not start: every seat of it is a fault.
type dead struct{ name, why string }

func (d dead) Label() string     { return d.name }
func (d dead) Alive() bool       { return false }
func (d dead) Why() string       { return "could not start: " + d.why }
func (d dead) Tail(int) []string { return nil }
func (d dead) Open(context.Context, *arenav1.StartRequest, time.Duration) (match.Conn, error) {
	return nil, errors.New(d.Why())
}
