package realtv

import (
	"slices"
)

// A phase: the instances shuffled over islands filled up with filler bots, and each island's
// days begun.

// IslandSizes spreads h instances as evenly as possible over ceil(h/12) islands, the larger
// islands first (as the original Arena.makeIslands did).
func IslandSizes(h int) []int {
	n := (h + PlayersPerIsland - 1) / PlayersPerIsland
	sizes := make([]int, n)
	for i := range sizes {
		sizes[i] = h / n
		if i < h%n {
			sizes[i]++
		}
	}
	return sizes
}

// startPhase shuffles the instances over fresh islands and fills them with filler bots.
func (e *Engine) startPhase() {
	order := e.r.Perm(len(e.inst))
	sizes := IslandSizes(len(e.inst))
	e.islands = e.islands[:0]
	e.totalBots = len(sizes)*PlayersPerIsland - len(e.inst)
	next := 0
	for i, size := range sizes {
		isl := &island{index: i}
		for _, seat := range order[next : next+size] {
			in := &e.inst[seat]
			isl.members = append(isl.members, member{seat: seat, id: in.id, name: e.classOf(in.player), strength: in.strength})
		}
		next += size
		for len(isl.members) < PlayersPerIsland {
			isl.members = append(isl.members, member{seat: -1, id: e.newID(), name: FillerName, strength: e.r.IntN(InstancesPerPlayer)})
		}
		// Seat order on the island is random too (it decides which of equally weak players a
		// filler bot picks).
		e.r.Shuffle(len(isl.members), func(a, b int) { isl.members[a], isl.members[b] = isl.members[b], isl.members[a] })
		for m, mb := range isl.members {
			if mb.seat >= 0 {
				in := &e.inst[mb.seat]
				in.island, in.member = i, m
				in.islands++
			}
		}
		e.islands = append(e.islands, isl)
		e.beginDay(isl)
	}
	e.refreshPending()
}

// beginDay starts the next day of an island; the contexts show scores as of now.
func (e *Engine) beginDay(isl *island) {
	isl.day++
	isl.stage = stageFirst
	isl.ties = isl.ties[:0]
	for m := range isl.members {
		mb := &isl.members[m]
		mb.dayScore = e.score(mb)
	}
	e.playFillersOnly(isl)
}

// playFillersOnly plays out an island on which no instance is active any more: nobody needs to
// be asked, so its days run here, at once.
func (e *Engine) playFillersOnly(isl *island) {
	for isl.stage != stageOver {
		for _, mb := range isl.members {
			if mb.seat >= 0 && mb.status == active {
				return
			}
		}
		if isl.stage == stageFirst {
			e.resolveFirst(isl, nil)
		} else {
			e.resolveTie(isl, nil)
		}
	}
}

func (e *Engine) refreshPending() {
	for _, s := range e.pending {
		e.isPending[s] = false
	}
	e.pending = e.pending[:0]
	if e.done {
		return
	}
	for _, isl := range e.islands {
		if isl.stage == stageOver {
			continue
		}
		for _, mb := range isl.members {
			if mb.seat >= 0 && mb.status == active {
				e.pending = append(e.pending, mb.seat)
				e.isPending[mb.seat] = true
			}
		}
	}
	slices.Sort(e.pending)
}

func (e *Engine) score(m *member) int64 {
	if m.seat >= 0 {
		return e.inst[m.seat].score
	}
	return m.filler
}

func (e *Engine) award(m *member, units int64) {
	if m.seat >= 0 {
		e.inst[m.seat].score += units
	} else {
		m.filler += units
	}
}

func (isl *island) activeMembers() []int {
	var out []int
	for m := range isl.members {
		if isl.members[m].status == active {
			out = append(out, m)
		}
	}
	return out
}

func (isl *island) find(id string) int {
	for m := range isl.members {
		if isl.members[m].id == id {
			return m
		}
	}
	return -1
}
