// Package host is the go-plugin host side of the arena: it launches one bot process through
// the sandbox, validates its handshake itself, captures its raw stderr, talks to its seats over
// one gRPC stream per seat, and kills its whole process tree when it must go.
//
// go-plugin is used for what it does well (cookie, AutoMTLS, the gRPC connection, controller
// and stdio services) and kept away from every byte the bot writes: the host's runner reads
// the bot's stdout and stderr itself and hands go-plugin only a handshake line it has already
// checked, so no output of a hostile bot can crash, hang or mislead the host.
package host
