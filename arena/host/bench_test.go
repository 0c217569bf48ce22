package host_test

import (
	"context"
	"testing"
	"time"

	"github.com/botarena/arena/arena/host"
	"github.com/botarena/arena/internal/selfcpu"
	"github.com/botarena/arena/internal/slack"
	arenav1 "github.com/botarena/arena/proto/arena/v1"
)

// BenchmarkActGo is one move round trip host -> Go bot -> host on an open seat, on the fast
// lane; host-cpu-ns/op is the host process's CPU time per move (every thread).
func BenchmarkActGo(b *testing.B) { benchAct(b, false) }

// BenchmarkActGoGRPC is BenchmarkActGo with every move over gRPC (ActStream).
func BenchmarkActGoGRPC(b *testing.B) { benchAct(b, true) }

func benchAct(b *testing.B, grpc bool) {
	bot, err := host.Launch(context.Background(), command("paper"), host.Options{StartTimeout: slack.Of(b, 5*time.Second), GRPCOnly: grpc})
	if err != nil {
		b.Fatal(err)
	}
	defer bot.Close()
	if bot.OnLane() == grpc {
		b.Fatalf("on the lane: %v", bot.OnLane())
	}
	seat, err := bot.Open(context.Background(), &arenav1.StartRequest{MatchId: "b", Game: "dynamite",
		Setup: &arenav1.StartRequest_Dynamite{Dynamite: &arenav1.DynamiteSetup{}}}, time.Second)
	if err != nil {
		b.Fatal(err)
	}
	req := &arenav1.ActRequest{MatchId: "b", Observation: &arenav1.ActRequest_Dynamite{Dynamite: &arenav1.DynamiteObservation{Round: 1}}}
	cpu0 := selfcpu.Used()
	b.ResetTimer()
	for i := range b.N {
		req.Step = int64(i + 1)
		if _, err := seat.Act(req, time.Second); err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	b.ReportMetric(float64(selfcpu.Used()-cpu0)/float64(b.N), "host-cpu-ns/op")
}
