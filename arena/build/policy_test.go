package build

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/botarena/arena/arena/filepolicy"
	"github.com/botarena/arena/arena/filepolicy/policytest"
)

// TestCopyTreeJudgesLikeEveryWayIn: a build's output enters the files store judged by the
// files policy that judges every submission (arena/hostile's TestEveryWayInJudgesFilesAlike):
// a named pipe or a path too deep fails the build naming it, never skipped in silence, and
// its quota bounds bytes. Symbolic links are the one difference, left out by design (npm
// writes them; see copyTree); there is no bound on entries (the quota is the build's).
func TestCopyTreeJudgesLikeEveryWayIn(t *testing.T) {
	t.Parallel()
	for _, tree := range policytest.Trees(t) {
		t.Run(tree.Name, func(t *testing.T) {
			dst := filepath.Join(t.TempDir(), "art")
			err := copyTree(tree.Dir, dst, policytest.Bytes)
			want := tree.Want
			switch tree.Name {
			case "symlink":
				want = nil
			case "too many bytes":
				want = errQuota
			}
			if errors.Is(tree.Want, filepolicy.ErrTooBig) && want != errQuota {
				want = nil
			}
			switch {
			case want == nil && err != nil:
				t.Fatalf("refused: %v", err)
			case want == nil:
				if _, err := os.Lstat(filepath.Join(dst, "secret.py")); !os.IsNotExist(err) {
					t.Fatalf("a link was copied (or not left out): %v", err)
				}
			case !errors.Is(err, want):
				t.Fatalf("got %v, want an error wrapping %q", err, want)
			case want != errQuota && !strings.Contains(err.Error(), tree.Path):
				t.Fatalf("%v does not name %s", err, tree.Path)
			}
		})
	}
}
