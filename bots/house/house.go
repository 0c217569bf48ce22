package house

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"sort"

	"github.com/botarena/arena/arena/game"
	_ "github.com/botarena/arena/arena/games/all" // the registry: every game's Spec.House
	auctionbots "github.com/botarena/arena/bots/auction"
	biddingbots "github.com/botarena/arena/bots/bidding"
	dynamitebots "github.com/botarena/arena/bots/dynamite"
	fingerbots "github.com/botarena/arena/bots/finger"
	realtvbots "github.com/botarena/arena/bots/realtv"
	"github.com/botarena/arena/sdk"
)

// Prefix starts a ladder house bot's name: the ladder enters bots/<game>/cmd/<name> as
// house-<name>.
const Prefix = "house-"

// Bot is a game's ladder house bot.
type Bot struct {
	Name string
	New  func(seed uint64) sdk.Bot
}

// inProcess is the Go code of every house bot, by game and folder name (bots/<game>/cmd/<name>):
// the one table that must import the bots, which arena/game cannot. Which bots a game has,
// their strength and which one the ladder plays is the game's Spec.House; TestEveryGame checks
// that this table holds exactly those.
var inProcess = map[string]map[string]func(seed uint64) sdk.Bot{
	"dynamite": {"paper": unseeded(dynamitebots.Paper), "scissors": unseeded(dynamitebots.Scissors),
		"dynamite": dynamitebots.DynamiteSeeded, "beatlast": dynamitebots.BeatLastSeeded},
	"finger":  {"random": fingerbots.RandomSeeded, "strong": fingerbots.StrongSeeded},
	"bidding": {"random": biddingbots.RandomSeeded, "strong": unseeded(biddingbots.Strong)},
	"auction": {"sample": auctionbots.SampleSeeded, "collector": unseeded(auctionbots.Collector)},
	"realtv": {"likesthemstrong": unseeded(realtvbots.LikesThemStrong), "filler": realtvbots.FillerSeeded,
		"schemer": unseeded(realtvbots.Schemer)},
}

// unseeded adapts a bot that draws no randomness.
func unseeded(f func() sdk.Bot) func(uint64) sdk.Bot { return func(uint64) sdk.Bot { return f() } }

// Bots is each registered game's ladder house bot: its Spec's HouseBot marked Ladder. A game
// whose Spec marks none (or whose bot is missing above) has no entry, which TestEveryGame and
// the ladder's start (SeedHouse) report.
var Bots = ladderBots()

func ladderBots() map[string]Bot {
	out := map[string]Bot{}
	for _, g := range game.Names() {
		spec, _ := game.Lookup(g)
		h, err := spec.LadderHouse()
		if mk := inProcess[g][h.Name]; err == nil && mk != nil {
			out[g] = Bot{Name: Prefix + h.Name, New: mk}
		}
	}
	return out
}

// Games lists the games that have a ladder house bot, sorted.
func Games() []string {
	var gs []string
	for g := range Bots {
		gs = append(gs, g)
	}
	sort.Strings(gs)
	return gs
}

// New makes game's ladder house bot named name (house-<name>), seeded (0: a random seed); an
// error when the game has none or it has another name.
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

// Seeded makes any of game's house bots, by its folder name (bots/<game>/cmd/<name>), in the
// host's own process with the given seed: what tests play a Spec's ShortMatch with.
func Seeded(g, name string, seed uint64) (sdk.Bot, error) {
	mk := inProcess[g][name]
	if mk == nil {
		return sdk.Bot{}, fmt.Errorf("no in-process house bot %q for game %q (it has: %v): add it to inProcess in bots/house/house.go",
			name, g, InProcess(g))
	}
	return mk(seed), nil
}

// InProcess lists the folder names of game's house bots that play in-process, sorted.
func InProcess(g string) []string {
	var names []string
	for n := range inProcess[g] {
		names = append(names, n)
	}
	slices.Sort(names)
	return names
}
