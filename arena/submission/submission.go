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

// Kind of bot.
type Kind string

// Kinds of bot.
const (
	Python Kind = "python"
	Go     Kind = "go"
	Exec   Kind = "exec"
)

// ManifestName is the manifest file of a submitted folder.
const ManifestName = "bot.json"

// maxManifest bounds bot.json; a real one is a few lines.
const maxManifest = 16 << 10

// Manifest is a folder's bot.json.
type Manifest struct {
	Name     string `json:"name"`
	Author   string `json:"author"`
	Language string `json:"language"`
	// Command is what runs, relative to the folder: a .py file, a program, or "." for a Go
	// package in the folder itself.
	Command string `json:"command"`
}

// Source is a classified bot argument: what kind of bot, and which files are the submission.
type Source struct {
	Arg  string // what the user typed
	Kind Kind
	// Root is the file or folder the snapshot copies.
	Root string
	// Entry is what runs, relative to Root's snapshot: the file ("bot.py", "strategy.py", the
	// program), or the Go package to build ("." or "cmd/bot").
	Entry string
	// Class is the ClassName of a "file.py:ClassName" argument.
	Class    string
	Manifest *Manifest
	// Siblings makes a single .py file's snapshot take the .py modules beside it too: local
	// authoring (arena play), where the folder is the author's own. Never for a contest.
	Siblings bool
}

// Parse classifies arg by the names of its files; it reads nothing but bot.json.
func Parse(arg string) (Source, error) {
	path, class := arg, ""
	if i := strings.LastIndex(arg, ".py:"); i >= 0 {
		path, class = arg[:i+3], arg[i+4:]
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return Source{}, fmt.Errorf("%w %q: %v", ErrMissing, arg, err)
	}
	st, err := os.Stat(abs)
	if err != nil {
		return Source{}, fmt.Errorf("%w %q: check the path (a bot is a .py file, an executable, or a folder with bot.json, bot.py or a Go package)", ErrMissing, path)
	}
	s := Source{Arg: arg, Root: abs, Class: class}
	if st.IsDir() {
		return s.folder(path)
	}
	switch {
	case strings.HasSuffix(abs, ".py"):
		s.Kind, s.Entry = Python, filepath.Base(abs)
	case st.Mode()&0o111 != 0:
		s.Kind, s.Entry = Exec, filepath.Base(abs)
	case strings.HasSuffix(abs, ".go"):
		return Source{}, fmt.Errorf("%w %q: give the Go package directory (%s), not one .go file", ErrUnknownKind, path, filepath.Dir(path))
	default:
		return Source{}, fmt.Errorf("%w %q: not a .py file, not a folder, and not executable (chmod +x %s if it is a program)", ErrNotExecutable, path, path)
	}
	return s, nil
}

func (s Source) folder(path string) (Source, error) {
	dir := s.Root
	switch {
	case exists(filepath.Join(dir, ManifestName)):
		m, err := ReadManifest(dir)
		if err != nil {
			return Source{}, err
		}
		s.Manifest = &m
		command := m.Command
		if i := strings.LastIndex(command, ".py:"); i >= 0 {
			command, s.Class = command[:i+3], command[i+4:]
		}
		target := filepath.Join(dir, command)
		st, err := os.Stat(target)
		switch {
		case err != nil:
			return Source{}, fmt.Errorf("%w %s: \"command\" %q does not exist in %s", ErrManifest, filepath.Join(dir, ManifestName), m.Command, dir)
		case st.IsDir() && hasGo(target):
			s.Kind, s.Entry = Go, filepath.Clean(command)
		case strings.HasSuffix(target, ".py"):
			s.Kind, s.Entry = Python, filepath.Clean(command)
		case !st.IsDir() && st.Mode()&0o111 != 0:
			s.Kind, s.Entry = Exec, filepath.Clean(command)
		default:
			return Source{}, fmt.Errorf("%w %s: \"command\" %q is not a .py file, a Go package or an executable (chmod +x it if it is a program)", ErrManifest, filepath.Join(dir, ManifestName), m.Command)
		}
	case exists(filepath.Join(dir, "bot.py")):
		s.Kind, s.Entry = Python, "bot.py"
	case hasGo(dir):
		s.Kind, s.Entry = Go, "."
	default:
		return Source{}, fmt.Errorf("%w %q: a folder is a bot when it holds %s, bot.py or a Go package (none found there)", ErrUnknownKind, path, ManifestName)
	}
	return s, nil
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
		return Manifest{}, fmt.Errorf("%w %s: larger than %d KiB; it holds only name, author, language and command", ErrManifest, path, maxManifest>>10)
	}
	var m Manifest
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&m); err != nil {
		return Manifest{}, fmt.Errorf("%w %s: %v (fields: name, author, language, command)", ErrManifest, path, err)
	}
	if m.Command == "" {
		return Manifest{}, fmt.Errorf("%w %s: \"command\" is missing (a .py file, a program, or \".\" for a Go package, relative to %s)", ErrManifest, path, dir)
	}
	if filepath.IsAbs(m.Command) || m.Command == ".." || strings.HasPrefix(filepath.Clean(m.Command), "../") {
		return Manifest{}, fmt.Errorf("%w %s: \"command\" %q must stay inside %s", ErrManifest, path, m.Command, dir)
	}
	if m.Name == "" {
		m.Name = filepath.Base(dir)
	}
	return m, nil
}

// IsBotFolder reports whether dir is one bot (bot.json, bot.py or Go files), as Parse sees it.
func IsBotFolder(dir string) bool {
	return exists(filepath.Join(dir, ManifestName)) || exists(filepath.Join(dir, "bot.py")) || hasGo(dir)
}

func exists(p string) bool { _, err := os.Stat(p); return err == nil }

func hasGo(dir string) bool {
	m, _ := filepath.Glob(filepath.Join(dir, "*.go"))
	return len(m) > 0
}
