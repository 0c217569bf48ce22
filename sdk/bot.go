package sdk

import (
	"context"
	"errors"
	"fmt"
	"os"
	"runtime/debug"
	"slices"
	"strings"
	"sync"

	arenav1 "github.com/botarena/arena/proto/arena/v1"
	"github.com/botarena/arena/sdk/handshake"
	"github.com/botarena/arena/sdk/internal/seat"
)

// Version is the SDK version reported to the host.
const Version = handshake.Version

// Bot describes a bot and the games it plays.
type Bot struct {
	Name    string
	Author  string
	Version string

	// Games holds one entry per game the bot plays, each made by that game's package:
	// dynamite.Play(newPlayer), finger.Play(newPlayer), ... The host opens a fresh player of
	// the game for every seat.
	Games []Game
}

// Game is one game a bot plays; make it with the game package's Play function.
type Game = seat.Game

// Clock tells a player how much time it has for the current move; every game's state
// embeds it.
type Clock = seat.Clock

// game is b's entry for the named game, or nil.
func (b *Bot) game(name string) *Game {
	for i := range b.Games {
		if b.Games[i].Name == name && b.Games[i].Open != nil {
			return &b.Games[i]
		}
	}
	return nil
}

// names lists the games b plays, sorted.
func (b *Bot) names() []string {
	var out []string
	for _, g := range b.Games {
		if g.Open != nil && !slices.Contains(out, g.Name) {
			out = append(out, g.Name)
		}
	}
	slices.Sort(out)
	return out
}

// ErrNotServed means the program was run by hand rather than by the arena.
var ErrNotServed = errors.New("not started by the arena")

// Serve runs the bot until the host stops it. Run by hand (without the host's cookie), it
// explains how to play the bot and exits with status 1.
func Serve(b Bot) {
	if os.Getenv(handshake.CookieKey) != handshake.CookieValue {
		fmt.Fprint(os.Stderr, notServedMessage(&b, os.Args[0]))
		os.Exit(1)
	}
	handshake.Serve(NewHandler(b))
}

// notServedMessage explains, to someone who ran the bot by hand, how to play it: one example
// per game it plays, against that game's house bot.
func notServedMessage(b *Bot, program string) string {
	var plays strings.Builder
	for _, g := range b.Games {
		if g.Open == nil {
			continue
		}
		opponent := g.HouseBot
		if opponent == "" {
			opponent = "<another bot>"
		}
		fmt.Fprintf(&plays, "    arena play %s <this bot's package dir or binary> %s\n", g.Name, opponent)
	}
	if plays.Len() == 0 {
		plays.WriteString("    arena play <game> <this bot's package dir or binary> <another bot>\n\n" +
			"(this bot plays no game yet: list them in sdk.Bot's Games, e.g. dynamite.Play(...))\n")
	}
	return fmt.Sprintf("%s is an arena bot: it talks to the arena host over gRPC and is not meant\n"+
		"to be run by hand. Play it with, for example:\n\n%s\n(%v)\n", nameOr(b.Name, program), plays.String(), ErrNotServed)
}

func nameOr(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// Handler serves BotService for one bot. Serve uses it; arena/players plays it in-process.
type Handler struct {
	arenav1.UnimplementedBotServiceServer
	bot Bot

	mu    sync.Mutex
	seats map[seatKey]*seatEntry
}

type seatKey struct {
	match string
	seat  int32
}

// seatEntry serialises calls to one seat; different seats run concurrently.
type seatEntry struct {
	mu sync.Mutex
	s  seat.Seat
}

// NewHandler builds the service for b.
func NewHandler(b Bot) *Handler {
	return &Handler{bot: b, seats: map[seatKey]*seatEntry{}}
}

// Describe names the bot.
func (h *Handler) Describe(context.Context, *arenav1.DescribeRequest) (*arenav1.DescribeResponse, error) {
	return &arenav1.DescribeResponse{Name: h.bot.Name, Author: h.bot.Author, Version: h.bot.Version,
		Games: h.bot.names(), Sdk: "go/" + Version}, nil
}

// Start opens a seat.
func (h *Handler) Start(_ context.Context, req *arenav1.StartRequest) (*arenav1.StartResponse, error) {
	g := h.bot.game(req.GetGame())
	if g == nil {
		plays := strings.Join(h.bot.names(), ", ")
		if plays == "" {
			plays = "nothing"
		}
		return &arenav1.StartResponse{Error: fmt.Sprintf("bot %q does not play %s (it plays %s)", h.bot.Name, req.GetGame(), plays)}, nil
	}
	var s seat.Seat
	var err error
	func() {
		defer func() {
			if r := recover(); r != nil {
				err = fmt.Errorf("panic while opening the seat: %v\n%s", r, debug.Stack())
			}
		}()
		s = g.Open(req)
	}()
	if err == nil && s == nil {
		err = fmt.Errorf("the %s game opened no seat", g.Name)
	}
	if err != nil {
		return &arenav1.StartResponse{Error: cut(err.Error(), maxErrorText)}, nil
	}
	h.mu.Lock()
	h.seats[seatKey{req.GetMatchId(), req.GetSeat()}] = &seatEntry{s: s}
	h.mu.Unlock()
	return &arenav1.StartResponse{}, nil
}

func (h *Handler) lookup(match string, n int32) *seatEntry {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.seats[seatKey{match, n}]
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
	e.s.Act(req, resp)
}

// ActStream answers moves on one stream until the host closes it.
func (h *Handler) ActStream(stream arenav1.BotService_ActStreamServer) error {
	return handshake.ActStream(stream, h.ActInto)
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
			e.s.End(req)
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
