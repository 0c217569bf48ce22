package ladder

// Validating a new version: its files on the queue, its smoke match against the house bot,
// and the verdict.

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"time"

	"github.com/botarena/arena/arena/store"
	"github.com/botarena/arena/arena/submission"
	"github.com/botarena/arena/arena/tournament"
	"github.com/botarena/arena/bots/house"
)

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
