package sdk

import (
	"sort"

	arenav1 "github.com/botarena/arena/proto/arena/v1"
)

// RealtvSetup describes one Real TV instance. A script's bot process hosts its 11 instances
// (strengths 0..10) at once; Bot.Realtv is called once for each, and may share state between
// them (the seed's bots kept class-level state).
type RealtvSetup struct {
	// ID is the instance's id (10 upper-case letters and digits); Name is the script's name.
	ID       string
	Name     string
	Strength int
	// Instance is this instance's index among its script's instances (0..10).
	Instance         int
	Phases           int
	PlayersPerIsland int
}

// RealtvVotes is one day's votes of a player: its first vote and its tie vote (ids as given,
// valid or not; empty for none).
type RealtvVotes struct {
	FirstVote, TieVote string
}

// RealtvPlayerContext is the seed's PlayerContext.
type RealtvPlayerContext struct {
	ID   string
	Name string // class name: the script's name, or "BotPareto" for a filler bot
	// Strength 0..10.
	Strength int
	// Score as of the start of the day.
	Score float64
	// PreviousMoves are the player's votes on this island, one entry per day, oldest first.
	PreviousMoves []RealtvVotes
}

// RealtvGameContext is the seed's GameContext.
type RealtvGameContext struct {
	// TotalBots is the number of filler bots in the whole arena this phase; TotalHumans the
	// number of script instances.
	TotalBots, TotalHumans int
	// PhaseIndex is the number of islands this instance visited before this one.
	PhaseIndex int
}

// RealtvContext is the seed's Context: what an instance sees when it votes.
type RealtvContext struct {
	Clock
	IslandIndex int
	// Day on this island, from 1.
	Day  int
	Game RealtvGameContext
	// ActivePlayers are the players on the island ({id: player}): at the start of the day for
	// the elimination vote; without today's traitors for a tie vote.
	ActivePlayers map[string]*RealtvPlayerContext
	// Betrayers share 100 points if the island fails a trial.
	Betrayers         map[string]*RealtvPlayerContext
	EliminatedPlayers map[string]*RealtvPlayerContext
	// CurrentTies is set only for a tie vote.
	CurrentTies map[string]*RealtvPlayerContext
	// Me is my own entry; MyScore my score now (contexts show the start of the day).
	Me      *RealtvPlayerContext
	MyScore float64
}

// Sorted lists players by id, so that a bot's choice among equals does not depend on Go's
// random map order.
func Sorted(players map[string]*RealtvPlayerContext) []*RealtvPlayerContext {
	out := make([]*RealtvPlayerContext, 0, len(players))
	for _, p := range players {
		out = append(out, p)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out
}

// Weakest is the player of least strength (the smallest id among equals); nil if none.
func Weakest(players map[string]*RealtvPlayerContext) *RealtvPlayerContext {
	var best *RealtvPlayerContext
	for _, p := range players {
		if best == nil || p.Strength < best.Strength || p.Strength == best.Strength && p.ID < best.ID {
			best = p
		}
	}
	return best
}

// Strongest is the player of greatest strength (the smallest id among equals); nil if none.
func Strongest(players map[string]*RealtvPlayerContext) *RealtvPlayerContext {
	var best *RealtvPlayerContext
	for _, p := range players {
		if best == nil || p.Strength > best.Strength || p.Strength == best.Strength && p.ID < best.ID {
			best = p
		}
	}
	return best
}

// IDOf returns p's id, or "" for nil (no vote).
func IDOf(p *RealtvPlayerContext) string {
	if p == nil {
		return ""
	}
	return p.ID
}

// RealtvPlayer is one Real TV instance. Both methods return the id of the player voted for.
type RealtvPlayer interface {
	// VoteForElimination: a vote for myself, for a player who is not active, or "" is
	// betrayal: I leave the island at once and share 100 points with its traitors if it fails
	// a trial.
	VoteForElimination(ctx *RealtvContext) string
	// VoteForTie: a vote among ctx.CurrentTies (myself included, if I am tied); any other
	// vote is ignored.
	VoteForTie(ctx *RealtvContext) string
}

// RealtvEnder is optionally implemented by a RealtvPlayer that wants its final score.
type RealtvEnder interface {
	End(score float64)
}

// RealtvFuncs adapts two plain functions to RealtvPlayer.
type RealtvFuncs struct {
	Elimination func(ctx *RealtvContext) string
	Tie         func(ctx *RealtvContext) string
}

// VoteForElimination calls f.Elimination.
func (f RealtvFuncs) VoteForElimination(ctx *RealtvContext) string { return f.Elimination(ctx) }

// VoteForTie calls f.Tie.
func (f RealtvFuncs) VoteForTie(ctx *RealtvContext) string { return f.Tie(ctx) }

type realtvSeat struct {
	p     RealtvPlayer
	setup RealtvSetup
	out   arenav1.RealtvAction
	wrap  arenav1.ActResponse_Realtv
}

func init() {
	openers["realtv"] = func(b *Bot, req *arenav1.StartRequest) (seat, bool) {
		if b.Realtv == nil {
			return nil, false
		}
		if req == nil {
			return nil, true
		}
		su := req.GetRealtv()
		s := &realtvSeat{setup: RealtvSetup{ID: su.GetId(), Name: su.GetName(), Strength: int(su.GetStrength()),
			Instance: int(su.GetInstance()), Phases: int(su.GetPhases()), PlayersPerIsland: int(su.GetPlayersPerIsland())}}
		s.p = b.Realtv(s.setup)
		s.wrap.Realtv = &s.out
		return s, true
	}
}

// RealtvContextOf converts a wire observation to the context a player sees.
func RealtvContextOf(o *arenav1.RealtvObservation) *RealtvContext {
	g := o.GetGame()
	ctx := &RealtvContext{IslandIndex: int(o.GetIslandIndex()), Day: int(o.GetDay()), MyScore: o.GetOwnScore(),
		Game: RealtvGameContext{TotalBots: int(g.GetTotalBots()), TotalHumans: int(g.GetTotalHumans()), PhaseIndex: int(g.GetPhaseIndex())}}
	seen := map[string]*RealtvPlayerContext{}
	conv := func(m map[string]*arenav1.RealtvPlayer) map[string]*RealtvPlayerContext {
		out := make(map[string]*RealtvPlayerContext, len(m))
		for id, p := range m {
			pc := seen[id]
			if pc == nil {
				pc = &RealtvPlayerContext{ID: p.GetId(), Name: p.GetName(), Strength: int(p.GetStrength()), Score: p.GetScore()}
				if pc.ID == "" {
					pc.ID = id
				}
				for _, v := range p.GetPreviousMoves() {
					pc.PreviousMoves = append(pc.PreviousMoves, RealtvVotes{FirstVote: v.GetFirstVote(), TieVote: v.GetTieVote()})
				}
				seen[id] = pc
			}
			out[id] = pc
		}
		return out
	}
	ctx.ActivePlayers = conv(o.GetActivePlayers())
	ctx.Betrayers = conv(o.GetBetrayers())
	ctx.EliminatedPlayers = conv(o.GetEliminatedPlayers())
	ctx.CurrentTies = conv(o.GetCurrentTies())
	ctx.Me = seen[o.GetOwnId()]
	return ctx
}

func (s *realtvSeat) act(req *arenav1.ActRequest, resp *arenav1.ActResponse) {
	o := req.GetRealtv()
	if o == nil {
		invalid(resp, "expected a realtv observation")
		return
	}
	ctx := RealtvContextOf(o)
	ctx.Clock = clockOf(req)
	if ctx.Me == nil {
		ctx.Me = &RealtvPlayerContext{ID: s.setup.ID, Name: s.setup.Name, Strength: s.setup.Strength, Score: ctx.MyScore}
	}
	if o.GetDecision() == arenav1.RealtvDecision_REALTV_DECISION_TIE {
		s.out.VoteId = s.p.VoteForTie(ctx)
	} else {
		s.out.VoteId = s.p.VoteForElimination(ctx)
	}
	resp.Action = &s.wrap
}

func (s *realtvSeat) end(req *arenav1.EndRequest) {
	if e, ok := s.p.(RealtvEnder); ok {
		e.End(req.GetScore())
	}
}
