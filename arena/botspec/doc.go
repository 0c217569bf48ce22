// Package botspec turns what a user types for a bot (a .py file, a folder, a Go package, a
// program) into a launch command: it classifies the argument and takes its snapshot
// (arena/submission), builds it in the build sandbox when it needs building (arena/build),
// and says what the bot sees: its snapshot at /bot, its artefact, its runtime, nothing else.
// Errors name the path and say what to do; a failed build is a *build.Error, the bot's verdict.
package botspec
