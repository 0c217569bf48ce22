package sdk_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	arenav1 "github.com/botarena/arena/proto/arena/v1"
	"github.com/botarena/arena/sdk"
	"github.com/botarena/arena/sdk/dynamite"
	"github.com/botarena/arena/sdk/finger"
	"github.com/botarena/arena/sdk/realtv"
)

func twoGames() sdk.Bot {
	return sdk.Bot{Name: "two", Games: []sdk.Game{
		realtv.Play(func(realtv.Setup) realtv.Player {
			return realtv.Funcs{Elimination: func(*realtv.Context) string { return "" }, Tie: func(*realtv.Context) string { return "" }}
		}),
		finger.Play(func() finger.Player {
			return finger.Func(func(s *finger.State) finger.Move { return s.LegalMoves()[0] })
		}),
	}}
}

func TestNotServedMessageSuggestsEachGamesHouseBot(t *testing.T) {
	t.Parallel()
	b := twoGames()
	msg := sdk.NotServedMessage(&b, "/tmp/two")
	for _, want := range []string{"two is an arena bot", "arena play realtv <this bot's package dir or binary> bots/realtv/cmd/likesthemstrong",
		"arena play finger <this bot's package dir or binary> bots/finger/cmd/random", "not started by the arena"} {
		if !strings.Contains(msg, want) {
			t.Errorf("message lacks %q:\n%s", want, msg)
		}
	}
	if strings.Contains(msg, "dynamite") || strings.Contains(msg, "sdktest") {
		t.Errorf("message names a game the bot does not play:\n%s", msg)
	}
	none := sdk.Bot{Games: []sdk.Game{dynamite.Play(nil)}}
	if msg := sdk.NotServedMessage(&none, "/tmp/none"); !strings.Contains(msg, "/tmp/none is an arena bot") || !strings.Contains(msg, "plays no game") {
		t.Errorf("message for a bot of no game:\n%s", msg)
	}
}

func TestHandlerListsAndOpensOnlyTheGamesTheBotPlays(t *testing.T) {
	t.Parallel()
	h := sdk.NewHandler(twoGames())
	d, _ := h.Describe(context.Background(), &arenav1.DescribeRequest{})
	if fmt.Sprint(d.GetGames()) != "[finger realtv]" || d.GetSdk() != "go/"+sdk.Version {
		t.Fatalf("describe %v", d)
	}
	r, _ := h.Start(context.Background(), &arenav1.StartRequest{MatchId: "m", Game: "dynamite"})
	if r.GetError() != `bot "two" does not play dynamite (it plays finger, realtv)` {
		t.Fatalf("start %q", r.GetError())
	}
	if r, _ := h.Start(context.Background(), &arenav1.StartRequest{MatchId: "m", Game: "finger"}); r.GetError() != "" {
		t.Fatalf("start finger %q", r.GetError())
	}
	var resp arenav1.ActResponse
	h.ActInto(&arenav1.ActRequest{MatchId: "m", Step: 3, Observation: &arenav1.ActRequest_Finger{Finger: &arenav1.FingerObservation{
		Game: 1, NewGame: true, Round: 1, OwnLeft: 1, OwnRight: 1, OpponentLeft: 1, OpponentRight: 1}}}, &resp)
	if resp.GetFinger().GetMove() != arenav1.FingerMove_FINGER_MOVE_LEFT_TO_LEFT || resp.GetStep() != 3 {
		t.Fatalf("act %v", &resp)
	}
}

func TestAGameOpenedWithAPanicIsAStartError(t *testing.T) {
	t.Parallel()
	h := sdk.NewHandler(sdk.Bot{Name: "p", Games: []sdk.Game{dynamite.Play(func() dynamite.Player { panic("no player today") })}})
	r, _ := h.Start(context.Background(), &arenav1.StartRequest{MatchId: "m", Game: "dynamite"})
	if !strings.Contains(r.GetError(), "panic while opening the seat: no player today") {
		t.Fatalf("start %q", r.GetError())
	}
}
