package hostile_test

import (
	"context"
	"encoding/hex"
	"fmt"
	"path/filepath"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"google.golang.org/protobuf/proto"

	"github.com/botarena/arena/arena/bounded"
	"github.com/botarena/arena/arena/game"
	"github.com/botarena/arena/arena/games/dynamite"
	"github.com/botarena/arena/arena/host"
	"github.com/botarena/arena/arena/match"
	"github.com/botarena/arena/arena/players"
	"github.com/botarena/arena/internal/slack"
	arenav1 "github.com/botarena/arena/proto/arena/v1"
	"github.com/botarena/arena/sdk"
	sdkdynamite "github.com/botarena/arena/sdk/dynamite"
)

// fuzzHeapLimit is what the fuzzing process's live heap may reach. The host keeps nothing of
// an answer past its match, so a leak of one 1 MiB answer per input crosses it within a few hundred inputs.
const fuzzHeapLimit = 128 << 20

// FuzzBotAnswers plays one-round dynamite matches against a real bot process
// (bots/hostile/fuzz) that answers with the fuzzer's bytes: a raw ActStreamResponse, a
// BotError, a raw StartResponse or a raw Describe answer, each repeated up to a little over
// the host's message limit. Every answer that is not a legal move must be charged to the bot as
// a fault with bounded text, never be a host error, and the host's live heap stays bounded.
// scripts/test.sh runs it for a few seconds.
func FuzzBotAnswers(f *testing.F) {
	valid, _ := proto.Marshal(&arenav1.ActStreamResponse{Act: &arenav1.ActResponse{Step: 1,
		Action: &arenav1.ActResponse_Dynamite{Dynamite: &arenav1.DynamiteAction{Move: arenav1.DynamiteMove_DYNAMITE_MOVE_ROCK}}}})
	f.Add(uint8(0), valid, uint32(len(valid)))
	f.Add(uint8(0), valid, uint32(host.MaxMessage+1)) // a valid prefix, then over the limit
	f.Add(uint8(1), []byte("Traceback (most recent call last):\n  File \"bot.py\", line 1, in move\n"), uint32(host.MaxMessage-64))
	f.Add(uint8(1), []byte{0xff, 0xfe}, uint32(100))
	f.Add(uint8(2), []byte("\x0a\x05nope!"), uint32(7))
	f.Add(uint8(2), []byte("\x0a"), uint32(1))
	f.Add(uint8(3), []byte("\x0a\x03bot\x22\x01g"), uint32(1<<20))
	f.Add(uint8(0), []byte{0x0a, 0x80}, uint32(3))

	bin := filepath.Join(root, "bots/hostile/fuzz")
	cmd, err := resolver.Command(bin)
	if err != nil {
		f.Fatal(err)
	}
	opt := host.Options{StartTimeout: slack.Of(f, 30*time.Second)}
	var bot *host.Bot
	defer func() {
		if bot != nil {
			bot.Close()
		}
	}()
	var n atomic.Int64
	f.Fuzz(func(t *testing.T, kind uint8, payload []byte, size uint32) {
		if len(payload) == 0 {
			payload = []byte{0}
		}
		size %= host.MaxMessage + 64<<10 // up to a little over the limit
		what := [...]string{"act", "error", "start", "describe"}[kind%4]
		if what == "describe" {
			size %= 60 << 10 // travels in an environment variable
			if len(payload) > 30<<10 {
				payload = payload[:30<<10]
			}
			fuzzDescribe(t, cmd, opt, payload, int(size))
			return
		}
		if bot == nil || !bot.Alive() {
			if bot != nil {
				bot.Close()
			}
			if bot, err = host.Launch(context.Background(), cmd, opt); err != nil {
				t.Fatal(err)
			}
		}
		id := fmt.Sprintf("fuzz-%s-%d-%s", what, size, hex.EncodeToString(payload))
		cfg := game.Config{Seed: 1, Params: map[string]string{"rounds": "1"},
			Players: []game.Player{{Name: "fuzz"}, {Name: "rock"}}}
		house := players.NewInProcess("rock", sdk.Bot{Name: "rock", Games: []sdk.Game{sdkdynamite.Play(func() sdkdynamite.Player {
			return sdkdynamite.Func(func(*sdkdynamite.State) sdkdynamite.Move { return sdkdynamite.Rock })
		})}})
		res, err := match.Run(context.Background(), dynamite.Spec, cfg, []match.Player{players.Process{Bot: bot}, house},
			match.Options{MatchID: id, Deadline: 5 * time.Second})
		if err != nil {
			t.Fatalf("a bot's answer became a host error: %v", err)
		}
		var charged bool
		for _, fr := range res.Outcome.Faults {
			if fr.Seat != 0 {
				t.Fatalf("the house bot was charged: %+v", fr)
			}
			if len(fr.Detail) > bounded.Detail+1024 {
				t.Fatalf("a fault of %d bytes was kept: %.200q", len(fr.Detail), fr.Detail)
			}
			charged = true
		}
		if !charged && !legalAnswer(what, payload, int(size)) {
			t.Fatalf("%s answer %.100x (%d bytes) was not charged: %+v", what, payload, size, res.Outcome)
		}
		checkHeap(t, &n)
	})
}

// legalAnswer says whether the fuzz bot's answer is a legal first move of dynamite: only then
// may the match go without a fault.
func legalAnswer(what string, payload []byte, size int) bool {
	switch what {
	case "start":
		var r arenav1.StartResponse
		return proto.Unmarshal(expand(payload, size), &r) == nil && r.GetError() == ""
	case "act":
		var r arenav1.ActStreamResponse
		b := expand(payload, size)
		if len(b) > host.MaxMessage || proto.Unmarshal(b, &r) != nil || r.GetAct().GetStep() != 1 || r.GetAct().GetError() != nil {
			return false
		}
		m := r.GetAct().GetDynamite().GetMove()
		return m != arenav1.DynamiteMove_DYNAMITE_MOVE_UNSPECIFIED && arenav1.DynamiteMove_name[int32(m)] != "" && proto.Size(r.GetAct()) <= match.MaxAction
	}
	return false
}

func expand(p []byte, size int) []byte {
	out := make([]byte, 0, size)
	for len(out) < size {
		out = append(out, p[:min(len(p), size-len(out))]...)
	}
	return out
}

// fuzzDescribe launches a fresh bot whose Describe answer is the payload: the launch either
// fails with a bounded error or yields bounded fields.
func fuzzDescribe(t *testing.T, cmd host.Command, opt host.Options, payload []byte, size int) {
	cmd.Env = append(append([]string(nil), cmd.Env...), fmt.Sprintf("FUZZ_DESCRIBE=%d-%s", size, hex.EncodeToString(payload)))
	b, err := host.Launch(context.Background(), cmd, opt)
	if err != nil {
		if len(err.Error()) > 16<<10 {
			t.Fatalf("a launch error of %d bytes", len(err.Error()))
		}
		return
	}
	defer b.Close()
	d := b.Desc
	for _, s := range append([]string{d.GetName(), d.GetAuthor(), d.GetVersion(), d.GetSdk()}, d.GetGames()...) {
		if len(s) > bounded.Name+64 || strings.ContainsAny(s, "\n\r") {
			t.Fatalf("a Describe field kept as %d bytes: %.100q", len(s), s)
		}
	}
	if len(d.GetGames()) > bounded.Games {
		t.Fatalf("%d games kept", len(d.GetGames()))
	}
}

// checkHeap collects every 8 inputs and fails when the live heap passes fuzzHeapLimit.
func checkHeap(t *testing.T, n *atomic.Int64) {
	if n.Add(1)%8 != 0 {
		return
	}
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	if ms.HeapAlloc > fuzzHeapLimit {
		t.Fatalf("live heap %d MiB after %d inputs (limit %d MiB)", ms.HeapAlloc>>20, n.Load(), fuzzHeapLimit>>20)
	}
}
