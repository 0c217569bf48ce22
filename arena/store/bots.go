package store

// The bots authors upload on the web site: one name in a game, owned by one user.

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/botarena/arena/arena/names"
)

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
