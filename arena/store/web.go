package store

import (
	"context"
	"errors"
	"strings"
	"time"
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

// ErrExists means a name is taken.
var ErrExists = errors.New("already exists")

func now() string { return time.Now().UTC().Format(time.RFC3339Nano) }

func parseTime(s string) time.Time {
	t, _ := time.Parse(time.RFC3339Nano, s)
	return t
}

func isUnique(err error) bool {
	return err != nil && strings.Contains(err.Error(), "UNIQUE constraint")
}

// ID is the store's own random id, made when it was created (or migrated to schema 4): two
// stores never share it, wherever their files are.
func (s *Store) ID(ctx context.Context) (string, error) {
	var id string
	err := s.db.QueryRowContext(ctx, "SELECT value FROM meta WHERE name = 'id'").Scan(&id)
	return id, s.wrap(err, "reading the store's id")
}
