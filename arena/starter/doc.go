// Package starter makes the starter kits the site offers for download: for a language and a
// game, a zip of the example the arena binary carries (the root package's Starters:
// examples/<language>/<game>), README included, in one top
// folder that an upload flattens, so the zip uploaded back unchanged is a bot the ladder
// validates; and for a language, a zip of its kit library (the root package's KitRoots), for
// running and testing a bot locally.
//
// Everything comes from the binary's own embedded files, never from a checkout: what the site
// offers is what this build of the arena builds and plays.
package starter
