package store

import (
	"context"
	"time"
)

// SeatFilter selects matches by one of their seats: a seat whose bot, author and result match
// every field given (empty fields match anything). Names match in any letter case; nothing
// given is read as a pattern.
type SeatFilter struct {
	// BotID is the bot's id (0: any).
	BotID int64
	// Bot is the bot's exact name.
	Bot string
	// Author is its author's exact name.
	Author string
	// Result is the seat's result: win, draw or loss.
	Result string
}

func (f SeatFilter) empty() bool { return f == SeatFilter{} }

// timeKey is how a time bound is compared with the stored RFC 3339 texts: to the second and
// without the zone mark, so "…:05Z" and "…:05.25Z" both sort after a bound of "…:05".
const timeKey = "2006-01-02T15:04:05"

// more adds the seat and time filters to a match query.
func (f MatchFilter) more(q string, args []any) (string, []any) {
	if sf := f.Seat; !sf.empty() {
		// The versions first (a few rows), then their seats by the ladder_seats_version index:
		// only the conditions given, so SQLite can plan each.
		vq := "SELECT v.id FROM versions v JOIN web_bots b ON b.id = v.bot_id JOIN users u ON u.id = b.user_id WHERE 1=1"
		var vargs []any
		if sf.BotID > 0 {
			vq += " AND b.id = ?"
			vargs = append(vargs, sf.BotID)
		}
		if sf.Bot != "" {
			vq += " AND b.name = ? COLLATE NOCASE"
			vargs = append(vargs, sf.Bot)
		}
		if sf.Author != "" {
			vq += " AND u.name = ?"
			vargs = append(vargs, sf.Author)
		}
		q += " AND id IN (SELECT st.match_id FROM ladder_seats st WHERE st.version_id IN (" + vq + ")"
		args = append(args, vargs...)
		if sf.Result != "" {
			q += " AND st.result = ?"
			args = append(args, sf.Result)
		}
		q += ")"
	}
	if !f.From.IsZero() {
		q += " AND started >= ?"
		args = append(args, f.From.UTC().Format(timeKey))
	}
	if !f.To.IsZero() {
		q += " AND started < ?"
		args = append(args, f.To.UTC().Format(timeKey))
	}
	if f.After > 0 {
		q += " AND id > ?"
		args = append(args, f.After)
	}
	return q, args
}

// BotFilter selects bots for a list; zero fields match everything.
type BotFilter struct {
	Game string
	// Name keeps bots whose name contains it (any case; read as text, never as a pattern).
	Name string
	// Author is the exact name of their author (any case).
	Author string
	// From and To bound when the bot was made: From <= created < To.
	From, To time.Time
	// Before and After are cursors on the bot id; the list is newest first.
	Before, After int64
	// HideHouse leaves out the house bots.
	HideHouse bool
	Limit     int
}

// BotPage lists bots newest first, a page at a time.
func (s *Store) BotPage(ctx context.Context, f BotFilter) ([]WebBot, error) {
	q := "SELECT " + botCols + " FROM web_bots b JOIN users u ON u.id = b.user_id WHERE 1=1"
	var args []any
	if f.Game != "" {
		q += " AND b.game = ?"
		args = append(args, f.Game)
	}
	if f.Name != "" {
		q += " AND instr(lower(b.name), lower(?)) > 0"
		args = append(args, f.Name)
	}
	if f.Author != "" {
		q += " AND u.name = ?"
		args = append(args, f.Author)
	}
	if !f.From.IsZero() {
		q += " AND b.created >= ?"
		args = append(args, f.From.UTC().Format(timeKey))
	}
	if !f.To.IsZero() {
		q += " AND b.created < ?"
		args = append(args, f.To.UTC().Format(timeKey))
	}
	if f.HideHouse {
		q += " AND b.house = ''"
	}
	order := "DESC"
	switch {
	case f.After > 0:
		q += " AND b.id > ?"
		args = append(args, f.After)
		order = "ASC"
	case f.Before > 0:
		q += " AND b.id < ?"
		args = append(args, f.Before)
	}
	if f.Limit <= 0 {
		f.Limit = 50
	}
	q += " ORDER BY b.id " + order + " LIMIT ?"
	args = append(args, f.Limit)
	out, err := queryAll(ctx, s, "reading bots", scanBot, q, args...)
	if order == "ASC" {
		for i, j := 0, len(out)-1; i < j; i, j = i+1, j-1 {
			out[i], out[j] = out[j], out[i]
		}
	}
	return out, err
}
