// Package store keeps tournaments in an embedded SQLite database (modernc.org/sqlite, pure Go,
// no server): tournaments, bots, the full match schedule with every match's seed, results,
// faults, per-seat timings and compressed replays.
//
// Durability: the database runs in WAL mode with synchronous=FULL, the whole schedule is written
// in one transaction when a tournament is created, and a match is marked done in one transaction
// together with its result, faults, timings and replay. A process killed at any moment (kill -9,
// power loss) therefore leaves every match either done with all its data or still pending, and
// a resumed run plays exactly the pending ones.
//
// Safety: Open refuses a file that is not an SQLite database, or an SQLite database that this
// program did not create (checked with PRAGMA application_id), and never writes to it.
package store
