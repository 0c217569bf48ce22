package auction

import (
	"context"
	"testing"

	arenav1 "github.com/botarena/arena/proto/arena/v1"
	"github.com/botarena/arena/sdk"
)

type auctionRecorder struct {
	bids  []int
	seen  []State
	final *State
}

func (r *auctionRecorder) Bid(s *State) int {
	c := *s
	c.Won = map[string][]int{}
	for n, w := range s.Won {
		c.Won[n] = append([]int(nil), w...)
	}
	r.seen = append(r.seen, c)
	return r.bids[len(r.seen)-1]
}

func (r *auctionRecorder) End(s *State) { r.final = s }

func TestAuctionStateTracksRounds(t *testing.T) {
	t.Parallel()
	rec := &auctionRecorder{bids: []int{5, 0, 7}}
	h := sdk.NewHandler(sdk.Bot{Name: "rec", Games: []sdk.Game{Play(func() Player { return rec })}})
	start := &arenav1.StartRequest{MatchId: "m", Seat: 1, Game: "auction", Setup: &arenav1.StartRequest_Auction{Auction: &arenav1.AuctionSetup{
		ArtistsNum: 3, RequiredCount: 2, AuctionItems: []string{"t2", "t0", "t2", "t1"}, PlayerCount: 2,
		PlayerNames: []string{"a", "b"}, OwnName: "b", StartMoney: 100}}}
	if r, _ := h.Start(context.Background(), start); r.GetError() != "" {
		t.Fatal(r.GetError())
	}
	obs := []*arenav1.AuctionObservation{
		{ItemIndex: 0, Item: "t2", WinningBid: -1, WealthTable: map[string]int64{"a": 100, "b": 100}, RemainTime: map[string]float64{"a": 120, "b": 120}, OwnMoney: 100},
		{ItemIndex: 1, Item: "t0", BidItem: "t2", BidWinner: "b", WinningBid: 5, WealthTable: map[string]int64{"a": 100, "b": 95}, RemainTime: map[string]float64{"a": 119, "b": 118.5}, OwnMoney: 95},
		{ItemIndex: 2, Item: "t2", BidItem: "t0", BidWinner: "a", WinningBid: 0, WealthTable: map[string]int64{"a": 100, "b": 95}, RemainTime: map[string]float64{"a": 118, "b": 118}, OwnMoney: 95},
	}
	var resp arenav1.ActResponse
	for i, o := range obs {
		h.ActInto(&arenav1.ActRequest{MatchId: "m", Seat: 1, Step: int64(i + 1), DeadlineMs: 1000, ClockRemainingMs: 100000,
			Observation: &arenav1.ActRequest_Auction{Auction: o}}, &resp)
		if resp.GetAuction().GetBid() != float64(rec.bids[i]) || resp.GetStep() != int64(i+1) {
			t.Fatalf("step %d: %v", i+1, &resp)
		}
	}
	s0, s2 := rec.seen[0], rec.seen[2]
	if s0.Setup.ArtistsNum != 3 || s0.Setup.RequiredCount != 2 || len(s0.Setup.AuctionItems) != 4 || s0.Setup.PlayerCount != 2 ||
		s0.Setup.OwnName != "b" || s0.Setup.WealthTable["a"] != 100 || s0.BidItem != "" || s0.WinningBid != -1 || s0.Item != "t2" {
		t.Fatalf("first state %+v setup %+v", s0, s0.Setup)
	}
	if s2.Round != 2 || s2.Item != "t2" || s2.BidItem != "t0" || s2.BidWinner != "a" || s2.WinningBid != 0 || s2.Money != 95 ||
		s2.WealthTable["b"] != 95 || s2.OwnRemainTime() != 118 || s2.ClockRemaining.Seconds() != 100 {
		t.Fatalf("third state %+v", s2)
	}
	if s2.Won["b"][2] != 1 || s2.Won["a"][0] != 1 || s2.Needs("b", 2) != 1 || s2.Needs("a", 2) != 2 {
		t.Fatalf("won %v", s2.Won)
	}
	h.End(context.Background(), &arenav1.EndRequest{MatchId: "m", Seat: 1, Observation: &arenav1.EndRequest_Auction{Auction: &arenav1.AuctionObservation{
		ItemIndex: 3, Finished: true, BidItem: "t2", BidWinner: "b", WinningBid: 7, GameWinner: "b",
		WealthTable: map[string]int64{"a": 100, "b": 88}, OwnMoney: 88}}})
	if f := rec.final; f == nil || !f.Finished || f.GameWinner != "b" || f.Won["b"][2] != 2 || f.Money != 88 {
		t.Fatalf("final %+v", rec.final)
	}
}

func TestArtistIndex(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]int{"t0": 0, "t12": 12, "x1": -1, "t": -1, "t-1": -1, "": -1} {
		if got := ArtistIndex(in); got != want {
			t.Errorf("ArtistIndex(%q) = %d, want %d", in, got, want)
		}
	}
}
