package newgame

import (
	"bufio"
	"embed"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
)

// Game and Bot are the template's names, which the document's steps write <game> and <bot>.
const (
	Game = "coin"
	Bot  = "flip"
)

// template holds the game's new files, each at its path in the repository.
//
//go:embed all:testdata/coin
var template embed.FS

const templateRoot = "testdata/coin"

// Edit is one insertion into a file the repository already has: Insert goes after each of the
// Count lines that contain Anchor (a line the file has today; when it changes, TestEditsApply
// fails and names the edit).
type Edit struct {
	File   string
	Anchor string
	Count  int
	Insert string
}

// Edits are the template's insertions into existing files: the wire contract's oneofs and
// the house bot's in-process constructor.
var Edits = []Edit{
	{File: "proto/arena/v1/bot.proto", Anchor: `import "arena/v1/realtv.proto";`, Count: 1, Insert: `import "arena/v1/coin.proto";`},
	{File: "proto/arena/v1/bot.proto", Anchor: "RealtvSetup realtv = 14;", Count: 1, Insert: "    CoinSetup coin = 15;"},
	{File: "proto/arena/v1/bot.proto", Anchor: "RealtvObservation realtv = 14;", Count: 2, Insert: "    CoinObservation coin = 15;"},
	{File: "proto/arena/v1/bot.proto", Anchor: "RealtvAction realtv = 14;", Count: 1, Insert: "    CoinAction coin = 15;"},
	{File: "bots/house/house.go", Anchor: `biddingbots "github.com/botarena/arena/bots/bidding"`, Count: 1, Insert: `	coinbots "github.com/botarena/arena/bots/coin"`},
	{File: "bots/house/house.go", Anchor: `"schemer": unseeded(realtvbots.Schemer)},`, Count: 1, Insert: `	"coin": {"flip": coinbots.FlipSeeded},`},
}

// NewFiles lists the template's files by their paths in the repository, sorted.
func NewFiles() ([]string, error) {
	var out []string
	err := fs.WalkDir(template, templateRoot, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			out = append(out, strings.TrimPrefix(p, templateRoot+"/"))
		}
		return err
	})
	slices.Sort(out)
	return out, err
}

// EditedFiles lists the files the Edits touch, sorted, each once.
func EditedFiles() []string {
	var out []string
	for _, e := range Edits {
		if !slices.Contains(out, e.File) {
			out = append(out, e.File)
		}
	}
	slices.Sort(out)
	return out
}

// Apply adds the game to the repository at root: it writes the template's files and makes the
// Edits. A file named in omit is left out (its new file not written, its edits not made): how
// the test shows that each step is needed.
func Apply(root string, omit ...string) error {
	files, err := NewFiles()
	if err != nil {
		return err
	}
	for _, rel := range files {
		if slices.Contains(omit, rel) {
			continue
		}
		b, err := template.ReadFile(templateRoot + "/" + rel)
		if err != nil {
			return err
		}
		dst := filepath.Join(root, filepath.FromSlash(rel))
		if _, err := os.Stat(dst); err == nil {
			return fmt.Errorf("%s already exists in %s: the template's game is there already", rel, root)
		}
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(dst, b, 0o644); err != nil {
			return err
		}
	}
	for _, file := range EditedFiles() {
		if slices.Contains(omit, file) {
			continue
		}
		path := filepath.Join(root, filepath.FromSlash(file))
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		out, err := edit(file, string(b))
		if err != nil {
			return err
		}
		if err := os.WriteFile(path, []byte(out), 0o644); err != nil {
			return err
		}
	}
	return nil
}

// edit makes file's Edits in text.
func edit(file, text string) (string, error) {
	lines := strings.SplitAfter(text, "\n")
	for _, e := range Edits {
		if e.File != file {
			continue
		}
		var out []string
		n := 0
		for _, l := range lines {
			out = append(out, l)
			if strings.Contains(l, e.Anchor) {
				out = append(out, e.Insert+"\n")
				n++
			}
		}
		if n != e.Count {
			return "", fmt.Errorf("%s: the edit after %q found the line %d times, want %d: the file changed; update the Edits in internal/newgame (and docs/adding-a-game.md if the step changed)",
				file, e.Anchor, n, e.Count)
		}
		lines = out
	}
	return strings.Join(lines, ""), nil
}

// Step is one line of the steps block of docs/adding-a-game.md: a file to add ("new") or to
// change ("edit"), with <game> and <bot> standing for the game's and its house bot's names, or
// a command to run from the repository's root ("run").
type Step struct {
	Kind string
	Arg  string
}

var stepLine = regexp.MustCompile("^(new|edit|run) +(\\S.*?)(?: {2,}.*)?$")

// Steps reads the fenced block marked `steps` of the document at path: every line a Step; a
// line that is none fails, so the block stays exact.
func Steps(path string) ([]Step, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var steps []Step
	in, found := false, false
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		l := sc.Text()
		switch {
		case !in && l == "```steps":
			in, found = true, true
		case in && l == "```":
			in = false
		case in:
			m := stepLine.FindStringSubmatch(l)
			if m == nil {
				return nil, fmt.Errorf("%s:%d: %q is no step: write `new PATH`, `edit PATH` or `run COMMAND` (a comment after two spaces)", path, n, l)
			}
			steps = append(steps, Step{Kind: m[1], Arg: m[2]})
		}
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	if !found || in {
		return nil, fmt.Errorf("%s: no closed ```steps block: the document's steps are what the test follows", path)
	}
	return steps, nil
}

// ForTemplate writes the step's placeholders as the template's names.
func (s Step) ForTemplate() string {
	return strings.NewReplacer("<game>", Game, "<bot>", Bot).Replace(s.Arg)
}
