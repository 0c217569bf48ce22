package game

import (
	"fmt"
	"strings"
)

// HouseBot is one of a game's house bots: the arena's own Go bot in the folder
// bots/<game>/cmd/<Name>, which any command reaches as house:<game>/<Name> and bots/house
// plays in-process. The game's Spec names it by this string, never by its Go code, so that
// arena/game imports no bot; TestEveryGame checks the folder and the in-process bot exist.
type HouseBot struct {
	Name     string
	Strength Strength
	// Ladder marks the game's one ladder house bot: the ladder seeds it as an entrant (as
	// "house-<Name>") and every smoke match plays a new submission against it.
	Ladder bool
}

// Strength says what beating a house bot proves.
type Strength int

// Strengths, weakest first.
const (
	// Fixed answers the same move or cycle whatever happens: a first opponent.
	Fixed Strength = iota
	// Random answers legal moves at random.
	Random
	// Strong is the game's baseline: it plays to win, and a bot that beats it plays well.
	Strong
)

var strengthNames = [...]string{"fixed", "random", "strong"}

func (s Strength) String() string {
	if s < 0 || int(s) >= len(strengthNames) {
		return fmt.Sprintf("strength(%d)", int(s))
	}
	return strengthNames[s]
}

// LadderHouse is the game's ladder house bot (the HouseBot marked Ladder).
func (s Spec) LadderHouse() (HouseBot, error) {
	var found []HouseBot
	for _, h := range s.House {
		if h.Ladder {
			found = append(found, h)
		}
	}
	if len(found) != 1 {
		return HouseBot{}, fmt.Errorf("game %s marks %d of its house bots (%s) Ladder, want exactly one: set Ladder: true on one entry of Spec.House",
			s.Name, len(found), s.houseNames())
	}
	return found[0], nil
}

// HouseNamed finds one of the game's house bots by its folder name.
func (s Spec) HouseNamed(name string) (HouseBot, error) {
	for _, h := range s.House {
		if h.Name == name {
			return h, nil
		}
	}
	return HouseBot{}, fmt.Errorf("game %s has no house bot %q (it has: %s)", s.Name, name, s.houseNames())
}

func (s Spec) houseNames() string {
	if len(s.House) == 0 {
		return "none"
	}
	names := make([]string, len(s.House))
	for i, h := range s.House {
		names[i] = h.Name
	}
	return strings.Join(names, ", ")
}

// KitPlan is how the kit tests (TestEveryKitPlaysEveryGame in arena/e2e) play the game: every
// kit's example bot against the house bot Opponent (built from its folder and sandboxed like
// a submission), with Params that keep the match short.
type KitPlan struct {
	Opponent string
	Params   map[string]string
}

// ShortMatch is a short match of house bots, played in-process through the real runner, that
// the tests of what shows a match (the replay viewer, re-runs) start from.
type ShortMatch struct {
	Seed   uint64
	Params map[string]string
	// Players are house bot names, one a player (a name may repeat); the player at index i
	// is seeded with i+1, so the match is the same every time.
	Players []string
	// CrashFrom makes the last player crash from that step on (0: never), so that a fault
	// shows too.
	CrashFrom int64
}
