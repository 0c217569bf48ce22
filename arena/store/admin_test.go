package store

import (
	"context"
	"errors"
	"path/filepath"
	"testing"
	"time"
)

// TestDisabledAccounts: a disabled account's sessions end and its tokens are refused (not
// deleted: enabled again, they work); its webhook is not found while it is disabled.
func TestDisabledAccounts(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s, err := Open(filepath.Join(t.TempDir(), "a.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	u, err := s.CreateUser(ctx, "ada", "h", RoleAuthor)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.CreateSession(ctx, "sess", u.ID, "csrf", time.Now().Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
	if _, err := s.CreateToken(ctx, u.ID, "tok", "script", time.Now().Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
	if err := s.SetWebhook(ctx, u.ID, "https://example.org/a", "secret-secret-secret"); err != nil {
		t.Fatal(err)
	}
	if err := s.SetUserDisabled(ctx, u.ID, true); err != nil {
		t.Fatal(err)
	}
	if _, _, err := s.SessionUser(ctx, "sess"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("a disabled account's session: %v", err)
	}
	if _, err := s.TokenUser(ctx, "tok"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("a disabled account's token: %v", err)
	}
	if _, err := s.WebhookOf(ctx, u.ID); !errors.Is(err, ErrNotFound) {
		t.Fatalf("a disabled account's webhook: %v", err)
	}
	if err := s.SetUserDisabled(ctx, u.ID, false); err != nil {
		t.Fatal(err)
	}
	if _, err := s.TokenUser(ctx, "tok"); err != nil {
		t.Fatalf("enabled again, the token: %v", err)
	}
	if _, _, err := s.SessionUser(ctx, "sess"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("a session ended by disabling came back: %v", err)
	}
	// A webhook is replaced, not added; removed, it is gone.
	if err := s.SetWebhook(ctx, u.ID, "https://example.org/b", "another-secret-here"); err != nil {
		t.Fatal(err)
	}
	if h, err := s.WebhookOf(ctx, u.ID); err != nil || h.URL != "https://example.org/b" || h.Secret != "another-secret-here" {
		t.Fatalf("webhook %+v %v", h, err)
	}
	if err := s.DeleteWebhook(ctx, u.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := s.WebhookOf(ctx, u.ID); !errors.Is(err, ErrNotFound) {
		t.Fatalf("a removed webhook: %v", err)
	}
	if err := s.SetUserDisabled(ctx, 999, true); !errors.Is(err, ErrNotFound) {
		t.Fatalf("disabling nobody: %v", err)
	}
}

// TestAuditLogAndAnnouncement: the audit log pages back by id; the announcement is one setting.
func TestAuditLogAndAnnouncement(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s, err := Open(filepath.Join(t.TempDir(), "a.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	for _, a := range []string{"one", "two", "three"} {
		if err := s.Audit(ctx, AuditEntry{ActorID: 1, Actor: "orga", Action: a, Target: "t"}); err != nil {
			t.Fatal(err)
		}
	}
	page, err := s.AuditLog(ctx, 0, 2)
	if err != nil || len(page) != 2 || page[0].Action != "three" || page[1].Action != "two" {
		t.Fatalf("first page: %+v %v", page, err)
	}
	page, err = s.AuditLog(ctx, page[1].ID, 2)
	if err != nil || len(page) != 1 || page[0].Action != "one" || page[0].At.IsZero() {
		t.Fatalf("second page: %+v %v", page, err)
	}
	if a, err := s.Announcement(ctx); err != nil || a != "" {
		t.Fatalf("no announcement yet: %q %v", a, err)
	}
	if err := s.SetAnnouncement(ctx, "Finals on Friday"); err != nil {
		t.Fatal(err)
	}
	if a, err := s.Setting(ctx, "announcement"); err != nil || a != "Finals on Friday" {
		t.Fatalf("the announcement setting: %q %v", a, err)
	}
}

// TestMatchTimeBounds: a day's bounds keep a match started in its first second (the stored
// "…:00Z" and "…:00.5Z" both sort after the bound) and leave out the next day's.
func TestMatchTimeBounds(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s, err := Open(filepath.Join(t.TempDir(), "a.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	u, _ := s.CreateUser(ctx, "ada", "h", RoleAuthor)
	b, _ := s.EnsureBot(ctx, u.ID, "dynamite", "b", "")
	v, _ := s.AddVersion(ctx, b.ID, 25, 8)
	day := time.Date(2026, 12, 2, 0, 0, 0, 0, time.UTC)
	for _, at := range []string{"2026-12-02T00:00:00Z", "2026-12-02T00:00:00.5Z", "2026-12-02T23:59:59.999Z", "2026-12-03T00:00:00Z", "2026-12-01T23:59:59.9Z"} {
		id, err := s.StartLadderMatch(ctx, "dynamite", KindLadder, 1, []int64{v.ID})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := s.db.ExecContext(ctx, "UPDATE ladder_matches SET started = ? WHERE id = ?", at, id); err != nil {
			t.Fatal(err)
		}
	}
	ms, err := s.LadderMatches(ctx, MatchFilter{From: day, To: day.AddDate(0, 0, 1), Limit: 10})
	if err != nil {
		t.Fatal(err)
	}
	var got []int64
	for _, m := range ms {
		got = append(got, m.ID)
	}
	if len(got) != 3 || got[0] != 3 || got[2] != 1 {
		t.Fatalf("matches of 2026-12-02: %v, want [3 2 1]", got)
	}
	// After pages forward and still answers newest first.
	ms, _ = s.LadderMatches(ctx, MatchFilter{After: 1, Limit: 2})
	if len(ms) != 2 || ms[0].ID != 3 || ms[1].ID != 2 {
		t.Fatalf("after 1, two: %+v", ms)
	}
}
