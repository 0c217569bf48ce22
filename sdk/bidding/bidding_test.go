package bidding

import (
	"context"
	"fmt"
	"testing"

	arenav1 "github.com/botarena/arena/proto/arena/v1"
	"github.com/botarena/arena/sdk"
)

type biddingRecorder struct {
	bid  int
	seen []State
}

func (r *biddingRecorder) Bid(s *State) int {
	c := *s
	c.OwnBids = append([]int(nil), s.OwnBids...)
	c.OpponentBids = append([]int(nil), s.OpponentBids...)
	r.seen = append(r.seen, c)
	return r.bid
}

func biddingReq(step int64, o *arenav1.BiddingObservation) *arenav1.ActRequest {
	return &arenav1.ActRequest{MatchId: "m", Seat: 0, Step: step, DeadlineMs: 1000, Observation: &arenav1.ActRequest_Bidding{Bidding: o}}
}

func TestBiddingStateRebuildsBidHistories(t *testing.T) {
	t.Parallel()
	rec := &biddingRecorder{bid: 7}
	h := sdk.NewHandler(sdk.Bot{Name: "rec", Games: []sdk.Game{Play(func() Player { return rec })}})
	if r, _ := h.Start(context.Background(), &arenav1.StartRequest{MatchId: "m", Seat: 0, Game: "bidding",
		Setup: &arenav1.StartRequest_Bidding{Bidding: &arenav1.BiddingSetup{Games: 4, StartMoney: 100, MaxRounds: 10, OwnName: "me", OpponentName: "you"}}}); r.GetError() != "" {
		t.Fatal(r.Error)
	}
	obs := []*arenav1.BiddingObservation{
		{Game: 1, NewGame: true, Round: 1, Player: arenav1.BiddingPlayer_BIDDING_PLAYER_A, OwnMoney: 100, OpponentMoney: 100, StartMoney: 100, BottlePosition: 5, DrawAdvantage: true, OpponentName: "you"},
		{Game: 1, Round: 2, Player: arenav1.BiddingPlayer_BIDDING_PLAYER_A, OwnMoney: 93, OpponentMoney: 100, StartMoney: 100, BottlePosition: 6, HasLast: true, LastOwnBid: 7, LastOpponentBid: 3, RoundsWon: 1, OpponentName: "you"},
		{Game: 1, Round: 3, Player: arenav1.BiddingPlayer_BIDDING_PLAYER_A, OwnMoney: 93, OpponentMoney: 80, StartMoney: 100, BottlePosition: 5, HasLast: true, LastOwnBid: 7, LastOpponentBid: 20, RoundsWon: 1, RoundsLost: 1, OpponentName: "you"},
		{Game: 2, NewGame: true, Round: 1, Player: arenav1.BiddingPlayer_BIDDING_PLAYER_B, OwnMoney: 100, OpponentMoney: 100, StartMoney: 100, BottlePosition: 5, OpponentName: "you", GamesLost: 1},
	}
	var resp arenav1.ActResponse
	for i, o := range obs {
		h.ActInto(biddingReq(int64(i+1), o), &resp)
		if resp.GetBidding().GetBid() != 7 || resp.Step != int64(i+1) {
			t.Fatalf("step %d: %v", i+1, &resp)
		}
	}
	s := rec.seen[2]
	if fmt.Sprint(s.OwnBids, s.OpponentBids) != "[7 7] [3 20]" {
		t.Fatalf("bids %v %v", s.OwnBids, s.OpponentBids)
	}
	if !s.IsPlayerA() || s.Side != A || s.OwnMoney != 93 || s.OpponentMoney != 80 || s.StartMoney != 100 || s.BottlePosition != 5 ||
		s.RoundsWon != 1 || s.RoundsLost != 1 || s.Round != 3 || s.OpponentName != "you" || s.OwnName != "me" || s.Games != 4 || s.MaxRounds != 10 ||
		s.PlacesToWin() != 5 || s.MinBid() != 1 {
		t.Fatalf("state %+v", s)
	}
	if !rec.seen[0].DrawAdvantage || rec.seen[1].DrawAdvantage {
		t.Fatal("draw advantage not passed through")
	}
	n := rec.seen[3]
	if len(n.OwnBids) != 0 || len(n.OpponentBids) != 0 || n.IsPlayerA() || n.Side.String() != "B" || n.GamesLost != 1 || n.PlacesToWin() != 5 {
		t.Fatalf("new game %+v", n)
	}
	rec.bid = 0
	h.ActInto(biddingReq(5, &arenav1.BiddingObservation{Game: 2, Round: 2, Player: arenav1.BiddingPlayer_BIDDING_PLAYER_B, BottlePosition: 3}), &resp)
	if rec.seen[4].PlacesToWin() != 3 || rec.seen[4].PlacesToLose() != 7 || rec.seen[4].MinBid() != 0 || resp.GetBidding() == nil || resp.GetBidding().Bid != 0 {
		t.Fatalf("state %+v resp %v", rec.seen[4], &resp)
	}
}

func TestBiddingWrongObservationIsAnInvalidAnswer(t *testing.T) {
	t.Parallel()
	h := sdk.NewHandler(sdk.Bot{Name: "rec", Games: []sdk.Game{Play(func() Player { return &biddingRecorder{} })}})
	h.Start(context.Background(), &arenav1.StartRequest{MatchId: "m", Game: "bidding"})
	var resp arenav1.ActResponse
	h.ActInto(&arenav1.ActRequest{MatchId: "m", Observation: &arenav1.ActRequest_Finger{Finger: &arenav1.FingerObservation{}}}, &resp)
	if resp.GetError().GetKind() != arenav1.BotErrorKind_BOT_ERROR_KIND_INVALID_ANSWER {
		t.Fatalf("response %v", &resp)
	}
}
