// Package host is the go-plugin host side of the arena: it launches one bot process through
// the sandbox, validates its handshake itself, captures its raw stderr, talks to its seats over
// one gRPC stream per seat, and kills its whole process tree when it must go.
//
// go-plugin is used for what it does well (cookie, the gRPC connection, the controller) and
// kept away from every byte the bot writes: the host's runner reads the bot's stdout and
// stderr itself and hands go-plugin only a handshake line it has already checked, and the
// host never opens go-plugin's broker and stdio streams, so no output of a hostile bot can
// crash, hang or mislead the host. Every call has a bound (message and header size, a
// deadline) and all text from the bot is cut by package bounded where it enters.
package host
