package store

import (
	"context"
	"errors"
	"path/filepath"
	"testing"
)

// A pinned version is the bot's active one whatever is uploaded after it; unpinning makes the
// newest version that passed active again; a failed version cannot be pinned.
func TestPinVersion(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s, err := Open(filepath.Join(t.TempDir(), "pin.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	u, err := s.CreateUser(ctx, "ada", "h", RoleAuthor)
	if err != nil {
		t.Fatal(err)
	}
	b, err := s.EnsureBot(ctx, u.ID, "dynamite", "freq", "")
	if err != nil {
		t.Fatal(err)
	}
	add := func(status string) Version {
		v, err := s.AddVersion(ctx, b.ID, 25, 8)
		if err != nil {
			t.Fatal(err)
		}
		if err := s.SetVerdict(ctx, v.ID, status, "", "", ""); err != nil {
			t.Fatal(err)
		}
		return v
	}
	v1, v2, v3 := add(VersionOK), add(VersionOK), add(VersionFailed)
	active := func() int {
		t.Helper()
		vs, err := s.Active(ctx, "dynamite")
		if err != nil || len(vs) != 1 {
			t.Fatalf("active: %+v, %v", vs, err)
		}
		return vs[0].N
	}
	if n := active(); n != v2.N {
		t.Fatalf("active v%d, want the newest that passed, v%d", n, v2.N)
	}
	if id, err := s.PinVersion(ctx, b.ID, v1.N); err != nil || id != v1.ID {
		t.Fatalf("pin v1: %d, %v", id, err)
	}
	add(VersionOK) // v4, uploaded after the pin
	if n := active(); n != v1.N {
		t.Fatalf("active v%d with v1 pinned", n)
	}
	if bb, _ := s.WebBotByID(ctx, b.ID); bb.Pinned != v1.ID {
		t.Fatalf("bot's pinned version %d, want %d", bb.Pinned, v1.ID)
	}
	if _, err := s.PinVersion(ctx, b.ID, v3.N); !errors.Is(err, ErrPin) {
		t.Fatalf("pinning a failed version: %v", err)
	}
	if _, err := s.PinVersion(ctx, b.ID, 99); !errors.Is(err, ErrNotFound) {
		t.Fatalf("pinning a missing version: %v", err)
	}
	// A pinned version's files are kept, and so are the last KeptVersions passing ones (an
	// author can go back); older passing versions and failed ones are collected, and a
	// collected version cannot be pinned.
	collectable := func() map[int64]bool {
		t.Helper()
		col, err := s.Collectable(ctx, KeptVersions)
		if err != nil {
			t.Fatal(err)
		}
		ids := map[int64]bool{}
		for _, v := range col {
			ids[v.ID] = true
		}
		return ids
	}
	if col := collectable(); col[v1.ID] || col[v2.ID] || !col[v3.ID] {
		t.Fatalf("collectable %v: want the failed v3 only (v1 pinned, v2 among the last %d passing)", col, KeptVersions)
	}
	var newer []Version
	for range KeptVersions {
		newer = append(newer, add(VersionOK))
	}
	if col := collectable(); !col[v2.ID] || col[v1.ID] || col[newer[0].ID] {
		t.Fatalf("collectable %v after %d newer passing versions: want v2 (and not the pinned v1 or v%d)", col, KeptVersions, newer[0].N)
	}
	if err := s.SetCollected(ctx, v2.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := s.PinVersion(ctx, b.ID, v2.N); !errors.Is(err, ErrPin) {
		t.Fatalf("pinning a collected version: %v", err)
	}
	if _, err := s.PinVersion(ctx, b.ID, 0); err != nil {
		t.Fatal(err)
	}
	if n := active(); n != newer[len(newer)-1].N {
		t.Fatalf("active v%d after unpinning, want the newest, v%d", n, newer[len(newer)-1].N)
	}
	// Going back: an older version still kept is pinned, and plays.
	if _, err := s.PinVersion(ctx, b.ID, newer[0].N); err != nil {
		t.Fatalf("going back to v%d: %v", newer[0].N, err)
	}
	if n := active(); n != newer[0].N {
		t.Fatalf("active v%d after going back, want v%d", n, newer[0].N)
	}
}
