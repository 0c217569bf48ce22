package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strconv"

	"github.com/botarena/arena/arena/bounded"
)

// Schema version 6 adds what an author's uploads hold: each version's stored bytes (its
// unpacked files) and when its files were collected (a failed version, or one a newer passing
// version of its bot replaced).
func init() {
	migrations[5] = []string{
		"ALTER TABLE versions ADD COLUMN bytes INTEGER NOT NULL DEFAULT 0",
		"ALTER TABLE versions ADD COLUMN collected TEXT NOT NULL DEFAULT ''",
	}
}

// ErrQuota means an author is at one of their quotas; the QuotaError says which.
var ErrQuota = errors.New("quota reached")

// Quota bounds what one author holds. A zero field is no bound.
type Quota struct {
	// Validating is how many versions may be validating at once.
	Validating int
	// Versions is how many versions may hold files at once (validating, passing, or replaced
	// but not yet collected). A bot's passing versions do not count against an upload of its
	// next version, which replaces them.
	Versions int
	// Bytes bounds the unpacked bytes of those versions, the new one included.
	Bytes int64
}

// QuotaError says which quota an upload met, with the author's figure and the bound.
type QuotaError struct {
	Which string // "validating", "versions" or "bytes"
	Have  int64
	Limit int64
}

func (e *QuotaError) Error() string {
	if e.Which == "bytes" {
		return fmt.Sprintf("%v: %s of %s in files", ErrQuota, bounded.Size(e.Have), bounded.Size(e.Limit))
	}
	return fmt.Sprintf("%v: %s %d of %d", ErrQuota, e.Which, e.Have, e.Limit)
}

func (e *QuotaError) Unwrap() error { return ErrQuota }

// held selects an author's versions (user ?) that hold files, leaving out bot ?'s passing
// versions (an upload of its next version replaces them).
const held = ` FROM versions v JOIN web_bots b ON b.id = v.bot_id
	WHERE b.user_id = ? AND v.collected = '' AND b.house = '' AND NOT (v.bot_id = ? AND v.status = 'ok')`

// AddVersionWithin records a new version of a bot owned by userID (status validating, size
// bytes) unless that takes the author past q. The check and the insert are one statement, so
// concurrent uploads cannot all pass the check before any is recorded.
func (s *Store) AddVersionWithin(ctx context.Context, userID, botID int64, bytes int64, mu, sigma float64, q Quota) (Version, error) {
	noBound := func(n int64) int64 {
		if n <= 0 {
			return 1 << 62
		}
		return n
	}
	res, err := s.db.ExecContext(ctx, `INSERT INTO versions(bot_id, n, dir, status, created, mu, sigma, bytes)
		SELECT ?, coalesce((SELECT max(n) FROM versions WHERE bot_id = ?), 0) + 1, '', ?, ?, ?, ?, ?
		WHERE (SELECT count(*) FROM versions v JOIN web_bots b ON b.id = v.bot_id WHERE b.user_id = ? AND v.status = ?) < ?
		AND (SELECT count(*)`+held+`) < ?
		AND (SELECT coalesce(sum(v.bytes), 0)`+held+`) + ? <= ?`,
		botID, botID, VersionValidating, now(), mu, sigma, bytes,
		userID, VersionValidating, noBound(int64(q.Validating)),
		userID, botID, noBound(int64(q.Versions)),
		userID, botID, bytes, noBound(q.Bytes))
	if err != nil {
		return Version{}, s.wrap(err, "adding version")
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return Version{}, s.quotaError(ctx, userID, botID, bytes, q)
	}
	id, _ := res.LastInsertId()
	return s.VersionByID(ctx, id)
}

// quotaError reads which quota refused an upload (for the message only: the refusal itself
// was decided atomically).
func (s *Store) quotaError(ctx context.Context, userID, botID, bytes int64, q Quota) error {
	var validating, versions, total int64
	err := s.db.QueryRowContext(ctx, `SELECT
		(SELECT count(*) FROM versions v JOIN web_bots b ON b.id = v.bot_id WHERE b.user_id = ? AND v.status = ?),
		(SELECT count(*)`+held+`), (SELECT coalesce(sum(v.bytes), 0)`+held+`)`,
		userID, VersionValidating, userID, botID, userID, botID).Scan(&validating, &versions, &total)
	if err != nil {
		return s.wrap(err, "reading quotas")
	}
	switch {
	case q.Validating > 0 && validating >= int64(q.Validating):
		return &QuotaError{Which: "validating", Have: validating, Limit: int64(q.Validating)}
	case q.Versions > 0 && versions >= int64(q.Versions):
		return &QuotaError{Which: "versions", Have: versions, Limit: int64(q.Versions)}
	default:
		return &QuotaError{Which: "bytes", Have: total + bytes, Limit: q.Bytes}
	}
}

// DropEmptyBot removes a bot that has no version (an upload refused after its bot was made),
// so a refused upload holds no name.
func (s *Store) DropEmptyBot(ctx context.Context, botID int64) error {
	_, err := s.db.ExecContext(ctx, "DELETE FROM web_bots WHERE id = ? AND NOT EXISTS (SELECT 1 FROM versions WHERE bot_id = ?)", botID, botID)
	return s.wrap(err, "removing an empty bot")
}

// KeptVersions is how many passing versions of a bot keep their files by default besides the
// pinned one (serve --keep-versions): the active version and the ones before it, so an author
// can go back (pin an older one) after uploading a newer. They count against the author's
// --max-stored quota.
const KeptVersions = 3

// Collectable lists versions whose files nobody needs any more, oldest first: failed ones,
// and passing ones with keep newer passing versions of their bot (at least 1). Their records
// stay (verdict, ratings, matches); only their files go.
func (s *Store) Collectable(ctx context.Context, keep int) ([]Version, error) {
	keep = max(keep, 1)
	return s.versions(ctx, `WHERE v.collected = '' AND b.house = '' AND v.id != b.pinned AND (v.status = ?
		OR (v.status = ? AND (SELECT count(*) FROM versions w WHERE w.bot_id = v.bot_id AND w.status = ? AND w.n > v.n) >= ?)) ORDER BY v.id`,
		VersionFailed, VersionOK, VersionOK, keep)
}

// SetCollected records that a version's files are gone.
func (s *Store) SetCollected(ctx context.Context, id int64) error {
	_, err := s.db.ExecContext(ctx, "UPDATE versions SET collected = ? WHERE id = ?", now(), id)
	return s.wrap(err, "recording collected files")
}

// HashHeld reports whether a version other than id with files still holds the content hash
// (two uploads of the same files share their stored copy).
func (s *Store) HashHeld(ctx context.Context, hash string, id int64) (bool, error) {
	var n int
	err := s.db.QueryRowContext(ctx, "SELECT count(*) FROM versions WHERE content_hash = ? AND id != ? AND collected = ''", hash, id).Scan(&n)
	return n > 0, s.wrap(err, "reading versions")
}

// Setting reads a value the server keeps across restarts ("" when never set).
func (s *Store) Setting(ctx context.Context, name string) (string, error) {
	var v string
	err := s.db.QueryRowContext(ctx, "SELECT value FROM meta WHERE name = ?", "setting."+name).Scan(&v)
	if errors.Is(err, sql.ErrNoRows) {
		return "", nil
	}
	return v, s.wrap(err, "reading setting "+strconv.Quote(name))
}

// SetSetting keeps a value across restarts.
func (s *Store) SetSetting(ctx context.Context, name, value string) error {
	_, err := s.db.ExecContext(ctx, "INSERT INTO meta(name, value) VALUES(?, ?) ON CONFLICT(name) DO UPDATE SET value = excluded.value", "setting."+name, value)
	return s.wrap(err, "writing setting "+strconv.Quote(name))
}
