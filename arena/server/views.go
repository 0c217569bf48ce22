package server

import (
	"context"
	"fmt"
	"net/http"
	"sort"
	"strconv"
	"strings"

	"github.com/botarena/arena/arena/game"
	"github.com/botarena/arena/arena/host"
	"github.com/botarena/arena/arena/store"
	"github.com/botarena/arena/bots/house"
)

// GameInfo is one game on the games page.
type GameInfo struct {
	Name       string `json:"name"`
	Summary    string `json:"summary"`
	MinPlayers int    `json:"min_players"`
	MaxPlayers int    `json:"max_players"`
	Bots       int    `json:"bots"`
	House      string `json:"house_bot"`
}

// BoardRow is one line of a ladder leaderboard.
type BoardRow struct {
	Rank     int     `json:"rank"`
	BotID    int64   `json:"bot_id"`
	Bot      string  `json:"bot"`
	Author   string  `json:"author"`
	Language string  `json:"language"`
	Version  int     `json:"version"`
	Mu       float64 `json:"mu"`
	Sigma    float64 `json:"sigma"`
	Ordinal  float64 `json:"ordinal"`
	Matches  int     `json:"matches"`
	Wins     int     `json:"wins"`
	Draws    int     `json:"draws"`
	Losses   int     `json:"losses"`
	Faults   int     `json:"faults"`
	House    bool    `json:"house"`
}

func (s *Server) games(ctx context.Context) ([]GameInfo, error) {
	var out []GameInfo
	// Every registered game, never a subset chosen elsewhere: a game without a house bot fails
	// TestEveryGame and the ladder's start (SeedHouse), so House is empty only in a broken build.
	for _, n := range game.Names() {
		h := house.Bots[n]
		spec, _ := game.Lookup(n)
		act, err := s.st.Active(ctx, n)
		if err != nil {
			return nil, err
		}
		out = append(out, GameInfo{Name: n, Summary: spec.Summary, MinPlayers: spec.MinPlayers, MaxPlayers: spec.MaxPlayers, Bots: len(act), House: h.Name})
	}
	return out, nil
}

func knownGame(g string) bool {
	_, err := game.Lookup(g)
	return err == nil
}

// leaderboard ranks a game's active versions by mu - 3 sigma.
func (s *Server) leaderboard(ctx context.Context, g string) ([]BoardRow, error) {
	vs, err := s.st.Active(ctx, g)
	if err != nil {
		return nil, err
	}
	rows := make([]BoardRow, len(vs))
	for i, v := range vs {
		rows[i] = BoardRow{BotID: v.BotID, Bot: v.Bot.Name, Author: v.Bot.Author, Language: v.Language, Version: v.N,
			Mu: v.Mu, Sigma: v.Sigma, Ordinal: v.Ordinal(), Matches: v.Matches, Wins: v.Wins, Draws: v.Draws, Losses: v.Losses,
			Faults: v.Faults, House: v.Bot.House != ""}
	}
	sort.SliceStable(rows, func(a, b int) bool {
		if rows[a].Ordinal != rows[b].Ordinal {
			return rows[a].Ordinal > rows[b].Ordinal
		}
		return rows[a].Bot < rows[b].Bot
	})
	for i := range rows {
		rows[i].Rank = i + 1
	}
	return rows, nil
}

// MatchView is a ladder match as shown: each seat's log only to its own author.
type MatchView struct {
	store.LadderMatch
	// Seating says how a match of more than two sat: a table of n players, each holding
	// its engine's seats where a player holds several (a realtv script's instances).
	Seating string      `json:"seating,omitempty"`
	Faults  []FaultView `json:"faults"`
	Mine    []SeatLog   `json:"my_logs,omitempty"`
}

// SeatLog is one seat's stderr tail, for its author.
type SeatLog struct {
	Seat int    `json:"seat"`
	Bot  string `json:"bot"`
	Log  string `json:"log"`
	// Steps is Log cut at its step headings (host.FormatSteps): what the bot wrote in each
	// step, so the page links each part to the viewer at its step.
	Steps []LogStep `json:"steps,omitempty"`
}

// LogStep is what a bot wrote in one step of a match: Step 0 is before its first move, -1
// a log kept without steps (an older match).
type LogStep struct {
	Step    int64  `json:"step"`
	Heading string `json:"-"`
	Lines   string `json:"lines"`
}

// logSteps cuts a seat's log at its step headings.
func logSteps(log string) []LogStep {
	var out []LogStep
	cur := LogStep{Step: -1}
	var lines []string
	flush := func() {
		if len(lines) > 0 || cur.Step >= 0 {
			cur.Lines = strings.Join(lines, "\n")
			out = append(out, cur)
		}
		lines = nil
	}
	for _, ln := range strings.Split(log, "\n") {
		if step, ok := stepHeading(ln); ok {
			flush()
			cur = LogStep{Step: step, Heading: ln}
			continue
		}
		lines = append(lines, ln)
	}
	flush()
	return out
}

// stepHeading reads a heading line of host.FormatSteps.
func stepHeading(ln string) (int64, bool) {
	if ln == host.StepHeading(0) {
		return 0, true
	}
	rest, ok := strings.CutPrefix(ln, host.StepPrefix+"step ")
	if !ok {
		return 0, false
	}
	digits, ok := strings.CutSuffix(rest, " ---")
	n, err := strconv.ParseInt(digits, 10, 64)
	if !ok || err != nil || n < 1 || host.StepHeading(n) != ln {
		return 0, false
	}
	return n, true
}

// FaultView is a fault as shown: its detail (which quotes the bot's stderr) only to its author.
// The same fault again and again in one seat (a bot that never started, in every game of its
// match) is shown once, from Where to LastWhere.
type FaultView struct {
	store.LadderFault
	Bot       string `json:"bot"`
	Times     int    `json:"times"`
	LastWhere string `json:"last_where,omitempty"`
}

// addFault appends f, or counts it on the last fault when it repeats it.
func addFault(fs []FaultView, f FaultView) []FaultView {
	if n := len(fs); n > 0 && fs[n-1].sameFault(f.LadderFault) {
		fs[n-1].Times++
		fs[n-1].LastWhere = f.Where
		return fs
	}
	f.Times = 1
	return append(fs, f)
}

// sameFault reports whether f repeats v's fault: one cause, shown once.
func (v FaultView) sameFault(f store.LadderFault) bool {
	return v.Seat == f.Seat && v.Kind == f.Kind && v.Penalty == f.Penalty && v.Detail == f.Detail
}

func (s *Server) matchView(ctx context.Context, r *http.Request, id int64) (MatchView, error) {
	m, err := s.st.LadderMatchByID(ctx, id)
	if err != nil {
		return MatchView{}, err
	}
	fs, err := s.st.MatchFaults(ctx, id)
	if err != nil {
		return MatchView{}, err
	}
	u, logged := current(r)
	mv := MatchView{LadderMatch: m, Seating: s.seating(m)}
	owner := map[int]bool{}
	for _, st := range m.Seats {
		if logged && st.UserID == u.ID {
			owner[st.Seat] = true
			mv.Mine = append(mv.Mine, SeatLog{Seat: st.Seat, Bot: st.Bot, Log: st.Log, Steps: logSteps(st.Log)})
		}
	}
	for _, f := range fs {
		fv := FaultView{LadderFault: f}
		if f.Seat < len(m.Seats) {
			fv.Bot = m.Seats[f.Seat].Bot
		}
		if !owner[f.Seat] {
			fv.Detail = ""
		}
		mv.Faults = addFault(mv.Faults, fv)
	}
	return mv, nil
}

// seating describes a table (empty for a pair): its engine, built for the match's players
// with the ladder's parameters, says how many seats each player holds.
func (s *Server) seating(m store.LadderMatch) string {
	n := len(m.Seats)
	spec, err := game.Lookup(m.Game)
	if err != nil || n < 2 {
		return ""
	}
	cfg := game.Config{Seed: m.Seed, Params: s.lad.GameParams(m.Game)}
	for i := range n {
		cfg.Players = append(cfg.Players, game.Player{Name: fmt.Sprint("p", i)})
	}
	seats := n
	if eng, err := spec.New(cfg); err == nil {
		seats = len(eng.Seats())
	}
	switch {
	case seats > n && seats%n == 0:
		return fmt.Sprintf("a table of %d players, each holding %d seats (%d in all)", n, seats/n, seats)
	case n > 2:
		return fmt.Sprintf("a table of %d players", n)
	}
	return ""
}

// BotView is a bot's page.
type BotView struct {
	Bot  store.WebBot `json:"bot"`
	Mine bool         `json:"mine"`
	// Pinned is the number of the version its author pinned (0: none, the newest that passed
	// is active).
	Pinned   int                 `json:"pinned_version,omitempty"`
	Versions []VersionView       `json:"versions"`
	Ratings  []store.RatingPoint `json:"ratings"`
	Matches  []store.LadderMatch `json:"recent_matches"`
	Faults   []store.LadderFault `json:"faults"`
}

// VersionView is a version as shown: its verdict and log tail only to its author.
type VersionView struct {
	store.Version
	Bot     string  `json:"bot"`
	Author  string  `json:"author"`
	Game    string  `json:"game"`
	Ordinal float64 `json:"ordinal"`
	LogTail string  `json:"log,omitempty"`
}

func versionView(v store.Version, mine bool) VersionView {
	vv := VersionView{Version: v, Bot: v.Bot.Name, Author: v.Bot.Author, Game: v.Bot.Game, Ordinal: v.Ordinal()}
	if mine {
		vv.LogTail = v.Log
	} else if v.Status == store.VersionFailed {
		vv.Verdict = "failed validation (the verdict is shown to its author)"
	}
	return vv
}

func (s *Server) botView(ctx context.Context, r *http.Request, id int64) (BotView, error) {
	b, err := s.st.WebBotByID(ctx, id)
	if err != nil {
		return BotView{}, err
	}
	u, logged := current(r)
	bv := BotView{Bot: b, Mine: logged && u.ID == b.UserID}
	vs, err := s.st.Versions(ctx, id)
	if err != nil {
		return bv, err
	}
	for _, v := range vs {
		bv.Versions = append(bv.Versions, versionView(v, bv.Mine))
		if v.ID == b.Pinned {
			bv.Pinned = v.N
		}
	}
	if bv.Ratings, err = s.st.RatingHistory(ctx, id); err != nil {
		return bv, err
	}
	if bv.Matches, err = s.st.LadderMatches(ctx, store.MatchFilter{BotID: id, Limit: 20}); err != nil {
		return bv, err
	}
	if bv.Faults, err = s.st.LadderFaults(ctx, id, 50); err != nil {
		return bv, err
	}
	if !bv.Mine {
		for i := range bv.Faults {
			bv.Faults[i].Detail = ""
		}
	}
	return bv, nil
}

// filter reads a match list's filters from the query.
func filter(r *http.Request, g string) store.MatchFilter {
	q := r.URL.Query()
	f := store.MatchFilter{Game: g, Kind: q.Get("kind"), Status: q.Get("status")}
	f.BotID, _ = strconv.ParseInt(q.Get("bot"), 10, 64)
	f.Before, _ = strconv.ParseInt(q.Get("before"), 10, 64)
	f.Limit, _ = strconv.Atoi(q.Get("limit"))
	if f.Limit <= 0 || f.Limit > 200 {
		f.Limit = 50
	}
	return f
}

// seatNames is "a vs b" for a match list.
func seatNames(m store.LadderMatch) string {
	var n []string
	for _, s := range m.Seats {
		n = append(n, s.Bot)
	}
	return strings.Join(n, " vs ")
}

func ratingText(mu, sigma float64) string { return fmt.Sprintf("%.1f ± %.1f", mu, sigma) }
