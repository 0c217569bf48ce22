package gametest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"sync"
	"time"

	"google.golang.org/protobuf/encoding/protojson"

	"github.com/botarena/arena/arena/game"
	"github.com/botarena/arena/arena/match"
	"github.com/botarena/arena/arena/replay"
	arenav1 "github.com/botarena/arena/proto/arena/v1"
)

// observations is what every seat was sent, as its bot got it through the runner: the
// observation of each (step, seat) a seat was asked, as compact JSON.
type observations struct {
	mu   sync.Mutex
	seen map[[2]int64]string
	err  error
}

// watch wraps p so that every request its seats get is noted in o.
func (o *observations) watch(p match.Player) match.Player {
	return wrapAct(p, func(c match.Conn, req *arenav1.ActRequest, timeout time.Duration) (*arenav1.ActResponse, error) {
		o.note(req)
		return c.Act(req, timeout)
	})
}

func (o *observations) note(req *arenav1.ActRequest) {
	text, err := observationText(req)
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.seen == nil {
		o.seen = map[[2]int64]string{}
	}
	if err != nil && o.err == nil {
		o.err = fmt.Errorf("step %d seat %d: %w", req.GetStep(), req.GetSeat(), err)
	}
	o.seen[[2]int64{req.GetStep(), int64(req.GetSeat())}] = text
}

// fail keeps the first error.
func (o *observations) fail(err error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.err == nil {
		o.err = err
	}
}

// observationText is req's observation alone (not the runner's step, deadline and clocks,
// which a loaded machine moves) as compact JSON, the same bytes every build.
func observationText(req *arenav1.ActRequest) (string, error) {
	b, err := protojson.Marshal(&arenav1.ActRequest{Observation: req.Observation})
	if err != nil {
		return "", err
	}
	// protojson varies its spacing on purpose; Compact removes it.
	var c bytes.Buffer
	if err := json.Compact(&c, b); err != nil {
		return "", err
	}
	return c.String(), nil
}

// before returns a replay visit that writes, ahead of each step's answers, what each seat the
// runner asked observed, one line a seat, as the engine gives it on the replay, where every
// answer takes no time (a game's clock, such as the auction's, shows in what a seat sees).
// Without a clock (exact) the live observation must be those same bytes: the runner sends
// the engine's observation unchanged.
func (o *observations) before(w io.Writer, exact bool) replay.Visit {
	var seats []game.Seat
	return func(st replay.Step, eng game.Engine, answers []game.Answer) {
		if seats == nil {
			seats = eng.Seats()
		}
		for _, a := range answers {
			o.mu.Lock()
			got, ok := o.seen[[2]int64{int64(st.N), int64(a.Seat)}]
			o.mu.Unlock()
			if !ok {
				continue // not asked: its player was already dead
			}
			var req arenav1.ActRequest
			eng.Observe(a.Seat, &req)
			text, err := observationText(&req)
			if err != nil || (exact && text != got) {
				o.fail(fmt.Errorf("step %d seat %d observed %s, but the engine on the replay gives %s (%v)", st.N, a.Seat, got, text, err))
			}
			name := fmt.Sprint("seat", a.Seat)
			if a.Seat >= 0 && a.Seat < len(seats) {
				name = seats[a.Seat].Name
			}
			fmt.Fprintf(w, "%5d  %s sees %s\n", st.N, name, text)
		}
	}
}
