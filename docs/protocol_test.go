// Package docs_test checks the worked examples of docs/protocol.md against real messages.
//
// Every example in the document is marked with a comment line
//
//	<!-- example NAME FORMAT -->
//
// followed by a fenced block. NAME is one of the messages recorded below from a real match
// (the real runner, the real engines, deterministic bots in this process); FORMAT is "json"
// or "text". A json block must be byte for byte what protojson produces for that message
// (re-indented with two spaces, since protojson's own whitespace is deliberately unstable) and
// must parse back to the same message; a text block must parse, with prototext, to the same
// message. `go test ./docs -update` rewrites every block from the recorded messages.
package docs_test

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"math"
	"os"
	"regexp"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/encoding/prototext"
	"google.golang.org/protobuf/proto"

	"github.com/botarena/arena/arena/game"
	_ "github.com/botarena/arena/arena/games/all"
	"github.com/botarena/arena/arena/match"
	"github.com/botarena/arena/arena/players"
	arenav1 "github.com/botarena/arena/proto/arena/v1"
	"github.com/botarena/arena/sdk"
	sdkauction "github.com/botarena/arena/sdk/auction"
	sdkbidding "github.com/botarena/arena/sdk/bidding"
	sdkdynamite "github.com/botarena/arena/sdk/dynamite"
	sdkfinger "github.com/botarena/arena/sdk/finger"
	sdkrealtv "github.com/botarena/arena/sdk/realtv"
)

var update = flag.Bool("update", false, "rewrite the examples in protocol.md from the recorded messages")

const doc = "protocol.md"

// call is one message of a recorded match, as the bot saw it (requests) or sent it (answers).
type call struct {
	kind string // start, act, answer, end
	seat int32
	step int64
	msg  proto.Message
}

// recorder keeps every message of one match.
type recorder struct {
	mu    sync.Mutex
	calls []call
}

func (r *recorder) add(kind string, seat int32, step int64, m proto.Message) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.calls = append(r.calls, call{kind, seat, step, proto.Clone(m)})
}

// find returns the message of the given kind for seat at step (step 0: the only one).
func (r *recorder) find(t *testing.T, kind string, seat int32, step int64) proto.Message {
	t.Helper()
	for _, c := range r.calls {
		if c.kind == kind && c.seat == seat && c.step == step {
			return c.msg
		}
	}
	t.Fatalf("no %s message for seat %d at step %d", kind, seat, step)
	return nil
}

// recPlayer is an in-process SDK bot whose seats record what crosses the wire.
type recPlayer struct {
	*players.InProcess
	rec *recorder
}

func (p recPlayer) Open(ctx context.Context, req *arenav1.StartRequest, d time.Duration) (match.Conn, error) {
	p.rec.add("start", req.GetSeat(), 0, req)
	c, err := p.InProcess.Open(ctx, req, d)
	if err != nil {
		return nil, err
	}
	return recConn{c, p.rec}, nil
}

type recConn struct {
	match.Conn
	rec *recorder
}

// Inline asks the seats one after the other in seat order, so that arrival order (the
// auction's ties) and therefore every message is the same on every run.
func (recConn) Inline() bool { return true }

func (c recConn) Act(req *arenav1.ActRequest, d time.Duration) (*arenav1.ActResponse, error) {
	c.rec.add("act", req.GetSeat(), req.GetStep(), req)
	resp, err := c.Conn.Act(req, d)
	if err == nil {
		c.rec.add("answer", req.GetSeat(), req.GetStep(), resp)
	}
	return resp, err
}

func (c recConn) End(req *arenav1.EndRequest, d time.Duration) error {
	c.rec.add("end", req.GetSeat(), 0, req)
	return c.Conn.End(req, d)
}

// play runs one match of game between bots through the real runner and records it.
func play(t *testing.T, gameName string, params map[string]string, bots ...sdk.Bot) *recorder {
	t.Helper()
	spec, err := game.Lookup(gameName)
	if err != nil {
		t.Fatal(err)
	}
	rec := &recorder{}
	cfg := game.Config{Seed: 7, Params: params}
	var ps []match.Player
	for i, b := range bots {
		name := fmt.Sprintf("%s-%c", gameName, 'a'+i)
		if b.Name != "" {
			name = b.Name
		}
		cfg.Players = append(cfg.Players, game.Player{Name: name})
		ps = append(ps, recPlayer{players.NewInProcess(name, b), rec})
	}
	res, err := match.Run(context.Background(), spec, cfg, ps, match.Options{MatchID: "m-" + gameName})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Outcome.Faults) > 0 {
		t.Fatalf("%s: the example bots faulted: %+v", gameName, res.Outcome.Faults)
	}
	return rec
}

// The example bots: small, deterministic, legal.

func dynamiteBot() sdk.Bot {
	return sdk.Bot{Name: "cycler", Games: []sdk.Game{sdkdynamite.Play(func() sdkdynamite.Player {
		return sdkdynamite.Func(func(s *sdkdynamite.State) sdkdynamite.Move {
			m := []sdkdynamite.Move{sdkdynamite.Rock, sdkdynamite.Paper, sdkdynamite.Dynamite, sdkdynamite.Scissors, sdkdynamite.Water}[(s.Round-1)%5]
			if m == sdkdynamite.Dynamite && s.OwnDynamiteLeft == 0 {
				m = sdkdynamite.Paper
			}
			return m
		})
	})}}
}

func dynamiteRock() sdk.Bot {
	return sdk.Bot{Name: "rocky", Games: []sdk.Game{sdkdynamite.Play(func() sdkdynamite.Player {
		return sdkdynamite.Func(func(*sdkdynamite.State) sdkdynamite.Move { return sdkdynamite.Rock })
	})}}
}

func fingerBot(name string, pick int) sdk.Bot {
	return sdk.Bot{Name: name, Games: []sdk.Game{sdkfinger.Play(func() sdkfinger.Player {
		return sdkfinger.Func(func(s *sdkfinger.State) sdkfinger.Move {
			legal := s.LegalMoves()
			return legal[(pick+s.Round)%len(legal)]
		})
	})}}
}

func biddingBot(name string, bid func(s *sdkbidding.State) int) sdk.Bot {
	return sdk.Bot{Name: name, Games: []sdk.Game{sdkbidding.Play(func() sdkbidding.Player {
		return sdkbidding.Func(func(s *sdkbidding.State) int { return max(min(bid(s), s.OwnMoney), min(1, s.OwnMoney)) })
	})}}
}

func auctionBot(name string, bid func(s *sdkauction.State) int) sdk.Bot {
	return sdk.Bot{Name: name, Games: []sdk.Game{sdkauction.Play(func() sdkauction.Player { return sdkauction.Func(bid) })}}
}

func realtvBot() sdk.Bot {
	// A weak instance betrays (votes for itself) to get a share of the traitors' bounty; a
	// strong one votes for the weakest other active player, in a tie vote the weakest of the tied.
	weakestOther := func(ps map[string]*sdkrealtv.PlayerContext, me string) string {
		var best *sdkrealtv.PlayerContext
		for _, p := range sdkrealtv.Sorted(ps) {
			if p.ID != me && (best == nil || p.Strength < best.Strength) {
				best = p
			}
		}
		return sdkrealtv.IDOf(best)
	}
	return sdk.Bot{Name: "Weakling", Games: []sdk.Game{sdkrealtv.Play(func(setup sdkrealtv.Setup) sdkrealtv.Player {
		return sdkrealtv.Funcs{
			Elimination: func(c *sdkrealtv.Context) string {
				if setup.Strength < 5 {
					return setup.ID
				}
				return weakestOther(c.ActivePlayers, setup.ID)
			},
			Tie: func(c *sdkrealtv.Context) string { return weakestOther(c.CurrentTies, setup.ID) },
		}
	})}}
}

// roundClocks rounds the auction's clock readings, which depend on how long each in-process
// answer took (microseconds), to 0.1 s, so that the example is the same on every run.
func roundClocks(m proto.Message) proto.Message {
	m = proto.Clone(m)
	var o *arenav1.AuctionObservation
	switch v := m.(type) {
	case *arenav1.ActRequest:
		v.ClockRemainingMs = (v.ClockRemainingMs + 50) / 100 * 100
		o = v.GetAuction()
	case *arenav1.EndRequest:
		o = v.GetAuction()
	}
	for k, s := range o.GetRemainTime() {
		o.RemainTime[k] = math.Round(s*10) / 10
	}
	return m
}

// examples plays one match per game and names the messages the document shows.
func examples(t *testing.T) map[string]proto.Message {
	ex := map[string]proto.Message{}

	r := play(t, "dynamite", nil, dynamiteBot(), dynamiteRock())
	ex["dynamite/start"] = r.find(t, "start", 0, 0)
	ex["dynamite/act-1"] = r.find(t, "act", 0, 1)
	ex["dynamite/act-4"] = r.find(t, "act", 0, 4)
	ex["dynamite/answer-4"] = r.find(t, "answer", 0, 4)
	ex["dynamite/end"] = r.find(t, "end", 0, 0)

	r = play(t, "finger", map[string]string{"games": "3"}, fingerBot("lefty", 0), fingerBot("righty", 1))
	ex["finger/start"] = r.find(t, "start", 1, 0)
	ex["finger/act-2"] = r.find(t, "act", 1, 2)
	ex["finger/answer-2"] = r.find(t, "answer", 1, 2)
	ex["finger/act-4"] = r.find(t, "act", 1, 4)
	ex["finger/answer-4"] = r.find(t, "answer", 1, 4)
	ex["finger/end"] = r.find(t, "end", 1, 0)

	r = play(t, "bidding", map[string]string{"games": "2"},
		biddingBot("steady", func(*sdkbidding.State) int { return 12 }),
		biddingBot("climber", func(s *sdkbidding.State) int { return 8 + 2*s.Round }))
	ex["bidding/start"] = r.find(t, "start", 0, 0)
	ex["bidding/act-1"] = r.find(t, "act", 0, 1)
	ex["bidding/act-3"] = r.find(t, "act", 0, 3)
	ex["bidding/answer-3"] = r.find(t, "answer", 0, 3)
	ex["bidding/end"] = r.find(t, "end", 0, 0)

	r = play(t, "auction", map[string]string{"items": "12", "artists": "3", "required": "2"},
		auctionBot("ann", func(s *sdkauction.State) int { return 7 }),
		auctionBot("bob", func(s *sdkauction.State) int {
			if s.Item == "t1" {
				return 20
			}
			return 3
		}),
		auctionBot("cy", func(s *sdkauction.State) int { return 5 }))
	ex["auction/start"] = r.find(t, "start", 0, 0)
	ex["auction/act-1"] = roundClocks(r.find(t, "act", 0, 1))
	ex["auction/act-2"] = roundClocks(r.find(t, "act", 0, 2))
	ex["auction/answer-2"] = r.find(t, "answer", 0, 2)
	ex["auction/end"] = roundClocks(r.find(t, "end", 0, 0))

	r = play(t, "realtv", map[string]string{"phases": "1"}, realtvBot())
	ex["realtv/start"] = r.find(t, "start", 10, 0)
	ex["realtv/act-2"] = r.find(t, "act", 10, 2)
	ex["realtv/answer-2"] = r.find(t, "answer", 10, 2)
	ex["realtv/end"] = r.find(t, "end", 10, 0)
	return ex
}

// canonicalJSON is protojson's output re-indented with two spaces.
func canonicalJSON(t *testing.T, m proto.Message) string {
	t.Helper()
	b, err := protojson.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if err := json.Indent(&out, b, "", "  "); err != nil {
		t.Fatal(err)
	}
	return out.String()
}

// canonicalText is prototext's output with single spaces (its spacing is unstable too).
func canonicalText(t *testing.T, m proto.Message) string {
	t.Helper()
	b, err := prototext.MarshalOptions{Multiline: true, Indent: "  "}.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	var lines []string
	for _, l := range strings.Split(strings.TrimRight(string(b), "\n"), "\n") {
		indent := len(l) - len(strings.TrimLeft(l, " "))
		lines = append(lines, l[:indent]+strings.Join(strings.Fields(l), " "))
	}
	return strings.Join(lines, "\n")
}

var marker = regexp.MustCompile(`^<!-- example ([a-z0-9/-]+) (json|text) -->$`)

// block is one marked example in the document: lines[start:end] are its content.
type block struct {
	name, format string
	start, end   int
}

func blocks(t *testing.T, lines []string) []block {
	t.Helper()
	var out []block
	for i := 0; i < len(lines); i++ {
		m := marker.FindStringSubmatch(lines[i])
		if m == nil {
			continue
		}
		if i+1 >= len(lines) || !strings.HasPrefix(lines[i+1], "```") {
			t.Fatalf("%s:%d: example %s is not followed by a fenced block", doc, i+1, m[1])
		}
		j := i + 2
		for j < len(lines) && lines[j] != "```" {
			j++
		}
		if j == len(lines) {
			t.Fatalf("%s:%d: example %s has no closing fence", doc, i+1, m[1])
		}
		out = append(out, block{m[1], m[2], i + 2, j})
		i = j
	}
	return out
}

func TestProtocolExamples(t *testing.T) {
	raw, err := os.ReadFile(doc)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(raw), "\n")
	ex := examples(t)
	bs := blocks(t, lines)
	shown := map[string]bool{}
	// Rewrite from the end so that earlier line numbers stay valid.
	for i := len(bs) - 1; i >= 0; i-- {
		b := bs[i]
		m, ok := ex[b.name]
		if !ok {
			t.Errorf("%s:%d: unknown example %q", doc, b.start-1, b.name)
			continue
		}
		shown[b.name+" "+b.format] = true
		got := strings.Join(lines[b.start:b.end], "\n")
		var want string
		if b.format == "json" {
			want = canonicalJSON(t, m)
		} else {
			want = canonicalText(t, m)
		}
		if *update {
			lines = append(lines[:b.start], append(strings.Split(want, "\n"), lines[b.end:]...)...)
			continue
		}
		if got != want {
			t.Errorf("%s:%d: example %s (%s) is not what the protocol produces; run go test ./docs -update\n--- document\n%s\n--- protocol\n%s",
				doc, b.start-1, b.name, b.format, got, want)
			continue
		}
		// The shown text must also read back as the very message (one schema, two encodings).
		back := m.ProtoReflect().New().Interface()
		if b.format == "json" {
			err = protojson.Unmarshal([]byte(got), back)
		} else {
			err = prototext.Unmarshal([]byte(got), back)
		}
		if err != nil || !proto.Equal(back, m) {
			t.Errorf("%s:%d: example %s (%s) does not read back as the message: %v", doc, b.start-1, b.name, b.format, err)
		}
	}
	// Every recorded example is shown in both encodings.
	var missing []string
	for name := range ex {
		for _, f := range []string{"json", "text"} {
			if !shown[name+" "+f] {
				missing = append(missing, name+" "+f)
			}
		}
	}
	sort.Strings(missing)
	if len(missing) > 0 && !*update {
		t.Errorf("%s does not show these examples: %s", doc, strings.Join(missing, ", "))
	}
	if *update {
		if err := os.WriteFile(doc, []byte(strings.Join(lines, "\n")), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// TestExamplesAreStable plays the example matches twice: the document can only be checked
// against messages that do not change from run to run.
func TestExamplesAreStable(t *testing.T) {
	a, b := examples(t), examples(t)
	for name, m := range a {
		if canonicalJSON(t, m) != canonicalJSON(t, b[name]) {
			t.Errorf("example %s differs between two runs", name)
		}
	}
}
