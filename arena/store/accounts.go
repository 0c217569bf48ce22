package store

import (
	"context"
	"database/sql"
	"errors"
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

// User is an account.
type User struct {
	ID      int64     `json:"id"`
	Name    string    `json:"name"`
	Role    string    `json:"role"`
	Created time.Time `json:"created"`
	PwHash  string    `json:"-"`
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
