//go:build linux && !arenadegraded

package sandbox

import (
	"os"
	"testing"
)

func TestMain(m *testing.M) {
	Init()
	if os.Getenv(freshEnv) != "" {
		os.Exit(freshRun())
	}
	if os.Getenv(arenaEnv) != "" {
		os.Exit(miniArena())
	}
	if act := os.Getenv(actEnv); act != "" {
		os.Exit(runAct(act))
	}
	os.Exit(m.Run())
}
