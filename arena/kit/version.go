package kit

import (
	"fmt"
	"io"
	"runtime"
	"runtime/debug"
)

// Version is what `arena version` says: the module's version and the Go that built it, the
// source revision when the build recorded one, and each kit the binary carries.
type Version struct {
	Module, Go, Revision string
	Modified             bool
	Kits                 []Kit
}

// Info reads the binary's build information and its kits.
func Info() (Version, error) {
	v := Version{Module: "(unknown)", Go: runtime.Version()}
	if bi, ok := debug.ReadBuildInfo(); ok {
		v.Module = bi.Main.Path + " " + bi.Main.Version
		for _, s := range bi.Settings {
			switch s.Key {
			case "vcs.revision":
				v.Revision = s.Value
			case "vcs.modified":
				v.Modified = s.Value == "true"
			}
		}
	}
	for _, n := range Names() {
		k, err := Get(n)
		if err != nil {
			return v, err
		}
		v.Kits = append(v.Kits, k)
	}
	return v, nil
}

// Print writes v as `arena version` shows it.
func (v Version) Print(w io.Writer) {
	fmt.Fprintf(w, "module   %s\n", v.Module)
	fmt.Fprintf(w, "go       %s\n", v.Go)
	if v.Revision != "" {
		mod := ""
		if v.Modified {
			mod = " (with uncommitted changes)"
		}
		fmt.Fprintf(w, "revision %s%s\n", v.Revision, mod)
	}
	fmt.Fprintln(w, "kits (built into this binary; unpacked under the files store's kit/<name>-<hash>):")
	for _, k := range v.Kits {
		fmt.Fprintf(w, "  %-10s %3d files  sha256 %s\n", k.Name, len(k.Files), k.Hash)
	}
}
