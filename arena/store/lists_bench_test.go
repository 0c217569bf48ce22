package store

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"
	"time"
)

// BenchmarkMatchList: one page of 50 from a ladder of 20,000 two-seat matches among 20 bots of
// 10 authors, unfiltered, by author and result, by bot name and day, and far back by cursor.
func BenchmarkMatchList(b *testing.B) {
	ctx := context.Background()
	s, err := Open(filepath.Join(b.TempDir(), "lists.db"))
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		b.Fatal(err)
	}
	const bots, matches = 20, 20000
	for i := range bots {
		_, err := tx.Exec("INSERT OR IGNORE INTO users(id, name, name_key, pw_hash, created) VALUES(?, ?, ?, 'h', ?)", i/2+1, fmt.Sprint("author", i/2), fmt.Sprint("author", i/2), now())
		if err == nil {
			_, err = tx.Exec("INSERT INTO web_bots(id, user_id, game, name, name_key, created) VALUES(?, ?, 'dynamite', ?, ?, ?)", i+1, i/2+1, fmt.Sprint("bot", i), fmt.Sprint("bot", i), now())
		}
		if err == nil {
			_, err = tx.Exec("INSERT INTO versions(id, bot_id, n, dir, status, created, mu, sigma) VALUES(?, ?, 1, '', 'ok', ?, 25, 8)", i+1, i+1, now())
		}
		if err != nil {
			b.Fatal(err)
		}
	}
	start := time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)
	for m := 1; m <= matches; m++ {
		at := start.Add(time.Duration(m) * 2 * time.Minute).Format(time.RFC3339Nano)
		if _, err := tx.Exec("INSERT INTO ladder_matches(id, game, kind, status, seed, started, finished, summary) VALUES(?, 'dynamite', 'ladder', 'done', 1, ?, ?, 'x')", m, at, at); err != nil {
			b.Fatal(err)
		}
		a, c := m%bots+1, (m*7+3)%bots+1
		if a == c {
			c = c%bots + 1
		}
		for seat, v := range []int{a, c} {
			res := []string{"win", "loss"}[seat]
			if _, err := tx.Exec("INSERT INTO ladder_seats(match_id, seat, version_id, result) VALUES(?, ?, ?, ?)", m, seat, v, res); err != nil {
				b.Fatal(err)
			}
		}
	}
	if err := tx.Commit(); err != nil {
		b.Fatal(err)
	}
	day := time.Date(2026, 11, 20, 0, 0, 0, 0, time.UTC)
	for _, c := range []struct {
		name string
		f    MatchFilter
	}{
		{"all", MatchFilter{Game: "dynamite", Limit: 50}},
		{"author-result", MatchFilter{Game: "dynamite", Seat: SeatFilter{Author: "author3", Result: "win"}, Limit: 50}},
		{"bot-day", MatchFilter{Game: "dynamite", Seat: SeatFilter{Bot: "bot7"}, From: day, To: day.AddDate(0, 0, 1), Limit: 50}},
		{"far-back", MatchFilter{Game: "dynamite", Before: 100, Limit: 50}},
	} {
		b.Run(c.name, func(b *testing.B) {
			for range b.N {
				ms, err := s.LadderMatches(ctx, c.f)
				if err != nil || len(ms) == 0 {
					b.Fatalf("%d matches, %v", len(ms), err)
				}
			}
		})
	}
}
