package botspec

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/botarena/arena/arena/bridge"
	"github.com/botarena/arena/arena/build"
	"github.com/botarena/arena/arena/host"
	"github.com/botarena/arena/arena/kit"
	"github.com/botarena/arena/arena/submission"
	"github.com/botarena/arena/sandbox"
)

// Errors, each wrapped with the path and the fix.
var (
	ErrMissing       = submission.ErrMissing
	ErrNotExecutable = submission.ErrNotExecutable
	ErrUnknownKind   = submission.ErrUnknownKind
	ErrNoPython      = errors.New("no Python interpreter")
)

// BotDir is where a bot sees its own files (its snapshot, or its built binary).
const BotDir = "/bot"

// DepsDir is where a Python bot sees the dependencies its requirements.txt installed.
const DepsDir = "/deps"

// Parse classifies arg without copying or building anything.
func Parse(arg string) (submission.Source, error) { return submission.Parse(arg) }

// Resolver prepares bots: snapshot, build, launch command. It does each once per argument.
type Resolver struct {
	// Python is the interpreter with arena_sdk installed (a venv's python is used as a venv);
	// default $ARENA_PYTHON, else the arena's own environment in its cache (see OwnPython).
	Python string
	// Build tunes every build step (limits, network, cgo, wheel folder).
	Build build.Options
	// Snapshot bounds what a submission may hold.
	Snapshot submission.Limits
	// Authoring is local authoring (arena play): a .py file brings the .py modules beside it.
	// Off for contests, where a loose file in a folder of submissions is alone.
	Authoring bool

	mu   sync.Mutex
	done map[string]*prepared
}

// Prepared is a bot ready to launch.
type Prepared struct {
	Source   submission.Source
	Snapshot submission.Snapshot
	Command  host.Command
}

type prepared struct {
	once sync.Once
	p    Prepared
	err  error
}

// Command resolves arg to a launch command; see Prepare.
func (r *Resolver) Command(arg string) (host.Command, error) {
	p, err := r.Prepare(arg)
	return p.Command, err
}

// Prepare classifies arg, takes its snapshot and builds it. A failed build returns the
// snapshot with a *build.Error (errors.Is(err, build.ErrBuild)): that bot's verdict. Classify
// says whose any error is (the bot's, this machine's lack, the submission's, the arena's).
func (r *Resolver) Prepare(arg string) (Prepared, error) {
	r.mu.Lock()
	if r.done == nil {
		r.done = map[string]*prepared{}
	}
	p := r.done[arg]
	if p == nil {
		p = &prepared{}
		r.done[arg] = p
	}
	r.mu.Unlock()
	p.once.Do(func() { p.p, p.err = r.prepare(arg) })
	if Classify(p.err) == Infrastructure {
		// The arena's failure (a full files store, say) may be gone next time: not kept.
		r.forget(arg, p)
	} else if p.err == nil && !present(p.p.Command) {
		// Its snapshot or artefact left the files store (removed by hand: what this process
		// resolved is leased): prepared again, which takes and builds it again.
		r.forget(arg, p)
		q := &prepared{}
		q.once.Do(func() { q.p, q.err = r.prepare(arg) })
		r.mu.Lock()
		r.done[arg] = q
		r.mu.Unlock()
		return q.p, q.err
	}
	return p.p, p.err
}

// forget drops p as arg's preparation, unless another has replaced it already.
func (r *Resolver) forget(arg string, p *prepared) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.done[arg] == p {
		delete(r.done, arg)
	}
}

// present reports whether every folder a command mounts is still there.
func present(c host.Command) bool {
	for _, m := range c.Mounts {
		if _, err := os.Stat(m.Host); err != nil {
			return false
		}
	}
	return true
}

func (r *Resolver) prepare(arg string) (Prepared, error) {
	src, err := submission.Parse(arg)
	if err != nil {
		return Prepared{}, err
	}
	src.Siblings = r.Authoring
	store, err := sandbox.FilesDir()
	if err != nil {
		return Prepared{}, err
	}
	snap, err := submission.Take(src, store, r.Snapshot)
	if err != nil {
		return Prepared{}, err
	}
	out := Prepared{Source: src, Snapshot: snap}
	// The toolchain first: without it the bot cannot play here (see Classify).
	if err := r.ready(src); err != nil {
		return out, err
	}
	c := host.Command{Name: arg, Dir: BotDir, Mounts: []sandbox.Mount{{Host: snap.Dir, At: BotDir}}}
	var program []string // what runs, inside the sandbox
	switch src.Kind {
	case submission.Python:
		rt, err := r.pythonRuntime()
		if err != nil {
			return out, err
		}
		target := filepath.Join(BotDir, src.Entry)
		if src.Class != "" {
			target += ":" + src.Class
		}
		program, c.ReadOnly = []string{rt.Exe, "-m", "arena_sdk", target}, rt.ReadOnly
		if src.Protocol == submission.Stdio {
			program = []string{rt.Exe, filepath.Join(BotDir, src.Entry)}
		}
		if build.HasRequirements(snap) {
			a, err := build.PythonDeps(r.Build, arg, snap, rt, store)
			if errors.Is(err, build.ErrNoSource) {
				err = build.Cannot("install a Python bot's "+build.Requirements, err)
			}
			if err != nil {
				return out, err
			}
			c.Mounts = append(c.Mounts, sandbox.Mount{Host: filepath.Join(a.Dir, "site"), At: DepsDir})
			c.Env = append(c.Env, "PYTHONPATH="+DepsDir)
		}
	case submission.Go:
		a, err := build.Go(r.Build, build.GoBot{Name: arg, Snap: snap, Pkg: src.Entry}, store)
		if err != nil {
			return out, err
		}
		// The bot sees its binary, not its source.
		program, c.Mounts = []string{filepath.Join(BotDir, "bot")}, []sandbox.Mount{{Host: a.Dir, At: BotDir}}
	case submission.JavaScript, submission.TypeScript, submission.Rust, submission.Java, submission.Cpp:
		t, err := build.ToolFor(src.Kind)
		if err != nil {
			return out, err
		}
		run := src.Run
		node := src.Kind == submission.JavaScript || src.Kind == submission.TypeScript
		if node && src.Entry != "" && len(run) == 0 {
			run = []string{"node", filepath.Join(BotDir, src.Entry)}
		}
		if !(src.Kind == submission.JavaScript && src.Manifest == nil && filepath.Ext(src.Root) == ".js") {
			// A folder is built (a single .js file runs as it is): the bot sees the build's copy.
			a, err := build.Stdio(r.Build, build.StdioBot{Name: arg, Kind: src.Kind, Snap: snap, Build: src.Build}, store)
			if err != nil {
				return out, err
			}
			c.Mounts = []sandbox.Mount{{Host: a.Dir, At: BotDir}}
		}
		if node {
			sdk, err := build.SDK(r.Build, src.Kind)
			if err != nil {
				return out, err
			}
			if sdk.Dir != "" {
				c.Mounts = append(c.Mounts, sandbox.Mount{Host: sdk.Dir, At: build.SDKDir})
				c.Env = append(c.Env, "NODE_PATH="+build.SDKDir)
			}
		}
		c.ReadOnly = t.Run
		if program, err = build.Program(t, run, BotDir); err != nil {
			return out, &build.Error{Bot: arg, Step: "bot.json", Reason: err.Error()} // the bot's own mistake
		}
	default:
		program = []string{filepath.Join(BotDir, src.Entry)}
		if len(src.Run) > 0 {
			var err error
			if program, err = build.Program(build.Tool{Kind: src.Kind}, src.Run, BotDir); err != nil {
				return out, &build.Error{Bot: arg, Step: "bot.json", Reason: err.Error()} // the bot's own mistake
			}
		}
	}
	if src.Protocol == submission.Stdio {
		// The bridge stands between: it serves the host and speaks JSON lines to the program.
		// It is this very binary, re-executed in the bot's sandbox (never anything built from
		// or found near a submission).
		a, err := build.Bridge()
		if err != nil {
			return out, err
		}
		c.Mounts = append(c.Mounts, sandbox.Mount{Host: a.Dir, At: build.BridgeDir})
		program = append([]string{build.BridgeProgram, bridge.Arg, "--"}, program...)
		c.Front = true
	}
	c.Path, c.Args = program[0], program[1:]
	if src.Kind != submission.Go && !strings.HasPrefix(arg, kit.HousePrefix) {
		// What the bot sees at /bot has its submission's layout: name it as given.
		c.Files = filepath.Clean(src.Root)
		if st, err := os.Stat(src.Root); err == nil && !st.IsDir() {
			c.Files = filepath.Dir(c.Files)
		}
		if wd, err := os.Getwd(); err == nil {
			if rel, err := filepath.Rel(wd, c.Files); err == nil && !strings.HasPrefix(rel, "..") {
				c.Files = rel
			}
		}
	}
	out.Command = c
	return out, nil
}

// pythonRuntime finds the interpreter and checks, in its sandbox, that it imports arena_sdk.
func (r *Resolver) pythonRuntime() (*sandbox.Runtime, error) {
	py, given := r.Python, "--python"
	if py == "" {
		py, given = os.Getenv("ARENA_PYTHON"), "ARENA_PYTHON"
	}
	if py == "" {
		// Never an interpreter of the working directory or a bot's folder: the arena's own.
		own, err := OwnPython(os.Stderr)
		if err != nil {
			return nil, err
		}
		py, given = own, "the arena's own environment"
	}
	rt, err := sandbox.PythonRuntime(py, "arena_sdk")
	if err != nil {
		return nil, fmt.Errorf("%w with the arena SDK (%s, from %s): %v\n  give an interpreter that imports arena_sdk (--python or ARENA_PYTHON; make one with python3 -m venv DIR && DIR/bin/pip install ./sdk/python), or leave both unset: the arena then makes its own",
			ErrNoPython, py, given, err)
	}
	return rt, nil
}
