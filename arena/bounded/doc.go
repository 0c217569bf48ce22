// Package bounded cuts text that comes from a bot to a fixed size before the host keeps it.
//
// Everything a bot can make the host hold as text - a BotError's message and traceback, a
// gRPC status, a refused seat's reason, its Describe fields, its stderr lines - passes
// through this package where it enters the host, so that a hostile or careless bot costs
// the host, the store, replays and `arena show` the same few kilobytes as a quiet one.
//
// Cut text keeps its head and its tail and says how many bytes were cut. A Python traceback
// keeps its structure instead: the "Traceback" header, the bot's own frames (frames outside
// the standard library, site-packages and the SDK), the frames nearest the error and the final
// error line, so that an error raised deep inside a library still shows where the bot called
// it. Results never share memory with their input: a fault cut from a 4 MiB message must not
// keep the 4 MiB alive.
package bounded
