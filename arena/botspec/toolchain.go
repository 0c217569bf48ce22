package botspec

import (
	"fmt"
	"os/exec"
	"strings"

	"github.com/botarena/arena/arena/build"
	"github.com/botarena/arena/arena/kit"
	"github.com/botarena/arena/arena/submission"
)

// ready checks that this machine can build and run a bot of src's kind, with the checks the
// builds themselves make (build.HostGo, build.ToolFor, the Python runtime check): a
// *build.Unavailable says why not, and the fix. Languages asks the same questions.
func (r *Resolver) ready(src submission.Source) error {
	switch src.Kind {
	case submission.Python:
		if _, err := r.pythonRuntime(); err != nil {
			return build.Cannot("run Python bots", err)
		}
	case submission.Go:
		if err := r.goReady(); err != nil {
			return build.Cannot("build Go bots", err)
		}
	case submission.JavaScript, submission.TypeScript, submission.Rust, submission.Java, submission.Cpp:
		if _, err := build.ToolFor(src.Kind); err != nil {
			return err
		}
	}
	if src.Protocol == submission.Stdio {
		if err := bridgeReady(); err != nil {
			return err
		}
	}
	return nil
}

// goReady: the host's Go, the binary's own Go kit, and the kit's modules in the module cache
// (fetched once, on the host, from the kit's go.sum).
func (r *Resolver) goReady() error {
	tc, err := build.HostGo()
	if err != nil {
		return err
	}
	k, err := build.GoKit()
	if err != nil {
		return err
	}
	return build.Modules(tc, k, r.Build)
}

// bridgeReady: the stdio bridge is the arena binary itself, re-executed in the bot's sandbox
// from its copy in the files store.
func bridgeReady() error {
	if _, err := kit.Self(); err != nil {
		return build.Cannot("run the stdio bridge that stdio bots run behind", err)
	}
	return nil
}

// Language is one line of what this machine builds and runs.
type Language struct {
	// Name is the language as people say it: Go, Python, JavaScript, ..., stdio.
	Name string
	// Found names the toolchain found and its version ("" when none is).
	Found string
	// Err says why bots of the language cannot play here, with the fix; nil: ready.
	Err error
	// Note says what else applies (where requirements come from, what a build fetches).
	Note string
}

// Languages checks, with the checks Prepare makes before every build, which languages this
// machine builds and runs: for arena doctor and a worker's start.
func (r *Resolver) Languages() []Language {
	var out []Language
	add := func(name, found string, err error, note string) {
		out = append(out, Language{Name: name, Found: found, Err: err, Note: note})
	}
	tool := func(k submission.Kind) (string, error) {
		t, err := build.ToolFor(k)
		return t.Version, err
	}

	tc, err := build.HostGo()
	goFound := ""
	if err == nil {
		goFound = fmt.Sprintf("%s at %s", tc.Version, tc.Root)
		err = r.goReady()
	}
	add("Go", goFound, build.Cannot("build Go bots", err), "the SDK and house bots come from this binary's own Go kit")

	pyFound, pyNote := "", ""
	rt, err := r.pythonRuntime()
	if err == nil {
		v, _ := exec.Command(rt.Exe, "-I", "--version").CombinedOutput()
		pyFound = fmt.Sprintf("%s (%s), with arena_sdk", rt.Exe, strings.TrimSpace(string(v)))
		switch {
		case r.Build.Wheels != "":
			pyNote = "requirements.txt installs from the wheel folder " + r.Build.Wheels
		case r.Build.Network:
			pyNote = "requirements.txt installs from the package index (--build-network)"
		default:
			pyNote = "a bot with requirements.txt cannot be installed here (charged with the reason): give --wheels DIR or --build-network"
		}
	}
	add("Python", pyFound, build.Cannot("run Python bots", err), pyNote)

	jsFound, jsErr := tool(submission.JavaScript)
	add("JavaScript", jsFound, jsErr, "dependencies come from the bot's node_modules, or npm with --build-network")
	tsErr := jsErr
	if tsErr == nil {
		if _, err := exec.LookPath("npm"); err != nil {
			tsErr = build.Cannot("build TypeScript bots", fmt.Errorf("no npm on PATH: the arena's TypeScript kit is built with npm ci (install npm beside node)"))
		}
	}
	add("TypeScript", jsFound, tsErr, "compiled against the arena's TypeScript kit, whose npm packages its first build fetches (--build-network; kept afterwards)")
	for _, l := range []struct {
		name string
		kind submission.Kind
	}{{"Rust", submission.Rust}, {"Java", submission.Java}, {"C++", submission.Cpp}} {
		found, err := tool(l.kind)
		add(l.name, found, err, "")
	}
	stdioFound := ""
	err = bridgeReady()
	if err == nil {
		stdioFound = "any program reading and writing JSON lines, behind the arena's bridge"
	}
	add("stdio", stdioFound, err, "")
	return out
}
