// Package cli is the arena command line: thin commands over the match runner, the host, the
// tournament runner and the store.
package cli
