// Package newgame is the template of a throwaway game, Coin, and the applier that adds it to a
// copy of the repository the way docs/adding-a-game.md says: the template's new files
// (testdata/coin, at their places in the repository) and the Edits, one-line insertions into
// the files a game must touch. Its test (TestThrowawayGame) adds the game to a scratch copy,
// runs the document's commands there (generation, the contract suite and golden files) and
// plays the game with every kit's generic path, so the document cannot go stale; the game
// never enters the registry of the repository itself.
package newgame
