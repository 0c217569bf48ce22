// Command fuzz is the bot of the host's fuzz target (arena/hostile FuzzBotAnswers): it answers
// with exactly the bytes it is told to, so the host meets every payload a hostile bot could
// put on the wire, valid protobuf or not.
//
// Instructions come in the match id of Start, "fuzz-<what>-<size>-<hex payload>": what is
// "act" (the raw ActStreamResponse of the seat's every move), "error" (a BotError whose
// message and traceback are the payload) or "start" (the raw StartResponse); the payload is
// repeated up to size bytes. For a raw Describe the instructions are in the environment
// variable FUZZ_DESCRIBE, "<size>-<hex payload>", read once at start-up.
package main

import (
	"context"
	"encoding/hex"
	"os"
	"strconv"
	"strings"
	"sync"

	"github.com/hashicorp/go-hclog"
	"github.com/hashicorp/go-plugin"
	"google.golang.org/grpc"
	"google.golang.org/grpc/encoding"
	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/proto"

	arenav1 "github.com/botarena/arena/proto/arena/v1"
	"github.com/botarena/arena/sdk"
	"github.com/botarena/arena/sdk/dynamite"
	"github.com/botarena/arena/sdk/handshake"
)

// raw is a message already in wire form.
type raw []byte

// codec sends raw as it is, and stands in for chosen responses by their pointer.
type codec struct{}

var stand sync.Map // proto.Message -> raw

func (codec) Marshal(v any) ([]byte, error) {
	if r, ok := v.(raw); ok {
		return r, nil
	}
	if r, ok := stand.LoadAndDelete(v); ok {
		return r.(raw), nil
	}
	return proto.Marshal(v.(proto.Message))
}

func (codec) Unmarshal(b []byte, v any) error { return proto.Unmarshal(b, v.(proto.Message)) }
func (codec) Name() string                    { return "proto" }

type order struct {
	what string
	body raw
}

// parse reads "<what>-<size>-<hex>" (what may be empty for Describe).
func parse(s string) (order, bool) {
	parts := strings.SplitN(s, "-", 3)
	if len(parts) != 3 {
		return order{}, false
	}
	size, err := strconv.Atoi(parts[1])
	p, err2 := hex.DecodeString(parts[2])
	if err != nil || err2 != nil {
		return order{}, false
	}
	body := make(raw, 0, size)
	for len(p) > 0 && len(body) < size {
		n := min(len(p), size-len(body))
		body = append(body, p[:n]...)
	}
	return order{what: parts[0], body: body}, true
}

type bot struct {
	*sdk.Handler
	mu     sync.Mutex
	orders map[string]order // by match id
	stderr *os.File
}

func (b *bot) Describe(ctx context.Context, req *arenav1.DescribeRequest) (*arenav1.DescribeResponse, error) {
	os.Stdout, os.Stderr = b.stderr, b.stderr
	resp, err := b.Handler.Describe(ctx, req)
	if o, ok := parse("describe-" + os.Getenv("FUZZ_DESCRIBE")); ok && err == nil {
		stand.Store(resp, o.body)
	}
	return resp, err
}

func (b *bot) Start(ctx context.Context, req *arenav1.StartRequest) (*arenav1.StartResponse, error) {
	o, _ := parse(strings.TrimPrefix(req.GetMatchId(), "fuzz-"))
	b.mu.Lock()
	b.orders[req.GetMatchId()] = o
	b.mu.Unlock()
	resp, err := b.Handler.Start(ctx, req)
	if o.what == "start" && err == nil {
		stand.Store(resp, o.body)
	}
	return resp, err
}

func (b *bot) ActStream(stream arenav1.BotService_ActStreamServer) error {
	for {
		in, err := stream.Recv()
		if err != nil {
			return err
		}
		req := in.GetAct()
		b.mu.Lock()
		o := b.orders[req.GetMatchId()]
		b.mu.Unlock()
		var out any
		switch o.what {
		case "act":
			out = o.body
		case "error":
			// Built by hand: proto.Marshal would refuse a payload that is not UTF-8.
			e := protowire.AppendTag(nil, 1, protowire.VarintType)
			e = protowire.AppendVarint(e, 1+uint64(len(o.body))%3)
			e = protowire.AppendTag(e, 2, protowire.BytesType)
			e = protowire.AppendBytes(e, o.body[:len(o.body)/2])
			e = protowire.AppendTag(e, 3, protowire.BytesType)
			e = protowire.AppendBytes(e, o.body[len(o.body)/2:])
			a := protowire.AppendTag(nil, 1, protowire.VarintType)
			a = protowire.AppendVarint(a, uint64(req.GetStep()))
			a = protowire.AppendTag(a, 20, protowire.BytesType)
			a = protowire.AppendBytes(a, e)
			w := protowire.AppendTag(nil, 1, protowire.BytesType)
			out = raw(protowire.AppendBytes(w, a))
		default:
			resp := &arenav1.ActStreamResponse{Act: &arenav1.ActResponse{}}
			b.ActInto(req, resp.Act)
			out = resp
		}
		if err := stream.SendMsg(out); err != nil {
			return err
		}
	}
}

func main() {
	b := &bot{orders: map[string]order{}, stderr: os.Stderr}
	b.Handler = sdk.NewHandler(sdk.Bot{Name: "fuzz", Games: []sdk.Game{dynamite.Play(func() dynamite.Player {
		return dynamite.Func(func(*dynamite.State) dynamite.Move { return dynamite.Rock })
	})}})
	var _ encoding.Codec = codec{}
	plugin.Serve(&plugin.ServeConfig{
		HandshakeConfig: handshake.Config,
		Plugins:         handshake.Plugins(b),
		Logger:          hclog.NewNullLogger(),
		GRPCServer: func(opts []grpc.ServerOption) *grpc.Server {
			return grpc.NewServer(append(opts, grpc.ForceServerCodec(codec{}), grpc.MaxSendMsgSize(64<<20))...)
		},
	})
}
