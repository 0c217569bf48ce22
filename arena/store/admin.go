package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"
)

// Schema version 9 adds what organisers and notifications keep: a user's disabled mark (a
// disabled account cannot log in and its sessions and tokens stop working), the audit log of
// every organiser action, and each author's webhook.
func init() {
	migrations[8] = []string{
		"ALTER TABLE users ADD COLUMN disabled INTEGER NOT NULL DEFAULT 0",
		`CREATE TABLE audit_log (
			id       INTEGER PRIMARY KEY,
			at       TEXT NOT NULL,
			actor_id INTEGER NOT NULL,
			actor    TEXT NOT NULL,
			action   TEXT NOT NULL,
			target   TEXT NOT NULL DEFAULT '',
			detail   TEXT NOT NULL DEFAULT ''
		)`,
		`CREATE TABLE webhooks (
			user_id INTEGER PRIMARY KEY REFERENCES users(id),
			url     TEXT NOT NULL,
			secret  TEXT NOT NULL,
			created TEXT NOT NULL
		)`,
		"CREATE INDEX web_bots_user ON web_bots(user_id, id)",
	}
}

// announcementSetting is the one place the front page's announcement is kept.
const announcementSetting = "announcement"

// Announcement is the organiser's announcement for the front page ("" when there is none).
func (s *Store) Announcement(ctx context.Context) (string, error) {
	return s.Setting(ctx, announcementSetting)
}

// SetAnnouncement replaces the announcement ("" removes it).
func (s *Store) SetAnnouncement(ctx context.Context, text string) error {
	return s.SetSetting(ctx, announcementSetting, text)
}

// UserRow is an account as an organiser's list shows it.
type UserRow struct {
	ID       int64     `json:"id"`
	Name     string    `json:"name"`
	Role     string    `json:"role"`
	Disabled bool      `json:"disabled"`
	Created  time.Time `json:"created"`
	Bots     int       `json:"bots"`
}

// UserPage lists accounts by id, newest first, a page at a time: before > 0 starts below that
// id (a stable cursor, unlike an offset); name, when given, keeps names containing it (any case).
func (s *Store) UserPage(ctx context.Context, name string, before int64, limit int) ([]UserRow, error) {
	if limit <= 0 {
		limit = 50
	}
	q := newQuery("SELECT u.id, u.name, u.role, u.disabled, u.created, (SELECT count(*) FROM web_bots b WHERE b.user_id = u.id) FROM users u WHERE 1=1")
	q.textIs("instr(lower(u.name), lower(?)) > 0", name)
	q.page("u.id", before, 0, limit)
	return queryAll(ctx, s, "reading users", func(r scanner) (UserRow, error) {
		var u UserRow
		var created string
		err := r.Scan(&u.ID, &u.Name, &u.Role, &u.Disabled, &created, &u.Bots)
		u.Created = parseTime(created)
		return u, err
	}, q.String(), q.args...)
}

// UserByID finds an account by id.
func (s *Store) UserByID(ctx context.Context, id int64) (User, error) {
	u, err := scanUser(s.db.QueryRowContext(ctx, "SELECT "+userCols+" FROM users WHERE id = ?", id))
	return u, s.wrap(err, "reading user")
}

// UserDisabled reports whether an organiser disabled the account.
func (s *Store) UserDisabled(ctx context.Context, id int64) (bool, error) {
	var d bool
	err := s.db.QueryRowContext(ctx, "SELECT disabled FROM users WHERE id = ?", id).Scan(&d)
	if errors.Is(err, sql.ErrNoRows) {
		return false, fmt.Errorf("%w: no user %d", ErrNotFound, id)
	}
	return d, s.wrap(err, "reading user")
}

// SetUserDisabled disables an account (ending every session at once; its tokens are refused
// while it is disabled) or enables it again.
func (s *Store) SetUserDisabled(ctx context.Context, id int64, disabled bool) error {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return s.wrap(err, "disabling user")
	}
	defer tx.Rollback()
	res, err := tx.Exec("UPDATE users SET disabled = ? WHERE id = ?", disabled, id)
	if err != nil {
		return s.wrap(err, "disabling user")
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return fmt.Errorf("%w: no user %d", ErrNotFound, id)
	}
	if disabled {
		if _, err := tx.Exec("DELETE FROM sessions WHERE user_id = ?", id); err != nil {
			return s.wrap(err, "disabling user")
		}
	}
	return s.wrap(tx.Commit(), "disabling user")
}

// SetRoleByID changes a user's role.
func (s *Store) SetRoleByID(ctx context.Context, id int64, role string) error {
	res, err := s.db.ExecContext(ctx, "UPDATE users SET role = ? WHERE id = ?", role, id)
	if err != nil {
		return s.wrap(err, "setting role")
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return fmt.Errorf("%w: no user %d", ErrNotFound, id)
	}
	return nil
}

// AuditEntry is one organiser action.
type AuditEntry struct {
	ID      int64     `json:"id"`
	At      time.Time `json:"at"`
	ActorID int64     `json:"actor_id"`
	Actor   string    `json:"actor"`
	Action  string    `json:"action"`
	Target  string    `json:"target"`
	Detail  string    `json:"detail,omitempty"`
}

// Audit records an organiser action.
func (s *Store) Audit(ctx context.Context, e AuditEntry) error {
	_, err := s.db.ExecContext(ctx, "INSERT INTO audit_log(at, actor_id, actor, action, target, detail) VALUES(?,?,?,?,?,?)",
		now(), e.ActorID, e.Actor, e.Action, e.Target, e.Detail)
	return s.wrap(err, "writing the audit log")
}

// AuditLog lists organiser actions newest first, a page at a time (before: a cursor on id).
func (s *Store) AuditLog(ctx context.Context, before int64, limit int) ([]AuditEntry, error) {
	if limit <= 0 {
		limit = 50
	}
	q := newQuery("SELECT id, at, actor_id, actor, action, target, detail FROM audit_log WHERE 1=1")
	q.page("id", before, 0, limit)
	return queryAll(ctx, s, "reading the audit log", func(r scanner) (AuditEntry, error) {
		var e AuditEntry
		var at string
		err := r.Scan(&e.ID, &at, &e.ActorID, &e.Actor, &e.Action, &e.Target, &e.Detail)
		e.At = parseTime(at)
		return e, err
	}, q.String(), q.args...)
}

// Webhook is where an author's notifications go and the secret that signs them.
type Webhook struct {
	UserID  int64     `json:"-"`
	URL     string    `json:"url"`
	Secret  string    `json:"-"`
	Created time.Time `json:"created"`
}

// SetWebhook sets (or replaces) a user's webhook.
func (s *Store) SetWebhook(ctx context.Context, userID int64, url, secret string) error {
	_, err := s.db.ExecContext(ctx, `INSERT INTO webhooks(user_id, url, secret, created) VALUES(?,?,?,?)
		ON CONFLICT(user_id) DO UPDATE SET url = excluded.url, secret = excluded.secret, created = excluded.created`, userID, url, secret, now())
	return s.wrap(err, "setting webhook")
}

// DeleteWebhook removes a user's webhook (none is no error).
func (s *Store) DeleteWebhook(ctx context.Context, userID int64) error {
	_, err := s.db.ExecContext(ctx, "DELETE FROM webhooks WHERE user_id = ?", userID)
	return s.wrap(err, "removing webhook")
}

// WebhookOf returns a user's webhook; ErrNotFound when there is none or the account is disabled.
func (s *Store) WebhookOf(ctx context.Context, userID int64) (Webhook, error) {
	var h Webhook
	var created string
	err := s.db.QueryRowContext(ctx, `SELECT w.user_id, w.url, w.secret, w.created FROM webhooks w JOIN users u ON u.id = w.user_id
		WHERE w.user_id = ? AND u.disabled = 0`, userID).Scan(&h.UserID, &h.URL, &h.Secret, &created)
	if errors.Is(err, sql.ErrNoRows) {
		return h, fmt.Errorf("%w: no webhook", ErrNotFound)
	}
	h.Created = parseTime(created)
	return h, s.wrap(err, "reading webhook")
}

// RatingAfter is a version's rating after one match and the one before it (Before is false for
// its first rated match).
type RatingAfter struct {
	Mu, Sigma         float64
	PrevMu, PrevSigma float64
	HasPrev           bool
}

// RatingAt reads a version's rating recorded by a match, and its previous one.
func (s *Store) RatingAt(ctx context.Context, versionID, matchID int64) (RatingAfter, error) {
	var r RatingAfter
	err := s.db.QueryRowContext(ctx, "SELECT mu, sigma FROM ratings WHERE version_id = ? AND match_id = ?", versionID, matchID).Scan(&r.Mu, &r.Sigma)
	if errors.Is(err, sql.ErrNoRows) {
		return r, fmt.Errorf("%w: no rating of version %d after match %d", ErrNotFound, versionID, matchID)
	}
	if err != nil {
		return r, s.wrap(err, "reading rating")
	}
	err = s.db.QueryRowContext(ctx, "SELECT mu, sigma FROM ratings WHERE version_id = ? AND match_id < ? ORDER BY match_id DESC LIMIT 1", versionID, matchID).
		Scan(&r.PrevMu, &r.PrevSigma)
	r.HasPrev = err == nil
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return r, s.wrap(err, "reading rating")
	}
	return r, nil
}
