package attack

import (
	"context"
	"fmt"
	"os"
	"strings"
	"sync/atomic"
	"time"

	"github.com/hashicorp/go-hclog"
	"github.com/hashicorp/go-plugin"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/types/known/emptypb"
	"google.golang.org/protobuf/types/known/wrapperspb"

	arenav1 "github.com/botarena/arena/proto/arena/v1"
	"github.com/botarena/arena/sdk"
	"github.com/botarena/arena/sdk/dynamite"
	"github.com/botarena/arena/sdk/finger"
	"github.com/botarena/arena/sdk/handshake"
)

// RawNames are the attacks on the wire itself, which the SDK's typed API cannot express:
// each serves BotService by hand around the SDK's handler.
//
//   - bigerror: from round Round on (every finger move), answers a BotError as large as the
//     host's message limit allows, message and traceback.
//   - bigstatus: in round Round fails its stream with a 15 MiB gRPC status message.
//   - slowstart, slowend: sleep 8 s in Start or in End.
//   - sideflood: floods go-plugin's broker and stdio streams (empty stdio messages, broker
//     messages) for as long as the host keeps them open, and plays paper.
//   - streamflood: from round Round on sends 1000 unsolicited answers before each real one.
//   - rawquiet: attacks nothing and plays paper through the same hand-served BotService (moves
//     on gRPC, not the fast lane): the peaceful twin the attack figures set an attack beside,
//     so that they compare an attack with peace on the same path.
var RawNames = []string{"bigerror", "bigstatus", "slowstart", "slowend", "sideflood", "streamflood", "rawquiet"}

// MaxText is how much fault text bigerror sends per answer: just under the host's 1 MiB
// message limit once framed.
const MaxText = 1<<20 - 4<<10

func isRaw(name string) bool {
	for _, n := range RawNames {
		if n == name {
			return true
		}
	}
	return false
}

type rawBot struct {
	*sdk.Handler
	name   string
	stderr *os.File
	// side counts messages sent on go-plugin's side streams.
	side atomic.Int64
}

func serveRaw(name string) {
	b := &rawBot{name: name, stderr: os.Stderr}
	b.Handler = sdk.NewHandler(sdk.Bot{Name: "hostile-" + name,
		Games: []sdk.Game{
			dynamite.Play(func() dynamite.Player {
				return dynamite.Func(func(*dynamite.State) dynamite.Move { return dynamite.Paper })
			}),
			finger.Play(func() finger.Player {
				return finger.Func(func(s *finger.State) finger.Move { return s.LegalMoves()[0] })
			}),
		}})
	plugin.Serve(&plugin.ServeConfig{
		HandshakeConfig: handshake.Config,
		Plugins:         handshake.Plugins(b),
		Logger:          hclog.NewNullLogger(),
		GRPCServer: func(opts []grpc.ServerOption) *grpc.Server {
			if name == "sideflood" {
				opts = append(opts, grpc.ChainStreamInterceptor(b.floodSide))
			}
			return grpc.NewServer(append(opts, grpc.MaxSendMsgSize(64<<20))...)
		},
	})
}

// floodSide replaces go-plugin's broker and stdio handlers with floods.
func (b *rawBot) floodSide(srv any, ss grpc.ServerStream, info *grpc.StreamServerInfo, h grpc.StreamHandler) error {
	var msg func(i int64) any
	switch info.FullMethod {
	case "/plugin.GRPCStdio/StreamStdio":
		// StdioData with every field empty has the wire form of Empty.
		msg = func(int64) any { return &emptypb.Empty{} }
	case "/plugin.GRPCBroker/StartStream":
		// ConnInfo's field 1 is its service id, a varint like UInt32Value's.
		msg = func(i int64) any { return wrapperspb.UInt32(uint32(i)) }
	default:
		return h(srv, ss)
	}
	for i := int64(0); ; i++ {
		if err := ss.SendMsg(msg(i)); err != nil {
			return err
		}
		b.side.Add(1)
	}
}

// Describe points stdout and stderr back at the real stderr (as the SDK does), so reports
// reach the host's log.
func (b *rawBot) Describe(ctx context.Context, req *arenav1.DescribeRequest) (*arenav1.DescribeResponse, error) {
	os.Stdout, os.Stderr = b.stderr, b.stderr
	return b.Handler.Describe(ctx, req)
}

func (b *rawBot) Start(ctx context.Context, req *arenav1.StartRequest) (*arenav1.StartResponse, error) {
	if b.name == "slowstart" {
		time.Sleep(8 * time.Second)
	}
	return b.Handler.Start(ctx, req)
}

func (b *rawBot) End(ctx context.Context, req *arenav1.EndRequest) (*arenav1.EndResponse, error) {
	if b.name == "slowend" {
		time.Sleep(8 * time.Second)
	}
	return b.Handler.End(ctx, req)
}

// round is the move about to be played in either game this bot plays.
func round(req *arenav1.ActRequest) int64 {
	if req.GetFinger() != nil {
		return Round // every finger move strikes
	}
	return req.GetStep()
}

func (b *rawBot) ActStream(stream arenav1.BotService_ActStreamServer) error {
	big := strings.Repeat("E", MaxText/2)
	for {
		in, err := stream.Recv()
		if err != nil {
			return err
		}
		req := in.GetAct()
		out := &arenav1.ActStreamResponse{Act: &arenav1.ActResponse{}}
		b.ActInto(req, out.Act)
		if round(req) >= Round {
			switch b.name {
			case "bigerror":
				out.Act = &arenav1.ActResponse{Step: req.GetStep(), Error: &arenav1.BotError{
					Kind: arenav1.BotErrorKind_BOT_ERROR_KIND_EXCEPTION, Message: "head " + big + " tail",
					Traceback: "goroutine 1 [running]:\n" + big + "\nend of stack"}}
			case "bigstatus":
				return status.Error(codes.Internal, strings.Repeat("S", 15<<20))
			case "sideflood":
				if round(req) == Round {
					report(b.name, b.sideReport())
				}
			case "streamflood":
				// Unsolicited answers ahead of the real one: each is one the host did not ask.
				for i := 0; i < 1000; i++ {
					if err := stream.Send(&arenav1.ActStreamResponse{Act: &arenav1.ActResponse{Step: -1}}); err != nil {
						return err
					}
				}
			}
		}
		if err := stream.Send(out); err != nil {
			return err
		}
	}
}

// sideReport says whether the host read any of the side-stream flood.
func (b *rawBot) sideReport() error {
	if n := b.side.Load(); n > 1000 {
		return nil // SUCCEEDED: the host opened a side stream and took n messages
	}
	return fmt.Errorf("the host opened neither go-plugin stream (%d messages went out)", b.side.Load())
}
