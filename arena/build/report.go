package build

import (
	"fmt"

	"github.com/botarena/arena/arena/filestore"
	"github.com/botarena/arena/sandbox"
)

// Layers of the build sandbox, beyond the ones every bot has (a build runs in the same
// sandbox, with the limits of Options).
const (
	LayerBuildCache   = "build: private compiler cache"
	LayerBuildFiles   = "build: files store"
	LayerBuildNetwork = "build: no network"
	LayerBuildGo      = "build: Go toolchain"
)

// Report says how builds are isolated on this machine, for `arena sandbox check`.
func Report(o Options) *sandbox.Report {
	o = o.WithDefaults()
	r := &sandbox.Report{}
	add := func(name string, active bool, format string, args ...any) {
		r.Layers = append(r.Layers, sandbox.Layer{Name: name, Active: active, Detail: fmt.Sprintf(format, args...)})
	}
	if sandbox.OverlaysWork() {
		add(LayerBuildCache, true, "each build writes through its own overlay on the warmed, read-only cache: no build can poison another's")
	} else {
		add(LayerBuildCache, false, "no overlay (not root, or no work-dir tmpfs): builds write into the warmed cache itself")
	}
	if dir, err := sandbox.FilesDir(); err != nil {
		add(LayerBuildFiles, false, "%v", err)
	} else {
		// Its budget: what it holds, and the cap its collector keeps it under.
		budget := ""
		if fs, err := filestore.Open(dir); err == nil {
			budget = fmt.Sprintf("; private (0700), %d MiB used, kept under %d MiB (--files-cap; %s says what went)", fs.Usage()>>20, filestore.Cap()>>20, filestore.LogName)
		}
		if sandbox.Probe().Active(sandbox.LayerUID) {
			add(LayerBuildFiles, true, "snapshots and artefacts in %s, a tmpfs of its own: a bot's mounts show no host path%s", dir, budget)
		} else {
			add(LayerBuildFiles, false, "snapshots and artefacts in %s, a plain folder: a bot's mounts show its host path%s", dir, budget)
		}
	}
	if o.Network {
		add(LayerBuildNetwork, false, "--build-network: build steps reach the network")
	} else {
		add(LayerBuildNetwork, sandbox.Probe().Active(sandbox.LayerNetNS), "builds have no network; pip installs only from --wheels, Go modules only from the module cache")
	}
	if tc, err := HostGo(); err != nil {
		add(LayerBuildGo, false, "%v", err)
	} else {
		cgo := "cgo off (--cgo turns it on, still sandboxed)"
		if o.CGO {
			cgo = "cgo on"
		}
		add(LayerBuildGo, true, "%s at %s, read-only, modules from %s read-only, no proxy; %s; limits %d MiB, %d s CPU, %v wall, %d processes",
			tc.Version, tc.Root, tc.ModCache, cgo, o.Limits.MemoryBytes>>20, o.Limits.CPUSeconds, o.Limits.WallTime, o.Limits.Processes)
	}
	return r
}
