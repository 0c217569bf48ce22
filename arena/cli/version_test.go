package cli_test

import (
	"regexp"
	"strings"
	"testing"

	"github.com/botarena/arena/arena/game"
)

// arena version lists every house bot with its strength, and marks each game's ladder bot,
// from the games' Spec.House.
func TestVersionListsHouseBotsWithStrength(t *testing.T) {
	t.Parallel()
	code, out := run(t, "version")
	if code != 0 {
		t.Fatalf("version (exit %d):\n%s", code, out)
	}
	for _, g := range game.Names() {
		spec, _ := game.Lookup(g)
		for _, h := range spec.House {
			want := h.Strength.String()
			if h.Ladder {
				want += ", the ladder's"
			}
			line := regexp.MustCompile(`(?m)^  house:` + g + `/` + h.Name + ` +(.*)$`).FindStringSubmatch(out)
			if line == nil || strings.TrimSpace(line[1]) != want {
				t.Errorf("house:%s/%s: version says %q, want %q\n%s", g, h.Name, line, want, out)
			}
		}
	}
}
