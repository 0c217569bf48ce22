// Package proctable reads the process table (/proc) for tests that must prove, by the table and
// not by a flag, that a bot left nothing running: no process, no zombie, no child.
package proctable
