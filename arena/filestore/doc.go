// Package filestore gives the files store (sandbox.FilesDir: snapshots, artefacts, kits, a RAM
// tmpfs shared by every arena process on the machine) owners and a budget.
//
// Layout under the store's root (mode 0700: no other local user walks into it; what is inside
// keeps read bits for the bots' own uids, which reach their files only through the bind mounts
// of their sandboxes):
//
//	snap/<hash>   a submission's snapshot          } entries: the units that are leased,
//	art/<key>     a built artefact (<key>.lock)    } touched on use, and collected
//	kit/<id>      a kit of the arena's own         }
//	leases/<id>   one per live arena process, flock'ed for its whole life, listing its entries
//	tmp/<id>.*    what lease <id> is writing (a snapshot, a build, a fetch), renamed into place
//	collect.lock  shared while a process leases, exclusive while one collects
//	collect.log   what the collector removed, when, and why
//
// Owners: every process leases each entry it resolves (Use) before it checks the entry exists,
// for as long as it lives (it may launch from it at any time). A lease is a file whose flock the
// kernel drops however the process ends, kill -9 included: a lease whose lock can be taken
// belongs to a dead process and goes, with its half-written tmp folders.
//
// Budget: the collector removes entries no live lease lists, least recently used first (Use
// touches an entry's modification time), until the store is under its cap (SetCap, the
// --files-cap flag; DefaultCap is a quarter of the machine's memory, half of the tmpfs). It
// never removes a leased entry, so a running tournament keeps everything it launches from
// however old; the store may stay over its cap while live runs need more, and the tmpfs size
// (half of memory) stays the hard limit. It runs when a process opens the store and after it
// adds an entry, and then only when the store is over its cap (a statfs on the tmpfs).
package filestore
