// Command lanehostile announces the fast lane, then misbehaves on it as its argument says, at
// its first move: the host must charge each case to the bot, never fail itself.
package main

import (
	"context"
	"encoding/binary"
	"io"
	"os"
	"time"

	"google.golang.org/protobuf/proto"

	arenav1 "github.com/botarena/arena/proto/arena/v1"
	"github.com/botarena/arena/sdk/handshake"
)

type bot struct {
	arenav1.UnimplementedBotServiceServer
}

func (bot) Describe(context.Context, *arenav1.DescribeRequest) (*arenav1.DescribeResponse, error) {
	return &arenav1.DescribeResponse{Name: "lanehostile", Lanes: []string{handshake.LaneName}}, nil
}

func (bot) Start(context.Context, *arenav1.StartRequest) (*arenav1.StartResponse, error) {
	return &arenav1.StartResponse{}, nil
}

func (bot) End(context.Context, *arenav1.EndRequest) (*arenav1.EndResponse, error) {
	return &arenav1.EndResponse{}, nil
}

func main() {
	mode := os.Args[1]
	lane := handshake.LaneFromEnv()
	if lane == nil {
		os.Stderr.WriteString("lanehostile: no lane offered\n")
		os.Exit(2)
	}
	go serve(lane, mode)
	handshake.Serve(bot{})
}

func frame(m proto.Message) []byte {
	b, _ := handshake.AppendFrame(nil, m)
	return b
}

func serve(lane *os.File, mode string) {
	var head [4]byte
	for {
		if _, err := io.ReadFull(lane, head[:]); err != nil {
			return
		}
		body := make([]byte, binary.BigEndian.Uint32(head[:]))
		if _, err := io.ReadFull(lane, body); err != nil {
			return
		}
		req := &arenav1.ActRequest{}
		_ = proto.Unmarshal(body, req)
		resp := &arenav1.ActResponse{MatchId: req.GetMatchId(), Seat: req.GetSeat(), Step: req.GetStep(),
			Action: &arenav1.ActResponse_Dynamite{Dynamite: &arenav1.DynamiteAction{Move: arenav1.DynamiteMove_DYNAMITE_MOVE_ROCK}}}
		switch mode {
		case "garbage":
			lane.Write([]byte{0, 0, 0, 5, 0xff, 0xff, 0xff, 0xff, 0xff})
		case "oversize":
			lane.Write([]byte{0xff, 0xff, 0xff, 0xf0, 1, 2, 3})
		case "seat":
			resp.Seat++
			lane.Write(frame(resp))
		case "step":
			resp.Step++
			lane.Write(frame(resp))
		case "match":
			resp.MatchId = "another match"
			lane.Write(frame(resp))
		case "close":
			lane.Close()
		case "flood":
			one := frame(resp)
			var many []byte
			for range 1000 {
				many = append(many, one...)
			}
			for range 100 {
				if _, err := lane.Write(many); err != nil {
					break
				}
			}
		case "half":
			lane.Write(frame(resp)[:5])
		}
		time.Sleep(time.Hour)
	}
}
