package store

// The ladder's matches: started, finished with every seat's result, listed, and their faults,
// replays and rating history.

import (
	"context"
	"fmt"
	"strings"
	"time"
)

// Ladder match kinds and statuses.
const (
	KindLadder = "ladder"
	KindSmoke  = "smoke"

	LadderRunning = "running"
	LadderDone    = "done"
	LadderError   = "error"
)

// LadderMatch is one match the server played (a ladder match or a validation's smoke match).
type LadderMatch struct {
	ID       int64         `json:"id"`
	Game     string        `json:"game"`
	Kind     string        `json:"kind"`
	Status   string        `json:"status"`
	Seed     uint64        `json:"seed,string"`
	Started  time.Time     `json:"started"`
	Finished time.Time     `json:"finished,omitzero"`
	Summary  string        `json:"summary"`
	Error    string        `json:"error,omitempty"`
	Duration time.Duration `json:"duration_ns"`
	// Clock is the move clock the match was played with ("cpu" or "wall"; empty before
	// schema version 7).
	Clock string `json:"clock,omitempty"`
	Seats []Seat `json:"seats"`
}

// Seat is one version's part in a ladder match.
type Seat struct {
	Seat      int           `json:"seat"`
	VersionID int64         `json:"version_id"`
	BotID     int64         `json:"bot_id"`
	Bot       string        `json:"bot"`
	Author    string        `json:"author"`
	UserID    int64         `json:"-"`
	Result    string        `json:"result"`
	Score     float64       `json:"score"`
	Rank      int           `json:"rank"`
	Faults    int           `json:"faults"`
	Log       string        `json:"-"`
	Moves     int           `json:"moves"`
	Total     time.Duration `json:"total_ns"`
	Max       time.Duration `json:"max_ns"`
}

// LadderFault is one fault in a ladder match.
type LadderFault struct {
	MatchID   int64  `json:"match_id"`
	Seat      int    `json:"seat"`
	VersionID int64  `json:"version_id"`
	Where     string `json:"where"`
	Kind      string `json:"kind"`
	Detail    string `json:"detail,omitempty"`
	Penalty   string `json:"penalty"`
}

// RatingPoint is a version's rating after one match.
type RatingPoint struct {
	VersionID int64     `json:"version_id"`
	N         int       `json:"version"`
	MatchID   int64     `json:"match_id"`
	Mu        float64   `json:"mu"`
	Sigma     float64   `json:"sigma"`
	At        time.Time `json:"at"`
}

// LadderFinish is what is recorded when a ladder match ends, in one transaction: the result of
// every seat, faults, the replay and (for ladder matches) every seat's new rating.
type LadderFinish struct {
	Summary  string
	Duration time.Duration
	Seats    []Seat // Seat, Result, Score, Rank, Faults, Log, Moves, Total, Max
	Faults   []LadderFault
	Replay   []byte
	// Clock is the move clock the match was played with ("cpu" or "wall").
	Clock string
	// Ratings maps version id to its new mu and sigma; empty for smoke matches.
	Ratings map[int64][2]float64
}

// StartLadderMatch records a match as running with its seats.
func (s *Store) StartLadderMatch(ctx context.Context, game, kind string, seed uint64, versions []int64) (int64, error) {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return 0, s.wrap(err, "starting match")
	}
	defer tx.Rollback()
	res, err := tx.Exec("INSERT INTO ladder_matches(game, kind, status, seed, started) VALUES(?,?,?,?,?)", game, kind, LadderRunning, int64(seed), now())
	if err != nil {
		return 0, s.wrap(err, "starting match")
	}
	id, _ := res.LastInsertId()
	for i, v := range versions {
		if _, err := tx.Exec("INSERT INTO ladder_seats(match_id, seat, version_id) VALUES(?,?,?)", id, i, v); err != nil {
			return 0, s.wrap(err, "starting match")
		}
	}
	return id, s.wrap(tx.Commit(), "starting match")
}

// FinishLadderMatch records a finished match, its seats, faults, replay and new ratings in one
// transaction, and adds each seat's result to its version's counts.
func (s *Store) FinishLadderMatch(ctx context.Context, id int64, f LadderFinish) error {
	gz, err := compress(f.Replay)
	if err != nil {
		return s.wrap(err, "finishing match")
	}
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return s.wrap(err, "finishing match")
	}
	defer tx.Rollback()
	at := now()
	// Only a running match finishes: a second result of one job (a redelivery, a worker
	// that was cut off) changes nothing.
	res, err := tx.Exec("UPDATE ladder_matches SET status = ?, finished = ?, summary = ?, duration_ns = ?, replay_gz = ?, clock = ? WHERE id = ? AND status = ?",
		LadderDone, at, f.Summary, int64(f.Duration), gz, f.Clock, id, LadderRunning)
	if err != nil {
		return s.wrap(err, "finishing match")
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return fmt.Errorf("%w: ladder match %d is not running", ErrAlreadyDone, id)
	}
	var kind string
	if err := tx.QueryRow("SELECT kind FROM ladder_matches WHERE id = ?", id).Scan(&kind); err != nil {
		return s.wrap(err, "finishing match")
	}
	for _, st := range f.Seats {
		if _, err := tx.Exec("UPDATE ladder_seats SET result = ?, score = ?, rank = ?, faults = ?, log = ?, moves = ?, total_ns = ?, max_ns = ? WHERE match_id = ? AND seat = ?",
			st.Result, st.Score, st.Rank, st.Faults, st.Log, st.Moves, int64(st.Total), int64(st.Max), id, st.Seat); err != nil {
			return s.wrap(err, "finishing match")
		}
		if kind != KindLadder {
			continue
		}
		var w, d, l int
		switch st.Result {
		case "win":
			w = 1
		case "draw":
			d = 1
		case "loss":
			l = 1
		}
		if _, err := tx.Exec("UPDATE versions SET matches = matches + 1, wins = wins + ?, draws = draws + ?, losses = losses + ?, faults = faults + ? WHERE id = (SELECT version_id FROM ladder_seats WHERE match_id = ? AND seat = ?)",
			w, d, l, st.Faults, id, st.Seat); err != nil {
			return s.wrap(err, "finishing match")
		}
	}
	for _, fl := range f.Faults {
		if _, err := tx.Exec("INSERT INTO ladder_faults(match_id, seat, version_id, place, kind, detail, penalty) VALUES(?,?,?,?,?,?,?)",
			id, fl.Seat, fl.VersionID, fl.Where, fl.Kind, fl.Detail, fl.Penalty); err != nil {
			return s.wrap(err, "finishing match")
		}
	}
	for v, r := range f.Ratings {
		if _, err := tx.Exec("UPDATE versions SET mu = ?, sigma = ? WHERE id = ?", r[0], r[1], v); err != nil {
			return s.wrap(err, "finishing match")
		}
		if _, err := tx.Exec("INSERT INTO ratings(version_id, match_id, mu, sigma, at) VALUES(?,?,?,?,?)", v, id, r[0], r[1], at); err != nil {
			return s.wrap(err, "finishing match")
		}
	}
	return s.wrap(tx.Commit(), "finishing match")
}

// FailLadderMatch records a match the runner could not finish (a host error, not a bot's fault).
func (s *Store) FailLadderMatch(ctx context.Context, id int64, msg string) error {
	_, err := s.db.ExecContext(ctx, "UPDATE ladder_matches SET status = ?, error = ?, finished = ? WHERE id = ? AND status = ?", LadderError, msg, now(), id, LadderRunning)
	return s.wrap(err, "recording failed match")
}

// AbandonRunning marks matches of a kind left running by a stopped server as failed.
func (s *Store) AbandonRunning(ctx context.Context, kind string) error {
	_, err := s.db.ExecContext(ctx, "UPDATE ladder_matches SET status = ?, error = 'the server stopped during the match' WHERE status = ? AND kind = ?", LadderError, LadderRunning, kind)
	return s.wrap(err, "abandoning matches")
}

// MatchFilter selects ladder matches; zero fields match everything.
type MatchFilter struct {
	Game   string
	Kind   string
	Status string
	BotID  int64
	Limit  int
	// Before pages back: only matches with a smaller id.
	Before int64
	// After pages forward: only matches with a larger id (the page nearest it, still newest
	// first).
	After int64
	// Seat selects matches with one seat matching all its set fields (lists.go).
	Seat SeatFilter
	// From and To bound when a match started: From <= started < To (zero: no bound).
	From, To time.Time
}

// LadderMatches lists matches newest first, with their seats.
func (s *Store) LadderMatches(ctx context.Context, f MatchFilter) ([]LadderMatch, error) {
	q := newQuery("SELECT id, game, kind, status, seed, started, coalesce(finished, ''), summary, error, duration_ns, " + s.clockCol("m.") + " FROM ladder_matches m WHERE 1=1")
	q.textIs("game = ?", f.Game)
	q.textIs("kind = ?", f.Kind)
	q.textIs("status = ?", f.Status)
	q.idIs("id IN (SELECT match_id FROM ladder_seats st JOIN versions v ON v.id = st.version_id WHERE v.bot_id = ?)", f.BotID)
	f.more(q)
	if f.Limit <= 0 || f.Limit > 500 {
		f.Limit = 50
	}
	ascending := q.page("id", f.Before, f.After, f.Limit)
	rows, err := s.db.QueryContext(ctx, q.String(), q.args...)
	if err != nil {
		return nil, s.wrap(err, "reading matches")
	}
	var out []LadderMatch
	for rows.Next() {
		var m LadderMatch
		var seed int64
		var started, finished string
		if err := rows.Scan(&m.ID, &m.Game, &m.Kind, &m.Status, &seed, &started, &finished, &m.Summary, &m.Error, &m.Duration, &m.Clock); err != nil {
			rows.Close()
			return nil, s.wrap(err, "reading matches")
		}
		m.Seed, m.Started, m.Finished = uint64(seed), parseTime(started), parseTime(finished)
		out = append(out, m)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, s.wrap(err, "reading matches")
	}
	out = newestFirst(out, ascending)
	if len(out) == 0 {
		return out, nil
	}
	ids := make([]any, len(out))
	marks := make([]string, len(out))
	at := map[int64]int{}
	for i, m := range out {
		ids[i], marks[i], at[m.ID] = m.ID, "?", i
	}
	rows, err = s.db.QueryContext(ctx, `SELECT st.match_id, st.seat, st.version_id, b.id, b.name, u.name, u.id, st.result, st.score, st.rank, st.faults, st.log, st.moves, st.total_ns, st.max_ns
		FROM ladder_seats st JOIN versions v ON v.id = st.version_id JOIN web_bots b ON b.id = v.bot_id JOIN users u ON u.id = b.user_id
		WHERE st.match_id IN (`+strings.Join(marks, ",")+`) ORDER BY st.match_id, st.seat`, ids...)
	if err != nil {
		return nil, s.wrap(err, "reading seats")
	}
	defer rows.Close()
	for rows.Next() {
		var mid int64
		var st Seat
		if err := rows.Scan(&mid, &st.Seat, &st.VersionID, &st.BotID, &st.Bot, &st.Author, &st.UserID, &st.Result, &st.Score, &st.Rank, &st.Faults, &st.Log, &st.Moves, &st.Total, &st.Max); err != nil {
			return nil, s.wrap(err, "reading seats")
		}
		out[at[mid]].Seats = append(out[at[mid]].Seats, st)
	}
	return out, s.wrap(rows.Err(), "reading seats")
}

// LadderMatchByID reads one match with its seats.
func (s *Store) LadderMatchByID(ctx context.Context, id int64) (LadderMatch, error) {
	ms, err := s.LadderMatches(ctx, MatchFilter{Before: id + 1, Limit: 1})
	if err != nil {
		return LadderMatch{}, err
	}
	if len(ms) == 0 || ms[0].ID != id {
		return LadderMatch{}, fmt.Errorf("%w: no match %d", ErrNotFound, id)
	}
	return ms[0], nil
}

// LadderReplay returns a finished ladder match's replay JSON.
func (s *Store) LadderReplay(ctx context.Context, id int64) ([]byte, error) {
	return s.replay(ctx, fmt.Sprintf("ladder match %d", id), "SELECT replay_gz FROM ladder_matches WHERE id = ? AND replay_gz IS NOT NULL", id)
}

// LadderFaults lists a bot's faults (every version), newest first.
func (s *Store) LadderFaults(ctx context.Context, botID int64, limit int) ([]LadderFault, error) {
	return queryAll(ctx, s, "reading faults", scanFault, `SELECT f.match_id, f.seat, f.version_id, f.place, f.kind, f.detail, f.penalty FROM ladder_faults f
		JOIN versions v ON v.id = f.version_id WHERE v.bot_id = ? ORDER BY f.match_id DESC, f.rowid LIMIT ?`, botID, limit)
}

// MatchFaults lists one match's faults.
func (s *Store) MatchFaults(ctx context.Context, matchID int64) ([]LadderFault, error) {
	return queryAll(ctx, s, "reading faults", scanFault, `SELECT match_id, seat, version_id, place, kind, detail, penalty FROM ladder_faults WHERE match_id = ? ORDER BY rowid`, matchID)
}

func scanFault(r scanner) (LadderFault, error) {
	var f LadderFault
	err := r.Scan(&f.MatchID, &f.Seat, &f.VersionID, &f.Where, &f.Kind, &f.Detail, &f.Penalty)
	return f, err
}

// RatingHistory lists a bot's ratings over time, every version, oldest first.
func (s *Store) RatingHistory(ctx context.Context, botID int64) ([]RatingPoint, error) {
	return queryAll(ctx, s, "reading ratings", func(r scanner) (RatingPoint, error) {
		var p RatingPoint
		var at string
		err := r.Scan(&p.VersionID, &p.N, &p.MatchID, &p.Mu, &p.Sigma, &at)
		p.At = parseTime(at)
		return p, err
	}, `SELECT r.version_id, v.n, r.match_id, r.mu, r.sigma, r.at FROM ratings r JOIN versions v ON v.id = r.version_id
		WHERE v.bot_id = ? ORDER BY r.match_id`, botID)
}
