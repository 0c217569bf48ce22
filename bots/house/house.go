package house

import (
	"fmt"
	"math/rand/v2"
	"sort"

	auctionbots "github.com/botarena/arena/bots/auction"
	biddingbots "github.com/botarena/arena/bots/bidding"
	dynamitebots "github.com/botarena/arena/bots/dynamite"
	fingerbots "github.com/botarena/arena/bots/finger"
	realtvbots "github.com/botarena/arena/bots/realtv"
	"github.com/botarena/arena/sdk"
)

// Bot is a game's house bot.
type Bot struct {
	Name string
	New  func(seed uint64) sdk.Bot
}

// Bots names each game's house bot.
var Bots = map[string]Bot{
	"dynamite": {"house-beatlast", dynamitebots.BeatLastSeeded},
	"finger":   {"house-random", fingerbots.RandomSeeded},
	"bidding":  {"house-random", biddingbots.RandomSeeded},
	"auction":  {"house-sample", auctionbots.SampleSeeded},
	"realtv":   {"house-filler", realtvbots.FillerSeeded},
}

// Games lists the games that have a house bot, sorted.
func Games() []string {
	var gs []string
	for g := range Bots {
		gs = append(gs, g)
	}
	sort.Strings(gs)
	return gs
}

// New makes game's house bot named name, seeded (0: a random seed); an error when the game
// has none or it has another name.
func New(game, name string, seed uint64) (sdk.Bot, error) {
	h, ok := Bots[game]
	if !ok || h.Name != name {
		return sdk.Bot{}, fmt.Errorf("no house bot %q for game %q", name, game)
	}
	if seed == 0 {
		seed = rand.Uint64()
	}
	return h.New(seed), nil
}
