package gametest_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/botarena/arena/arena/game/gametest"
)

func TestDiff(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name, want, got, diff string
	}{
		{"equal", "a\nb\n", "a\nb\n", ""},
		{"changed line", "a\nb\nc\n", "a\nB\nc\n", "@@ golden line 1, now line 1 @@\n  a\n- b\n+ B\n  c\n"},
		{"added at end", "a\n", "a\nb\n", "@@ golden line 1, now line 1 @@\n  a\n+ b\n"},
		{"removed at start", "x\na\nb\nc\nd\ne\n", "a\nb\nc\nd\ne\n", "@@ golden line 1, now line 1 @@\n- x\n  a\n  b\n  c\n"},
		{"close changes share a hunk", "1\n2\n3\n4\n5\n6\n7\n8\n", "1\nX\n3\n4\n5\n6\nY\n8\n",
			"@@ golden line 1, now line 1 @@\n  1\n- 2\n+ X\n  3\n  4\n  5\n  6\n- 7\n+ Y\n  8\n"},
		{"two hunks", "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n", "1\nX\n3\n4\n5\n6\n7\n8\n9\n10\nY\n12\n",
			"@@ golden line 1, now line 1 @@\n  1\n- 2\n+ X\n  3\n  4\n  5\n@@ golden line 8, now line 8 @@\n  8\n  9\n  10\n- 11\n+ Y\n  12\n"},
	} {
		if got := gametest.Diff(c.want, c.got); got != c.diff {
			t.Errorf("%s: Diff =\n%s\nwant\n%s", c.name, got, c.diff)
		}
	}
}

func TestDiffIsBounded(t *testing.T) {
	t.Parallel()
	var a, b strings.Builder
	for i := range 500 {
		a.WriteString("same\n")
		if i%2 == 0 {
			b.WriteString("other\n")
		} else {
			b.WriteString("same\n")
		}
	}
	d := gametest.Diff(a.String(), b.String())
	if n := strings.Count(d, "\n"); n > 62 {
		t.Fatalf("diff has %d lines", n)
	}
	if !strings.Contains(d, "more changed lines") {
		t.Fatalf("no count of what was left out:\n%s", d)
	}
}

func TestCheckGolden(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "testdata", "m.golden")
	if err := gametest.CheckGolden(path, []byte("a\n"), false); !errors.Is(err, gametest.ErrGolden) || !strings.Contains(err.Error(), "missing") {
		t.Fatalf("missing file: %v", err)
	}
	if err := gametest.CheckGolden(path, []byte("a\nb\n"), true); err != nil {
		t.Fatal(err)
	}
	if b, err := os.ReadFile(path); err != nil || string(b) != "a\nb\n" {
		t.Fatalf("update wrote %q, %v", b, err)
	}
	if err := gametest.CheckGolden(path, []byte("a\nb\n"), false); err != nil {
		t.Fatalf("same text: %v", err)
	}
	err := gametest.CheckGolden(path, []byte("a\nc\n"), false)
	if !errors.Is(err, gametest.ErrGolden) || !strings.Contains(err.Error(), "- b\n+ c\n") || !strings.Contains(err.Error(), "-update") {
		t.Fatalf("changed text: %v", err)
	}
}
