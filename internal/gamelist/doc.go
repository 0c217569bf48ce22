// Package gamelist writes arena/games/all/all.go, the one import line per game that fills the
// registry, from the folders themselves: every package arena/games/<game> (beside all) is a
// game, so adding a game's folder is all the registration it needs once scripts/generate.sh
// has run. The package's test fails when the committed file is stale.
package gamelist
