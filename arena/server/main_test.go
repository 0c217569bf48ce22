package server

import (
	"os"
	"testing"

	"github.com/botarena/arena/arena/upload"
)

// TestMain lets the test binary be the sandboxed unpacker uploads are read by.
func TestMain(m *testing.M) {
	if len(os.Args) > 1 && os.Args[1] == upload.HelperArg {
		os.Exit(upload.Main(os.Args[2:], os.Stderr))
	}
	if dir := os.Getenv(serveChildEnv); dir != "" {
		os.Exit(serveChild(dir)) // a server process of its own, for restart tests
	}
	code := m.Run()
	for _, d := range buildDirs {
		os.RemoveAll(d)
	}
	os.Exit(code)
}
