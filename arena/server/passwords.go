package server

import (
	"context"
	"errors"
	"runtime"
	"sync"

	"github.com/alexedwards/argon2id"

	"github.com/botarena/arena/arena/server/budget"
)

// Passwords are hashed with argon2id (64 MiB and a pass over it per hash), a few at a time:
// every hash and every check takes one of the budget's hash slots, so a flood of
// registrations or logins waits (and then gets 503) instead of taking the server's memory.
// A hash leaves its 64 MiB as garbage, and the collector lets the heap double before it
// collects: each hash collects before it frees its slot (a few ms; the memory holds no
// pointers), so the next hash reuses it and a flood's peak stays near a slot's 64 MiB each.

// hashPassword hashes a new password within the hashing budget.
func (s *Server) hashPassword(ctx context.Context, password string) (string, error) {
	release, err := s.acquireHash(ctx)
	if err != nil {
		return "", err
	}
	defer release()
	defer runtime.GC()
	s.hashes.Add(1)
	return HashPassword(password)
}

// verifyPassword checks a password against a stored hash within the hashing budget. A stored
// value that is not a hash (the house account's "!") is checked against a dummy hash: every
// check costs one hash, so the time of an answer does not tell which accounts can log in.
func (s *Server) verifyPassword(ctx context.Context, password, hash string) (bool, error) {
	release, err := s.acquireHash(ctx)
	if err != nil {
		return false, err
	}
	defer release()
	defer runtime.GC()
	s.hashes.Add(1)
	if _, _, _, err := argon2id.DecodeHash(hash); err != nil {
		_, _ = argon2id.ComparePasswordAndHash(password, dummyHash())
		return false, nil
	}
	ok, err := argon2id.ComparePasswordAndHash(password, hash)
	return ok && err == nil, nil
}

func (s *Server) acquireHash(ctx context.Context) (func(), error) {
	release, err := s.limits.hashing.Acquire(ctx)
	if errors.Is(err, budget.ErrBusy) {
		return nil, errBusy
	}
	return release, err
}

// dummyHash is what a missing account's password is checked against: the same parameters as
// a real hash, so the same cost. Made at its first use, not at start: every arena process
// links this package (each bot's bridge and each sandbox's init re-execute the arena), and a
// hash at start cost each of them 64 MiB and a pass over it (about 45 s in the emulated VM).
var dummyHash = sync.OnceValue(func() string {
	h, _ := argon2id.CreateHash("not a password", argon2id.DefaultParams)
	return h
})
