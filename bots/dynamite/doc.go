// Package dynamitebots holds the house bots of dynamite: the seed's three examples (always
// scissors, PaperBot, the dynamite bot) and a strong baseline. Each is an sdk.Bot, so it can
// run as its own process (cmd/<name>) or inside the host for benchmarks.
package dynamitebots
