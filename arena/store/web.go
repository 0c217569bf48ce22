package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/botarena/arena/arena/names"
)

// Schema version 3 adds what arena serve keeps: accounts (users, sessions, API tokens), the bots
// authors upload with every version, the ladder's matches with each seat's result and log tail,
// and each version's rating after every match. Tournament tables are untouched.
func init() {
	migrations[2] = []string{webSchema}
}

const webSchema = `
CREATE TABLE IF NOT EXISTS users (
	id      INTEGER PRIMARY KEY,
	name    TEXT NOT NULL UNIQUE COLLATE NOCASE,
	pw_hash TEXT NOT NULL,
	role    TEXT NOT NULL DEFAULT 'author',
	created TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS sessions (
	token_hash TEXT PRIMARY KEY,
	user_id    INTEGER NOT NULL REFERENCES users(id),
	csrf       TEXT NOT NULL,
	expires    TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS api_tokens (
	id         INTEGER PRIMARY KEY,
	user_id    INTEGER NOT NULL REFERENCES users(id),
	token_hash TEXT NOT NULL UNIQUE,
	label      TEXT NOT NULL,
	created    TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS web_bots (
	id       INTEGER PRIMARY KEY,
	user_id  INTEGER NOT NULL REFERENCES users(id),
	game     TEXT NOT NULL,
	name     TEXT NOT NULL,
	disabled INTEGER NOT NULL DEFAULT 0,
	house    TEXT NOT NULL DEFAULT '',
	created  TEXT NOT NULL,
	UNIQUE (game, name)
);
CREATE TABLE IF NOT EXISTS versions (
	id        INTEGER PRIMARY KEY,
	bot_id    INTEGER NOT NULL REFERENCES web_bots(id),
	n         INTEGER NOT NULL,
	dir       TEXT NOT NULL,
	language  TEXT NOT NULL DEFAULT '',
	content_hash TEXT NOT NULL DEFAULT '',
	status    TEXT NOT NULL,
	verdict   TEXT NOT NULL DEFAULT '',
	log       TEXT NOT NULL DEFAULT '',
	created   TEXT NOT NULL,
	mu        REAL NOT NULL,
	sigma     REAL NOT NULL,
	matches   INTEGER NOT NULL DEFAULT 0,
	wins      INTEGER NOT NULL DEFAULT 0,
	draws     INTEGER NOT NULL DEFAULT 0,
	losses    INTEGER NOT NULL DEFAULT 0,
	faults    INTEGER NOT NULL DEFAULT 0,
	UNIQUE (bot_id, n)
);
CREATE TABLE IF NOT EXISTS ladder_matches (
	id          INTEGER PRIMARY KEY,
	game        TEXT NOT NULL,
	kind        TEXT NOT NULL,
	status      TEXT NOT NULL,
	seed        INTEGER NOT NULL,
	started     TEXT NOT NULL,
	finished    TEXT,
	summary     TEXT NOT NULL DEFAULT '',
	error       TEXT NOT NULL DEFAULT '',
	duration_ns INTEGER NOT NULL DEFAULT 0,
	replay_gz   BLOB
);
CREATE INDEX IF NOT EXISTS ladder_matches_game ON ladder_matches(game, id);
CREATE TABLE IF NOT EXISTS ladder_seats (
	match_id   INTEGER NOT NULL REFERENCES ladder_matches(id),
	seat       INTEGER NOT NULL,
	version_id INTEGER NOT NULL REFERENCES versions(id),
	result     TEXT NOT NULL DEFAULT '',
	score      REAL NOT NULL DEFAULT 0,
	rank       INTEGER NOT NULL DEFAULT 0,
	faults     INTEGER NOT NULL DEFAULT 0,
	log        TEXT NOT NULL DEFAULT '',
	moves      INTEGER NOT NULL DEFAULT 0,
	total_ns   INTEGER NOT NULL DEFAULT 0,
	max_ns     INTEGER NOT NULL DEFAULT 0,
	PRIMARY KEY (match_id, seat)
);
CREATE INDEX IF NOT EXISTS ladder_seats_version ON ladder_seats(version_id, match_id);
CREATE TABLE IF NOT EXISTS ladder_faults (
	match_id   INTEGER NOT NULL REFERENCES ladder_matches(id),
	seat       INTEGER NOT NULL,
	version_id INTEGER NOT NULL,
	place      TEXT NOT NULL,
	kind       TEXT NOT NULL,
	detail     TEXT NOT NULL,
	penalty    TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS ladder_faults_version ON ladder_faults(version_id);
CREATE TABLE IF NOT EXISTS ratings (
	version_id INTEGER NOT NULL REFERENCES versions(id),
	match_id   INTEGER NOT NULL REFERENCES ladder_matches(id),
	mu         REAL NOT NULL,
	sigma      REAL NOT NULL,
	at         TEXT NOT NULL,
	PRIMARY KEY (version_id, match_id)
);
`

// Roles.
const (
	RoleAuthor    = "author"
	RoleOrganiser = "organiser"
)

// Version statuses: a version is validating until its build and smoke match end, then ok
// (it plays on the ladder) or failed (it never does).
const (
	VersionValidating = "validating"
	VersionOK         = "ok"
	VersionFailed     = "failed"
)

// Ladder match kinds and statuses.
const (
	KindLadder = "ladder"
	KindSmoke  = "smoke"

	LadderRunning = "running"
	LadderDone    = "done"
	LadderError   = "error"
)

// ErrExists means a name is taken.
var ErrExists = errors.New("already exists")

// User is an account.
type User struct {
	ID      int64     `json:"id"`
	Name    string    `json:"name"`
	Role    string    `json:"role"`
	Created time.Time `json:"created"`
	PwHash  string    `json:"-"`
}

// WebBot is an uploaded bot: a name in a game, owned by one user, with its versions.
type WebBot struct {
	ID       int64     `json:"id"`
	UserID   int64     `json:"-"`
	Author   string    `json:"author"`
	Game     string    `json:"game"`
	Name     string    `json:"name"`
	Disabled bool      `json:"disabled"`
	House    string    `json:"house,omitempty"` // a house bot's constructor name; no files
	Created  time.Time `json:"created"`
	// Pinned is the version id its author pinned as the active one (0: the newest that passed).
	Pinned int64 `json:"pinned_version_id,omitempty"`
}

// Version is one upload of a bot.
type Version struct {
	ID       int64     `json:"id"`
	BotID    int64     `json:"bot_id"`
	N        int       `json:"n"`
	Dir      string    `json:"-"`
	Language string    `json:"language"`
	Hash     string    `json:"content_hash"`
	Status   string    `json:"status"`
	Verdict  string    `json:"verdict"`
	Log      string    `json:"-"`
	Created  time.Time `json:"created"`
	Mu       float64   `json:"mu"`
	Sigma    float64   `json:"sigma"`
	Matches  int       `json:"matches"`
	Wins     int       `json:"wins"`
	Draws    int       `json:"draws"`
	Losses   int       `json:"losses"`
	Faults   int       `json:"faults"`
	// Bytes is the size of its unpacked files; Collected when they were removed (zero while
	// it holds them).
	Bytes     int64     `json:"bytes"`
	Collected time.Time `json:"collected,omitzero"`
	// Bot is filled by the queries that join it.
	Bot WebBot `json:"-"`
}

// Ordinal is the conservative rating the ladder ranks by.
func (v Version) Ordinal() float64 { return v.Mu - 3*v.Sigma }

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

func now() string { return time.Now().UTC().Format(time.RFC3339Nano) }

func parseTime(s string) time.Time {
	t, _ := time.Parse(time.RFC3339Nano, s)
	return t
}

func isUnique(err error) bool {
	return err != nil && strings.Contains(err.Error(), "UNIQUE constraint")
}

// CreateUser adds an account; the name is unique regardless of case and of look-alike
// letters (names.Key).
func (s *Store) CreateUser(ctx context.Context, name, pwHash, role string) (User, error) {
	at := now()
	res, err := s.db.ExecContext(ctx, "INSERT INTO users(name, name_key, pw_hash, role, created) VALUES(?,?,?,?,?)", name, names.Key(name), pwHash, role, at)
	if isUnique(err) {
		return User{}, s.takenBy(ctx, name)
	}
	if err != nil {
		return User{}, s.wrap(err, "creating user")
	}
	id, _ := res.LastInsertId()
	return User{ID: id, Name: name, Role: role, PwHash: pwHash, Created: parseTime(at)}, nil
}

// SetRole changes a user's role.
func (s *Store) SetRole(ctx context.Context, name, role string) error {
	res, err := s.db.ExecContext(ctx, "UPDATE users SET role = ? WHERE name = ?", role, name)
	if err != nil {
		return s.wrap(err, "setting role")
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return fmt.Errorf("%w: no user %q", ErrNotFound, name)
	}
	return nil
}

const userCols = "id, name, pw_hash, role, created"

func scanUser(r scanner) (User, error) {
	var u User
	var created string
	err := r.Scan(&u.ID, &u.Name, &u.PwHash, &u.Role, &created)
	u.Created = parseTime(created)
	if errors.Is(err, sql.ErrNoRows) {
		err = ErrNotFound
	}
	return u, err
}

// UserByName finds an account by name (any case).
func (s *Store) UserByName(ctx context.Context, name string) (User, error) {
	u, err := scanUser(s.db.QueryRowContext(ctx, "SELECT "+userCols+" FROM users WHERE name = ?", name))
	return u, s.wrap(err, "reading user")
}

// CreateSession stores a session by the hash of its cookie token.
func (s *Store) CreateSession(ctx context.Context, tokenHash string, userID int64, csrf string, expires time.Time) error {
	_, err := s.db.ExecContext(ctx, "INSERT INTO sessions(token_hash, user_id, csrf, expires, created) VALUES(?,?,?,?,?)",
		tokenHash, userID, csrf, expires.UTC().Format(time.RFC3339Nano), now())
	return s.wrap(err, "creating session")
}

// SessionUser returns the user and CSRF token of a live session.
func (s *Store) SessionUser(ctx context.Context, tokenHash string) (User, string, error) {
	var csrf, expires string
	var u User
	var created string
	err := s.db.QueryRowContext(ctx, "SELECT u.id, u.name, u.pw_hash, u.role, u.created, s.csrf, s.expires FROM sessions s JOIN users u ON u.id = s.user_id WHERE s.token_hash = ? AND u.disabled = 0", tokenHash).
		Scan(&u.ID, &u.Name, &u.PwHash, &u.Role, &created, &csrf, &expires)
	if errors.Is(err, sql.ErrNoRows) {
		return User{}, "", ErrNotFound
	}
	if err != nil {
		return User{}, "", s.wrap(err, "reading session")
	}
	if parseTime(expires).Before(time.Now()) {
		_ = s.DeleteSession(ctx, tokenHash)
		return User{}, "", ErrNotFound
	}
	u.Created = parseTime(created)
	return u, csrf, nil
}

// DeleteSession ends a session.
func (s *Store) DeleteSession(ctx context.Context, tokenHash string) error {
	_, err := s.db.ExecContext(ctx, "DELETE FROM sessions WHERE token_hash = ?", tokenHash)
	return s.wrap(err, "deleting session")
}

// CreateToken stores an API token by its hash; it works until expires.
func (s *Store) CreateToken(ctx context.Context, userID int64, tokenHash, label string, expires time.Time) (Token, error) {
	at := now()
	res, err := s.db.ExecContext(ctx, "INSERT INTO api_tokens(user_id, token_hash, label, created, expires) VALUES(?,?,?,?,?)",
		userID, tokenHash, label, at, expires.UTC().Format(time.RFC3339Nano))
	if err != nil {
		return Token{}, s.wrap(err, "creating token")
	}
	id, _ := res.LastInsertId()
	return Token{ID: id, Label: label, Created: parseTime(at), Expires: expires.UTC()}, nil
}

// TokenUser returns the owner of a live API token and notes its use (at most once a minute);
// an expired token is deleted and not found.
func (s *Store) TokenUser(ctx context.Context, tokenHash string) (User, error) {
	var expires, used string
	var u User
	var created string
	err := s.db.QueryRowContext(ctx, "SELECT u.id, u.name, u.pw_hash, u.role, u.created, t.expires, t.last_used FROM api_tokens t JOIN users u ON u.id = t.user_id WHERE t.token_hash = ? AND u.disabled = 0", tokenHash).
		Scan(&u.ID, &u.Name, &u.PwHash, &u.Role, &created, &expires, &used)
	if errors.Is(err, sql.ErrNoRows) {
		return User{}, ErrNotFound
	}
	if err != nil {
		return User{}, s.wrap(err, "reading token")
	}
	t := time.Now()
	if !parseTime(expires).After(t) {
		_, _ = s.db.ExecContext(ctx, "DELETE FROM api_tokens WHERE token_hash = ?", tokenHash)
		return User{}, ErrNotFound
	}
	if parseTime(used).Before(t.Add(-time.Minute)) {
		_, _ = s.db.ExecContext(ctx, "UPDATE api_tokens SET last_used = ? WHERE token_hash = ?", now(), tokenHash)
	}
	u.Created = parseTime(created)
	return u, nil
}

// EnsureBot returns the user's bot of that name in that game, creating it; a name another
// user holds in that game is refused.
func (s *Store) EnsureBot(ctx context.Context, userID int64, game, name, house string) (WebBot, error) {
	b, err := s.BotByName(ctx, game, name)
	if err == nil {
		if b.UserID != userID {
			return WebBot{}, fmt.Errorf("%w: %s already has a bot named %q (another author's): pick another name", ErrExists, game, name)
		}
		return b, nil
	}
	if !errors.Is(err, ErrNotFound) {
		return WebBot{}, err
	}
	_, err = s.db.ExecContext(ctx, "INSERT INTO web_bots(user_id, game, name, name_key, house, created) VALUES(?,?,?,?,?,?)", userID, game, name, names.Key(name), house, now())
	if err != nil && !isUnique(err) {
		return WebBot{}, s.wrap(err, "creating bot")
	}
	b, err = s.BotByName(ctx, game, name)
	if errors.Is(err, ErrNotFound) { // not this name: a look-alike of another bot holds the key
		var other string
		_ = s.db.QueryRowContext(ctx, "SELECT name FROM web_bots WHERE game = ? AND name_key = ?", game, names.Key(name)).Scan(&other)
		return WebBot{}, fmt.Errorf("%w: %s already has a bot named %q, which %q looks too much like: pick another name (or upload as %q if it is yours)",
			ErrExists, game, other, name, other)
	}
	return b, err
}

const botCols = "b.id, b.user_id, u.name, b.game, b.name, b.disabled, b.house, b.created, b.pinned"

func scanBot(r scanner) (WebBot, error) {
	var b WebBot
	var created string
	err := r.Scan(&b.ID, &b.UserID, &b.Author, &b.Game, &b.Name, &b.Disabled, &b.House, &created, &b.Pinned)
	b.Created = parseTime(created)
	if errors.Is(err, sql.ErrNoRows) {
		err = ErrNotFound
	}
	return b, err
}

// BotByName finds a bot in a game.
func (s *Store) BotByName(ctx context.Context, game, name string) (WebBot, error) {
	b, err := scanBot(s.db.QueryRowContext(ctx, "SELECT "+botCols+" FROM web_bots b JOIN users u ON u.id = b.user_id WHERE b.game = ? AND b.name = ?", game, name))
	return b, s.wrap(err, "reading bot")
}

// WebBotByID finds a bot.
func (s *Store) WebBotByID(ctx context.Context, id int64) (WebBot, error) {
	b, err := scanBot(s.db.QueryRowContext(ctx, "SELECT "+botCols+" FROM web_bots b JOIN users u ON u.id = b.user_id WHERE b.id = ?", id))
	return b, s.wrap(err, "reading bot")
}

// WebBots lists bots: of a game (game != ""), of a user (userID > 0), or all.
func (s *Store) WebBots(ctx context.Context, game string, userID int64) ([]WebBot, error) {
	q := "SELECT " + botCols + " FROM web_bots b JOIN users u ON u.id = b.user_id WHERE (? = '' OR b.game = ?) AND (? = 0 OR b.user_id = ?) ORDER BY b.game, b.name"
	return queryAll(ctx, s, "reading bots", scanBot, q, game, game, userID, userID)
}

// SetDisabled takes a bot off the ladder (or puts it back).
func (s *Store) SetDisabled(ctx context.Context, botID int64, disabled bool) error {
	_, err := s.db.ExecContext(ctx, "UPDATE web_bots SET disabled = ? WHERE id = ?", disabled, botID)
	return s.wrap(err, "disabling bot")
}

// AddVersion records a new version of a bot (status validating) and returns it; dir is filled
// in by the caller through SetVersionDir once its files are in place.
func (s *Store) AddVersion(ctx context.Context, botID int64, mu, sigma float64) (Version, error) {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return Version{}, s.wrap(err, "adding version")
	}
	defer tx.Rollback()
	var n int
	if err := tx.QueryRow("SELECT coalesce(max(n), 0) + 1 FROM versions WHERE bot_id = ?", botID).Scan(&n); err != nil {
		return Version{}, s.wrap(err, "adding version")
	}
	res, err := tx.Exec("INSERT INTO versions(bot_id, n, dir, status, created, mu, sigma) VALUES(?,?,?,?,?,?,?)", botID, n, "", VersionValidating, now(), mu, sigma)
	if err != nil {
		return Version{}, s.wrap(err, "adding version")
	}
	id, _ := res.LastInsertId()
	if err := tx.Commit(); err != nil {
		return Version{}, s.wrap(err, "adding version")
	}
	return s.VersionByID(ctx, id)
}

// SetVersionDir records where a version's files are and what they are.
func (s *Store) SetVersionDir(ctx context.Context, id int64, dir, language string) error {
	_, err := s.db.ExecContext(ctx, "UPDATE versions SET dir = ?, language = ? WHERE id = ?", dir, language, id)
	return s.wrap(err, "recording version files")
}

// SetVerdict ends a version's validation.
func (s *Store) SetVerdict(ctx context.Context, id int64, status, verdict, log, hash string) error {
	_, err := s.db.ExecContext(ctx, "UPDATE versions SET status = ?, verdict = ?, log = ?, content_hash = ? WHERE id = ?", status, verdict, log, hash, id)
	return s.wrap(err, "recording verdict")
}

const versionCols = "v.id, v.bot_id, v.n, v.dir, v.language, v.content_hash, v.status, v.verdict, v.log, v.created, v.mu, v.sigma, v.matches, v.wins, v.draws, v.losses, v.faults, v.bytes, v.collected, " + botCols

const versionFrom = " FROM versions v JOIN web_bots b ON b.id = v.bot_id JOIN users u ON u.id = b.user_id "

func scanVersion(r scanner) (Version, error) {
	var v Version
	var created, bcreated, collected string
	err := r.Scan(&v.ID, &v.BotID, &v.N, &v.Dir, &v.Language, &v.Hash, &v.Status, &v.Verdict, &v.Log, &created, &v.Mu, &v.Sigma,
		&v.Matches, &v.Wins, &v.Draws, &v.Losses, &v.Faults, &v.Bytes, &collected,
		&v.Bot.ID, &v.Bot.UserID, &v.Bot.Author, &v.Bot.Game, &v.Bot.Name, &v.Bot.Disabled, &v.Bot.House, &bcreated, &v.Bot.Pinned)
	v.Created, v.Bot.Created = parseTime(created), parseTime(bcreated)
	if collected != "" {
		v.Collected = parseTime(collected)
	}
	if errors.Is(err, sql.ErrNoRows) {
		err = ErrNotFound
	}
	return v, err
}

func (s *Store) versions(ctx context.Context, where string, args ...any) ([]Version, error) {
	return queryAll(ctx, s, "reading versions", scanVersion, "SELECT "+versionCols+versionFrom+where, args...)
}

// VersionByID finds a version with its bot.
func (s *Store) VersionByID(ctx context.Context, id int64) (Version, error) {
	v, err := scanVersion(s.db.QueryRowContext(ctx, "SELECT "+versionCols+versionFrom+"WHERE v.id = ?", id))
	return v, s.wrap(err, "reading version")
}

// Versions lists a bot's versions, newest first.
func (s *Store) Versions(ctx context.Context, botID int64) ([]Version, error) {
	return s.versions(ctx, "WHERE v.bot_id = ? ORDER BY v.n DESC", botID)
}

// Pending lists versions still validating (after a restart they are validated again).
func (s *Store) Pending(ctx context.Context) ([]Version, error) {
	return s.versions(ctx, "WHERE v.status = ? ORDER BY v.id", VersionValidating)
}

// Validating counts a user's versions still validating.
func (s *Store) Validating(ctx context.Context, userID int64) (int, error) {
	var n int
	err := s.db.QueryRowContext(ctx, "SELECT count(*) FROM versions v JOIN web_bots b ON b.id = v.bot_id WHERE b.user_id = ? AND v.status = ?", userID, VersionValidating).Scan(&n)
	return n, s.wrap(err, "counting versions")
}

// Active lists, per bot of the game that is not disabled, its active version: the one its
// author pinned, else its newest that passed validation. These are the ladder's entrants.
func (s *Store) Active(ctx context.Context, game string) ([]Version, error) {
	return s.versions(ctx, `WHERE b.game = ? AND b.disabled = 0 AND v.status = ?
		AND CASE WHEN b.pinned != 0 THEN v.id = b.pinned
			ELSE v.n = (SELECT max(n) FROM versions w WHERE w.bot_id = v.bot_id AND w.status = ?) END ORDER BY v.id`, game, VersionOK, VersionOK)
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

// ID is the store's own random id, made when it was created (or migrated to schema 4): two
// stores never share it, wherever their files are.
func (s *Store) ID(ctx context.Context) (string, error) {
	var id string
	err := s.db.QueryRowContext(ctx, "SELECT value FROM meta WHERE name = 'id'").Scan(&id)
	return id, s.wrap(err, "reading the store's id")
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
	q := "SELECT id, game, kind, status, seed, started, coalesce(finished, ''), summary, error, duration_ns, " + s.clockCol("m.") + " FROM ladder_matches m WHERE 1=1"
	var args []any
	if f.Game != "" {
		q += " AND game = ?"
		args = append(args, f.Game)
	}
	if f.Kind != "" {
		q += " AND kind = ?"
		args = append(args, f.Kind)
	}
	if f.Status != "" {
		q += " AND status = ?"
		args = append(args, f.Status)
	}
	if f.BotID > 0 {
		q += " AND id IN (SELECT match_id FROM ladder_seats st JOIN versions v ON v.id = st.version_id WHERE v.bot_id = ?)"
		args = append(args, f.BotID)
	}
	if f.Before > 0 {
		q += " AND id < ?"
		args = append(args, f.Before)
	}
	q, args = f.more(q, args)
	if f.Limit <= 0 || f.Limit > 500 {
		f.Limit = 50
	}
	order := "DESC"
	if f.After > 0 {
		order = "ASC" // the page just above the cursor; turned newest first below
	}
	q += fmt.Sprintf(" ORDER BY id %s LIMIT %d", order, f.Limit)
	rows, err := s.db.QueryContext(ctx, q, args...)
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
	if f.After > 0 {
		slices.Reverse(out)
	}
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
