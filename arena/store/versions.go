package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
)

// ErrPin means a version cannot be pinned (it did not pass validation).
var ErrPin = errors.New("cannot pin that version")

func init() {
	migrations[7] = []string{"ALTER TABLE web_bots ADD COLUMN pinned INTEGER NOT NULL DEFAULT 0"}
}

// PinVersion makes version number n of a bot its active version (the ladder plays it, whatever
// is uploaded later) or, with n = 0, lets the newest version that passed validation be active
// again. Only a version that passed validation and still has its files can be pinned; a pinned
// version's files are never collected (Collectable).
func (s *Store) PinVersion(ctx context.Context, botID int64, n int) (pinned int64, err error) {
	if n != 0 {
		var status, collected string
		err := s.db.QueryRowContext(ctx, "SELECT id, status, collected FROM versions WHERE bot_id = ? AND n = ?", botID, n).Scan(&pinned, &status, &collected)
		if errors.Is(err, sql.ErrNoRows) {
			return 0, fmt.Errorf("%w: the bot has no version %d", ErrNotFound, n)
		}
		if err != nil {
			return 0, s.wrap(err, "pinning a version")
		}
		if status != VersionOK {
			return 0, fmt.Errorf("%w: version %d is %s; only a version that passed validation can be pinned", ErrPin, n, status)
		}
		if collected != "" {
			return 0, fmt.Errorf("%w: version %d's files were collected (a bot keeps the files of its last few passing versions, "+
				"serve --keep-versions, and of its pinned one): upload it again, or pin a version before uploading more to keep it", ErrPin, n)
		}
	}
	_, err = s.db.ExecContext(ctx, "UPDATE web_bots SET pinned = ? WHERE id = ?", pinned, botID)
	return pinned, s.wrap(err, "pinning a version")
}
