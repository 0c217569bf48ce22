//go:build !linux

package attack

import "errors"

// ptraceAttach: the attack is Linux's; elsewhere it reports that it did not run.
func ptraceAttach(int) error { return errors.New("ptrace attack is Linux only") }
