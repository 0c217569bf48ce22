package ladder

import (
	"math/rand/v2"

	auctionbots "github.com/botarena/arena/bots/auction"
	biddingbots "github.com/botarena/arena/bots/bidding"
	dynamitebots "github.com/botarena/arena/bots/dynamite"
	fingerbots "github.com/botarena/arena/bots/finger"
	realtvbots "github.com/botarena/arena/bots/realtv"
	"github.com/botarena/arena/sdk"
)

// House is a house bot: the arena's own Go code, played in-process (no submission, nothing to
// sandbox). Every game has one; it is each smoke match's opponent and a ladder entrant, so a
// lone new bot has somebody to play.
type House struct {
	Name string
	New  func(seed uint64) sdk.Bot
}

// HouseBots names each game's house bot.
var HouseBots = map[string]House{
	"dynamite": {"house-beatlast", dynamitebots.BeatLastSeeded},
	"finger":   {"house-random", fingerbots.RandomSeeded},
	"bidding":  {"house-random", biddingbots.RandomSeeded},
	"auction":  {"house-sample", auctionbots.SampleSeeded},
	"realtv":   {"house-filler", realtvbots.FillerSeeded},
}

// Params keep ladder and smoke matches short enough that a ladder turns over: the fewer games
// per match of finger and bidding, fewer realtv phases. Everything else is the game's default.
var Params = map[string]map[string]string{
	"finger":  {"games": "10"},
	"bidding": {"games": "10"},
	"realtv":  {"phases": "5"},
}

func houseBot(game string, seed uint64) sdk.Bot {
	h := HouseBots[game]
	if seed == 0 {
		seed = rand.Uint64()
	}
	return h.New(seed)
}
