// Package hostile holds the end-to-end hostile-bot suite: every bot in bots/hostile (Go and
// Python, one attack each) plays a house bot through the real host and sandbox, and the tests
// assert that the attack failed, that the bot was charged with the right fault, that the house
// bot and the host were unaffected, and that no process was left (by the process table).
package hostile
