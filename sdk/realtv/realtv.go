package realtv

import (
	"sort"

	arenav1 "github.com/botarena/arena/proto/arena/v1"
	"github.com/botarena/arena/sdk"
	"github.com/botarena/arena/sdk/internal/seat"
)

// Name is the game's registry name.
const Name = "realtv"

// Setup describes one Real TV instance. A script's bot process hosts its 11 instances
// (strengths 0..10) at once; the factory given to Play is called once for each, and may share
// state between them (the seed's bots kept class-level state).
type Setup struct {
	// ID is the instance's id (10 upper-case letters and digits); Name is the script's name.
	ID       string
	Name     string
	Strength int
	// Instance is this instance's index among its script's instances (0..10).
	Instance         int
	Phases           int
	PlayersPerIsland int
}

// Votes is one day's votes of a player: its first vote and its tie vote (ids as given,
// valid or not; empty for none).
type Votes struct {
	FirstVote, TieVote string
}

// PlayerContext is the seed's PlayerContext.
type PlayerContext struct {
	ID   string
	Name string // class name: the script's name, or "BotPareto" for a filler bot
	// Strength 0..10.
	Strength int
	// Score as of the start of the day.
	Score float64
	// PreviousMoves are the player's votes on this island, one entry per day, oldest first.
	PreviousMoves []Votes
}

// GameContext is the seed's GameContext.
type GameContext struct {
	// TotalBots is the number of filler bots in the whole arena this phase; TotalHumans the
	// number of script instances.
	TotalBots, TotalHumans int
	// PhaseIndex is the number of islands this instance visited before this one.
	PhaseIndex int
}

// Context is the seed's Context: what an instance sees when it votes.
type Context struct {
	sdk.Clock
	IslandIndex int
	// Day on this island, from 1.
	Day  int
	Game GameContext
	// ActivePlayers are the players on the island ({id: player}): at the start of the day for
	// the elimination vote; without today's traitors for a tie vote.
	ActivePlayers map[string]*PlayerContext
	// Betrayers share 100 points if the island fails a trial.
	Betrayers         map[string]*PlayerContext
	EliminatedPlayers map[string]*PlayerContext
	// CurrentTies is set only for a tie vote.
	CurrentTies map[string]*PlayerContext
	// Me is my own entry; MyScore my score now (contexts show the start of the day).
	Me      *PlayerContext
	MyScore float64
}

// Sorted lists players by id, so that a bot's choice among equals does not depend on Go's
// random map order.
func Sorted(players map[string]*PlayerContext) []*PlayerContext {
	out := make([]*PlayerContext, 0, len(players))
	for _, p := range players {
		out = append(out, p)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out
}

// Weakest is the player of least strength (the smallest id among equals); nil if none.
func Weakest(players map[string]*PlayerContext) *PlayerContext {
	var best *PlayerContext
	for _, p := range players {
		if best == nil || p.Strength < best.Strength || p.Strength == best.Strength && p.ID < best.ID {
			best = p
		}
	}
	return best
}

// Strongest is the player of greatest strength (the smallest id among equals); nil if none.
func Strongest(players map[string]*PlayerContext) *PlayerContext {
	var best *PlayerContext
	for _, p := range players {
		if best == nil || p.Strength > best.Strength || p.Strength == best.Strength && p.ID < best.ID {
			best = p
		}
	}
	return best
}

// IDOf returns p's id, or "" for nil (no vote).
func IDOf(p *PlayerContext) string {
	if p == nil {
		return ""
	}
	return p.ID
}

// Player is one Real TV instance. Both methods return the id of the player voted for.
type Player interface {
	// VoteForElimination: a vote for myself, for a player who is not active, or "" is
	// betrayal: I leave the island at once and share 100 points with its traitors if it fails
	// a trial.
	VoteForElimination(ctx *Context) string
	// VoteForTie: a vote among ctx.CurrentTies (myself included, if I am tied); any other
	// vote is ignored.
	VoteForTie(ctx *Context) string
}

// Ender is optionally implemented by a Player that wants its final score.
type Ender interface {
	End(score float64)
}

// Funcs adapts two plain functions to Player.
type Funcs struct {
	Elimination func(ctx *Context) string
	Tie         func(ctx *Context) string
}

// VoteForElimination calls f.Elimination.
func (f Funcs) VoteForElimination(ctx *Context) string { return f.Elimination(ctx) }

// VoteForTie calls f.Tie.
func (f Funcs) VoteForTie(ctx *Context) string { return f.Tie(ctx) }

type gameSeat struct {
	p     Player
	setup Setup
	out   arenav1.RealtvAction
	wrap  arenav1.ActResponse_Realtv
}

// Play is the realtv entry of sdk.Bot's Games: newPlayer makes a fresh player for every seat
// the host opens. A nil newPlayer plays nothing.
func Play(newPlayer func(setup Setup) Player) sdk.Game {
	g := sdk.Game{Name: Name, HouseBot: "bots/realtv/cmd/likesthemstrong"}
	if newPlayer == nil {
		return g
	}
	g.Open = func(req *arenav1.StartRequest) seat.Seat {
		su := req.GetRealtv()
		s := &gameSeat{setup: Setup{ID: su.GetId(), Name: su.GetName(), Strength: int(su.GetStrength()),
			Instance: int(su.GetInstance()), Phases: int(su.GetPhases()), PlayersPerIsland: int(su.GetPlayersPerIsland())}}
		s.p = newPlayer(s.setup)
		s.wrap.Realtv = &s.out
		return s
	}
	return g
}

// ContextOf converts a wire observation to the context a player sees.
func ContextOf(o *arenav1.RealtvObservation) *Context {
	g := o.GetGame()
	ctx := &Context{IslandIndex: int(o.GetIslandIndex()), Day: int(o.GetDay()), MyScore: o.GetOwnScore(),
		Game: GameContext{TotalBots: int(g.GetTotalBots()), TotalHumans: int(g.GetTotalHumans()), PhaseIndex: int(g.GetPhaseIndex())}}
	seen := map[string]*PlayerContext{}
	conv := func(m map[string]*arenav1.RealtvPlayer) map[string]*PlayerContext {
		out := make(map[string]*PlayerContext, len(m))
		for id, p := range m {
			pc := seen[id]
			if pc == nil {
				pc = &PlayerContext{ID: p.GetId(), Name: p.GetName(), Strength: int(p.GetStrength()), Score: p.GetScore()}
				if pc.ID == "" {
					pc.ID = id
				}
				for _, v := range p.GetPreviousMoves() {
					pc.PreviousMoves = append(pc.PreviousMoves, Votes{FirstVote: v.GetFirstVote(), TieVote: v.GetTieVote()})
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

func (s *gameSeat) Act(req *arenav1.ActRequest, resp *arenav1.ActResponse) {
	o := req.GetRealtv()
	if o == nil {
		seat.Invalid(resp, "expected a realtv observation")
		return
	}
	ctx := ContextOf(o)
	ctx.Clock = seat.ClockOf(req)
	if ctx.Me == nil {
		ctx.Me = &PlayerContext{ID: s.setup.ID, Name: s.setup.Name, Strength: s.setup.Strength, Score: ctx.MyScore}
	}
	if o.GetDecision() == arenav1.RealtvDecision_REALTV_DECISION_TIE {
		s.out.VoteId = s.p.VoteForTie(ctx)
	} else {
		s.out.VoteId = s.p.VoteForElimination(ctx)
	}
	resp.Action = &s.wrap
}

func (s *gameSeat) End(req *arenav1.EndRequest) {
	if e, ok := s.p.(Ender); ok {
		e.End(req.GetScore())
	}
}
