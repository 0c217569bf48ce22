package viewer_test

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/botarena/arena/arena/match"
	"github.com/botarena/arena/arena/players"
	"github.com/botarena/arena/arena/replay"
	"github.com/botarena/arena/arena/viewer"
	realtvbots "github.com/botarena/arena/bots/realtv"
)

// BenchmarkWrite makes the page of a full-length match of each game with its default
// parameters (the house bots of the short matches) and reports its size against MaxBytes:
//
//	go test -run '^$' -bench Write -benchtime 3x ./arena/viewer
func BenchmarkWrite(b *testing.B) {
	// Nobody crashes, which would end a match early.
	for _, s := range shortMatches(false) {
		b.Run(s.game, func(b *testing.B) {
			full := s
			full.params = nil
			benchWrite(b, recordWith(b, full, s.players()))
		})
	}
	// A realtv contest of ten scripts over the default 100 phases: the largest page of a usual match.
	b.Run("realtv-10-scripts", func(b *testing.B) {
		var ps []match.Player
		for i := range 10 {
			if i%2 == 0 {
				ps = append(ps, players.NewInProcess(fmt.Sprint("strong", i), realtvbots.LikesThemStrong()))
			} else {
				ps = append(ps, players.NewInProcess(fmt.Sprint("schemer", i), realtvbots.Schemer()))
			}
		}
		benchWrite(b, recordWith(b, short{game: "realtv", seed: 4}, ps))
	})
}

func benchWrite(b *testing.B, rec *replay.Record) {
	var page bytes.Buffer
	b.ResetTimer()
	for range b.N {
		page.Reset()
		if err := viewer.Write(&page, rec); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(len(rec.Steps)), "steps")
	b.ReportMetric(float64(page.Len())/(1<<20), "MiB/page")
	b.ReportMetric(float64(page.Len())/float64(viewer.MaxBytes)*100, "%limit")
}
