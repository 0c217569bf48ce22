// Package submission finds what a bot argument names and takes its snapshot: a private,
// read-only, content-addressed copy of only the submission's own files, which is all the bot
// (and its build) ever sees of the host.
//
// The host reads a submission only as files to copy: names, sizes, modes and bytes. It never
// imports, compiles or executes them, and parses exactly one thing of a submission itself: a
// bot.json manifest, bounded and decoded into fixed fields, the way a bot's answer is. What a
// submission holds is decided by the argument's shape, so a user can predict it:
//
//   - a file (bot.py, a program) is a bot on its own: its snapshot holds that one file (for
//     local authoring, arena play, a .py file also brings the .py modules beside it);
//   - a folder holding bot.json, bot.py or Go files is a bot with every file below it (hidden
//     files and __pycache__ left out); helper modules go there, beside bot.py.
package submission
