// Package sandbox turns a command and a set of limits into an isolated, measured, killable
// process. It knows nothing of the arena: callers give it a Spec and get a Process whose whole
// tree Kill removes.
package sandbox
