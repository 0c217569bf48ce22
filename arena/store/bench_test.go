package store_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"github.com/botarena/arena/arena/store"
)

// BenchmarkFinishMatch: results written into the store, one transaction per match as the
// coordinator writes them: a dynamite-sized record (result, two timings, one fault and a
// 64 KiB replay, compressed on the way in).
func BenchmarkFinishMatch(b *testing.B) {
	ctx := context.Background()
	st, err := store.Open(filepath.Join(b.TempDir(), "bench.db"))
	if err != nil {
		b.Fatal(err)
	}
	defer st.Close()
	ms := make([]store.Match, b.N)
	for i := range ms {
		ms[i] = store.Match{Idx: i, MatchID: fmt.Sprint("m", i), Seed: uint64(i), Players: []int{0, 1}}
	}
	bots := []store.Bot{{Idx: 0, Name: "a", Spec: "a"}, {Idx: 1, Name: "b", Spec: "b"}}
	id, err := st.CreateTournament(ctx, store.Tournament{Name: "bench", Game: "dynamite", Config: json.RawMessage(`{}`)}, bots, ms)
	if err != nil {
		b.Fatal(err)
	}
	var rp bytes.Buffer
	rp.WriteString(`{"steps":[`)
	for i := 0; rp.Len() < 64<<10; i++ {
		fmt.Fprintf(&rp, `{"round":%d,"moves":["R","%c"]},`, i, "RPSDW"[i%5])
	}
	rp.WriteString(`{}]}`)
	fin := store.Finish{
		Result:   json.RawMessage(`{"outcome":{"summary":"a wins 1000-870","scores":[1000,870]},"seats":[{"player":0},{"player":1}]}`),
		Timings:  []store.Timing{{Seat: 0, BotIdx: 0, Moves: 1870, Total: 200 * time.Millisecond}, {Seat: 1, BotIdx: 1, Moves: 1870, Total: 190 * time.Millisecond}},
		Faults:   []store.Fault{{BotIdx: 1, Seat: 1, Where: "round 12", Kind: "timeout", Penalty: "forfeit"}},
		Replay:   rp.Bytes(),
		Duration: 400 * time.Millisecond,
	}
	b.ResetTimer()
	for i := range b.N {
		f := fin
		f.Faults = []store.Fault{{MatchIdx: i, BotIdx: 1, Seat: 1, Where: "round 12", Kind: "timeout", Penalty: "forfeit"}}
		if err := st.FinishMatch(ctx, id, i, f); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "writes/s")
}
