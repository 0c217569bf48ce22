package handshake

import (
	"context"
	"encoding/binary"
	"fmt"
	"io"
	"os"
	"strconv"
	"sync"
	"syscall"

	"google.golang.org/protobuf/proto"

	arenav1 "github.com/botarena/arena/proto/arena/v1"
)

// The fast lane (docs/protocol.md, "The fast lane"): a bot's moves as length-prefixed
// protobuf frames on a socket the host hands the process at spawn, read and written with
// plain blocking calls on both sides. Describe, Start and End stay on gRPC.
const (
	// LaneName is the lane a bot announces in DescribeResponse.lanes when it reads its moves
	// there.
	LaneName = "frames.v1"
	// LaneEnv names the environment variable that gives the bot its end of the lane: a
	// descriptor number it inherited.
	LaneEnv = "ARENA_LANE_FD"
	// LaneHeader is a frame's length prefix: 4 bytes, big-endian, unsigned.
	LaneHeader = 4
)

// LaneFromEnv returns the bot's end of the lane the host offered, or nil when it offered
// none (or the variable names no socket). The descriptor is made close-on-exec, so programs
// the bot starts do not inherit it: a bot that starts programs calls it first (the bridge
// does). Every call returns the same file.
var LaneFromEnv = sync.OnceValue(laneFromEnv)

func laneFromEnv() *os.File {
	v := os.Getenv(LaneEnv)
	if v == "" {
		return nil
	}
	fd, err := strconv.Atoi(v)
	if err != nil || fd < 3 {
		return nil
	}
	var st syscall.Stat_t
	if syscall.Fstat(fd, &st) != nil || st.Mode&syscall.S_IFMT != syscall.S_IFSOCK {
		return nil
	}
	syscall.CloseOnExec(fd)
	// A blocking descriptor: os.NewFile leaves it out of Go's netpoller, so a read is one
	// blocking system call.
	return os.NewFile(uintptr(fd), "arena-lane")
}

// AppendFrame appends m as one frame (length prefix, then the message) to b.
func AppendFrame(b []byte, m proto.Message) ([]byte, error) {
	at := len(b)
	b = append(b, 0, 0, 0, 0)
	b, err := proto.MarshalOptions{}.MarshalAppend(b, m)
	if err != nil {
		return b[:at], err
	}
	binary.BigEndian.PutUint32(b[at:], uint32(len(b)-at-LaneHeader))
	return b, nil
}

// ServeLane answers the moves that arrive on lane with act until the lane closes (the host
// is gone), one at a time in the order they come: a request is an ActRequest frame, each
// answer an ActResponse frame echoing the request's match_id, seat and step. A frame over
// MaxRequest or one that is not an ActRequest ends the lane with an error.
func ServeLane(lane io.ReadWriter, act func(req *arenav1.ActRequest, resp *arenav1.ActResponse)) error {
	var head [LaneHeader]byte
	var in []byte
	out := make([]byte, 0, 512)
	req, resp := &arenav1.ActRequest{}, &arenav1.ActResponse{}
	for {
		if _, err := io.ReadFull(lane, head[:]); err != nil {
			if err == io.EOF {
				return nil
			}
			return err
		}
		n := binary.BigEndian.Uint32(head[:])
		if n > MaxRequest {
			return fmt.Errorf("arena lane: a frame of %d bytes, over the limit of %d", n, MaxRequest)
		}
		if cap(in) < int(n) {
			in = make([]byte, n)
		}
		in = in[:n]
		if _, err := io.ReadFull(lane, in); err != nil {
			return fmt.Errorf("arena lane: a frame cut short: %w", err)
		}
		req.Reset()
		if err := proto.Unmarshal(in, req); err != nil {
			return fmt.Errorf("arena lane: a frame that is not an ActRequest: %w", err)
		}
		act(req, resp)
		resp.MatchId, resp.Seat, resp.Step = req.GetMatchId(), req.GetSeat(), req.GetStep()
		var err error
		if out, err = AppendFrame(out[:0], resp); err != nil {
			return err
		}
		if _, err := lane.Write(out); err != nil {
			return err
		}
	}
}

// laneServer announces the lane in Describe: the bot reads its moves there.
type laneServer struct {
	arenav1.BotServiceServer
}

func (l laneServer) Describe(ctx context.Context, req *arenav1.DescribeRequest) (*arenav1.DescribeResponse, error) {
	resp, err := l.BotServiceServer.Describe(ctx, req)
	if resp != nil {
		resp.Lanes = append(resp.Lanes, LaneName)
	}
	return resp, err
}
