package sandbox

import (
	"fmt"
	"io"
	"strings"
)

// Layer names, as Report lists them and Strict names them.
const (
	LayerEnv       = "clean environment"
	LayerWorkDir   = "private work dir"
	LayerFiles     = "filesystem view"
	LayerUserNS    = "user namespace"
	LayerUID       = "distinct uid"
	LayerPIDNS     = "pid namespace"
	LayerMountNS   = "mount namespace"
	LayerNetNS     = "network namespace"
	LayerIPCNS     = "ipc namespace"
	LayerUTSNS     = "uts namespace"
	LayerCgroupNS  = "cgroup namespace"
	LayerMemory    = "cgroup memory"
	LayerPids      = "cgroup pids"
	LayerCPU       = "cgroup cpu"
	LayerTreeKill  = "cgroup kill"
	LayerRlimits   = "rlimits"
	LayerSeccomp   = "seccomp"
	LayerLandlock  = "landlock"
	LayerPdeath    = "parent-death signal"
	LayerSubreaper = "subreaper and group kill"
)

// layerOrder is the order Report lists layers in.
var layerOrder = []string{LayerEnv, LayerWorkDir, LayerFiles, LayerUserNS, LayerUID, LayerPIDNS,
	LayerMountNS, LayerNetNS, LayerIPCNS, LayerUTSNS, LayerCgroupNS, LayerMemory, LayerPids, LayerCPU, LayerTreeKill,
	LayerRlimits, LayerSeccomp, LayerLandlock, LayerPdeath, LayerSubreaper}

// Layer is one protection and whether this machine gives it.
type Layer struct {
	Name   string
	Active bool
	// Detail says how the layer works here, or why it is not active.
	Detail string
	// Fix is, for a missing layer, the command (or setting) that would give it here.
	Fix string
}

// Report is what Probe found: every layer, active or not and why.
type Report struct {
	Layers []Layer
	// Notes are facts about the machine that are not layers (cgroup versions, kernel).
	Notes []string
}

// Layer returns the named layer.
func (r *Report) Layer(name string) (Layer, bool) {
	for _, l := range r.Layers {
		if l.Name == name {
			return l, true
		}
	}
	return Layer{}, false
}

// Active reports whether the named layer is active.
func (r *Report) Active(name string) bool {
	l, ok := r.Layer(name)
	return ok && l.Active
}

// Missing lists the layers that are not active.
func (r *Report) Missing() []Layer {
	var out []Layer
	for _, l := range r.Layers {
		if !l.Active {
			out = append(out, l)
		}
	}
	return out
}

func (r *Report) set(name string, active bool, format string, args ...any) {
	d := fmt.Sprintf(format, args...)
	for i := range r.Layers {
		if r.Layers[i].Name == name {
			r.Layers[i].Active, r.Layers[i].Detail = active, d
			return
		}
	}
	r.Layers = append(r.Layers, Layer{Name: name, Active: active, Detail: d})
}

// setFix records the command that would give a missing layer.
func (r *Report) setFix(name, fix string) {
	for i := range r.Layers {
		if r.Layers[i].Name == name {
			r.Layers[i].Fix = fix
			return
		}
	}
}

// Write prints the report, one layer a line, for `arena sandbox check`.
func (r *Report) Write(w io.Writer) error {
	var b strings.Builder
	active := 0
	for _, l := range r.Layers {
		mark := "no "
		if l.Active {
			mark = "yes"
			active++
		}
		fmt.Fprintf(&b, "  %s  %-26s %s\n", mark, l.Name, l.Detail)
		if !l.Active && l.Fix != "" {
			fmt.Fprintf(&b, "       %-26s fix: %s\n", "", l.Fix)
		}
	}
	head := fmt.Sprintf("sandbox: %d of %d layers active\n", active, len(r.Layers))
	if active < len(r.Layers) {
		head += "  (bots still run, with the layers marked no missing; use strict mode to refuse)\n"
	}
	for _, n := range r.Notes {
		b.WriteString("  note: " + n + "\n")
	}
	_, err := io.WriteString(w, head+b.String())
	return err
}
