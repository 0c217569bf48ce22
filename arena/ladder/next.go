package ladder

// What the ladder does next: a validation, a replayed match or the next pairing; who is busy.

import (
	"context"
	"math/rand/v2"

	"github.com/botarena/arena/arena/store"
)

// job is one unit of work for the scheduler.
type job struct {
	validate int64 // a version to validate, or
	game     string
	versions []store.Version // a ladder match
	seed     uint64
	resume   int64 // a ladder match already running (a restart): published again
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
