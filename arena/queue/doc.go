// Package queue carries a tournament's matches as jobs on NATS JetStream, so that workers on
// any machine can play them (arena worker) while the coordinator's SQLite store stays the
// source of truth.
//
// Three streams and one object store, created by the coordinator (Open) and found by workers
// (Join):
//
//   - ARENA_JOBS, a work-queue stream (subjects arena.jobs.<key>): one message per match
//     attempt, published with a Nats-Msg-Id so a restarted coordinator that publishes again
//     adds nothing. Every worker pulls from the one durable consumer "workers" (explicit
//     acks, an ack wait that workers extend with InProgress heartbeats, MaxDeliver).
//   - ARENA_RESULTS (arena.results.<key>.<worker>.<match>), also a work queue: a worker's
//     result for a job, de-duplicated by the job's id and the worker's name (one worker's
//     result never keeps another's out); each tournament's coordinator reads its own key
//     through its own durable consumer and acks a result (removing it) only once it is
//     committed to the store. Bounded in bytes, age, message size and per subject.
//   - ARENA_EXHAUSTED captures the server's MAX_DELIVERIES advisories for the workers
//     consumer, so a job that kept failing is seen by its coordinator even if that
//     coordinator was down when it happened.
//   - The object store arena-files holds each bot's snapshot as a tar named by its content
//     hash; workers unpack it within bounds (Unpack) and rebuild the hash themselves.
//
// Embedded runs a nats-server with JetStream inside the arena process: with no listening
// port by default, or on an address for workers on other machines. Every client has a user
// nkey: the coordinator's (made at each start, in-process only) or a worker's from the
// Registry beside the server's files, with WorkerPermissions only; revoking or quarantining
// a worker reloads the server's users, which disconnects it. The coordinator (Open) owns the
// streams and re-creates whichever goes missing; Nonce keys each job's secret; Quarantine
// refuses a worker's results and disables its credential.
package queue
