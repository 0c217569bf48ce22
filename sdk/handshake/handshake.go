// Package handshake is the part of the bot contract that the arena host and every Go bot share:
// the go-plugin handshake (protocol version, magic cookie), the plugin name and the plugin type
// that carries BotService. It is the only part of the SDK the host imports.
package handshake

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"sync"

	"github.com/hashicorp/go-hclog"
	"github.com/hashicorp/go-plugin"
	"google.golang.org/grpc"

	arenav1 "github.com/botarena/arena/proto/arena/v1"
)

// Version is the release of the bot contract's Go side: the Go SDK reports it as its own
// version, and the host as its version in Describe.
const Version = "0.1.0"

// ProtocolVersion is the go-plugin application protocol version. It equals the major version
// of the wire package arena.v1; a bot and a host with different versions refuse each other.
const ProtocolVersion = 1

// PluginName is the name under which a bot serves BotService.
const PluginName = "bot"

// Cookie names the environment variable go-plugin uses for its magic cookie.
const (
	CookieKey   = "ARENA_BOT_COOKIE"
	CookieValue = "b0t-4r3n4-c0nt3st-v1"
)

// Config is shared by the host and every Go bot.
var Config = plugin.HandshakeConfig{
	ProtocolVersion:  ProtocolVersion,
	MagicCookieKey:   CookieKey,
	MagicCookieValue: CookieValue,
}

// Plugin adapts BotService to go-plugin: the bot side registers Impl, the host side gets an
// arenav1.BotServiceClient from Dispense.
type Plugin struct {
	plugin.NetRPCUnsupportedPlugin
	Impl arenav1.BotServiceServer
}

// GRPCServer registers the bot's service.
func (p *Plugin) GRPCServer(_ *plugin.GRPCBroker, s *grpc.Server) error {
	arenav1.RegisterBotServiceServer(s, p.Impl)
	return nil
}

// GRPCClient returns the host's stub.
func (p *Plugin) GRPCClient(_ context.Context, _ *plugin.GRPCBroker, c *grpc.ClientConn) (any, error) {
	return arenav1.NewBotServiceClient(c), nil
}

// Plugins is the plugin set both sides use (the host passes nil).
func Plugins(impl arenav1.BotServiceServer) plugin.PluginSet {
	return plugin.PluginSet{PluginName: &Plugin{Impl: impl}}
}

// MaxRequest is the largest request a bot accepts: the host's largest message is an auction
// StartRequest of 5.9 MB.
const MaxRequest = 8 << 20

// Serve serves impl as a bot until the host kills the process: go-plugin's server with the
// arena's handshake. go-plugin points os.Stdout and os.Stderr at pipes it would stream to the
// host over gRPC, which is asynchronous and loses what is in flight when a bot dies; the first
// call the host makes (Describe) points both back at the real stderr, which the host reads raw,
// in order.
//
// When the host offered the fast lane (LaneEnv) and impl is a LaneActor, the bot announces it
// in Describe and answers its moves there, on a goroutine of its own (ServeLane).
func Serve(impl arenav1.BotServiceServer) {
	realStderr := os.Stderr
	if a, ok := impl.(LaneActor); ok {
		if lane := LaneFromEnv(); lane != nil {
			impl = laneServer{impl}
			go func() {
				err := ServeLane(lane, a.ActInto)
				if err != nil {
					fmt.Fprintf(realStderr, "%v\n", err)
					os.Exit(1)
				}
				// The host closed the lane: it is done with this process.
				os.Exit(0)
			}()
		}
	}
	var once sync.Once
	restore := func(ctx context.Context, req any, _ *grpc.UnaryServerInfo, next grpc.UnaryHandler) (any, error) {
		once.Do(func() { os.Stdout, os.Stderr = realStderr, realStderr })
		return next(ctx, req)
	}
	plugin.Serve(&plugin.ServeConfig{
		HandshakeConfig: Config,
		Plugins:         Plugins(impl),
		// Fixed flow-control windows turn off gRPC's bandwidth-delay probing: moves are tiny,
		// and the probes' pings cost CPU on every message. The receive limit takes the largest
		// StartRequest (an auction of a million items, 5.9 MB; gRPC's default is 4 MiB).
		GRPCServer: func(opts []grpc.ServerOption) *grpc.Server {
			return grpc.NewServer(append(opts, grpc.InitialWindowSize(1<<20), grpc.InitialConnWindowSize(1<<20),
				grpc.MaxRecvMsgSize(MaxRequest), grpc.ChainUnaryInterceptor(restore))...)
		},
		Logger: hclog.NewNullLogger(), // its debug lines would only fill the bot's log
	})
}

// LaneActor answers one move into resp (which it resets first): what a bot serves on the
// fast lane.
type LaneActor interface {
	ActInto(req *arenav1.ActRequest, resp *arenav1.ActResponse)
}

// ActStream answers the moves of one ActStream with act, one answer per request in order,
// until the host closes the stream. The messages are reused: act fills resp after resetting it.
func ActStream(stream arenav1.BotService_ActStreamServer, act func(req *arenav1.ActRequest, resp *arenav1.ActResponse)) error {
	in := &arenav1.ActStreamRequest{}
	out := &arenav1.ActStreamResponse{Act: &arenav1.ActResponse{}}
	for {
		in.Reset()
		if err := stream.RecvMsg(in); err != nil {
			if errors.Is(err, io.EOF) {
				return nil
			}
			return err
		}
		act(in.GetAct(), out.Act)
		if err := stream.Send(out); err != nil {
			return err
		}
	}
}
