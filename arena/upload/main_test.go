package upload

import (
	"os"
	"testing"
)

// TestMain lets the test binary be the unpacker that Sandboxed re-executes.
func TestMain(m *testing.M) {
	if len(os.Args) > 1 && os.Args[1] == HelperArg {
		os.Exit(Main(os.Args[2:], os.Stderr))
	}
	os.Exit(m.Run())
}
