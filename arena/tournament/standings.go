package tournament

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"time"

	"github.com/botarena/arena/arena/game"
	"github.com/botarena/arena/arena/match"
	"github.com/botarena/arena/arena/rating"
	"github.com/botarena/arena/arena/store"
)

// Row is one bot's line in the standings.
type Row struct {
	Rank     int    `json:"rank"`
	Bot      string `json:"bot"`
	Author   string `json:"author,omitempty"`
	Language string `json:"language,omitempty"`
	// Hash is the content hash of the submission that ran (empty in older stores).
	Hash    string  `json:"content_hash,omitempty"`
	Matches int     `json:"matches"`
	Wins    int     `json:"wins"`
	Draws   int     `json:"draws"`
	Losses  int     `json:"losses"`
	Score   float64 `json:"score"`
	// Rating and RatingErr: Elo-scale Bradley-Terry (two-player) or OpenSkill mu and sigma.
	Rating    float64 `json:"rating"`
	RatingErr float64 `json:"rating_err"`
	// Ordinal is mu - 3 sigma for OpenSkill ratings.
	Ordinal float64 `json:"ordinal,omitempty"`
	// Unrated is a bot with no match recorded (all of them failed, or none played yet): its
	// rating is the prior, not a result, and it ranks below every bot that played.
	Unrated      bool    `json:"unrated,omitempty"`
	Faults       int     `json:"faults"`
	MeanMoveUs   float64 `json:"mean_move_us"`
	MaxMoveUs    float64 `json:"max_move_us"`
	botIdx       int
	sortKey, tie float64
}

// MatchRow is one match in the results export.
type MatchRow struct {
	Idx      int       `json:"idx"`
	MatchID  string    `json:"match_id"`
	Rep      int       `json:"rep"`
	Seed     uint64    `json:"seed,string"`
	Status   string    `json:"status"`
	Bots     []string  `json:"bots"`
	Results  []string  `json:"results,omitempty"`
	Scores   []float64 `json:"scores,omitempty"`
	Ranks    []int     `json:"ranks,omitempty"`
	Summary  string    `json:"summary,omitempty"`
	Faults   int       `json:"faults"`
	Steps    int       `json:"steps"`
	Duration float64   `json:"duration_s"`
	Note     string    `json:"note,omitempty"`
	Error    string    `json:"error,omitempty"`
	// Clock is the move clock a played match had ("cpu" or "wall").
	Clock string `json:"clock,omitempty"`
}

// Standings of a tournament.
type Standings struct {
	Tournament string     `json:"tournament"`
	ID         int64      `json:"id"`
	Game       string     `json:"game"`
	Status     string     `json:"status"`
	Method     string     `json:"rating_method"`
	Seed       uint64     `json:"seed,string"`
	Total      int        `json:"matches_total"`
	Done       int        `json:"matches_done"`
	Notes      []string   `json:"notes,omitempty"`
	Rows       []Row      `json:"standings"`
	Matches    []MatchRow `json:"matches"`
}

// BootstrapSamples for the Bradley-Terry error.
const BootstrapSamples = 200

// Compute builds the standings from the store.
func Compute(ctx context.Context, st *store.Store, id int64) (*Standings, error) {
	t, err := st.FindTournament(ctx, fmt.Sprint(id))
	if err != nil {
		return nil, err
	}
	cfg, err := LoadConfig(t)
	if err != nil {
		return nil, err
	}
	spec, err := game.Lookup(t.Game)
	if err != nil {
		return nil, err
	}
	ms, err := st.Matches(ctx, id)
	if err != nil {
		return nil, err
	}
	timings, err := st.Timings(ctx, id)
	if err != nil {
		return nil, err
	}
	faults, err := st.Faults(ctx, id, -1)
	if err != nil {
		return nil, err
	}
	stored, err := st.Bots(ctx, id)
	if err != nil {
		return nil, err
	}
	n := len(cfg.Entries)
	s := &Standings{Tournament: t.Name, ID: t.ID, Game: t.Game, Status: t.Status, Seed: cfg.Seed, Total: len(ms)}
	rows := make([]Row, n)
	for i, e := range cfg.Entries {
		rows[i] = Row{Bot: e.Name, Author: e.Author, Language: e.Language, botIdx: i}
		if i < len(stored) && stored[i].Idx == i {
			rows[i].Hash = stored[i].Hash
		}
		if tm, ok := timings[i]; ok && tm.Moves > 0 {
			rows[i].MeanMoveUs = float64(tm.Total.Microseconds()) / float64(tm.Moves)
			rows[i].MaxMoveUs = float64(tm.Max.Microseconds())
		}
	}
	faultsPerMatch := map[int]int{}
	for _, f := range faults {
		if f.BotIdx >= 0 && f.BotIdx < n {
			rows[f.BotIdx].Faults++
		}
		faultsPerMatch[f.MatchIdx]++
	}
	two := TwoPlayer(spec)
	var pairs []rating.Pair
	skills := rating.NewSkills(n)
	for _, m := range ms {
		mr := MatchRow{Idx: m.Idx, MatchID: m.MatchID, Rep: m.Rep, Seed: m.Seed, Status: m.Status, Note: m.Note, Error: m.Error,
			Faults: faultsPerMatch[m.Idx], Duration: m.Duration.Seconds()}
		for _, b := range m.Players {
			mr.Bots = append(mr.Bots, cfg.Entries[b].Name)
		}
		if m.Note != "" {
			s.Notes = append(s.Notes, m.MatchID+": "+m.Note)
		}
		if m.Status == store.StatusDone {
			s.Done++
			var res match.Result
			if err := json.Unmarshal(m.Result, &res); err != nil {
				return nil, fmt.Errorf("match %s: stored result: %w", m.MatchID, err)
			}
			po := res.Outcome.Players
			if len(po) != len(m.Players) {
				return nil, fmt.Errorf("match %s: %d outcomes for %d players", m.MatchID, len(po), len(m.Players))
			}
			mr.Summary, mr.Steps = res.Outcome.Summary, res.Steps
			// Recorded with the match; a store older than schema 7 has only the tournament's.
			if mr.Clock = m.Clock; mr.Clock == "" {
				mr.Clock = string(cfg.ClockMode())
			}
			ranks := make([]int, len(po))
			for k, p := range po {
				r := &rows[m.Players[k]]
				r.Matches++
				r.Score += p.Score
				switch p.Result {
				case game.ResultWin:
					r.Wins++
				case game.ResultDraw:
					r.Draws++
				case game.ResultLoss:
					r.Losses++
				}
				ranks[k] = p.Rank
				mr.Results = append(mr.Results, p.Result.String())
				mr.Scores = append(mr.Scores, p.Score)
				mr.Ranks = append(mr.Ranks, p.Rank)
			}
			if two {
				a := 0.5
				if ranks[0] < ranks[1] {
					a = 1
				} else if ranks[0] > ranks[1] {
					a = 0
				}
				pairs = append(pairs, rating.Pair{A: m.Players[0], B: m.Players[1], ScoreA: a})
			} else {
				rating.PlackettLuce(skills, m.Players, ranks)
			}
		}
		s.Matches = append(s.Matches, mr)
	}
	if two {
		s.Method = fmt.Sprintf("Bradley-Terry (Elo scale, ± bootstrap s.e. over %d resamples)", BootstrapSamples)
		rs := rating.BradleyTerry(n, pairs, BootstrapSamples, cfg.Seed)
		for i := range rows {
			rows[i].Rating, rows[i].RatingErr = rs[i].Value, rs[i].Err
			rows[i].sortKey, rows[i].tie = rs[i].Value, rows[i].Score
		}
	} else {
		s.Method = "OpenSkill Plackett-Luce (mu ± sigma; ordinal = mu - 3 sigma)"
		for i := range rows {
			rows[i].Rating, rows[i].RatingErr, rows[i].Ordinal = skills[i].Mu, skills[i].Sigma, skills[i].Ordinal()
			rows[i].sortKey, rows[i].tie = skills[i].Ordinal(), rows[i].Score
		}
		if spec.Ranking == game.RankByTotal {
			// A realtv contest ranks scripts by the total score of their instances.
			s.Method += "; ranked by total score"
			for i := range rows {
				rows[i].sortKey, rows[i].tie = rows[i].Score, skills[i].Ordinal()
			}
		}
	}
	for i := range rows {
		rows[i].Unrated = rows[i].Matches == 0
	}
	sort.SliceStable(rows, func(a, b int) bool {
		if rows[a].Unrated != rows[b].Unrated {
			return rows[b].Unrated
		}
		if rows[a].sortKey != rows[b].sortKey {
			return rows[a].sortKey > rows[b].sortKey
		}
		if rows[a].tie != rows[b].tie {
			return rows[a].tie > rows[b].tie
		}
		return rows[a].Bot < rows[b].Bot
	})
	for i := range rows {
		rows[i].Rank = i + 1
		if i > 0 && rows[i].sortKey == rows[i-1].sortKey && rows[i].tie == rows[i-1].tie && rows[i].Unrated == rows[i-1].Unrated {
			rows[i].Rank = rows[i-1].Rank
		}
	}
	s.Rows = rows
	return s, nil
}

// durationUs converts for display.
func durationUs(us float64) time.Duration { return time.Duration(us * float64(time.Microsecond)) }
