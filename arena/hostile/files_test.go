package hostile

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/botarena/arena/arena/filepolicy"
	"github.com/botarena/arena/arena/filepolicy/policytest"
	"github.com/botarena/arena/arena/queue"
	"github.com/botarena/arena/arena/submission"
	"github.com/botarena/arena/arena/upload"
)

// TestEveryWayInJudgesFilesAlike: a submission's files come in by an upload (the unpacker),
// a local folder (the snapshot) and an archive from the object store (a worker's fetch), and
// every one of them judges the same tree the same: a link or a named pipe is refused naming
// it, folders count as files do, and bounds on entries, bytes and depth are one policy's
// (arena/filepolicy). The build's copy of its output and the unpacker's copy out of its
// sandbox are judged on the same trees in their own packages' tests.
func TestEveryWayInJudgesFilesAlike(t *testing.T) {
	t.Parallel()
	store := t.TempDir()
	ways := []struct {
		name string
		// judge takes the tree in this way and returns what it kept (relative file paths).
		judge func(t *testing.T, dir string) ([]string, error)
	}{
		{"snapshot", func(t *testing.T, dir string) ([]string, error) {
			snap, err := submission.Take(submission.Source{Arg: dir, Kind: submission.Python, Root: dir}, store,
				submission.Limits{Files: policytest.Entries, Bytes: policytest.Bytes})
			if err != nil {
				return nil, err
			}
			return files(t, snap.Dir), nil
		}},
		{"upload", func(t *testing.T, dir string) ([]string, error) {
			out := filepath.Join(t.TempDir(), "v")
			if err := os.Mkdir(out, 0o755); err != nil {
				t.Fatal(err)
			}
			err := upload.Unpack("bot.tar", policytest.Tar(t, dir), out,
				upload.Limits{Files: policytest.Entries, FileBytes: policytest.Bytes, Total: policytest.Bytes})
			if err != nil {
				return nil, err
			}
			return files(t, out), nil
		}},
		{"worker fetch", func(t *testing.T, dir string) ([]string, error) {
			out := filepath.Join(t.TempDir(), "files")
			err := queue.Unpack(bytes.NewReader(policytest.Tar(t, dir)), out,
				submission.Limits{Files: policytest.Entries, Bytes: policytest.Bytes})
			if err != nil {
				return nil, err
			}
			return files(t, out), nil
		}},
		{"coordinator's pack", func(t *testing.T, dir string) ([]string, error) {
			// Pack carries a snapshot already bounded: it judges kinds and depth, not bounds.
			var buf bytes.Buffer
			if err := queue.Pack(&buf, dir); err != nil {
				return nil, err
			}
			out := filepath.Join(t.TempDir(), "files")
			if err := queue.Unpack(&buf, out, submission.Limits{Files: 1 << 20, Bytes: 1 << 30}); err != nil {
				t.Fatalf("what Pack wrote does not unpack: %v", err)
			}
			return files(t, out), nil
		}},
	}
	for _, tree := range policytest.Trees(t) {
		for _, way := range ways {
			t.Run(tree.Name+"/"+way.name, func(t *testing.T) {
				kept, err := way.judge(t, tree.Dir)
				want := tree.Want
				if way.name == "coordinator's pack" && errors.Is(want, filepolicy.ErrTooBig) {
					want = nil
				}
				switch {
				case want == nil && err != nil:
					t.Fatalf("refused a tree the policy accepts: %v", err)
				case want == nil:
					if orig := files(t, tree.Dir); !slices.Equal(kept, orig) {
						t.Fatalf("kept %v of %v", kept, orig)
					}
				case !errors.Is(err, want):
					t.Fatalf("got %v (kept %v), want an error wrapping %q", err, kept, want)
				case !strings.Contains(err.Error(), tree.Path):
					t.Fatalf("%v does not name %s", err, tree.Path)
				}
			})
		}
	}
}

// files lists the regular files below dir.
func files(t *testing.T, dir string) []string {
	t.Helper()
	var out []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() {
			rel, _ := filepath.Rel(dir, p)
			out = append(out, filepath.ToSlash(rel))
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(out)
	return out
}
