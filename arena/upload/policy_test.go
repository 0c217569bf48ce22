package upload

import (
	"errors"
	"strings"
	"testing"

	"github.com/botarena/arena/arena/filepolicy/policytest"
)

// TestCopyOutJudgesLikeEveryWayIn: the host's copy of what the sandboxed unpacker wrote is
// judged by the same files policy as every other way in (arena/hostile's
// TestEveryWayInJudgesFilesAlike), so an unpacker that was subverted into writing a link, a
// pipe or too much gets no further.
func TestCopyOutJudgesLikeEveryWayIn(t *testing.T) {
	t.Parallel()
	lim := Limits{Files: policytest.Entries, FileBytes: policytest.Bytes, Total: policytest.Bytes}
	for _, tree := range policytest.Trees(t) {
		t.Run(tree.Name, func(t *testing.T) {
			err := copyOut(tree.Dir, t.TempDir(), lim)
			switch {
			case tree.Want == nil && err != nil:
				t.Fatalf("refused a tree the policy accepts: %v", err)
			case tree.Want != nil && !errors.Is(err, tree.Want):
				t.Fatalf("got %v, want an error wrapping %q", err, tree.Want)
			case tree.Want != nil && !strings.Contains(err.Error(), tree.Path):
				t.Fatalf("%v does not name %s", err, tree.Path)
			case tree.Want != nil && !errors.Is(err, ErrTooBig) && !errors.Is(err, ErrBadEntry):
				t.Fatalf("%v is neither ErrTooBig nor ErrBadEntry: the server would not answer it as the author's", err)
			}
		})
	}
}
