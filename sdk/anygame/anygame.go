package anygame

import (
	"fmt"
	"slices"
	"strings"

	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"

	arenav1 "github.com/botarena/arena/proto/arena/v1"
	"github.com/botarena/arena/sdk"
	"github.com/botarena/arena/sdk/internal/seat"
)

// State is what a player sees before a move of any game.
type State struct {
	sdk.Clock
	// Game is the game's registry name.
	Game string
	// Setup is the match's fixed setup as the host sent it (the game's <Game>Setup message).
	Setup proto.Message
	// Observation is what changed since the seat's previous move (the game's
	// <Game>Observation message); a player that needs the history keeps it.
	Observation proto.Message
	// Action describes the game's action message, for a player that builds its answer from
	// the protocol itself.
	Action protoreflect.MessageDescriptor
}

// ObservationJSON is the observation as a JSON-lines bot reads it (protojson, lowerCamelCase).
func (s *State) ObservationJSON() []byte {
	b, _ := protojson.Marshal(s.Observation) // marshalling a valid message cannot fail
	return b
}

// Player plays one seat of any game.
type Player interface {
	// Act answers one move with the game's action as JSON, as a JSON-lines bot writes it
	// (for example {"move":"DYNAMITE_MOVE_ROCK"}). An error, or JSON that is not the game's
	// action, is an invalid answer.
	Act(s *State) ([]byte, error)
}

// Func adapts a plain function to Player.
type Func func(s *State) ([]byte, error)

// Act calls f.
func (f Func) Act(s *State) ([]byte, error) { return f(s) }

// The oneofs whose case names are the games (bot.proto).
var (
	setups       = (&arenav1.StartRequest{}).ProtoReflect().Descriptor().Oneofs().ByName("setup").Fields()
	observations = (&arenav1.ActRequest{}).ProtoReflect().Descriptor().Oneofs().ByName("observation").Fields()
	actions      = (&arenav1.ActResponse{}).ProtoReflect().Descriptor().Oneofs().ByName("action").Fields()
)

// Play is the entry of sdk.Bot's Games for the named game: newPlayer makes a fresh player for
// every seat the host opens. It panics when the protocol has no such game (a typo in the
// bot's own source), naming the games there are.
func Play(game string, newPlayer func() Player) sdk.Game {
	name := protoreflect.Name(game)
	setup, obs, act := setups.ByName(name), observations.ByName(name), actions.ByName(name)
	if !slices.Contains(Games, game) || setup == nil || obs == nil || act == nil {
		panic(fmt.Sprintf("anygame.Play: the protocol has no game %q (games: %s)", game, strings.Join(Games, ", ")))
	}
	g := sdk.Game{Name: game}
	if newPlayer == nil {
		return g
	}
	g.Open = func(req *arenav1.StartRequest) seat.Seat {
		s := &gameSeat{p: newPlayer(), obs: obs, act: act}
		s.state.Game = game
		s.state.Setup = req.ProtoReflect().Get(setup).Message().Interface()
		s.state.Action = act.Message()
		return s
	}
	return g
}

// PlayAll is one entry per game of the protocol (Games), each playing newPlayer's players.
func PlayAll(newPlayer func() Player) []sdk.Game {
	out := make([]sdk.Game, 0, len(Games))
	for _, g := range Games {
		out = append(out, Play(g, newPlayer))
	}
	return out
}

type gameSeat struct {
	p        Player
	state    State
	obs, act protoreflect.FieldDescriptor
}

func (s *gameSeat) Act(req *arenav1.ActRequest, resp *arenav1.ActResponse) {
	r := req.ProtoReflect()
	if !r.Has(s.obs) {
		seat.Invalid(resp, "expected a %s observation", s.state.Game)
		return
	}
	s.state.Clock = seat.ClockOf(req)
	s.state.Observation = r.Get(s.obs).Message().Interface()
	answer, err := s.p.Act(&s.state)
	if err != nil {
		seat.Invalid(resp, "%v", err)
		return
	}
	w := resp.ProtoReflect()
	action := w.Mutable(s.act).Message().Interface()
	if err := protojson.Unmarshal(answer, action); err != nil {
		w.Clear(s.act)
		seat.Invalid(resp, "Act returned %.200q, not a %s action: %v", answer, s.state.Game, err)
	}
}

func (s *gameSeat) End(req *arenav1.EndRequest) {
	if e, ok := s.p.(interface{ End(*arenav1.EndRequest) }); ok {
		e.End(req)
	}
}
