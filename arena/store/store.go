package store

import (
	"bytes"
	"compress/gzip"
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"time"

	_ "modernc.org/sqlite" // the pure Go SQLite driver, registered as "sqlite"
)

// Match statuses.
const (
	StatusPending = "pending"
	StatusDone    = "done"
	// StatusError is a match the runner could not finish (an engine bug); resume retries it.
	StatusError = "error"
)

// schema is the current schema, created in one transaction in a new store.
const schema = `
CREATE TABLE IF NOT EXISTS tournaments (
	id      INTEGER PRIMARY KEY,
	name    TEXT NOT NULL UNIQUE,
	game    TEXT NOT NULL,
	config  TEXT NOT NULL,
	created TEXT NOT NULL,
	status  TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS bots (
	tournament_id INTEGER NOT NULL REFERENCES tournaments(id),
	idx      INTEGER NOT NULL,
	name     TEXT NOT NULL,
	spec     TEXT NOT NULL,
	author   TEXT NOT NULL DEFAULT '',
	language TEXT NOT NULL DEFAULT '',
	content_hash TEXT NOT NULL DEFAULT '',
	PRIMARY KEY (tournament_id, idx)
);
CREATE TABLE IF NOT EXISTS matches (
	tournament_id INTEGER NOT NULL REFERENCES tournaments(id),
	idx         INTEGER NOT NULL,
	match_id    TEXT NOT NULL,
	rep         INTEGER NOT NULL,
	seed        INTEGER NOT NULL,
	players     TEXT NOT NULL,
	note        TEXT NOT NULL DEFAULT '',
	status      TEXT NOT NULL,
	result      TEXT,
	error       TEXT NOT NULL DEFAULT '',
	attempts    INTEGER NOT NULL DEFAULT 0,
	finished    TEXT,
	duration_ns INTEGER NOT NULL DEFAULT 0,
	PRIMARY KEY (tournament_id, idx),
	UNIQUE (tournament_id, match_id)
);
CREATE TABLE IF NOT EXISTS faults (
	tournament_id INTEGER NOT NULL,
	match_idx INTEGER NOT NULL,
	bot_idx   INTEGER NOT NULL,
	seat      INTEGER NOT NULL,
	place     TEXT NOT NULL,
	kind      TEXT NOT NULL,
	detail    TEXT NOT NULL,
	penalty   TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS faults_bot ON faults(tournament_id, bot_idx);
CREATE TABLE IF NOT EXISTS timings (
	tournament_id INTEGER NOT NULL,
	match_idx INTEGER NOT NULL,
	seat      INTEGER NOT NULL,
	bot_idx   INTEGER NOT NULL,
	moves     INTEGER NOT NULL,
	total_ns  INTEGER NOT NULL,
	max_ns    INTEGER NOT NULL,
	PRIMARY KEY (tournament_id, match_idx, seat)
);
CREATE TABLE IF NOT EXISTS replays (
	tournament_id INTEGER NOT NULL,
	match_idx INTEGER NOT NULL,
	gz        BLOB NOT NULL,
	PRIMARY KEY (tournament_id, match_idx)
);
`

// Close closes the database.
func (s *Store) Close() error { return s.db.Close() }

// Tournament is one tournament's header.
type Tournament struct {
	ID      int64
	Name    string
	Game    string
	Config  json.RawMessage
	Created time.Time
	Status  string
}

// Bot is one entrant.
type Bot struct {
	Idx      int    `json:"idx"`
	Name     string `json:"name"`
	Spec     string `json:"spec"`
	Author   string `json:"author,omitempty"`
	Language string `json:"language,omitempty"`
	// Hash is the content hash of the submission that ran ("" in stores of schema version 1).
	Hash string `json:"content_hash,omitempty"`
}

// Match is one scheduled match.
type Match struct {
	Idx     int    `json:"idx"`
	MatchID string `json:"match_id"`
	Rep     int    `json:"rep"`
	Seed    uint64 `json:"seed,string"`
	// Players lists bot indexes in seat order.
	Players []int `json:"players"`
	// Note says something about the draw (e.g. bots of one author at one table).
	Note     string          `json:"note,omitempty"`
	Status   string          `json:"status"`
	Result   json.RawMessage `json:"result,omitempty"`
	Error    string          `json:"error,omitempty"`
	Attempts int             `json:"attempts"`
	Finished time.Time       `json:"finished,omitzero"`
	Duration time.Duration   `json:"duration_ns"`
	// Clock is the move clock the match was played with ("cpu" or "wall"; empty before
	// schema version 7).
	Clock string `json:"clock,omitempty"`
}

// Fault is one fault charged to a bot.
type Fault struct {
	MatchIdx int    `json:"match_idx"`
	BotIdx   int    `json:"bot_idx"`
	Seat     int    `json:"seat"`
	Where    string `json:"where"`
	Kind     string `json:"kind"`
	Detail   string `json:"detail,omitempty"`
	Penalty  string `json:"penalty"`
}

// Timing is one seat's move times in one match.
type Timing struct {
	Seat   int
	BotIdx int
	Moves  int
	Total  time.Duration
	Max    time.Duration
}

// Finish is everything recorded when a match ends.
type Finish struct {
	Result   json.RawMessage
	Faults   []Fault
	Timings  []Timing
	Replay   []byte // JSON; stored gzip-compressed
	Duration time.Duration
	// Clock is the move clock the match was played with ("cpu" or "wall").
	Clock string
}

// CreateTournament writes a tournament with its bots and its whole schedule in one transaction.
func (s *Store) CreateTournament(ctx context.Context, t Tournament, bots []Bot, matches []Match) (int64, error) {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return 0, s.wrap(err, "creating tournament")
	}
	defer tx.Rollback()
	var n int
	if err := tx.QueryRow("SELECT count(*) FROM tournaments WHERE name = ?", t.Name).Scan(&n); err != nil {
		return 0, s.wrap(err, "creating tournament")
	}
	if n > 0 {
		return 0, fmt.Errorf("a tournament named %q is already in %s: resume it with --resume %s, or pick another --name", t.Name, s.Path, t.Name)
	}
	res, err := tx.Exec("INSERT INTO tournaments(name, game, config, created, status) VALUES(?,?,?,?,?)",
		t.Name, t.Game, string(t.Config), time.Now().UTC().Format(time.RFC3339Nano), "running")
	if err != nil {
		return 0, s.wrap(err, "creating tournament")
	}
	id, err := res.LastInsertId()
	if err != nil {
		return 0, s.wrap(err, "creating tournament")
	}
	for _, b := range bots {
		if _, err := tx.Exec("INSERT INTO bots(tournament_id, idx, name, spec, author, language, content_hash) VALUES(?,?,?,?,?,?,?)",
			id, b.Idx, b.Name, b.Spec, b.Author, b.Language, b.Hash); err != nil {
			return 0, s.wrap(err, "creating tournament")
		}
	}
	ins, err := tx.Prepare("INSERT INTO matches(tournament_id, idx, match_id, rep, seed, players, note, status) VALUES(?,?,?,?,?,?,?,?)")
	if err != nil {
		return 0, s.wrap(err, "creating tournament")
	}
	defer ins.Close()
	for _, m := range matches {
		p, _ := json.Marshal(m.Players)
		if _, err := ins.Exec(id, m.Idx, m.MatchID, m.Rep, int64(m.Seed), string(p), m.Note, StatusPending); err != nil {
			return 0, s.wrap(err, "creating tournament")
		}
	}
	if err := tx.Commit(); err != nil {
		return 0, s.wrap(err, "creating tournament")
	}
	return id, nil
}

// FindTournament finds a tournament by id or name; an empty ref means the latest one.
func (s *Store) FindTournament(ctx context.Context, ref string) (Tournament, error) {
	if s.version == 0 {
		return Tournament{}, fmt.Errorf("%w: %s holds no tournament", ErrNotFound, s.Path)
	}
	q := "SELECT id, name, game, config, created, status FROM tournaments "
	var row *sql.Row
	if ref == "" {
		row = s.db.QueryRowContext(ctx, q+"ORDER BY id DESC LIMIT 1")
	} else if id, err := strconv.ParseInt(ref, 10, 64); err == nil {
		row = s.db.QueryRowContext(ctx, q+"WHERE id = ? OR name = ? ORDER BY name = ? DESC LIMIT 1", id, ref, ref)
	} else {
		row = s.db.QueryRowContext(ctx, q+"WHERE name = ?", ref)
	}
	t, err := scanTournament(row)
	if errors.Is(err, sql.ErrNoRows) {
		if ref == "" {
			return t, fmt.Errorf("%w: %s holds no tournament", ErrNotFound, s.Path)
		}
		return t, fmt.Errorf("%w: no tournament %q in %s (arena show %s lists them)", ErrNotFound, ref, s.Path, s.Path)
	}
	return t, s.wrap(err, "finding tournament")
}

type scanner interface{ Scan(...any) error }

func scanTournament(r scanner) (Tournament, error) {
	var t Tournament
	var cfg, created string
	if err := r.Scan(&t.ID, &t.Name, &t.Game, &cfg, &created, &t.Status); err != nil {
		return t, err
	}
	t.Config = json.RawMessage(cfg)
	t.Created, _ = time.Parse(time.RFC3339Nano, created)
	return t, nil
}

// Tournaments lists all tournaments, oldest first.
func (s *Store) Tournaments(ctx context.Context) ([]Tournament, error) {
	if s.version == 0 {
		return nil, nil // an empty file opened read-only: no tables yet
	}
	return queryAll(ctx, s, "listing tournaments", scanTournament, "SELECT id, name, game, config, created, status FROM tournaments ORDER BY id")
}

// queryAll runs a query and scans every row with scan; what names the reading in errors.
func queryAll[T any](ctx context.Context, s *Store, what string, scan func(scanner) (T, error), q string, args ...any) ([]T, error) {
	rows, err := s.db.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, s.wrap(err, what)
	}
	defer rows.Close()
	var out []T
	for rows.Next() {
		v, err := scan(rows)
		if err != nil {
			return nil, s.wrap(err, what)
		}
		out = append(out, v)
	}
	return out, s.wrap(rows.Err(), what)
}

// SetStatus sets a tournament's status ("running", "finished", "interrupted").
func (s *Store) SetStatus(ctx context.Context, id int64, status string) error {
	_, err := s.db.ExecContext(ctx, "UPDATE tournaments SET status = ? WHERE id = ?", status, id)
	return s.wrap(err, "setting status")
}

// Bots lists a tournament's bots by index.
func (s *Store) Bots(ctx context.Context, id int64) ([]Bot, error) {
	hash := "content_hash"
	if s.version < 2 { // a store of schema version 1, opened read-only and not migrated
		hash = "''"
	}
	rows, err := s.db.QueryContext(ctx, "SELECT idx, name, spec, author, language, "+hash+" FROM bots WHERE tournament_id = ? ORDER BY idx", id)
	if err != nil {
		return nil, s.wrap(err, "reading bots")
	}
	defer rows.Close()
	var out []Bot
	for rows.Next() {
		var b Bot
		if err := rows.Scan(&b.Idx, &b.Name, &b.Spec, &b.Author, &b.Language, &b.Hash); err != nil {
			return nil, s.wrap(err, "reading bots")
		}
		out = append(out, b)
	}
	return out, s.wrap(rows.Err(), "reading bots")
}

func (s *Store) matchCols() string {
	return "idx, match_id, rep, seed, players, note, status, result, error, attempts, finished, duration_ns, " + s.clockCol("")
}

func scanMatch(r scanner) (Match, error) {
	var m Match
	var seed int64
	var players string
	var result, finished sql.NullString
	if err := r.Scan(&m.Idx, &m.MatchID, &m.Rep, &seed, &players, &m.Note, &m.Status, &result, &m.Error, &m.Attempts, &finished, &m.Duration, &m.Clock); err != nil {
		return m, err
	}
	m.Seed = uint64(seed)
	if err := json.Unmarshal([]byte(players), &m.Players); err != nil {
		return m, fmt.Errorf("match %d: players %q: %w", m.Idx, players, err)
	}
	if result.Valid {
		m.Result = json.RawMessage(result.String)
	}
	if finished.Valid {
		m.Finished, _ = time.Parse(time.RFC3339Nano, finished.String)
	}
	return m, nil
}

// Matches lists a tournament's matches in schedule order.
func (s *Store) Matches(ctx context.Context, id int64) ([]Match, error) {
	rows, err := s.db.QueryContext(ctx, "SELECT "+s.matchCols()+" FROM matches WHERE tournament_id = ? ORDER BY idx", id)
	if err != nil {
		return nil, s.wrap(err, "reading matches")
	}
	defer rows.Close()
	var out []Match
	for rows.Next() {
		m, err := scanMatch(rows)
		if err != nil {
			return nil, s.wrap(err, "reading matches")
		}
		out = append(out, m)
	}
	return out, s.wrap(rows.Err(), "reading matches")
}

// Match finds one match by its index or its match id.
func (s *Store) Match(ctx context.Context, id int64, ref string) (Match, error) {
	idx, perr := strconv.Atoi(ref)
	if perr != nil {
		idx = -1
	}
	row := s.db.QueryRowContext(ctx, "SELECT "+s.matchCols()+" FROM matches WHERE tournament_id = ? AND (match_id = ? OR idx = ?) ORDER BY match_id = ? DESC LIMIT 1", id, ref, idx, ref)
	m, err := scanMatch(row)
	if errors.Is(err, sql.ErrNoRows) {
		return m, fmt.Errorf("%w: no match %q in tournament %d", ErrNotFound, ref, id)
	}
	return m, s.wrap(err, "reading match")
}

// FinishMatch records a finished match with everything it produced, in one transaction. It
// fails with ErrAlreadyDone (and changes nothing) if the match was already finished.
func (s *Store) FinishMatch(ctx context.Context, id int64, idx int, f Finish) error {
	gz, err := compress(f.Replay)
	if err != nil {
		return s.wrap(err, "recording match")
	}
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return s.wrap(err, "recording match")
	}
	defer tx.Rollback()
	res, err := tx.Exec("UPDATE matches SET status = ?, result = ?, error = '', attempts = attempts + 1, finished = ?, duration_ns = ?, clock = ? "+
		"WHERE tournament_id = ? AND idx = ? AND status != ?",
		StatusDone, string(f.Result), time.Now().UTC().Format(time.RFC3339Nano), int64(f.Duration), f.Clock, id, idx, StatusDone)
	if err != nil {
		return s.wrap(err, fmt.Sprintf("recording match %d", idx))
	}
	if n, _ := res.RowsAffected(); n != 1 {
		return fmt.Errorf("%w: tournament %d match %d", ErrAlreadyDone, id, idx)
	}
	for _, ft := range f.Faults {
		if _, err := tx.Exec("INSERT INTO faults(tournament_id, match_idx, bot_idx, seat, place, kind, detail, penalty) VALUES(?,?,?,?,?,?,?,?)",
			id, idx, ft.BotIdx, ft.Seat, ft.Where, ft.Kind, ft.Detail, ft.Penalty); err != nil {
			return s.wrap(err, "recording match")
		}
	}
	for _, t := range f.Timings {
		if _, err := tx.Exec("INSERT INTO timings(tournament_id, match_idx, seat, bot_idx, moves, total_ns, max_ns) VALUES(?,?,?,?,?,?,?)",
			id, idx, t.Seat, t.BotIdx, t.Moves, int64(t.Total), int64(t.Max)); err != nil {
			return s.wrap(err, "recording match")
		}
	}
	if _, err := tx.Exec("INSERT INTO replays(tournament_id, match_idx, gz) VALUES(?,?,?)", id, idx, gz); err != nil {
		return s.wrap(err, "recording match")
	}
	if err := tx.Commit(); err != nil {
		return s.wrap(err, fmt.Sprintf("recording match %d", idx))
	}
	return nil
}

// FailMatch records that a match could not be run (an engine bug, say); it stays eligible for
// --resume.
func (s *Store) FailMatch(ctx context.Context, id int64, idx int, msg string) error {
	_, err := s.db.ExecContext(ctx, "UPDATE matches SET status = ?, error = ?, attempts = attempts + 1 WHERE tournament_id = ? AND idx = ? AND status != ?",
		StatusError, msg, id, idx, StatusDone)
	return s.wrap(err, "recording failed match")
}

// Replay returns a finished match's replay JSON.
func (s *Store) Replay(ctx context.Context, id int64, idx int) ([]byte, error) {
	return s.replay(ctx, fmt.Sprintf("match %d", idx), "SELECT gz FROM replays WHERE tournament_id = ? AND match_idx = ?", id, idx)
}

// compress is how a replay is stored: gzip, one place for both kinds of match.
func compress(b []byte) ([]byte, error) {
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	if _, err := zw.Write(b); err != nil {
		return nil, err
	}
	if err := zw.Close(); err != nil {
		return nil, err
	}
	return gz.Bytes(), nil
}

// replay reads the one compressed replay query selects, for what (a match, a ladder match).
func (s *Store) replay(ctx context.Context, what, query string, args ...any) ([]byte, error) {
	var gz []byte
	err := s.db.QueryRowContext(ctx, query, args...).Scan(&gz)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, fmt.Errorf("%w: no replay for %s", ErrNotFound, what)
	}
	if err != nil {
		return nil, s.wrap(err, "reading replay")
	}
	zr, err := gzip.NewReader(bytes.NewReader(gz))
	if err == nil {
		var b []byte
		if b, err = io.ReadAll(zr); err == nil {
			return b, nil
		}
	}
	return nil, fmt.Errorf("%w: %s: the replay of %s cannot be read (%v); %s", ErrDamaged, s.Path, what, err, fixDamaged)
}

// Faults lists a tournament's faults; botIdx < 0 means every bot.
func (s *Store) Faults(ctx context.Context, id int64, botIdx int) ([]Fault, error) {
	q := "SELECT match_idx, bot_idx, seat, place, kind, detail, penalty FROM faults WHERE tournament_id = ?"
	args := []any{id}
	if botIdx >= 0 {
		q += " AND bot_idx = ?"
		args = append(args, botIdx)
	}
	rows, err := s.db.QueryContext(ctx, q+" ORDER BY match_idx, rowid", args...)
	if err != nil {
		return nil, s.wrap(err, "reading faults")
	}
	defer rows.Close()
	var out []Fault
	for rows.Next() {
		var f Fault
		if err := rows.Scan(&f.MatchIdx, &f.BotIdx, &f.Seat, &f.Where, &f.Kind, &f.Detail, &f.Penalty); err != nil {
			return nil, s.wrap(err, "reading faults")
		}
		out = append(out, f)
	}
	return out, s.wrap(rows.Err(), "reading faults")
}

// BotTiming is a bot's move times summed over a tournament.
type BotTiming struct {
	BotIdx int
	Moves  int
	Total  time.Duration
	Max    time.Duration
}

// Timings sums move times per bot.
func (s *Store) Timings(ctx context.Context, id int64) (map[int]BotTiming, error) {
	rows, err := s.db.QueryContext(ctx, "SELECT bot_idx, sum(moves), sum(total_ns), max(max_ns) FROM timings WHERE tournament_id = ? GROUP BY bot_idx", id)
	if err != nil {
		return nil, s.wrap(err, "reading timings")
	}
	defer rows.Close()
	out := map[int]BotTiming{}
	for rows.Next() {
		var t BotTiming
		if err := rows.Scan(&t.BotIdx, &t.Moves, &t.Total, &t.Max); err != nil {
			return nil, s.wrap(err, "reading timings")
		}
		out[t.BotIdx] = t
	}
	return out, s.wrap(rows.Err(), "reading timings")
}
