//go:build linux

package cli_test

import (
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/botarena/arena/arena/internal/testenv"
	"github.com/botarena/arena/internal/slack"
)

// `arena play` stops at SIGTERM while a bot is still building: the build's whole process tree
// is killed and the command ends with an error, instead of compiling on (a cold Go kit's
// warm-up is allowed an hour). The bot's build here sleeps, a process only it runs.
func TestPlayStopsAtSIGTERMWhileBuilding(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	bin, err := testenv.BuildArena(root, dir)
	if err != nil {
		t.Fatal(err)
	}
	nap := fmt.Sprint(100000 + rand.IntN(800000)) // a sleep no other process runs
	bot := filepath.Join(dir, "slowbuild")
	files := map[string]string{
		"bot.json": `{"language": "cpp", "build": "sleep ` + nap + `"}`,
		"bot.cpp":  "int main() { return 0; }\n",
	}
	if err := os.Mkdir(bot, 0o755); err != nil {
		t.Fatal(err)
	}
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(bot, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cmd := exec.Command(bin, "play", "dynamite", bot, filepath.Join(root, "bots/dynamite/cmd/paper"))
	p := testenv.Start(t, "arena play", cmd)
	deadline := time.Now().Add(slack.Of(t, 2*time.Minute))
	for len(sleepers(nap)) == 0 {
		select {
		case <-p.Done:
			t.Fatalf("arena play ended before its bot's build began: %v\n%s", p.Err, p.Output())
		default:
		}
		if time.Now().After(deadline) {
			t.Fatalf("the bot's build (sleep %s) never began\n%s", nap, p.Output())
		}
		time.Sleep(20 * time.Millisecond)
	}
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	// The build sleeps for days: only the stop ends it.
	select {
	case <-p.Done:
	case <-time.After(slack.Of(t, 15*time.Second)):
		t.Fatalf("arena play still running %v after SIGTERM during a build\n%s", slack.Of(t, 15*time.Second), p.Output())
	}
	if p.Err == nil || !strings.Contains(p.Output(), "the build was stopped") {
		t.Fatalf("arena play after SIGTERM: %v, want a failure saying the build was stopped:\n%s", p.Err, p.Output())
	}
	if left := sleepers(nap); len(left) > 0 {
		t.Fatalf("the build's processes %v outlived arena play", left)
	}
}

// sleepers are the processes running `sleep nap`.
func sleepers(nap string) []string {
	var out []string
	procs, _ := filepath.Glob("/proc/[0-9]*/cmdline")
	for _, f := range procs {
		b, err := os.ReadFile(f)
		if err == nil && strings.Contains(string(b), "sleep\x00"+nap) {
			out = append(out, filepath.Base(filepath.Dir(f)))
		}
	}
	return out
}
