// Package queuetest starts a real embedded NATS JetStream server (no port, files in the
// test's temporary folder) and opens the arena's queue on it, for tests of anything that
// publishes or plays jobs.
package queuetest
