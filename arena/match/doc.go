// Package match runs one match: it opens every seat on its player, asks the seats the engine
// names (concurrently when several must act), each under its own deadline and clock, turns
// every timeout, crash and malformed answer into a fault handed to the engine, and closes the
// seats with their final observation. It knows engines only through arena/game and bots only
// through the Player and Conn interfaces.
package match
