// Package coin is the engine of Coin, as docs/rules/coin.md states it: two players call the
// same seeded coin for ten rounds, a point for each correct call; any fault forfeits. It also
// holds the game's house bot (Flip), so the game lives in one package.
package coin
