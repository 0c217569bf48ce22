package sandbox

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// Spec says what to run.
type Spec struct {
	// Name labels the process in reports ("bots/paper").
	Name string
	Path string
	Args []string // Args[0] is the program name, as in exec.Cmd
	Env  []string
	// Dir is the working directory; when it is not visible inside the sandbox (not under
	// ReadOnly), the process starts in WorkDir.
	Dir string
	// ReadOnly lists host paths the process may read (its own files, its runtime). System
	// libraries and Path itself are always added; a Python interpreter (or pyenv shim) as
	// Path also brings its prefix and sys.path (see PythonRuntime).
	ReadOnly []string
	// WorkDir is a private writable directory for the process (its TMPDIR and socket dir). It
	// must exist. It appears at the same path inside, and also as /tmp.
	WorkDir string
	// WorkAt, when set, is where the work dir appears inside instead of its host path (so no
	// path of the arena's state shows in the process's view); see WorkPathInside.
	WorkAt string
	Limits Limits
	// Strict makes Start fail, naming the layer, when any layer of Probe's report is missing.
	Strict bool
	// Mounts show host paths read-only at paths of their own inside (the bot's snapshot at
	// /bot, say), so that no host path of the arena's state appears in the bot's view, not even
	// in /proc/self/mountinfo when the host path is on a filesystem of its own (see SharedFiles).
	Mounts []Mount
	// Overlays give the process a private writable layer over a read-only host directory, at a
	// path inside its work dir (a build's compiler cache over the shared, warmed one): writes go
	// to the work dir's tmpfs and are gone with it; the host directory is never written.
	// They need root and the work-dir tmpfs; elsewhere Start refuses (see OverlaysWork).
	Overlays []Overlay
	// WorkExec lets the tree run programs from its work dir, which is noexec otherwise: a build
	// runs what it compiles (cargo's build scripts, cmake's checks, npm's .bin shims).
	WorkExec bool
	// Network keeps the host's network (no network namespace, no Landlock TCP rule): only for a
	// build step the organiser allowed to fetch dependencies.
	Network bool
	// Harvest, when set, is called once the tree is gone and before the work dir is released,
	// so the caller can copy results (a build's artefact) out of it.
	Harvest func(workDir string)
	// Unconfined turns every isolation layer off (namespaces, cgroups, seccomp, Landlock, the
	// work-dir tmpfs, the distinct uid): only rlimits, the process group, the parent-death
	// signal and the init's reaping remain. It exists to measure what the sandbox costs; never
	// use it for untrusted bots.
	Unconfined bool
	// Files are descriptors the program inherits at 3, 4, ... in order (the host's end of a
	// bot's fast lane is kept, the bot's end passed here: docs/protocol.md, "The fast lane").
	// Start does not close them; the caller closes its copies once Start has returned.
	Files []*os.File
	// Front says the main program is the arena's own, standing in front of the bot's program
	// (the stdio bridge): CPUTime leaves its own CPU time out, so a bot is charged what its
	// program uses, not the arena's translation (its children, the program, count as ever).
	Front bool

	// noRuntime: Path is an interpreter whose runtime is already in ReadOnly (the probe itself).
	noRuntime bool
}

// Mount shows Host read-only at At inside the sandbox.
type Mount struct{ Host, At string }

// Overlay is a writable view at Work/At (At relative to the work dir) of the read-only Lower.
type Overlay struct{ Lower, At string }

// Errors of Start.
var (
	// ErrStart means the process could not be started.
	ErrStart = errors.New("cannot start process")
	// ErrStrict means a strict start found a sandbox layer missing.
	ErrStrict = errors.New("sandbox layer missing")
	// ErrNoOverlay means Spec.Overlays cannot be honoured on this machine (see OverlaysWork).
	ErrNoOverlay = errors.New("no private overlay")
)

// ExitError is what Wait returns when the process did not exit cleanly.
type ExitError struct {
	Name   string
	Reason ExitReason
}

func (e *ExitError) Error() string { return e.Name + ": " + e.Reason.String() }

func bytesText(n int64) string {
	switch {
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", n>>20)
	case n >= 1<<10 && n%(1<<10) == 0:
		return fmt.Sprintf("%d KiB", n>>10)
	}
	return fmt.Sprintf("%d bytes", n)
}

// Env returns a clean environment: only the listed host variables, plus extra.
func Env(keep []string, extra ...string) []string {
	var env []string
	for _, k := range keep {
		if v, ok := os.LookupEnv(k); ok {
			env = append(env, k+"="+v)
		}
	}
	return append(env, extra...)
}

// hostPaths rewrites a spec for a sandbox without a mount namespace, where Mounts cannot put
// anything at a path of its own: each mount's inside path in Path, Args, Dir and Env becomes
// its host path, which the process then reads (Landlock still limits it to those).
func hostPaths(spec Spec) Spec {
	if len(spec.Mounts) == 0 {
		return spec
	}
	swap := func(v string) string {
		for _, m := range spec.Mounts {
			at := strings.TrimSuffix(filepath.Clean(m.At), "/")
			if v == at || strings.HasPrefix(v, at+"/") || strings.HasPrefix(v, at+":") {
				return m.Host + v[len(at):]
			}
		}
		return v
	}
	spec.Path, spec.Dir = swap(spec.Path), swap(spec.Dir)
	spec.Args = append([]string(nil), spec.Args...)
	for i, a := range spec.Args {
		spec.Args[i] = swap(a)
	}
	spec.Env = append([]string(nil), spec.Env...)
	for i, e := range spec.Env {
		if k, v, ok := strings.Cut(e, "="); ok {
			spec.Env[i] = k + "=" + swap(v)
		}
	}
	spec.ReadOnly = append([]string(nil), spec.ReadOnly...)
	for _, m := range spec.Mounts {
		spec.ReadOnly = append(spec.ReadOnly, m.Host)
	}
	spec.Mounts = nil
	return spec
}
