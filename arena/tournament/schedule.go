package tournament

import (
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"math/rand/v2"
	"sort"
	"strings"
	"time"

	"github.com/botarena/arena/arena/game"
	"github.com/botarena/arena/arena/match"
	"github.com/botarena/arena/arena/store"
)

// Config fixes a tournament; it is stored with it and read back by --resume.
type Config struct {
	Game   string            `json:"game"`
	Params map[string]string `json:"params,omitempty"`
	Seed   uint64            `json:"seed"`
	Reps   int               `json:"reps"`
	// Table is the table size for multi-player games (0: every bot at one table).
	Table        int           `json:"table,omitempty"`
	Deadline     time.Duration `json:"deadline_ns"`
	StartTimeout time.Duration `json:"start_timeout_ns"`
	// StartDeadline and EndDeadline bound each seat's Start and End (0: match defaults).
	StartDeadline time.Duration `json:"start_deadline_ns,omitempty"`
	EndDeadline   time.Duration `json:"end_deadline_ns,omitempty"`
	// ClockMs overrides the game's per-seat clock (0: game default).
	ClockMs int64 `json:"clock_ms,omitempty"`
	// Clock is what a move's time is ("cpu" or "wall"; empty in tournaments made before the
	// CPU clock, which were played on wall time), with the CPU clock's wall cap factor and
	// each seat's overage bank: fixed for the tournament, so --resume plays on alike.
	Clock      string        `json:"clock,omitempty"`
	WallFactor float64       `json:"wall_factor,omitempty"`
	Bank       time.Duration `json:"bank_ns,omitempty"`
	Entries    []Entry       `json:"entries"`
}

// MatchSeed derives a match's seed from the tournament seed and the match id (63 bits, so it
// fits SQLite's signed integers unchanged).
func MatchSeed(tournamentSeed uint64, matchID string) uint64 {
	h := sha256.New()
	var b [8]byte
	binary.BigEndian.PutUint64(b[:], tournamentSeed)
	h.Write(b[:])
	h.Write([]byte(matchID))
	return binary.BigEndian.Uint64(h.Sum(nil)[:8]) >> 1
}

// TwoPlayer reports whether the game is played as a round robin of pairs.
func TwoPlayer(spec game.Spec) bool { return spec.MaxPlayers == 2 }

// MaxMatches bounds a tournament's schedule. The whole schedule is built in memory and written
// in one transaction when the tournament is created (about 150 bytes a match in memory), so it is
// checked, from the counts alone, before anything is allocated.
const MaxMatches = 1_000_000

// ErrTooLarge means the schedule would exceed MaxMatches.
var ErrTooLarge = errors.New("schedule too large")

// ScheduleSize is the number of matches Schedule would make, computed without building them;
// it fails when the schedule is empty or exceeds MaxMatches.
func ScheduleSize(spec game.Spec, cfg Config) (int, error) {
	n := len(cfg.Entries)
	if cfg.Reps < 1 {
		return 0, fmt.Errorf("--reps must be at least 1, got %d", cfg.Reps)
	}
	if n < 2 {
		return 0, fmt.Errorf("a tournament needs at least 2 bots, got %d", n)
	}
	perRep := uint64(n) * uint64(n-1) // round robin, both seatings
	what := fmt.Sprintf("%d bots play %d matches per repetition (every pair twice)", n, perRep)
	if !TwoPlayer(spec) {
		m := tableSize(spec, cfg)
		if m < spec.MinPlayers {
			return 0, fmt.Errorf("%s needs at least %d players at a table; --table %d with %d bots is too few", spec.Name, spec.MinPlayers, m, n)
		}
		perRep = uint64((n + m - 1) / m)
		what = fmt.Sprintf("%d bots at tables of up to %d make %d matches per repetition", n, m, perRep)
	}
	total := perRep * uint64(cfg.Reps)
	if total > MaxMatches || total/uint64(cfg.Reps) != perRep {
		return 0, fmt.Errorf("%w: %s; --reps %d makes %d, more than the %d a tournament may hold: lower --reps (at most %d here) or split the tournament",
			ErrTooLarge, what, cfg.Reps, total, MaxMatches, MaxMatches/perRep)
	}
	return int(total), nil
}

// Check tells, before anything is allocated or written, whether a tournament can be created:
// the game's parameters and player counts (by building one engine) and the schedule's size.
func Check(spec game.Spec, cfg Config) error {
	if _, err := ScheduleSize(spec, cfg); err != nil {
		return err
	}
	probe := game.Config{Seed: 1, Params: cfg.Params}
	size := 2
	if !TwoPlayer(spec) {
		size = tableSize(spec, cfg)
	}
	for i := 0; i < size; i++ {
		probe.Players = append(probe.Players, game.Player{Name: fmt.Sprint("p", i)})
	}
	_, err := spec.NewEngine(probe)
	return err
}

func tableSize(spec game.Spec, cfg Config) int {
	n := len(cfg.Entries)
	m := cfg.Table
	if m <= 0 || m > n {
		m = n
	}
	if spec.MaxPlayers > 0 && m > spec.MaxPlayers {
		m = spec.MaxPlayers
	}
	return m
}

// Schedule lists every match of the tournament in the order they are played.
func Schedule(spec game.Spec, cfg Config) ([]store.Match, error) {
	size, err := ScheduleSize(spec, cfg)
	if err != nil {
		return nil, err
	}
	n := len(cfg.Entries)
	out := make([]store.Match, 0, size)
	add := func(rep int, players []int, id, note string) {
		out = append(out, store.Match{Idx: len(out), MatchID: id, Rep: rep, Seed: MatchSeed(cfg.Seed, id), Players: players, Note: note})
	}
	if TwoPlayer(spec) {
		for rep := 0; rep < cfg.Reps; rep++ {
			for i := 0; i < n; i++ {
				for j := i + 1; j < n; j++ {
					add(rep, []int{i, j}, fmt.Sprintf("%s-r%d-%d-%d", spec.Name, rep, i, j), "")
					add(rep, []int{j, i}, fmt.Sprintf("%s-r%d-%d-%d", spec.Name, rep, j, i), "")
				}
			}
		}
		return out, nil
	}
	m := tableSize(spec, cfg)
	for rep := 0; rep < cfg.Reps; rep++ {
		rng := rand.New(rand.NewPCG(cfg.Seed, uint64(rep)+1))
		tables, clashes := Deal(rng, cfg.Entries, m)
		for t, tb := range tables {
			note := ""
			if len(clashes[t]) > 0 {
				note = "bots of one author at this table: " + strings.Join(clashes[t], ", ")
			}
			add(rep, tb, fmt.Sprintf("%s-r%d-t%d", spec.Name, rep, t), note)
		}
	}
	return out, nil
}

// Deal shuffles the bots and spreads them over ceil(n/m) tables as evenly as possible, keeping
// bots of one author apart where it can. clashes[t] lists the authors that share table t.
func Deal(rng *rand.Rand, entries []Entry, m int) (tables [][]int, clashes [][]string) {
	n := len(entries)
	k := (n + m - 1) / m
	order := rng.Perm(n)
	// Place the bots of big authors first so that they get spread before the tables fill up.
	count := map[string]int{}
	for _, e := range entries {
		if e.Author != "" {
			count[e.Author]++
		}
	}
	sort.SliceStable(order, func(a, b int) bool {
		return count[entries[order[a]].Author] > count[entries[order[b]].Author]
	})
	caps := make([]int, k)
	for t := range caps {
		caps[t] = n / k
		if t < n%k {
			caps[t]++
		}
	}
	tables = make([][]int, k)
	clashes = make([][]string, k)
	for _, b := range order {
		author := entries[b].Author
		best, bestClash := -1, true
		for t := range tables {
			if len(tables[t]) >= caps[t] {
				continue
			}
			clash := author != "" && hasAuthor(entries, tables[t], author)
			if best < 0 || (bestClash && !clash) || (clash == bestClash && len(tables[t]) < len(tables[best])) {
				best, bestClash = t, clash
			}
		}
		if bestClash && author != "" {
			clashes[best] = appendUnique(clashes[best], author)
		}
		tables[best] = append(tables[best], b)
	}
	// Seat order within a table is random too, so no bot always holds seat 0.
	for _, tb := range tables {
		rng.Shuffle(len(tb), func(i, j int) { tb[i], tb[j] = tb[j], tb[i] })
	}
	return tables, clashes
}

func hasAuthor(entries []Entry, table []int, author string) bool {
	for _, b := range table {
		if entries[b].Author == author {
			return true
		}
	}
	return false
}

func appendUnique(s []string, v string) []string {
	for _, x := range s {
		if x == v {
			return s
		}
	}
	return append(s, v)
}

// ClockMode is the tournament's move clock (wall for one stored before there was a choice).
func (c Config) ClockMode() match.ClockMode {
	if c.Clock == string(match.ClockCPU) {
		return match.ClockCPU
	}
	return match.ClockWall
}
