package cli_test

import (
	"bytes"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/botarena/arena/arena/cli"
)

// watchWriter records what is written and whether a marker came before the command returned.
type watchWriter struct {
	mu     sync.Mutex
	buf    bytes.Buffer
	marker string
	done   *atomic.Bool
	early  bool // the marker was written while the command still ran
}

func (w *watchWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.buf.Write(p)
	if !w.early && strings.Contains(w.buf.String(), w.marker) && !w.done.Load() {
		w.early = true
	}
	return len(p), nil
}

// arena play --logs prints each bot's stderr as it plays (before the match ends: the bot
// sleeps after its line), each line prefixed with its seat and name, cut and cleaned of
// control characters; without --logs a working bot's output stays out of the way.
func TestPlayLogsStreamsLive(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	py := filepath.Join(dir, "chatty.py")
	writeFile(t, py, `import sys, time
from arena_sdk.dynamite import Bot

class Chatty(Bot):
    def move(self, state):
        n = len(state.rounds)
        if n == 0:
            print("thinking about round 1\x1b[31m", file=sys.stderr, flush=True)
            print("x" * 5000, file=sys.stderr, flush=True)
        if n == 1:
            time.sleep(4)
        return "R"
`)
	var done atomic.Bool
	out := &watchWriter{marker: "thinking about round 1", done: &done}
	var stdout bytes.Buffer
	code := cli.Main([]string{"play", "dynamite", "--logs", "--start-timeout", "1m", "--target", "3", "--deadline", "30s", "--clock-mode", "wall", py, "house:dynamite/scissors"}, &stdout, out)
	done.Store(true)
	text := out.buf.String()
	if code != 0 || !strings.Contains(stdout.String(), "wins 3-0") {
		t.Fatalf("exit %d:\n%s\n%s", code, stdout.String(), text)
	}
	if !out.early {
		t.Fatalf("the bot's line came only after the match:\n%s", text)
	}
	prefix := "[0 " + py + "] "
	if !strings.Contains(text, prefix+"thinking about round 1 ") || strings.Contains(text, "\x1b") {
		t.Fatalf("want the line with its seat, without the escape character:\n%q", text)
	}
	if !strings.Contains(text, prefix+"xxx") || !strings.Contains(text, "bytes cut]") || strings.Contains(text, strings.Repeat("x", 600)) {
		t.Fatalf("a long line is not cut:\n%.2000s", text)
	}

	code, quiet := run(t, "play", "dynamite", "--start-timeout", "1m", "--target", "3", "--deadline", "30s", "--clock-mode", "wall", py, "house:dynamite/scissors")
	if code != 0 || strings.Contains(quiet, "thinking about") {
		t.Fatalf("without --logs (exit %d):\n%s", code, quiet)
	}
}
