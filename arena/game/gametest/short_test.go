package gametest_test

import (
	"strings"
	"testing"

	"github.com/botarena/arena/arena/game"
	"github.com/botarena/arena/arena/game/gametest"
	"github.com/botarena/arena/arena/games/auction"
	"github.com/botarena/arena/sdk"
)

// A short match's players are its house bots, a repeated name labelled apart; a name that is
// none of the game's house bots is refused, naming the fix.
func TestShortPlayers(t *testing.T) {
	t.Parallel()
	var asked []string
	seeded := func(g, name string, seed uint64) (sdk.Bot, error) {
		asked = append(asked, name)
		return sdk.Bot{Name: name}, nil
	}
	spec := auction.Spec
	spec.Short = game.ShortMatch{Players: []string{"collector", "sample", "sample"}, CrashFrom: 5}
	ps, err := gametest.ShortPlayers(spec, seeded)
	if err != nil {
		t.Fatal(err)
	}
	var labels []string
	for _, p := range ps {
		labels = append(labels, p.Label())
	}
	if got := strings.Join(labels, " "); got != "collector sample sample-2" {
		t.Errorf("labels %q", got)
	}
	spec.Short.Players = []string{"collector", "nobody"}
	if _, err := gametest.ShortPlayers(spec, seeded); err == nil || !strings.Contains(err.Error(), `Spec.Short.Players: game auction has no house bot "nobody"`) {
		t.Errorf("an unknown house bot: %v", err)
	}
}
