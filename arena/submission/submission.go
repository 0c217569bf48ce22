package submission

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/botarena/arena/arena/kit"
)

// Errors, each wrapped with the path and the fix.
var (
	ErrMissing       = errors.New("no such bot file")
	ErrNotExecutable = errors.New("bot file is not executable")
	ErrUnknownKind   = errors.New("unknown kind of bot")
	ErrManifest      = errors.New("bad bot manifest")
	ErrTooBig        = errors.New("submission too big")
	ErrLink          = errors.New("submission holds a link or a special file")
)

// Kind of bot: which recipe builds it and which runtime runs it.
type Kind string

// Kinds of bot.
const (
	Python     Kind = "python"
	Go         Kind = "go"
	Exec       Kind = "exec"
	JavaScript Kind = "javascript"
	TypeScript Kind = "typescript" // Node too, compiled against the arena's TypeScript kit
	Rust       Kind = "rust"
	Java       Kind = "java"
	Cpp        Kind = "cpp"
)

// Protocols a bot speaks to the host.
const (
	GRPC  = "grpc"  // it serves the plugin contract itself
	Stdio = "stdio" // it reads and writes JSON lines behind the stdio bridge
)

// languages maps bot.json's "language" to a Kind.
var languages = map[string]Kind{
	"python": Python, "go": Go, "exec": Exec, "javascript": JavaScript, "typescript": TypeScript,
	"rust": Rust, "java": Java, "cpp": Cpp, "c++": Cpp,
}

// ManifestName is the manifest file of a submitted folder.
const ManifestName = "bot.json"

// maxManifest bounds bot.json; a real one is a few lines.
const maxManifest = 16 << 10

// Manifest is a folder's bot.json.
type Manifest struct {
	Name     string `json:"name"`
	Author   string `json:"author"`
	Language string `json:"language"`
	// Command is the older name of Run: a .py file, a program, or "." for a Go package in the
	// folder itself, relative to the folder.
	Command string `json:"command"`
	// Build is a shell command run in the build sandbox instead of the language's recipe.
	Build string `json:"build"`
	// Run is the command line that plays, split on spaces: a path relative to the folder or a
	// runtime by name (node, java).
	Run string `json:"run"`
	// Protocol is GRPC or Stdio; empty means the language's default.
	Protocol string `json:"protocol"`
}

// Source is a classified bot argument: what kind of bot, and which files are the submission.
type Source struct {
	Arg  string // what the user typed
	Kind Kind
	// Root is the file or folder the snapshot copies.
	Root string
	// Entry is what runs, relative to Root's snapshot: the file ("bot.py", "strategy.py", the
	// program), or the Go package to build ("." or "cmd/bot"). Empty when the recipe decides.
	Entry string
	// Class is the ClassName of a "file.py:ClassName" argument.
	Class string
	// Run is bot.json's command line, split (empty: the recipe's).
	Run []string
	// Build is bot.json's build command (empty: the recipe's).
	Build string
	// Protocol is GRPC or Stdio.
	Protocol string
	Manifest *Manifest
	// Siblings makes a single .py file's snapshot take the .py modules beside it too: local
	// authoring (arena play), where the folder is the author's own. Never for a contest.
	Siblings bool
}

// DefaultProtocol is how a kind of bot talks unless bot.json says otherwise: the languages
// with an SDK of their own serve gRPC, the others speak JSON lines.
func DefaultProtocol(k Kind) string {
	switch k {
	case Python, Go, Exec:
		return GRPC
	}
	return Stdio
}

// Parse classifies arg by the names of its files; it reads nothing but bot.json.
//
// A house bot's spec (house:<game>/<name>, see arena/kit.HousePrefix) is the folder of that bot
// in the Go kit the binary carries: it works from any folder.
func Parse(arg string) (Source, error) {
	path, class := arg, ""
	if strings.HasPrefix(arg, kit.HousePrefix) {
		dir, err := kit.House(arg)
		if err != nil {
			return Source{}, fmt.Errorf("%w: %w", ErrMissing, err)
		}
		path = dir
	} else if i := strings.LastIndex(arg, ".py:"); i >= 0 {
		path, class = arg[:i+3], arg[i+4:]
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return Source{}, fmt.Errorf("%w %q: %v", ErrMissing, arg, err)
	}
	st, err := os.Stat(abs)
	if err != nil {
		return Source{}, fmt.Errorf("%w %q: check the path (a bot is a .py or .js file, an executable, or a folder with bot.json or a program in a language the arena builds)", ErrMissing, path)
	}
	s := Source{Arg: arg, Root: abs, Class: class}
	if st.IsDir() {
		s, err = s.folder(path)
	} else {
		s, err = s.file(path, st)
	}
	if err == nil && s.Protocol == "" {
		s.Protocol = DefaultProtocol(s.Kind)
	}
	return s, err
}

func (s Source) file(path string, st os.FileInfo) (Source, error) {
	abs := s.Root
	switch {
	case strings.HasSuffix(abs, ".py"):
		s.Kind, s.Entry = Python, filepath.Base(abs)
	case strings.HasSuffix(abs, ".js"):
		s.Kind, s.Entry = JavaScript, filepath.Base(abs)
	case st.Mode()&0o111 != 0:
		s.Kind, s.Entry = Exec, filepath.Base(abs)
	case strings.HasSuffix(abs, ".go"):
		return Source{}, fmt.Errorf("%w %q: give the Go package directory (%s), not one .go file", ErrUnknownKind, path, filepath.Dir(path))
	default:
		if k := detect([]string{filepath.Base(abs)}); k != "" {
			return Source{}, fmt.Errorf("%w %q: a %s bot is a folder: give %s", ErrUnknownKind, path, k, filepath.Dir(path))
		}
		return Source{}, fmt.Errorf("%w %q: not a .py or .js file, not a folder, and not executable (chmod +x %s if it is a program)", ErrNotExecutable, path, path)
	}
	return s, nil
}

// detect names the language of a folder from its file names, in the order of the protocol
// document's section 12 (after bot.json).
func detect(names []string) Kind {
	has := func(pred func(string) bool) bool {
		for _, n := range names {
			if pred(n) {
				return true
			}
		}
		return false
	}
	is := func(name string) func(string) bool { return func(n string) bool { return n == name } }
	ext := func(e ...string) func(string) bool {
		return func(n string) bool {
			for _, x := range e {
				if strings.HasSuffix(n, x) {
					return true
				}
			}
			return false
		}
	}
	switch {
	case has(is("bot.py")):
		return Python
	case has(ext(".go")):
		return Go
	case has(is("package.json")):
		return JavaScript
	case has(is("Cargo.toml")):
		return Rust
	case has(is("pom.xml")), has(ext(".java")):
		return Java
	case has(is("CMakeLists.txt")), has(is("Makefile")), has(ext(".cpp", ".cc")):
		return Cpp
	}
	return ""
}

func (s Source) folder(path string) (Source, error) {
	dir := s.Root
	entries, _ := os.ReadDir(dir)
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	if !exists(filepath.Join(dir, ManifestName)) {
		switch s.Kind = detect(names); s.Kind {
		case "":
			return Source{}, fmt.Errorf("%w %q: a folder is a bot when it holds %s or a program the arena builds (bot.py, a Go package, package.json, Cargo.toml, pom.xml or .java files, CMakeLists.txt, a Makefile or .cpp files); none found there", ErrUnknownKind, path, ManifestName)
		case Python:
			s.Entry = "bot.py"
		case Go:
			s.Entry = "."
		}
		return s, nil
	}
	m, err := ReadManifest(dir)
	if err != nil {
		return Source{}, err
	}
	s.Manifest, s.Build, s.Protocol = &m, m.Build, m.Protocol
	where := filepath.Join(dir, ManifestName)
	if m.Language != "" {
		k, ok := languages[strings.ToLower(m.Language)]
		if !ok {
			return Source{}, fmt.Errorf("%w %s: unknown \"language\" %q (one of python, go, javascript, typescript, rust, java, cpp, exec)", ErrManifest, where, m.Language)
		}
		s.Kind = k
	}
	command, key := m.Command, "command"
	if py := pythonRun(dir, m.Run); py != "" {
		// "run": "x.py" names a Python bot's file as "command" does (run is the newer name):
		// the arena's Python runtime runs it, not the file as a program.
		command, key = py, "run"
	} else if m.Run != "" {
		s.Run = strings.Fields(m.Run)
		command = ""
		if s.Kind == "" {
			if s.Kind = detect(names); s.Kind == "" {
				s.Kind = Exec
			}
		}
	}
	if command == "" {
		if s.Kind == "" {
			s.Kind = detect(names)
		}
		switch s.Kind {
		case "":
			return Source{}, fmt.Errorf("%w %s: say what runs (\"run\" or \"command\"), or add the program's usual files (see docs/protocol.md section 12)", ErrManifest, where)
		case Python:
			if len(s.Run) == 0 {
				s.Entry = "bot.py"
			}
		case Go:
			s.Entry = "."
		case Exec:
			if len(s.Run) == 0 {
				return Source{}, fmt.Errorf("%w %s: an executable bot needs \"run\" (or \"command\")", ErrManifest, where)
			}
		}
		return s, nil
	}
	if i := strings.LastIndex(command, ".py:"); i >= 0 {
		command, s.Class = command[:i+3], command[i+4:]
	}
	target := filepath.Join(dir, command)
	st, err := os.Stat(target)
	switch {
	case err != nil:
		return Source{}, fmt.Errorf("%w %s: %q %q does not exist in %s", ErrManifest, where, key, command, dir)
	case st.IsDir() && hasGo(target):
		s.Kind, s.Entry = Go, filepath.Clean(command)
	case strings.HasSuffix(target, ".py"):
		s.Kind, s.Entry = Python, filepath.Clean(command)
	case strings.HasSuffix(target, ".js"):
		if s.Kind != TypeScript { // a TypeScript bot's program is JavaScript too
			s.Kind = JavaScript
		}
		s.Entry = filepath.Clean(command)
	case !st.IsDir() && st.Mode()&0o111 != 0:
		if s.Kind == "" {
			s.Kind = Exec
		}
		s.Entry = filepath.Clean(command)
	default:
		return Source{}, fmt.Errorf("%w %s: %q %q is not a .py or .js file, a Go package or an executable (chmod +x it if it is a program)", ErrManifest, where, key, command)
	}
	return s, nil
}

// pythonRun is bot.json's "run" when it is one .py file of the folder (x.py or x.py:Class),
// else "".
func pythonRun(dir, run string) string {
	f := strings.Fields(run)
	if len(f) != 1 {
		return ""
	}
	file := f[0]
	if i := strings.LastIndex(file, ".py:"); i >= 0 {
		file = file[:i+3]
	}
	if !strings.HasSuffix(file, ".py") || filepath.IsAbs(file) || strings.HasPrefix(filepath.Clean(file), "..") {
		return ""
	}
	if st, err := os.Stat(filepath.Join(dir, file)); err != nil || st.IsDir() {
		return ""
	}
	return f[0]
}

// ReadManifest reads dir's bot.json: bounded, known fields only, command inside the folder.
func ReadManifest(dir string) (Manifest, error) {
	path := filepath.Join(dir, ManifestName)
	f, err := os.Open(path)
	if err != nil {
		return Manifest{}, fmt.Errorf("%w %s: %v", ErrManifest, path, err)
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, maxManifest+1))
	if err != nil {
		return Manifest{}, fmt.Errorf("%w %s: %v", ErrManifest, path, err)
	}
	if len(b) > maxManifest {
		return Manifest{}, fmt.Errorf("%w %s: larger than %d KiB; it holds only name, author, language, build, run and protocol", ErrManifest, path, maxManifest>>10)
	}
	var m Manifest
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&m); err != nil {
		return Manifest{}, fmt.Errorf("%w %s: %v (fields: name, author, language, command, build, run, protocol)", ErrManifest, path, err)
	}
	if m.Command != "" && m.Run != "" {
		return Manifest{}, fmt.Errorf("%w %s: give \"run\" or \"command\", not both (\"command\" is the older name of \"run\")", ErrManifest, path)
	}
	if m.Protocol != "" && m.Protocol != GRPC && m.Protocol != Stdio {
		return Manifest{}, fmt.Errorf("%w %s: \"protocol\" is %q; it is \"grpc\" (the bot serves gRPC itself) or \"stdio\" (JSON lines, docs/protocol.md section 11)", ErrManifest, path, m.Protocol)
	}
	if strings.ContainsAny(m.Run+m.Build, "\n\x00") {
		return Manifest{}, fmt.Errorf("%w %s: \"run\" and \"build\" are one line each", ErrManifest, path)
	}
	if filepath.IsAbs(m.Command) || m.Command == ".." || strings.HasPrefix(filepath.Clean(m.Command), "../") {
		return Manifest{}, fmt.Errorf("%w %s: \"command\" %q must stay inside %s", ErrManifest, path, m.Command, dir)
	}
	if m.Name == "" {
		m.Name = filepath.Base(dir)
	}
	return m, nil
}

// IsBotFolder reports whether dir is one bot (bot.json, or a program the arena builds), as
// Parse sees it.
func IsBotFolder(dir string) bool {
	if exists(filepath.Join(dir, ManifestName)) {
		return true
	}
	entries, _ := os.ReadDir(dir)
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	return detect(names) != ""
}

func exists(p string) bool { _, err := os.Stat(p); return err == nil }

func hasGo(dir string) bool {
	m, _ := filepath.Glob(filepath.Join(dir, "*.go"))
	return len(m) > 0
}
