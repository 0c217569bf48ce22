package cli

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"sync"

	"github.com/spf13/cobra"

	"github.com/botarena/arena/arena/botspec"
	"github.com/botarena/arena/arena/bounded"
	"github.com/botarena/arena/arena/host"
	"github.com/botarena/arena/arena/players"
)

// liveLogs is arena play --logs: every bot's output (stderr, stray stdout) printed as it comes,
// one line at a time, each prefixed with the bot's seat and name. What is printed is what the
// host keeps in the bot's log, bounded the same way: the sandbox's output limit stops a bot
// that writes too much, a line is cut to bounded.Line bytes, and control characters are shown
// as spaces, so an opponent's output cannot drive the terminal.
type liveLogs struct {
	mu    sync.Mutex // one line at a time on out, whichever bot wrote it
	out   io.Writer
	seats []*seatLog
}

// logsFlag adds --logs to cmd; the function it returns launches the bots, with their output
// going live to w when the flag is set, and a flush for the last unfinished lines.
func logsFlag(cmd *cobra.Command) func(ctx context.Context, r *botspec.Resolver, bots []string, opt host.Options, w io.Writer) ([]*host.Bot, func(), error) {
	var on bool
	cmd.Flags().BoolVar(&on, "logs", false, "print each bot's stderr live as it plays, each line prefixed with its seat and name")
	return func(ctx context.Context, r *botspec.Resolver, bots []string, opt host.Options, w io.Writer) ([]*host.Bot, func(), error) {
		if !on {
			procs, err := players.Launch(ctx, r, bots, opt)
			return procs, func() {}, err
		}
		l := &liveLogs{out: w}
		for i, b := range bots {
			l.seats = append(l.seats, &seatLog{logs: l, prefix: fmt.Sprintf("[%d %s] ", i, bounded.OneLine(b, bounded.Name))})
		}
		procs, err := players.LaunchLive(ctx, r, bots, opt, func(seat int) io.Writer { return l.seats[seat] })
		return procs, l.flush, err
	}
}

// flush prints what each bot wrote after its last newline.
func (l *liveLogs) flush() {
	for _, s := range l.seats {
		s.mu.Lock()
		if len(s.line) > 0 || s.cut > 0 {
			s.emit()
		}
		s.mu.Unlock()
	}
}

// seatLog splits one bot's output into lines and prints each with its prefix.
type seatLog struct {
	logs   *liveLogs
	prefix string

	mu   sync.Mutex
	line []byte // the unfinished line, at most bounded.Line bytes
	cut  int    // bytes of the unfinished line dropped past bounded.Line
}

func (s *seatLog) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	rest := p
	for len(rest) > 0 {
		i := bytes.IndexByte(rest, '\n')
		chunk := rest
		if i >= 0 {
			chunk = rest[:i]
		}
		take := min(max(bounded.Line-len(s.line), 0), len(chunk))
		s.line = append(s.line, chunk[:take]...)
		s.cut += len(chunk) - take
		if i < 0 {
			break
		}
		s.emit()
		rest = rest[i+1:]
	}
	return len(p), nil
}

// emit prints the unfinished line and starts the next one.
func (s *seatLog) emit() {
	text := bounded.OneLine(string(bytes.TrimRight(s.line, "\r")), bounded.Line)
	if s.cut > 0 {
		text += fmt.Sprintf(" [... %d bytes cut]", s.cut)
	}
	s.logs.mu.Lock()
	fmt.Fprintln(s.logs.out, s.prefix+text)
	s.logs.mu.Unlock()
	s.line, s.cut = s.line[:0], 0
}
