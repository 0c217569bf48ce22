// Package e2e holds end-to-end tests that play real Go and Python bot processes against each
// other through the real host. It has no code of its own.
package e2e
