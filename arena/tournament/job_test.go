package tournament

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/botarena/arena/arena/store"
)

// TestJobCheckRefuses: a job names bots by hash and file name, or as the game's house bot;
// anything else (a path that leaves the snapshot, a hash that is not one, a house bot the game
// does not have, seats and bots that do not agree) is refused before a worker fetches, builds
// or plays anything.
func TestJobCheckRefuses(t *testing.T) {
	t.Parallel()
	hash := strings.Repeat("ab", 32)
	good := Job{Key: "k", Config: Config{Game: "dynamite"}, Match: store.Match{Idx: 1, Players: []int{0, 1}}, Bots: []JobBot{{Name: "a", Hash: hash}, {Name: "b", Hash: hash, Entry: "bot.py:Mine"}}}
	if err := good.check(); err != nil {
		t.Fatalf("a good job refused: %v", err)
	}
	withHouse := good
	withHouse.Bots = []JobBot{good.Bots[0], {Name: "h", House: "house-beatlast"}}
	if err := withHouse.check(); err != nil {
		t.Fatalf("a ladder job with the house bot refused: %v", err)
	}
	bad := map[string]func(j *Job){
		"entry leaves":         func(j *Job) { j.Bots[1].Entry = "../../etc/passwd" },
		"entry in folder":      func(j *Job) { j.Bots[1].Entry = "sub/bot.py" },
		"entry dot dot":        func(j *Job) { j.Bots[1].Entry = ".." },
		"short hash":           func(j *Job) { j.Bots[0].Hash = "abc" },
		"hash not hex":         func(j *Job) { j.Bots[0].Hash = strings.Repeat("zz", 32) },
		"hash with slash":      func(j *Job) { j.Bots[0].Hash = "../" + hash[3:] },
		"seats and bots":       func(j *Job) { j.Bots = j.Bots[:1] },
		"negative bot":         func(j *Job) { j.Match.Players = []int{-1, 1} },
		"no seats at all":      func(j *Job) { j.Bots, j.Match.Players = nil, nil },
		"huge bot index":       func(j *Job) { j.Match.Players = []int{0, 1 << 40} },
		"unknown house":        func(j *Job) { j.Bots[1] = JobBot{Name: "h", House: "../../bin/sh"} },
		"another game's house": func(j *Job) { j.Bots[1] = JobBot{Name: "h", House: "house-random"} },
		"house with files":     func(j *Job) { j.Bots[1] = JobBot{Name: "h", House: "house-beatlast", Hash: hash} },
	}
	for name, spoil := range bad {
		j := good
		j.Bots = append([]JobBot(nil), good.Bots...)
		j.Match.Players = append([]int(nil), good.Match.Players...)
		spoil(&j)
		if err := j.check(); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}

// BenchmarkResultDecode: the coordinator's share of a result before the store: decompress
// and decode a dynamite-sized result (a 200 KiB replay).
func BenchmarkResultDecode(b *testing.B) {
	var rp bytes.Buffer
	rp.WriteString(`{"steps":[`)
	for i := 0; rp.Len() < 200<<10; i++ {
		fmt.Fprintf(&rp, `{"round":%d,"moves":["R","%c"]},`, i, "RPSDW"[i%5])
	}
	rp.WriteString(`{}]}`)
	r := Result{Key: "k", Finish: store.Finish{Result: json.RawMessage(`{"outcome":{}}`)}, Replay: rp.Bytes()}
	data, err := encodeResult(r)
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(data)))
	b.ResetTimer()
	for range b.N {
		got, err := DecodeResult(data)
		if err != nil || got.ValidFor(store.Match{}) != nil {
			b.Fatal(err)
		}
	}
}

// An exhausted audit settles on its one result (unaudited), never on either side of two
// results that disagree: their tie-break is published again while rounds are left, and the
// match then fails, charged to no bot.
func TestExhaustedAuditNeverSettlesADispute(t *testing.T) {
	one := &Trial{Audit: true, got: []Accepted{{Worker: "w1"}}}
	if s := one.Exhausted(5); s.Record == nil || s.Record.Worker != "w1" || s.Record.Audited {
		t.Fatalf("one result, exhausted: %+v, want it recorded unaudited", s)
	}
	two := &Trial{Audit: true, got: []Accepted{{Worker: "mallory"}, {Worker: "honest"}}}
	s := two.Exhausted(5)
	if s.Record != nil || !s.Again || !strings.Contains(s.Note, "mallory and honest disagree") {
		t.Fatalf("two results that disagree, exhausted: %+v, want the tie-break published again", s)
	}
	two.Job.Round = maxRounds - 1
	if s := two.Exhausted(5); s.Record != nil || s.Again || !strings.Contains(s.Fail, "charged to no bot") {
		t.Fatalf("two results that disagree, exhausted in the last round: %+v, want the match failed", s)
	}
}
