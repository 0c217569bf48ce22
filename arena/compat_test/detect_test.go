package compat_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/botarena/arena/arena/host"
	"github.com/botarena/arena/internal/slack"
)

// A .py file in no known style fails to start, and the error lists the seed APIs looked for
// (the host quotes the last lines of the message, where the seed styles are; the whole message
// is checked in sdk/python/tests/test_compat.py).
func TestUndetectedFileListsTheAPIsLookedFor(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "mystery.py")
	if err := os.WriteFile(path, []byte("def strategy(history):\n    return 'R'\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	c, err := resolver.Command(path)
	if err != nil {
		t.Fatal(err)
	}
	c.Env = append(c.Env, "PYTHONPATH="+sdkSrc)
	c.ReadOnly = append(c.ReadOnly, sdkSrc)
	b, err := host.Launch(context.Background(), c, host.Options{StartTimeout: slack.Of(t, 20*time.Second)})
	if err == nil {
		b.Close()
		t.Fatal("a file without any bot started")
	}
	for _, want := range []string{"make_move(rounds)",
		"CustomPlayer(GenericPlayer)", "bidbot.BotClient.connect", "from client import Client", "voteForElimination(context)"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error lacks %q:\n%v", want, err)
		}
	}
}
