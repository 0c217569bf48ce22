package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"
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

// Version statuses: a version is validating until its build and smoke match end, then ok
// (it plays on the ladder) or failed (it never does).
const (
	VersionValidating = "validating"
	VersionOK         = "ok"
	VersionFailed     = "failed"
)

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
