package compat_test

import "testing"

// TestRealtvSeedDescribeAndConst plays a script that uses the original engine's describe methods
// (Player and PlayerContext shortDescribe/longDescribe, Context.describe) and Const's engine
// constants, in a real bot process: no fault, and its prints reach its log.
func TestRealtvSeedDescribeAndConst(t *testing.T) {
	t.Parallel()
	p := play(t, "realtv", map[string]string{"phases": "2"}, seedBot("realtv/Describer.py"), bot("bots/realtv/cmd/likesthemstrong"))
	noFaults(t, p)
	logHas(t, p, 0, "describer:")
	logHas(t, p, 0, "CONTEXT (")
}

// TestFingerSeedLogger plays a custom_player.py that logs through generic_player.logger.
func TestFingerSeedLogger(t *testing.T) {
	t.Parallel()
	p := play(t, "finger", map[string]string{"games": "2"}, seedBot("finger/logging_player.py"), bot("bots/finger/cmd/random"))
	noFaults(t, p)
	logHas(t, p, 0, "generic_player round")
}
