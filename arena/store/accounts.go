package store

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/botarena/arena/arena/names"
)

// Schema version 5 makes accounts hold: a look-alike key per user and per bot (names.Key),
// unique, so nobody passes for another; API tokens that expire and say when they were last
// used; sessions that say when they began. Tokens made before carry no expiry: the migration
// gives them 90 days from then, the default life of a new one.
func init() {
	migrations[4] = []string{
		"ALTER TABLE users ADD COLUMN name_key TEXT NOT NULL DEFAULT ''",
		"CREATE UNIQUE INDEX users_name_key ON users(name_key) WHERE name_key != ''",
		"ALTER TABLE web_bots ADD COLUMN name_key TEXT NOT NULL DEFAULT ''",
		"CREATE UNIQUE INDEX web_bots_name_key ON web_bots(game, name_key) WHERE name_key != ''",
		"ALTER TABLE api_tokens ADD COLUMN expires TEXT NOT NULL DEFAULT ''",
		"ALTER TABLE api_tokens ADD COLUMN last_used TEXT NOT NULL DEFAULT ''",
		"UPDATE api_tokens SET expires = strftime('%Y-%m-%dT%H:%M:%SZ', 'now', '+90 days')",
		"CREATE INDEX api_tokens_user ON api_tokens(user_id)",
		"ALTER TABLE sessions ADD COLUMN created TEXT NOT NULL DEFAULT ''",
		"CREATE INDEX sessions_user ON sessions(user_id)",
	}
}

// fillNameKeys gives the users and bots of a store older than schema 5 their look-alike keys.
// Two old names that look alike both stay (nothing is renamed): the later one keeps an empty
// key, which the unique index ignores, and new names are still checked against the first.
func (s *Store) fillNameKeys(ctx context.Context) error {
	for _, table := range []string{"users", "web_bots"} {
		type row struct {
			id   int64
			name string
		}
		rows, err := queryAll(ctx, s, "reading names", func(r scanner) (row, error) {
			var x row
			return x, r.Scan(&x.id, &x.name)
		}, "SELECT id, name FROM "+table+" WHERE name_key = '' ORDER BY id")
		if err != nil {
			return err
		}
		for _, x := range rows {
			_, err := s.db.ExecContext(ctx, "UPDATE "+table+" SET name_key = ? WHERE id = ?", names.Key(x.name), x.id)
			if err != nil && !isUnique(err) {
				return s.wrap(err, "recording name keys")
			}
		}
	}
	return nil
}

// takenBy explains a refused new user name: the same name, or a look-alike of one.
func (s *Store) takenBy(ctx context.Context, name string) error {
	var other string
	err := s.db.QueryRowContext(ctx, "SELECT name FROM users WHERE name = ? OR name_key = ? LIMIT 1", name, names.Key(name)).Scan(&other)
	if err != nil || strings.EqualFold(other, name) {
		return fmt.Errorf("%w: the name %q is taken: pick another", ErrExists, name)
	}
	return fmt.Errorf("%w: the name %q looks too much like %q, another user's: pick another", ErrExists, name, other)
}

// Users lists every account, oldest first.
func (s *Store) Users(ctx context.Context) ([]User, error) {
	return queryAll(ctx, s, "reading users", scanUser, "SELECT "+userCols+" FROM users ORDER BY id")
}

// SetPassword replaces a user's password hash.
func (s *Store) SetPassword(ctx context.Context, userID int64, pwHash string) error {
	res, err := s.db.ExecContext(ctx, "UPDATE users SET pw_hash = ? WHERE id = ?", pwHash, userID)
	if err != nil {
		return s.wrap(err, "setting password")
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return fmt.Errorf("%w: no user %d", ErrNotFound, userID)
	}
	return nil
}

// DeleteSessions ends every session of a user but the one whose hash is keep ("" ends all),
// and says how many ended.
func (s *Store) DeleteSessions(ctx context.Context, userID int64, keep string) (int, error) {
	res, err := s.db.ExecContext(ctx, "DELETE FROM sessions WHERE user_id = ? AND token_hash != ?", userID, keep)
	if err != nil {
		return 0, s.wrap(err, "ending sessions")
	}
	n, _ := res.RowsAffected()
	return int(n), nil
}

// Sessions counts a user's live sessions.
func (s *Store) Sessions(ctx context.Context, userID int64) (int, error) {
	var n int
	err := s.db.QueryRowContext(ctx, "SELECT count(*) FROM sessions WHERE user_id = ? AND expires > ?", userID, now()).Scan(&n)
	return n, s.wrap(err, "counting sessions")
}

// Token is an API token as its owner sees it; the token itself is never stored.
type Token struct {
	ID       int64     `json:"id"`
	Label    string    `json:"label"`
	Created  time.Time `json:"created"`
	Expires  time.Time `json:"expires"`
	LastUsed time.Time `json:"last_used,omitzero"`
}

// Tokens lists a user's live tokens, newest first.
func (s *Store) Tokens(ctx context.Context, userID int64) ([]Token, error) {
	return queryAll(ctx, s, "reading tokens", func(r scanner) (Token, error) {
		var t Token
		var created, expires, used string
		err := r.Scan(&t.ID, &t.Label, &created, &expires, &used)
		t.Created, t.Expires, t.LastUsed = parseTime(created), parseTime(expires), parseTime(used)
		return t, err
	}, "SELECT id, label, created, expires, last_used FROM api_tokens WHERE user_id = ? AND expires > ? ORDER BY id DESC", userID, now())
}

// RevokeToken deletes one of a user's tokens; another user's token is not found.
func (s *Store) RevokeToken(ctx context.Context, userID, id int64) error {
	res, err := s.db.ExecContext(ctx, "DELETE FROM api_tokens WHERE id = ? AND user_id = ?", id, userID)
	if err != nil {
		return s.wrap(err, "revoking token")
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return fmt.Errorf("%w: you have no token %d: GET /api/v1/tokens lists yours", ErrNotFound, id)
	}
	return nil
}

// RevokeTokens deletes every token of a user and says how many there were.
func (s *Store) RevokeTokens(ctx context.Context, userID int64) (int, error) {
	res, err := s.db.ExecContext(ctx, "DELETE FROM api_tokens WHERE user_id = ?", userID)
	if err != nil {
		return 0, s.wrap(err, "revoking tokens")
	}
	n, _ := res.RowsAffected()
	return int(n), nil
}
