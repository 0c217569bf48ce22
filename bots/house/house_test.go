package house_test

import (
	"strings"
	"testing"

	"github.com/botarena/arena/arena/game"
	"github.com/botarena/arena/bots/house"
)

// Each registered game's ladder house bot is the one its Spec.House marks, under house-<name>;
// any of its house bots plays in-process by its folder name; anything else is refused by name.
func TestHouseBotsFollowTheSpecs(t *testing.T) {
	t.Parallel()
	for _, g := range game.Names() {
		spec, _ := game.Lookup(g)
		h, err := spec.LadderHouse()
		if err != nil {
			t.Fatal(err)
		}
		if got := house.Bots[g].Name; got != house.Prefix+h.Name {
			t.Errorf("%s: ladder house bot %q, want %q", g, got, house.Prefix+h.Name)
		}
		if b, err := house.New(g, house.Prefix+h.Name, 0); err != nil || len(b.Games) == 0 {
			t.Errorf("%s: New: %v", g, err)
		}
		for _, hb := range spec.House {
			if _, err := house.Seeded(g, hb.Name, 1); err != nil {
				t.Errorf("%s: %v", g, err)
			}
		}
	}
	if _, err := house.New("dynamite", "house-paper", 1); err == nil {
		t.Error("New made a house bot the ladder does not play")
	}
	if _, err := house.Seeded("dynamite", "rock", 1); err == nil || !strings.Contains(err.Error(), `no in-process house bot "rock" for game "dynamite"`) {
		t.Errorf("an unknown house bot: %v", err)
	}
}
