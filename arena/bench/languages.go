package bench

import (
	"context"
	"path/filepath"
	"strings"
	"time"

	"github.com/botarena/arena/arena/botspec"
	"github.com/botarena/arena/arena/build"
)

// StdioGoBot is the Go rock bot as a stdio program: the same moves as GoBot through the
// stdio bridge, so the difference is what the bridge adds.
const StdioGoBot = "bots/bench/stdio"

// languageBots are the dynamite bots timed per language, relative to the repository root.
// The kit bots play their own strategy (history kept), as a real submission does.
var languageBots = []struct {
	label, rel string
	network    bool // its build fetches packages
}{
	{"Go stdio bot", StdioGoBot, false},
	{"JavaScript stdio bot", "examples/javascript/dynamite", false},
	{"C++ stdio bot", "examples/cpp/dynamite", false},
	{"Rust stdio bot", "examples/rust/dynamite", false},
	{"Java stdio bot", "examples/java/dynamite", false},
	{"TypeScript native bot", "examples/typescript/dynamite", true},
}

// languages times a move and a start-up of a bot in every kit language, beside the Go and
// Python figures of the move and start-up sections, and what the stdio bridge adds.
func (r *runner) languages(ctx context.Context) error {
	net := &launcher{root: r.l.root, res: &botspec.Resolver{Python: r.cfg.Python, Build: build.Options{Network: true}}}
	var stdioGo time.Duration
	for _, b := range languageBots {
		l := r.l
		if b.network {
			l = net
		}
		if _, err := l.res.Command(filepath.Join(l.root, b.rel)); err != nil {
			why := firstLine(err.Error())
			r.missing("languages", b.label+" p50", why)
			r.missing("languages", b.label+" ready", why)
			continue
		}
		p50, err := r.moveP50(ctx, l, b.rel)
		if err != nil {
			r.missing("languages", b.label+" p50", firstLine(err.Error()))
		} else {
			r.dur("languages", b.label+" p50", p50, "dynamite move, host.Seat.Act; the kit's own strategy")
			// Every kit bot against the Python peer: the yardstick for a stdio program.
			r.vsPeerP50(r.pyPeer)
			if strings.Contains(b.label, "stdio") {
				r.peerTarget(2)
			}
			if b.rel == StdioGoBot {
				stdioGo = p50
			}
		}
		var ready Sample
		for range r.sz.goStarts {
			t0 := time.Now()
			bot, err := l.launch(ctx, b.rel)
			if err != nil {
				r.missing("languages", b.label+" ready", firstLine(err.Error()))
				ready = nil
				break
			}
			ready = append(ready, time.Since(t0))
			bot.Close()
		}
		if ready != nil {
			r.dur("languages", b.label+" ready", ready.P50(), "spawn + sandbox + runtime + handshake (the bridge's, for stdio) + Describe")
		}
	}
	if stdioGo > 0 && r.goP50 > 0 {
		added := stdioGo - r.goP50
		r.dur("languages", "stdio bridge adds per move", added, "Go stdio bot p50 - Go bot p50")
		r.target("<= 1 pipe round trip", added <= r.pipe)
	}
	return nil
}

// moveP50 is the p50 of a bot's dynamite moves.
func (r *runner) moveP50(ctx context.Context, l *launcher, rel string) (time.Duration, error) {
	b, err := l.launch(ctx, rel)
	if err != nil {
		return 0, err
	}
	defer b.Close()
	m, err := NewMover(ctx, b)
	if err != nil {
		return 0, err
	}
	defer m.Close()
	s, err := measureMoves(ctx, m, r.sz.goMoves)
	if err != nil {
		return 0, err
	}
	return s.P50(), nil
}
