// Package botspec turns what a user types for a bot (a .py file, a Go package directory, an
// executable) into a launch command, with errors that name the path and say what to do.
package botspec
