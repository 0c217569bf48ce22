// Package coin is the engine of Coin, as docs/rules/coin.md states it: two players call the
// same seeded coin for ten rounds, a point for each correct call; any fault forfeits. Its house
// bot is in bots/coin.
package coin
