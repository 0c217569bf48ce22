package main

import (
	"flag"
	"fmt"
	"os"
	"runtime"

	"golang.org/x/tools/go/packages"
)

func main() {
	dir := flag.String("C", ".", "the module to check (its folder)")
	goos := flag.String("goos", runtime.GOOS, "the platform's GOOS")
	goarch := flag.String("goarch", runtime.GOARCH, "the platform's GOARCH")
	flag.Usage = func() {
		fmt.Fprintln(os.Stderr, "usage: crosscheck -goos darwin -goarch arm64 [-C dir] packages...")
		flag.PrintDefaults()
	}
	flag.Parse()
	if flag.NArg() == 0 {
		flag.Usage()
		os.Exit(2)
	}
	cfg := &packages.Config{
		// Every dependency is type-checked from its syntax too: no export data, so no compiling.
		Mode:  packages.NeedName | packages.NeedFiles | packages.NeedImports | packages.NeedDeps | packages.NeedSyntax | packages.NeedTypes,
		Tests: true,
		Dir:   *dir,
		// Flags, not the environment: under GOOS=darwin, go run would build this tool for macOS.
		// Cross-compiling turns cgo off, as the go command would.
		Env: append(os.Environ(), "GOOS="+*goos, "GOARCH="+*goarch, "CGO_ENABLED=0"),
	}
	pkgs, err := packages.Load(cfg, flag.Args()...)
	if err != nil {
		fmt.Fprintf(os.Stderr, "crosscheck: %v\n", err)
		os.Exit(1)
	}
	if packages.PrintErrors(pkgs) > 0 {
		fmt.Fprintf(os.Stderr, "crosscheck: the packages above do not type-check for %s/%s: guard a platform's code with a build constraint (a _linux.go name or //go:build linux) and give the others what they call\n", *goos, *goarch)
		os.Exit(1)
	}
	n := 0
	packages.Visit(pkgs, nil, func(*packages.Package) { n++ })
	fmt.Printf("crosscheck: %d packages (%d named, with their tests and dependencies) type-check for %s/%s\n", n, len(pkgs), *goos, *goarch)
}
