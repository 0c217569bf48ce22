package tournament

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/botarena/arena/arena/submission"
)

// Entry is one submitted bot.
type Entry struct {
	Name string `json:"name"`
	// Spec is what botspec resolves: a .py file (optionally :Class), a Go package dir, an executable.
	Spec     string `json:"spec"`
	Author   string `json:"author,omitempty"`
	Language string `json:"language,omitempty"`
	// Hash is the content hash of the bot's snapshot, taken when it entered (Create).
	Hash string `json:"hash,omitempty"`
}

// ManifestName is the manifest file in a submitted bot's folder.
const ManifestName = submission.ManifestName

// FromArgs turns command line bot arguments into entries; an argument that is a folder of
// submissions (no .go files, no bot.py, no bot.json of its own) is expanded with Folder.
func FromArgs(args []string) (entries []Entry, skipped []string, err error) {
	for _, a := range args {
		st, serr := os.Stat(a)
		if serr != nil {
			// Not a path: a house bot or file.py:Class, which Parse knows; else say what is
			// missing before counting bots ("needs at least 2 bots, got 1" hid a typo).
			if _, err := submission.Parse(a); err != nil {
				return nil, nil, fmt.Errorf("%w; or a folder of submissions", err)
			}
		}
		if serr == nil && st.IsDir() && !isBotDir(a) {
			es, sk, err := Folder(a)
			if err != nil {
				return nil, nil, err
			}
			entries = append(entries, es...)
			skipped = append(skipped, sk...)
			continue
		}
		if serr == nil && st.IsDir() && exists(filepath.Join(a, ManifestName)) {
			e, err := fromManifest(a)
			if err != nil {
				return nil, nil, err
			}
			entries = append(entries, e)
			continue
		}
		entries = append(entries, Entry{Name: nameOf(a), Spec: a, Language: languageOf(a)})
	}
	return Unique(entries), skipped, nil
}

// Folder reads a folder of submitted bots, sorted by file name: every file that is a bot on
// its own (.py, .js, an executable) plays. A lone source file of a language whose bots are
// folders is refused by name; other files (READMEs, say) are returned as skipped.
func Folder(dir string) (entries []Entry, skipped []string, err error) {
	des, err := os.ReadDir(dir)
	if err != nil {
		return nil, nil, fmt.Errorf("bots folder %s: %w", dir, err)
	}
	sort.Slice(des, func(i, j int) bool { return des[i].Name() < des[j].Name() })
	for _, de := range des {
		p := filepath.Join(dir, de.Name())
		if strings.HasPrefix(de.Name(), ".") || strings.HasPrefix(de.Name(), "_") {
			continue
		}
		if de.IsDir() {
			switch {
			case exists(filepath.Join(p, ManifestName)):
				e, err := fromManifest(p)
				if err != nil {
					return nil, nil, err
				}
				entries = append(entries, e)
			case isBotDir(p):
				// The whole folder is the submission (helper modules beside bot.py).
				entries = append(entries, Entry{Name: de.Name(), Spec: p, Language: languageOf(p)})
			default:
				skipped = append(skipped, p+" (folder with no bot.json, .go files or bot.py)")
			}
			continue
		}
		_, perr := submission.Parse(p)
		switch {
		case perr == nil:
			// A .py or .js file, or an executable: a bot of its own.
			entries = append(entries, Entry{Name: nameOf(p), Spec: p, Language: languageOf(p)})
		case errors.Is(perr, submission.ErrUnknownKind):
			// Source of a language whose bots are folders (a lone .go, .rs, .java or .cpp file):
			// refused by name, never left out unseen.
			return nil, nil, fmt.Errorf("bots folder %s: %w; or move it out of the folder", dir, perr)
		default:
			skipped = append(skipped, p+" (not a .py or .js file, not a bot folder and not executable)")
		}
	}
	if len(entries) == 0 {
		return nil, skipped, fmt.Errorf("bots folder %s holds no bots (each bot is a .py or .js file, an executable, or a folder with %s or a program the arena builds)", dir, ManifestName)
	}
	return entries, skipped, nil
}

func fromManifest(dir string) (Entry, error) {
	m, err := submission.ReadManifest(dir)
	if err != nil {
		return Entry{}, err
	}
	if _, err := submission.Parse(dir); err != nil {
		return Entry{}, err // what runs is missing or unknown: say so before any match
	}
	if m.Language == "" {
		m.Language = languageOf(filepath.Join(dir, m.Command))
	}
	return Entry{Name: m.Name, Spec: dir, Author: m.Author, Language: m.Language}, nil
}

// Unique makes entry names unique: bots that share a name are told apart by the folders
// above them ("python/auction", "go/auction"), and by #2, #3... when even that is not enough.
func Unique(es []Entry) []Entry {
	groups := map[string][]int{}
	for i, e := range es {
		groups[e.Name] = append(groups[e.Name], i)
	}
	for _, idx := range groups {
		if len(idx) < 2 {
			continue
		}
		for depth := 1; depth <= 3; depth++ {
			names := map[string]bool{}
			cand := make([]string, len(idx))
			for k, i := range idx {
				cand[k] = withParents(es[i], depth)
				names[cand[k]] = true
			}
			if len(names) == len(idx) {
				for k, i := range idx {
					es[i].Name = cand[k]
				}
				break
			}
		}
	}
	seen := map[string]int{}
	for i := range es {
		n := es[i].Name
		seen[n]++
		if seen[n] > 1 {
			es[i].Name = fmt.Sprintf("%s#%d", n, seen[n])
		}
	}
	return es
}

// withParents prefixes an entry's name with depth folders above the folder it lives in.
func withParents(e Entry, depth int) string {
	dir := e.Spec
	if st, err := os.Stat(dir); err != nil || !st.IsDir() {
		dir = filepath.Dir(dir)
	}
	parts := []string{e.Name}
	for range depth {
		if filepath.Base(dir) == e.Name || filepath.Base(dir) == "" {
			dir = filepath.Dir(dir)
		}
		b := filepath.Base(dir)
		if b == "/" || b == "." {
			break
		}
		parts = append([]string{b}, parts...)
		dir = filepath.Dir(dir)
	}
	return strings.Join(parts, "/")
}

func exists(p string) bool { _, err := os.Stat(p); return err == nil }

func isBotDir(dir string) bool { return submission.IsBotFolder(dir) }

// nameOf names a bot after its path: the file without .py, or the last folder.
func nameOf(spec string) string {
	p := spec
	if i := strings.LastIndex(p, ".py:"); i >= 0 {
		return strings.TrimSuffix(filepath.Base(p[:i+3]), ".py") + ":" + p[i+4:]
	}
	base := filepath.Base(filepath.Clean(p))
	if base == "bot.py" {
		return filepath.Base(filepath.Dir(filepath.Clean(p)))
	}
	return strings.TrimSuffix(strings.TrimSuffix(base, ".py"), ".js")
}

func languageOf(spec string) string {
	if src, err := submission.Parse(spec); err == nil {
		if src.Kind == submission.Exec {
			return "exec"
		}
		return string(src.Kind)
	}
	if strings.Contains(spec, ".py") {
		return "python"
	}
	return "exec"
}
