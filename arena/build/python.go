package build

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/botarena/arena/arena/submission"
	"github.com/botarena/arena/sandbox"
)

// Requirements is the file a Python submission lists its dependencies in.
const Requirements = "requirements.txt"

// recipePip versions the pip recipe.
const recipePip = "pip-1"

// ErrNoSource means requirements.txt cannot be installed: no wheel folder and no network.
var ErrNoSource = errors.New("nowhere to install requirements from")

// HasRequirements reports whether a Python snapshot carries requirements.txt.
func HasRequirements(snap submission.Snapshot) bool {
	return exists(filepath.Join(snap.Dir, Requirements))
}

// PythonDeps installs a snapshot's requirements.txt with the bot's own interpreter into
// store/art/<key>/site, which the bot then sees read-only at /deps. pip runs in the build
// sandbox: from the organiser's wheel folder (Options.Wheels) without any index, or from the
// package index only where the organiser allows network for builds.
func PythonDeps(o Options, bot string, snap submission.Snapshot, rt *sandbox.Runtime, store string) (Artefact, error) {
	o = o.WithDefaults()
	if o.Wheels == "" && !o.Network {
		return Artefact{}, fmt.Errorf("%w: %s carries %s; give a folder of wheels to install from (--wheels DIR) or allow network for builds (--build-network)", ErrNoSource, bot, Requirements)
	}
	args := []string{"-I", "-m", "pip", "install", "--no-input", "--disable-pip-version-check", "--no-cache-dir",
		"--no-warn-script-location", "--only-binary", ":all:", "--target", buildAt + "/out/site", "-r", "/run/src/" + Requirements}
	mounts := []sandbox.Mount{{Host: snap.Dir, At: "/run/src"}}
	wheels := ""
	if o.Wheels != "" {
		abs, err := filepath.Abs(o.Wheels)
		if err != nil {
			return Artefact{}, err
		}
		if st, err := os.Stat(abs); err != nil || !st.IsDir() {
			return Artefact{}, fmt.Errorf("%w: the wheel folder %s is not a folder (--wheels)", ErrNoSource, o.Wheels)
		}
		args = append(args, "--no-index", "--find-links", "/run/wheels")
		mounts = append(mounts, sandbox.Mount{Host: abs, At: "/run/wheels"})
		wheels = hashFiles(abs)
	}
	view := append([]string{}, rt.ReadOnly...)
	if o.Network {
		view = append(view, "/etc/ssl", "/etc/resolv.conf", "/etc/pki", "/usr/share/ca-certificates")
	}
	k := key(recipePip, snap.Hash, rt.Exe, wheels, fmt.Sprint(o.Network))
	return cached(store, k, func(dst string) error {
		s := step{name: "pip install", bot: bot, path: rt.Exe, args: args, view: view, mounts: mounts, out: "out",
			env: []string{"PATH=/usr/local/bin:/usr/bin:/bin", "PIP_NO_COLOR=1"}}
		if err := s.run(o, dst); err != nil {
			return err
		}
		// An empty requirements.txt installs nothing; the bot still gets its (empty) /deps.
		return os.MkdirAll(filepath.Join(dst, "site"), 0o755)
	})
}
