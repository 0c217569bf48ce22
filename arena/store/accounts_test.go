package store

import (
	"context"
	"database/sql"
	"errors"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestMigratesAccountsV4 takes a store back to schema version 4 (no schema 6 columns either; accounts without name keys or
// token expiry, holding two look-alike names and a token), opens it, and checks the migration:
// the old token now expires in 90 days, both old names stay, and a new look-alike is refused.
func TestMigratesAccountsV4(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "v4.db")
	s, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	s.Close()
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{
		"DROP INDEX users_name_key", "DROP INDEX web_bots_name_key", "DROP INDEX api_tokens_user", "DROP INDEX sessions_user",
		"ALTER TABLE users DROP COLUMN name_key", "ALTER TABLE web_bots DROP COLUMN name_key",
		"ALTER TABLE api_tokens DROP COLUMN expires", "ALTER TABLE api_tokens DROP COLUMN last_used",
		"ALTER TABLE sessions DROP COLUMN created",
		"ALTER TABLE versions DROP COLUMN bytes", "ALTER TABLE versions DROP COLUMN collected", // schema 6 (quota.go)
		"ALTER TABLE matches DROP COLUMN clock", "ALTER TABLE ladder_matches DROP COLUMN clock", // schema 7 (clock.go)
		"ALTER TABLE web_bots DROP COLUMN pinned",                                                                           // schema 8 (versions.go)
		"DROP INDEX web_bots_user", "DROP TABLE audit_log", "DROP TABLE webhooks", "ALTER TABLE users DROP COLUMN disabled", // schema 9 (admin.go)
		"INSERT INTO users(name, pw_hash, role, created) VALUES('bob1', 'h', 'organiser', '2026-01-01T00:00:00Z'), ('bobl', 'h', 'author', '2026-01-02T00:00:00Z')",
		"INSERT INTO api_tokens(user_id, token_hash, label, created) VALUES(1, 'old-token', 'script', '2026-01-01T00:00:00Z')",
		"PRAGMA user_version = 4",
	} {
		if _, err := db.Exec(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	db.Close()

	s, err = Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if s.Version() != SchemaVersion {
		t.Fatalf("version %d after migration", s.Version())
	}
	u, err := s.TokenUser(ctx, "old-token")
	if err != nil || u.Name != "bob1" || u.Role != RoleOrganiser {
		t.Fatalf("old token after migration: %+v %v", u, err)
	}
	toks, err := s.Tokens(ctx, u.ID)
	if err != nil || len(toks) != 1 {
		t.Fatalf("tokens: %+v %v", toks, err)
	}
	if left := time.Until(toks[0].Expires); left < 89*24*time.Hour || left > 91*24*time.Hour {
		t.Fatalf("an old token expires in %v, want 90 days", left)
	}
	users, err := s.Users(ctx)
	if err != nil || len(users) != 2 {
		t.Fatalf("both old look-alike users stay: %+v %v", users, err)
	}
	if _, err := s.CreateUser(ctx, "BobI", "h", RoleAuthor); !errors.Is(err, ErrExists) || !strings.Contains(err.Error(), `"bob1"`) {
		t.Fatalf("a new look-alike of an old name: %v", err)
	}
}

func TestTokensExpireAndRevoke(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s, err := Open(filepath.Join(t.TempDir(), "tok.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	ada, _ := s.CreateUser(ctx, "ada", "h", RoleAuthor)
	bob, _ := s.CreateUser(ctx, "bob", "h", RoleAuthor)
	if _, err := s.CreateToken(ctx, ada.ID, "gone", "old", time.Now().Add(-time.Second)); err != nil {
		t.Fatal(err)
	}
	if _, err := s.TokenUser(ctx, "gone"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("expired token: %v", err)
	}
	tk, _ := s.CreateToken(ctx, ada.ID, "live", "ci", time.Now().Add(time.Hour))
	if err := s.RevokeToken(ctx, bob.ID, tk.ID); !errors.Is(err, ErrNotFound) {
		t.Fatalf("bob revoked ada's token: %v", err)
	}
	if _, err := s.TokenUser(ctx, "live"); err != nil {
		t.Fatal(err)
	}
	if err := s.RevokeToken(ctx, ada.ID, tk.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := s.TokenUser(ctx, "live"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("revoked token: %v", err)
	}
	for _, h := range []string{"s1", "s2", "s3"} {
		s.CreateSession(ctx, h, ada.ID, "c", time.Now().Add(time.Hour))
	}
	s.CreateSession(ctx, "b1", bob.ID, "c", time.Now().Add(time.Hour))
	if n, err := s.DeleteSessions(ctx, ada.ID, "s2"); err != nil || n != 2 {
		t.Fatalf("ended %d sessions (%v), want 2", n, err)
	}
	if _, _, err := s.SessionUser(ctx, "s2"); err != nil {
		t.Fatalf("the kept session: %v", err)
	}
	if _, _, err := s.SessionUser(ctx, "b1"); err != nil {
		t.Fatalf("another user's session: %v", err)
	}
}
