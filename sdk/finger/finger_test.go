package finger

import (
	"context"
	"fmt"
	"testing"

	arenav1 "github.com/botarena/arena/proto/arena/v1"
	"github.com/botarena/arena/sdk"
)

// fingerRecorder answers with a fixed move and keeps a copy of every state it saw.
type fingerRecorder struct {
	move Move
	seen []State
}

func (r *fingerRecorder) Move(s *State) Move {
	c := *s
	c.History = append([]Turn(nil), s.History...)
	r.seen = append(r.seen, c)
	return r.move
}

func openFinger(t *testing.T, p Player) *sdk.Handler {
	t.Helper()
	h := sdk.NewHandler(sdk.Bot{Name: "rec", Games: []sdk.Game{Play(func() Player { return p })}})
	resp, err := h.Start(context.Background(), &arenav1.StartRequest{MatchId: "m", Seat: 1, Game: "finger",
		Setup: &arenav1.StartRequest_Finger{Finger: &arenav1.FingerSetup{Games: 3, MaxRounds: 5000, OwnName: "me", OpponentName: "you"}}})
	if err != nil || resp.Error != "" {
		t.Fatalf("start: %v %q", err, resp.GetError())
	}
	return h
}

func fingerReq(step int64, o *arenav1.FingerObservation) *arenav1.ActRequest {
	return &arenav1.ActRequest{MatchId: "m", Seat: 1, Step: step, DeadlineMs: 1000, Observation: &arenav1.ActRequest_Finger{Finger: o}}
}

func entry(player string, own bool, m arenav1.FingerMove, l, r int32) *arenav1.FingerHistoryEntry {
	return &arenav1.FingerHistoryEntry{Player: player, Own: own, Action: &arenav1.FingerAction{Move: m, SwitchLeft: l, SwitchRight: r}}
}

func TestFingerStateRebuildsHistoryFromDeltas(t *testing.T) {
	t.Parallel()
	rec := &fingerRecorder{move: Switch(2, 0)}
	h := openFinger(t, rec)
	var resp arenav1.ActResponse
	steps := []*arenav1.FingerObservation{
		{Game: 1, NewGame: true, StartingPlayer: "you", Round: 2, OwnLeft: 2, OwnRight: 1, OpponentLeft: 1, OpponentRight: 1,
			Recent: []*arenav1.FingerHistoryEntry{entry("you", false, arenav1.FingerMove_FINGER_MOVE_LEFT_TO_LEFT, 0, 0)}},
		{Game: 1, StartingPlayer: "you", Round: 4, OwnLeft: 2, OwnRight: 0, OpponentLeft: 0, OpponentRight: 2,
			Recent: []*arenav1.FingerHistoryEntry{entry("me", true, arenav1.FingerMove_FINGER_MOVE_SWITCH, 2, 0), entry("you", false, arenav1.FingerMove_FINGER_MOVE_SWITCH, 0, 2)}},
		{Game: 2, NewGame: true, StartingPlayer: "me", Started: true, Round: 1, OwnLeft: 1, OwnRight: 1, OpponentLeft: 1, OpponentRight: 1, GamesWon: 1, GamesBothLost: 0},
	}
	for i, o := range steps {
		h.ActInto(fingerReq(int64(i+1), o), &resp)
		if resp.GetError() != nil || resp.GetFinger().GetMove() != arenav1.FingerMove_FINGER_MOVE_SWITCH || resp.GetFinger().GetSwitchLeft() != 2 || resp.Step != int64(i+1) {
			t.Fatalf("step %d: response %v", i+1, &resp)
		}
	}
	got := fmt.Sprint(rec.seen[1].History)
	want := fmt.Sprint([]Turn{{"you", false, LeftToLeft}, {"me", true, Switch(2, 0)}, {"you", false, Switch(0, 2)}})
	if got != want {
		t.Fatalf("history %s, want %s", got, want)
	}
	s := rec.seen[1]
	if s.Round != 4 || s.OwnLeft != 2 || s.OwnRight != 0 || s.OpponentRight != 2 || s.StartingPlayer != "you" || s.Started ||
		s.OwnName != "me" || s.OpponentName != "you" || s.Games != 3 || s.MaxRounds != 5000 || s.TimeLeft() <= 0 {
		t.Fatalf("state %+v", s)
	}
	if s := rec.seen[2]; len(s.History) != 0 || s.Game != 2 || !s.Started || s.GamesWon != 1 {
		t.Fatalf("new game state %+v", s)
	}
}

func TestFingerMovesGoOnTheWire(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		m    Move
		want arenav1.FingerMove
		l, r int32
	}{
		{LeftToLeft, arenav1.FingerMove_FINGER_MOVE_LEFT_TO_LEFT, 0, 0},
		{LeftToRight, arenav1.FingerMove_FINGER_MOVE_LEFT_TO_RIGHT, 0, 0},
		{RightToLeft, arenav1.FingerMove_FINGER_MOVE_RIGHT_TO_LEFT, 0, 0},
		{RightToRight, arenav1.FingerMove_FINGER_MOVE_RIGHT_TO_RIGHT, 0, 0},
		{Switch(3, 4), arenav1.FingerMove_FINGER_MOVE_SWITCH, 3, 4},
		// Out-of-range counts stay out of range (illegal) instead of wrapping into legal ones.
		{Switch(-1, 1<<32+2), arenav1.FingerMove_FINGER_MOVE_SWITCH, -1, 1<<31 - 1},
	} {
		h := openFinger(t, &fingerRecorder{move: tc.m})
		var resp arenav1.ActResponse
		h.ActInto(fingerReq(1, &arenav1.FingerObservation{Game: 1, NewGame: true, Round: 1, OwnLeft: 1, OwnRight: 1}), &resp)
		a := resp.GetFinger()
		if a.GetMove() != tc.want || a.GetSwitchLeft() != tc.l || a.GetSwitchRight() != tc.r {
			t.Errorf("%v: wire %v, want %v %d %d", tc.m, a, tc.want, tc.l, tc.r)
		}
		if back := FromWire(a); tc.l >= 0 && back != tc.m {
			t.Errorf("%v came back as %v", tc.m, back)
		}
	}
}

func TestFingerNoMoveIsAnInvalidAnswer(t *testing.T) {
	t.Parallel()
	for _, m := range []Move{{}, {Kind: 42}, {Kind: -1}} {
		h := openFinger(t, &fingerRecorder{move: m})
		var resp arenav1.ActResponse
		h.ActInto(fingerReq(1, &arenav1.FingerObservation{Game: 1, NewGame: true, Round: 1}), &resp)
		if resp.GetError().GetKind() != arenav1.BotErrorKind_BOT_ERROR_KIND_INVALID_ANSWER || resp.Action != nil {
			t.Errorf("%+v: response %v", m, &resp)
		}
	}
	// A dynamite observation sent to a finger seat is refused the same way.
	h := openFinger(t, &fingerRecorder{move: LeftToLeft})
	var resp arenav1.ActResponse
	h.ActInto(&arenav1.ActRequest{MatchId: "m", Seat: 1, Observation: &arenav1.ActRequest_Dynamite{Dynamite: &arenav1.DynamiteObservation{}}}, &resp)
	if resp.GetError() == nil {
		t.Fatal("wrong observation accepted")
	}
}

func TestFingerLegalMoves(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		s    State
		want string
	}{
		{State{OwnLeft: 1, OwnRight: 1, OpponentLeft: 1, OpponentRight: 1},
			"[LEFT TO LEFT LEFT TO RIGHT RIGHT TO LEFT RIGHT TO RIGHT SWITCH(0, 2) SWITCH(2, 0)]"},
		{State{OwnLeft: 0, OwnRight: 3, OpponentLeft: 0, OpponentRight: 4},
			"[RIGHT TO RIGHT SWITCH(1, 2) SWITCH(2, 1)]"},
		{State{OwnLeft: 4, OwnRight: 4, OpponentLeft: 1, OpponentRight: 0},
			"[LEFT TO LEFT RIGHT TO LEFT SWITCH(3, 5) SWITCH(5, 3)]"},
	} {
		if got := fmt.Sprint(tc.s.LegalMoves()); got != tc.want {
			t.Errorf("%d %d vs %d %d: %s, want %s", tc.s.OwnLeft, tc.s.OwnRight, tc.s.OpponentLeft, tc.s.OpponentRight, got, tc.want)
		}
	}
	s := State{OwnLeft: 3, OwnRight: 4, OpponentLeft: 1, OpponentRight: 1}
	for _, m := range []Move{Switch(4, 3), Switch(3, 4), Switch(6, 1), Switch(-1, 8), Switch(1, 1), {}} {
		if s.Legal(m) {
			t.Errorf("%v legal from 3 4", m)
		}
	}
}

func TestFingerDescribeListsFinger(t *testing.T) {
	t.Parallel()
	h := sdk.NewHandler(sdk.Bot{Name: "x", Games: []sdk.Game{Play(func() Player { return &fingerRecorder{} })}})
	d, _ := h.Describe(context.Background(), &arenav1.DescribeRequest{})
	if fmt.Sprint(d.Games) != "[finger]" {
		t.Fatalf("games %v", d.Games)
	}
}
