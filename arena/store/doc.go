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
// Safety: before anything is written, Open looks at an existing file read-only: the SQLite
// header, PRAGMA application_id (arena's mark), PRAGMA user_version (a schema this arena knows)
// and PRAGMA quick_check. A file failing any of them is refused and never written, with an error
// naming the file and the fix. A store of an older schema version is migrated in one transaction
// (version 1 to 2 adds bots.content_hash, 2 to 3 the web server's tables, 4 to 5 each upload's size
// and collection, quota.go, 8 to 9 disabled accounts, the audit log and webhooks, admin.go); a
// kill during it leaves the store as it was.
// OpenReadOnly reads a store without writing or migrating it, also in a read-only folder or on a
// read-only mount; Backup copies a live store consistently (VACUUM INTO) and never overwrites.
// Every error from a query names the file and, from SQLite's result code, what to do.
package store
