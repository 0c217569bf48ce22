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
func (f MatchFilter) more(q *query) {
	if sf := f.Seat; !sf.empty() {
		// The versions first (a few rows), then their seats by the ladder_seats_version index:
		// only the conditions given, so SQLite can plan each.
		vq := newQuery("SELECT v.id FROM versions v JOIN web_bots b ON b.id = v.bot_id JOIN users u ON u.id = b.user_id WHERE 1=1")
		vq.idIs("b.id = ?", sf.BotID)
		vq.textIs("b.name = ? COLLATE NOCASE", sf.Bot)
		vq.textIs("u.name = ?", sf.Author)
		seats := newQuery("st.version_id IN (" + vq.String() + ")")
		seats.args = vq.args
		seats.textIs("st.result = ?", sf.Result)
		q.and("id IN (SELECT st.match_id FROM ladder_seats st WHERE "+seats.String()+")", seats.args...)
	}
	q.since("started", f.From)
	q.until("started", f.To)
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
	q := newQuery("SELECT " + botCols + " FROM web_bots b JOIN users u ON u.id = b.user_id WHERE 1=1")
	q.textIs("b.game = ?", f.Game)
	q.textIs("instr(lower(b.name), lower(?)) > 0", f.Name)
	q.textIs("u.name = ?", f.Author)
	q.since("b.created", f.From)
	q.until("b.created", f.To)
	if f.HideHouse {
		q.and("b.house = ''")
	}
	if f.Limit <= 0 {
		f.Limit = 50
	}
	ascending := q.page("b.id", f.Before, f.After, f.Limit)
	out, err := queryAll(ctx, s, "reading bots", scanBot, q.String(), q.args...)
	return newestFirst(out, ascending), err
}
