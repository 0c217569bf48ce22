// Command anygame plays every game with no per-game code (sdk/anygame): each move it answers
// the game's action with every enum field at its first value after UNSPECIFIED (dynamite's
// rock) and every other field at its default.
package main

import (
	"encoding/json"

	"google.golang.org/protobuf/reflect/protoreflect"

	"github.com/botarena/arena/sdk"
	"github.com/botarena/arena/sdk/anygame"
)

func first(s *anygame.State) ([]byte, error) {
	out := map[string]string{}
	fields := s.Action.Fields()
	for i := 0; i < fields.Len(); i++ {
		if f := fields.Get(i); f.Kind() == protoreflect.EnumKind && !f.IsList() {
			out[f.JSONName()] = string(f.Enum().Values().Get(1).Name())
		}
	}
	return json.Marshal(out)
}

func main() {
	sdk.Serve(sdk.Bot{Name: "anygo", Games: anygame.PlayAll(func() anygame.Player { return anygame.Func(first) })})
}
