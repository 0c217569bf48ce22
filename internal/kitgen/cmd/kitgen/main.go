// Command kitgen writes every kit's generated wire tables (package internal/kitgen) under the
// repository root given by -root (default: the working directory). scripts/generate.sh runs it.
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"

	"github.com/botarena/arena/internal/kitgen"
)

func main() {
	root := flag.String("root", ".", "the repository's root")
	flag.Parse()
	s, err := kitgen.Load()
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	files := kitgen.Files(s)
	var paths []string
	for p := range files {
		paths = append(paths, p)
	}
	slices.Sort(paths)
	for _, p := range paths {
		dst := filepath.Join(*root, p)
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			fmt.Fprintln(os.Stderr, "kitgen:", err)
			os.Exit(1)
		}
		if err := os.WriteFile(dst, files[p], 0o644); err != nil {
			fmt.Fprintln(os.Stderr, "kitgen:", err)
			os.Exit(1)
		}
	}
}
