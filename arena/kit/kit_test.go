package kit

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestUnpackIsReadOnlyAndWhole(t *testing.T) {
	for _, name := range Names() {
		k, err := Get(name)
		if err != nil {
			t.Fatal(err)
		}
		dir, err := k.Unpack()
		if err != nil {
			t.Fatal(err)
		}
		if filepath.Base(filepath.Dir(dir)) != Folder || !strings.HasPrefix(filepath.Base(dir), name+"-") {
			t.Fatalf("kit %s unpacked to %s, not %s/%s-<hash>", name, dir, Folder, name)
		}
		n := 0
		err = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			info, _ := d.Info()
			if info.Mode().Perm()&0o222 != 0 {
				t.Errorf("%s is writable (%v)", p, info.Mode())
			}
			if d.IsDir() {
				return nil
			}
			n++
			rel, _ := filepath.Rel(dir, p)
			want, err := fs.ReadFile(k.fsys, filepath.ToSlash(rel))
			if err != nil {
				t.Errorf("%s is not in the binary's kit: %v", p, err)
				return nil
			}
			got, _ := os.ReadFile(p)
			if !bytes.Equal(got, want) {
				t.Errorf("%s differs from the binary's kit", p)
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		if n != len(k.Files) || n == 0 {
			t.Fatalf("kit %s: %d files unpacked, %d in the binary", name, n, len(k.Files))
		}
		for _, f := range k.Files {
			if strings.HasSuffix(f, "_test.go") {
				t.Errorf("kit %s holds a test file: %s", name, f)
			}
		}
	}
}

func TestSelfIsThisExecutable(t *testing.T) {
	dir, err := Self()
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(filepath.Join(dir, SelfName))
	if err != nil {
		t.Fatal(err)
	}
	want, err := os.ReadFile("/proc/self/exe")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Fatal("the copy is not this executable")
	}
	st, _ := os.Stat(filepath.Join(dir, SelfName))
	if st.Mode().Perm() != 0o555 {
		t.Fatalf("the copy's mode is %v, want r-xr-xr-x", st.Mode())
	}
}

func TestHouse(t *testing.T) {
	dir, err := House(HousePrefix + "dynamite/beatlast")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, "main.go")); err != nil {
		t.Fatalf("no main.go in the house bot's folder: %v", err)
	}
	for _, bad := range []string{"dynamite/nope", "dynamite/../../go.mod", "hostile/busyloop", "nosuchgame/x", ""} {
		_, err := House(HousePrefix + bad)
		if !errors.Is(err, ErrNoHouse) || !strings.Contains(err.Error(), HousePrefix) {
			t.Errorf("House(%q): %v, want ErrNoHouse listing the house bots", bad, err)
		}
	}
}

func TestSelfIdentityIsTheBuildID(t *testing.T) {
	f, err := os.Open("/proc/self/exe")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	id := goBuildID(f)
	if strings.Count(id, "/") < 1 {
		t.Fatalf("no Go build ID read from this executable: %q", id)
	}
}
