package host_test

import (
	"context"
	"testing"
	"time"

	arenav1 "github.com/botarena/arena/proto/arena/v1"
)

// BenchmarkActGo is one move round trip host -> Go bot -> host on an open seat.
func BenchmarkActGo(b *testing.B) {
	bot, err := launchB("paper")
	if err != nil {
		b.Fatal(err)
	}
	defer bot.Close()
	seat, err := bot.Open(context.Background(), &arenav1.StartRequest{MatchId: "b", Game: "dynamite",
		Setup: &arenav1.StartRequest_Dynamite{Dynamite: &arenav1.DynamiteSetup{}}}, time.Second)
	if err != nil {
		b.Fatal(err)
	}
	req := &arenav1.ActRequest{MatchId: "b", Observation: &arenav1.ActRequest_Dynamite{Dynamite: &arenav1.DynamiteObservation{Round: 1}}}
	b.ResetTimer()
	for i := range b.N {
		req.Step = int64(i + 1)
		if _, err := seat.Act(req, time.Second); err != nil {
			b.Fatal(err)
		}
	}
}
