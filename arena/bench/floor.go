package bench

import (
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"time"
)

// HelperArg is the first argument with which the bench re-executes a binary as its echo
// helper. The arena binary registers it as a hidden command; the test binary in TestMain.
const HelperArg = "__bench-helper"

// Helper runs the echo helper for args (after HelperArg): "unix PATH" listens on a unix
// socket, accepts one connection and echoes it back until EOF.
func Helper(args []string) error {
	if len(args) != 2 || args[0] != "unix" {
		return fmt.Errorf("bench helper: want: unix PATH, got %q", args)
	}
	l, err := net.Listen("unix", args[1])
	if err != nil {
		return fmt.Errorf("bench helper: %w", err)
	}
	defer l.Close()
	fmt.Println("ready") // tells the parent the socket exists
	c, err := l.Accept()
	if err != nil {
		return fmt.Errorf("bench helper: %w", err)
	}
	_, err = io.Copy(c, c)
	return err
}

// Echo is a helper process and the two ends the bench talks to it through.
type Echo struct {
	cmd *exec.Cmd
	w   io.WriteCloser
	r   io.Reader
	dir string
	buf [1]byte
}

// RoundTrip sends one byte and waits for it to come back.
func (e *Echo) RoundTrip() error {
	e.buf[0] = 'x'
	if _, err := e.w.Write(e.buf[:]); err != nil {
		return err
	}
	_, err := io.ReadFull(e.r, e.buf[:])
	return err
}

// Close stops the helper.
func (e *Echo) Close() {
	_ = e.w.Close()
	if e.cmd.Process != nil {
		done := make(chan struct{})
		go func() { _ = e.cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(time.Second):
			_ = e.cmd.Process.Kill()
			<-done
		}
	}
	if e.dir != "" {
		_ = os.RemoveAll(e.dir)
	}
}

// PipeEcho starts /bin/cat: one byte written to its stdin comes back on its stdout.
func PipeEcho() (*Echo, error) {
	cat, err := exec.LookPath("cat")
	if err != nil {
		return nil, fmt.Errorf("pipe floor: %w", err)
	}
	cmd := exec.Command(cat)
	w, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	r, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("pipe floor: %w", err)
	}
	return &Echo{cmd: cmd, w: w, r: r}, nil
}

// UnixEcho re-executes self (the arena or test binary) as the unix-socket echo helper.
func UnixEcho(self string) (*Echo, error) {
	dir, err := os.MkdirTemp("", "arena-bench-")
	if err != nil {
		return nil, err
	}
	sock := filepath.Join(dir, "echo.sock")
	cmd := exec.Command(self, HelperArg, "unix", sock)
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		_ = os.RemoveAll(dir)
		return nil, fmt.Errorf("unix floor: %w", err)
	}
	line := make([]byte, 6)
	if _, err := io.ReadFull(out, line); err != nil {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		_ = os.RemoveAll(dir)
		return nil, fmt.Errorf("unix floor: helper %s did not start: %w", self, err)
	}
	c, err := net.Dial("unix", sock)
	if err != nil {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		_ = os.RemoveAll(dir)
		return nil, fmt.Errorf("unix floor: %w", err)
	}
	return &Echo{cmd: cmd, w: c, r: c, dir: dir}, nil
}

// measureEcho times n round trips after a warm-up.
func measureEcho(e *Echo, n int) (Sample, error) {
	for range min(n/10+10, 1000) {
		if err := e.RoundTrip(); err != nil {
			return nil, err
		}
	}
	s := make(Sample, 0, n)
	for range n {
		t0 := time.Now()
		if err := e.RoundTrip(); err != nil {
			return nil, err
		}
		s = append(s, time.Since(t0))
	}
	if len(s) == 0 {
		return nil, errors.New("no round trips measured")
	}
	return s, nil
}
