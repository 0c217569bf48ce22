// Command gamelist writes arena/games/all/all.go (package internal/gamelist) under the
// repository root given by -root (default: the working directory). scripts/generate.sh runs it.
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"

	"github.com/botarena/arena/internal/gamelist"
)

func main() {
	root := flag.String("root", ".", "the repository's root")
	flag.Parse()
	src, err := gamelist.Source(*root)
	if err == nil {
		err = os.WriteFile(filepath.Join(*root, gamelist.Path), src, 0o644)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "gamelist:", err)
		os.Exit(1)
	}
}
