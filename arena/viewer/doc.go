// Package viewer turns a match record into one self-contained HTML page that replays it: play,
// pause, step, seek, speed and keyboard controls; each bot's answer with its time and CPU; faults
// at the move that caused them; and a picture of the game's state drawn from what the engine
// showed the bots (their observations), so the page never re-implements a game's rules.
//
// The page has no network dependency (inline CSS and JavaScript, the data as JSON inside), so
// it works from file:// and can be embedded in a server's match page as it is.
package viewer
