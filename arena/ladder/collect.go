package ladder

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"time"

	"github.com/botarena/arena/arena/store"
)

// CollectEvery is how often the scheduler looks for files to collect besides after every
// verdict (a version a running match held is collected once the match ends).
const CollectEvery = 30 * time.Second

// Pin keeps versions' files whatever collect finds (an organiser's tournament plays them),
// until Unpin.
func (l *Ladder) Pin(ids []int64) {
	l.init()
	l.mu.Lock()
	defer l.mu.Unlock()
	for _, id := range ids {
		l.pinned[id]++
	}
}

// Unpin ends a Pin.
func (l *Ladder) Unpin(ids []int64) {
	l.mu.Lock()
	defer l.mu.Unlock()
	for _, id := range ids {
		if l.pinned[id]--; l.pinned[id] <= 0 {
			delete(l.pinned, id)
		}
	}
	l.collectSoon()
}

// collectSoon asks the scheduler to collect at its next turn.
func (l *Ladder) collectSoon() { l.collectDue = time.Time{} }

// maybeCollect collects when it is due (called by the scheduler only, between picks, so a
// version it collects cannot be picked meanwhile).
func (l *Ladder) maybeCollect(ctx context.Context) {
	l.mu.Lock()
	due := time.Now().After(l.collectDue)
	if due {
		l.collectDue = time.Now().Add(CollectEvery)
	}
	l.mu.Unlock()
	if due {
		l.collect(ctx)
	}
}

// collect removes the files of the versions nobody plays any more (failed ones, and passing
// ones a newer passing version of their bot replaced): their folder under DataDir/versions
// and their files on the queue (unless another version holds the same files), then records
// them collected; their verdicts, ratings and matches stay. A version in a running match or
// pinned keeps its files until a later turn. The files store's snapshots are its own
// collector's (sandbox.FilesDir).
func (l *Ladder) collect(ctx context.Context) {
	if l.DataDir == "" {
		return
	}
	keep := l.KeepVersions
	if keep == 0 {
		keep = store.KeptVersions
	}
	vs, err := l.Store.Collectable(ctx, keep)
	if err != nil {
		return
	}
	for _, v := range vs {
		l.mu.Lock()
		inUse := l.busy[v.ID] || l.pinned[v.ID] > 0
		shared := false // the same files published for a version still validating
		if !inUse {
			delete(l.files, v.ID)
			for _, jb := range l.files {
				shared = shared || (v.Hash != "" && jb.Hash == v.Hash)
			}
		}
		l.mu.Unlock()
		if inUse {
			continue
		}
		// Only the folder the server made for this version, never a path read from the store.
		if err := os.RemoveAll(filepath.Join(l.DataDir, "versions", strconv.FormatInt(v.ID, 10))); err != nil {
			continue
		}
		if v.Hash != "" {
			held, err := l.Store.HashHeld(ctx, v.Hash, v.ID)
			if err != nil {
				continue
			}
			if !held && !shared && l.Queue.DeleteFiles(ctx, v.Hash) != nil {
				continue // tried again at the next turn
			}
		}
		_ = l.Store.SetCollected(ctx, v.ID)
	}
}
