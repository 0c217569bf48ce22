// Package compat plays bot files written for the five original contests, unchanged,
// through the real host against house bots and native SDK bots. It has only tests.
package compat
