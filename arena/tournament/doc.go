// Package tournament schedules, runs and scores tournaments, keeping everything in an
// arena/store database so that a run killed at any moment resumes without losing or repeating a
// finished match.
//
// Formats: a game for exactly two players is a round robin with seats swapped (every pair
// meets twice per repetition, each bot once in each seat). A game for more players is played in
// tables: every repetition shuffles the bots (from the tournament seed) and deals them over
// ceil(n/m) tables of at most m as evenly as possible, keeping bots of one author apart where
// possible and noting the match when not. The realtv contest is one table holding every script
// (the engine itself runs the 11 instances and the islands) per repetition.
//
// Seeds: every match's seed is derived from the tournament seed and the match id, so a resumed
// or repeated tournament plays exactly the same matches.
//
// Many machines: with Options.Queue set, Run publishes every pending match as a Job on NATS
// JetStream (arena/queue) and writes each Result into the store exactly once: a result for
// a match already recorded, of an older attempt, for another tournament or that does not fit
// its match is discarded with a MatchNote event; a job handed out MaxDeliver times is an
// infrastructure failure charged to no bot. Work is the worker (arena worker): it plays jobs
// with the same runner, bot pool and botspec path as a local run, so the same seed gives the
// same standings wherever the matches are played.
//
// A bot that cannot be prepared (botspec.Classify says whose the failure is):
//
//   - its own (its build failed): charged in each of its matches, here or on any worker;
//   - this machine's lack (its toolchain, a Python with the SDK, a source for its
//     requirements.txt): in a direct run, or by a coordinator's own workers that are the
//     queue's only ones (Options.Alone), charged at once like a crash at its start, with the
//     reason and the fix; a worker among others declines the job, which the server holds back
//     for WorkOptions.RetryDelay, doubling with each delivery, so a worker that can takes it,
//     and at the job's last delivery the worker that holds it charges the bot;
//   - the arena's (the files store, an I/O error): a direct run fails that bot's matches,
//     charged to no bot, for --resume; a worker hands the job back with the same delays and at
//     its last delivery sends an infrastructure failure naming the cause;
//   - its files changed since the tournament started: the run stops (the organiser's to fix).
//
// Each charged bot is announced once per run with a BotCharged event.
//
// Submitted bots: a folder of entries, each either a file (a .py bot or an executable) or a
// folder. A folder holding bot.json names its bot:
//
//	{"name": "alice", "author": "Alice A.", "language": "python", "command": "bot.py:MyBot"}
//
// where command is a path relative to that folder: a .py file (optionally :ClassName), a Go
// package directory (".") or an executable. Without bot.json a folder is a Go package if it
// holds .go files, else a Python bot if it holds bot.py.
package tournament
