package tournament_test

import (
	"context"
	"testing"

	"github.com/botarena/arena/arena/store"
	"github.com/botarena/arena/arena/tournament"
	dynamitebots "github.com/botarena/arena/bots/dynamite"
	"github.com/botarena/arena/sdk"
)

// BenchmarkVerify: what checking one worker's result costs the coordinator (decoding it and
// re-running the engine on its replay), for a full-length dynamite match between two
// in-process bots. Run: go test -run '^$' -bench Verify ./arena/tournament
func BenchmarkVerify(b *testing.B) {
	j := tournament.Job{Key: "k", Config: tournament.Config{Game: "dynamite"}, Match: store.Match{MatchID: "m", Players: []int{0, 1}, Seed: 5},
		Bots: []tournament.JobBot{{Name: "a"}, {Name: "b"}}, Nonce: "n"}
	r, err := tournament.PlayWith(context.Background(), j, []sdk.Bot{dynamitebots.BeatLastSeeded(1), dynamitebots.DynamiteSeeded(2)})
	if err != nil {
		b.Fatal(err)
	}
	data, err := tournament.EncodeResult(r)
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		got, err := tournament.DecodeResult(data)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := tournament.Verify(j, got); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(len(data)), "result-bytes")
	b.ReportMetric(float64(len(r.Replay)), "replay-bytes")
}
