// Package all links every game engine into the binary.
package all
