package gametest

import (
	"fmt"

	"github.com/botarena/arena/arena/game"
	"github.com/botarena/arena/arena/match"
	"github.com/botarena/arena/arena/players"
	"github.com/botarena/arena/sdk"
)

// ShortPlayers returns fresh players for spec.Short: each house bot in-process, built by
// seeded (bots/house.Seeded, which this package cannot import: the engines' own tests import
// it, and bots/house imports every engine), the one at index i seeded with i+1 and labelled by
// its name (a repeated name gets "-2", "-3", ...), the last one crashing from Short.CrashFrom
// when it is set.
func ShortPlayers(spec game.Spec, seeded func(game, name string, seed uint64) (sdk.Bot, error)) ([]match.Player, error) {
	s := spec.Short
	if len(s.Players) < spec.MinPlayers || (spec.MaxPlayers > 0 && len(s.Players) > spec.MaxPlayers) {
		return nil, fmt.Errorf("%s: Spec.Short has %d players, outside the game's %d..%d: list house bot names in Spec.Short.Players",
			spec.Name, len(s.Players), spec.MinPlayers, spec.MaxPlayers)
	}
	seen := map[string]int{}
	var ps []match.Player
	for i, name := range s.Players {
		if _, err := spec.HouseNamed(name); err != nil {
			return nil, fmt.Errorf("Spec.Short.Players: %w", err)
		}
		b, err := seeded(spec.Name, name, uint64(i)+1)
		if err != nil {
			return nil, fmt.Errorf("%s: Spec.Short: %w", spec.Name, err)
		}
		seen[name]++
		label := name
		if n := seen[name]; n > 1 {
			label = fmt.Sprintf("%s-%d", name, n)
		}
		var p match.Player = players.NewInProcess(label, b)
		if s.CrashFrom > 0 && i == len(s.Players)-1 {
			p = CrashFrom(p, s.CrashFrom)
		}
		ps = append(ps, p)
	}
	return ps, nil
}

// Fresh is ShortPlayers as a maker of fresh players for each match, for a test's table of
// short matches; it panics on a Spec.Short that TestEveryGame (arena/games/all) refuses.
func Fresh(spec game.Spec, seeded func(game, name string, seed uint64) (sdk.Bot, error)) func() []match.Player {
	return func() []match.Player {
		ps, err := ShortPlayers(spec, seeded)
		if err != nil {
			panic(err)
		}
		return ps
	}
}
