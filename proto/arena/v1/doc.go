// Package arenav1 is the generated Go code of the wire contract in this directory: BotService
// (bot.proto) and one file per game. Regenerate it with scripts/generate.sh; never edit the
// .pb.go files by hand.
package arenav1
