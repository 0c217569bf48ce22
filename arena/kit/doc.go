// Package kit unpacks the kits the arena binary carries (the root package arena embeds them:
// the Go kit Go bots build against, the Python SDK, the stdio languages' kit libraries) into
// the files store, and copies the running executable there for the sandboxes that re-execute
// it (the stdio bridge). Each lands once, under kit/<name>-<content hash>/, written under a
// temporary name and renamed into place under a file lock, read-only; an unpacked kit is never
// changed, and a new binary with other kits gets new folders beside the old ones.
//
// Nothing here reads the working directory, a bot's folder or a checkout: the bytes come from
// the binary itself, so an edit of sdk/ reaches a test binary or a freshly built arena, and
// nothing a submission holds can stand in for them.
package kit
