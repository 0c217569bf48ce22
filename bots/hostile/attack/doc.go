// Package attack holds the hostile bots' attacks: each bots/hostile/<name> command is a
// dynamite bot that plays paper and, in round Round, tries one way to escape or hurt the
// sandbox (see Names). Attacks that probe (files, network, sockets, signals) write
// "hostile <name>: blocked: ..." or "SUCCEEDED" to stderr for the hostile tests to read.
package attack
