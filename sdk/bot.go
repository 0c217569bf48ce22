package sdk

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"sync"
	"time"

	"github.com/hashicorp/go-hclog"
	"github.com/hashicorp/go-plugin"
	"google.golang.org/grpc"

	arenav1 "github.com/botarena/arena/proto/arena/v1"
)

// Version is the SDK version reported to the host.
const Version = "0.1.0"

// Bot describes a bot and how to make a fresh player of each game it plays. Leave a game's
// factory nil if the bot does not play it.
type Bot struct {
	Name    string
	Author  string
	Version string

	Dynamite func() DynamitePlayer
	Finger   func() FingerPlayer
	Bidding  func() BiddingPlayer
	Auction  func() AuctionPlayer
	// Realtv makes one instance per seat; setup gives its strength and id.
	Realtv func(setup RealtvSetup) RealtvPlayer
}

// seat is one open seat inside a bot process.
type seat interface {
	act(req *arenav1.ActRequest, resp *arenav1.ActResponse)
	end(req *arenav1.EndRequest)
}

// opener opens a seat of one game, or says the bot does not play it.
type opener func(b *Bot, req *arenav1.StartRequest) (seat, bool)

// openers holds one entry per game, registered by that game's file.
var openers = map[string]opener{}

// ErrNotServed means the program was run by hand rather than by the arena.
var ErrNotServed = errors.New("not started by the arena")

// Serve runs the bot until the host stops it. Run by hand (without the host's cookie), it
// explains how to play the bot and exits with status 1.
func Serve(b Bot) {
	if os.Getenv(CookieKey) != CookieValue {
		fmt.Fprintf(os.Stderr, "%s is an arena bot: it talks to the arena host over gRPC and is not meant\n"+
			"to be run by hand. Play it with, for example:\n\n"+
			"    arena play dynamite <this bot's package dir or binary> bots/dynamite/paper\n\n"+
			"(%v)\n", nameOr(b.Name, os.Args[0]), ErrNotServed)
		os.Exit(1)
	}
	h := NewHandler(b)
	// go-plugin points os.Stdout and os.Stderr at pipes it streams to the host over gRPC, which
	// is asynchronous and loses what is in flight when a bot dies. The first call the host makes
	// (Describe) points both back at the real stderr, which the host reads raw, in order.
	h.realStderr = os.Stderr
	plugin.Serve(&plugin.ServeConfig{
		HandshakeConfig: Handshake,
		Plugins:         Plugins(h),
		GRPCServer:      grpcServer,
		Logger:          hclog.NewNullLogger(), // its debug lines would only fill the bot's log
	})
}

// grpcServer fixes the flow-control windows, which turns off gRPC's bandwidth-delay probing:
// moves are tiny, and the probes' pings cost CPU on every message.
func grpcServer(opts []grpc.ServerOption) *grpc.Server {
	return grpc.NewServer(append(opts, grpc.InitialWindowSize(1<<20), grpc.InitialConnWindowSize(1<<20))...)
}

func nameOr(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// Handler serves BotService for one bot. Serve uses it; sdktest calls it in-process.
type Handler struct {
	arenav1.UnimplementedBotServiceServer
	bot Bot

	mu    sync.Mutex
	seats map[seatKey]*seatEntry

	realStderr *os.File
	stdioOnce  sync.Once
}

type seatKey struct {
	match string
	seat  int32
}

// seatEntry serialises calls to one seat; different seats run concurrently.
type seatEntry struct {
	mu sync.Mutex
	s  seat
}

// NewHandler builds the service for b.
func NewHandler(b Bot) *Handler {
	return &Handler{bot: b, seats: map[seatKey]*seatEntry{}}
}

// Describe names the bot.
func (h *Handler) Describe(context.Context, *arenav1.DescribeRequest) (*arenav1.DescribeResponse, error) {
	if h.realStderr != nil {
		h.stdioOnce.Do(func() { os.Stdout, os.Stderr = h.realStderr, h.realStderr })
	}
	var games []string
	for name, open := range openers {
		if _, ok := open(&h.bot, nil); ok {
			games = append(games, name)
		}
	}
	return &arenav1.DescribeResponse{Name: h.bot.Name, Author: h.bot.Author, Version: h.bot.Version,
		Games: games, Sdk: "go/" + Version}, nil
}

// Start opens a seat.
func (h *Handler) Start(_ context.Context, req *arenav1.StartRequest) (*arenav1.StartResponse, error) {
	open, ok := openers[req.GetGame()]
	if !ok {
		return &arenav1.StartResponse{Error: fmt.Sprintf("this SDK (go/%s) does not know the game %q", Version, req.GetGame())}, nil
	}
	var s seat
	var err error
	func() {
		defer func() {
			if r := recover(); r != nil {
				err = fmt.Errorf("panic while opening the seat: %v\n%s", r, debug.Stack())
			}
		}()
		s, ok = open(&h.bot, req)
	}()
	if err != nil {
		return &arenav1.StartResponse{Error: cut(err.Error(), maxErrorText)}, nil
	}
	if !ok {
		return &arenav1.StartResponse{Error: fmt.Sprintf("bot %q does not play %s", h.bot.Name, req.GetGame())}, nil
	}
	h.mu.Lock()
	h.seats[seatKey{req.GetMatchId(), req.GetSeat()}] = &seatEntry{s: s}
	h.mu.Unlock()
	return &arenav1.StartResponse{}, nil
}

func (h *Handler) lookup(match string, seat int32) *seatEntry {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.seats[seatKey{match, seat}]
}

// Act answers one move.
func (h *Handler) Act(_ context.Context, req *arenav1.ActRequest) (*arenav1.ActResponse, error) {
	resp := &arenav1.ActResponse{}
	h.ActInto(req, resp)
	return resp, nil
}

// ActInto answers one move into resp, which it resets first.
func (h *Handler) ActInto(req *arenav1.ActRequest, resp *arenav1.ActResponse) {
	resp.Reset()
	resp.Step = req.GetStep()
	e := h.lookup(req.GetMatchId(), req.GetSeat())
	if e == nil {
		resp.Error = &arenav1.BotError{Kind: arenav1.BotErrorKind_BOT_ERROR_KIND_INVALID_ANSWER,
			Message: fmt.Sprintf("no open seat %d in match %q", req.GetSeat(), req.GetMatchId())}
		return
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	defer func() {
		if r := recover(); r != nil {
			resp.Reset()
			resp.Step = req.GetStep()
			resp.Error = &arenav1.BotError{Kind: arenav1.BotErrorKind_BOT_ERROR_KIND_EXCEPTION,
				Message: cut(fmt.Sprint("panic: ", r), maxErrorText/4), Traceback: cut(string(debug.Stack()), maxErrorText)}
			fmt.Fprintf(os.Stderr, "panic in bot: %v\n%s", r, debug.Stack())
		}
	}()
	e.s.act(req, resp)
}

// ActStream answers moves on one stream until the host closes it.
func (h *Handler) ActStream(stream arenav1.BotService_ActStreamServer) error {
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
		h.ActInto(in.GetAct(), out.Act)
		if err := stream.Send(out); err != nil {
			return err
		}
	}
}

// End closes a seat.
func (h *Handler) End(_ context.Context, req *arenav1.EndRequest) (*arenav1.EndResponse, error) {
	k := seatKey{req.GetMatchId(), req.GetSeat()}
	h.mu.Lock()
	e := h.seats[k]
	delete(h.seats, k)
	h.mu.Unlock()
	if e != nil {
		e.mu.Lock()
		defer e.mu.Unlock()
		func() {
			defer func() { _ = recover() }()
			e.s.end(req)
		}()
	}
	return &arenav1.EndResponse{}, nil
}

// maxErrorText bounds the text of one error the SDK sends: the host refuses a message over
// 1 MiB (and keeps only a few KiB), so a huge panic value must not cost the bot its report.
const maxErrorText = 64 << 10

// cut keeps the head and the tail of s within about n bytes.
func cut(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n/2] + fmt.Sprintf("\n[... %d bytes cut by the SDK ...]\n", len(s)-n) + s[len(s)-n/2:]
}

// Clock tells a player how much time it has for the current move.
type Clock struct {
	// Deadline is when the host stops waiting for this move.
	Deadline time.Time
	// ClockRemaining is what is left of the seat's total clock (0 when the game has none).
	ClockRemaining time.Duration
}

// TimeLeft is the time until Deadline.
func (c Clock) TimeLeft() time.Duration { return time.Until(c.Deadline) }

func clockOf(req *arenav1.ActRequest) Clock {
	return Clock{Deadline: time.Now().Add(time.Duration(req.GetDeadlineMs()) * time.Millisecond),
		ClockRemaining: time.Duration(req.GetClockRemainingMs()) * time.Millisecond}
}

func invalid(resp *arenav1.ActResponse, format string, args ...any) {
	resp.Error = &arenav1.BotError{Kind: arenav1.BotErrorKind_BOT_ERROR_KIND_INVALID_ANSWER, Message: fmt.Sprintf(format, args...)}
}
