package server

// The front door: what a stranger with only the site's address needs to enter. Each game's
// page shows its rules (docs/rules/<game>.md, the text the engines cite, rendered from the
// binary's own copy), the parameters its ladder matches are played with (the ladder's, read
// from it), and starter kits in every language (arena/starter zips the examples the binary
// carries); /enter says how to take part (the upload form, the API with a token, the command
// line); the front page carries the organiser's announcement.

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"html/template"
	"io"
	"io/fs"
	"net/http"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/go-chi/chi/v5"
	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"

	arena "github.com/botarena/arena"
	"github.com/botarena/arena/arena/game"
	"github.com/botarena/arena/arena/match"
	"github.com/botarena/arena/arena/starter"
	"github.com/botarena/arena/arena/store"
)

// frontRoutes adds the front door's pages and downloads (inside the pages' group).
func (s *Server) frontRoutes(r chi.Router) {
	r.Get("/enter", s.pageEnter)
	r.Get("/games/{game}/kits/{file}", s.downloadKit)
	r.Get("/kits/{file}", s.downloadSDK)
}

// Announcement is the organiser's announcement ("" when there is none): the store's one
// setting, which the organiser's page and API edit (admin.go).
func (s *Server) Announcement(ctx context.Context) (string, error) {
	return s.st.Announcement(ctx)
}

// SetAnnouncement stores the organiser's announcement (serve --announcement), checked as the
// organiser's page checks it (cleanAnnouncement); "" removes it.
func SetAnnouncement(ctx context.Context, st *store.Store, text string) error {
	text, err := cleanAnnouncement(text)
	if err != nil {
		return err
	}
	return st.SetAnnouncement(ctx, text)
}

// announcement is the front page's announcement; a store error is logged and shows none,
// rather than taking the front page down.
func (s *Server) announcement(ctx context.Context) string {
	a, err := s.Announcement(ctx)
	if err != nil && !errors.Is(err, context.Canceled) {
		s.opt.Logger.Printf("reading the announcement: %v", err)
	}
	return a
}

// GameFront is what a game's page tells a newcomer besides its leaderboard.
type GameFront struct {
	Summary  string
	Rules    template.HTML
	Settings []LadderSetting
	Params   []ParamRow
	Kits     []KitLink
}

// LadderSetting is one fact of how the ladder plays a game.
type LadderSetting struct{ Name, Value string }

// ParamRow is one of a game's parameters: the value ladder matches use and the game's default.
type ParamRow struct {
	Name, Ladder, Default, Help string
	Changed                     bool
}

// KitLink is one language's downloads for a game.
type KitLink struct {
	Language, Href, File string
	// Offline: its build fetches packages, and this server's builds have no network.
	Offline bool
	// SDKHref is the language's kit library ("" when its example carries it).
	SDKHref, SDKFile string
}

func (s *Server) gameFront(g string) GameFront {
	spec, _ := game.Lookup(g)
	f := GameFront{Summary: spec.Summary, Rules: rulesHTML(g)}
	ladder := s.lad.GameParams(g)
	for _, p := range spec.Params {
		v, set := ladder[p.Name]
		if !set {
			v = p.Default
		}
		f.Params = append(f.Params, ParamRow{Name: p.Name, Ladder: v, Default: p.Default, Help: p.Help, Changed: v != p.Default})
	}
	// The ladder seats what the game's Spec says (arena/ladder reads the same LadderSeats).
	players := "2 (a pair)"
	if n := spec.LadderSeats(); n > 2 {
		players = fmt.Sprintf("a table of %d, one bot per author (fewer while fewer authors have a bot here)", n)
	}
	f.Settings = append(f.Settings, LadderSetting{"bots per ladder match", players})
	deadline := "1 s (the default)"
	if s.lad.Deadline > 0 {
		deadline = s.lad.Deadline.String()
	}
	f.Settings = append(f.Settings, LadderSetting{"time per move", deadline})
	clock := "wall time"
	if s.lad.Clock.Mode == match.ClockCPU {
		clock = "CPU time of the bot's own processes (docs/rules: the clock)"
	}
	f.Settings = append(f.Settings, LadderSetting{"the move clock counts", clock})
	if c, err := spec.Clock(game.Config{Params: ladder}); err == nil && c > 0 {
		f.Settings = append(f.Settings, LadderSetting{"each seat's total clock", c.Round(time.Millisecond).String()})
	}
	for _, l := range starter.Languages() {
		if !l.Has(g) {
			continue
		}
		k := KitLink{Language: l.Label, Href: "/games/" + g + "/kits/" + l.Name + ".zip", File: l.FileName(g),
			Offline: l.FetchesPackages(g) && (s.lad.Resolver == nil || !s.lad.Resolver.Build.Network)}
		if l.HasSDK() {
			k.SDKHref, k.SDKFile = "/kits/"+l.SDKFileName(), l.SDKFileName()
		}
		f.Kits = append(f.Kits, k)
	}
	return f
}

// rules holds every game's rules, rendered once: they are the binary's own.
var rules struct {
	once sync.Once
	html map[string]template.HTML
}

// rulesHTML is game g's rules as HTML ("" when the binary has none for it).
func rulesHTML(g string) template.HTML {
	rules.once.Do(func() {
		rules.html = map[string]template.HTML{}
		for _, n := range game.Names() {
			src, err := fs.ReadFile(arena.Rules, "docs/rules/"+n+".md")
			if err != nil {
				continue // TestEveryGameHasRules fails the build that lacks them
			}
			h, err := renderMarkdown(src)
			if err == nil {
				rules.html[n] = h
			}
		}
	})
	return rules.html[g]
}

// renderMarkdown renders a rules file: CommonMark with GitHub's tables, raw HTML left out (a
// rules file is ours, but nothing on the site is written raw), headings one level down so the
// page's own headings stay above them (demote).
func renderMarkdown(src []byte) (template.HTML, error) {
	md := goldmark.New(
		goldmark.WithExtensions(extension.Table),
		goldmark.WithParserOptions(parser.WithASTTransformers(util.Prioritized(demote{}, 100))),
	)
	var buf bytes.Buffer
	if err := md.Convert(src, &buf); err != nil {
		return "", err
	}
	// goldmark's HTML renderer escapes text and omits raw HTML unless WithUnsafe: safe to mark.
	return template.HTML(buf.String()), nil
}

// demote drops a rules file's title (the game's name, which the page's own h1 says) and moves
// every other heading one level down, below the page's "Rules" (h2): its sections are h3.
type demote struct{}

func (demote) Transform(doc *ast.Document, _ text.Reader, _ parser.Context) {
	if h, ok := doc.FirstChild().(*ast.Heading); ok && h.Level == 1 {
		doc.RemoveChild(doc, h)
	}
	_ = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if h, ok := n.(*ast.Heading); ok && entering && h.Level < 6 {
			h.Level++
		}
		return ast.WalkContinue, nil
	})
}

func (s *Server) downloadKit(w http.ResponseWriter, r *http.Request) {
	g := chi.URLParam(r, "game")
	name, ok := strings.CutSuffix(chi.URLParam(r, "file"), ".zip")
	l, known := starter.Lookup(name)
	if !knownGame(g) || !ok || !known || !l.Has(g) {
		s.fail(w, r, http.StatusNotFound, fmt.Sprintf("no starter kit %q for %q: the game's page lists its kits", chi.URLParam(r, "file"), g))
		return
	}
	b, err := cachedZip("kit/"+l.Name+"/"+g, func(w io.Writer) error { return l.Zip(w, g) })
	if err != nil {
		s.internal(w, r, err)
		return
	}
	sendZip(w, l.FileName(g), b)
}

func (s *Server) downloadSDK(w http.ResponseWriter, r *http.Request) {
	file := chi.URLParam(r, "file")
	i := slices.IndexFunc(starter.Languages(), func(l starter.Language) bool { return l.HasSDK() && l.SDKFileName() == file })
	if i < 0 {
		s.fail(w, r, http.StatusNotFound, fmt.Sprintf("no kit library %q: the games' pages list them", file))
		return
	}
	l := starter.Languages()[i]
	b, err := cachedZip("sdk/"+l.Name, l.SDKZip)
	if err != nil {
		s.internal(w, r, err)
		return
	}
	sendZip(w, l.SDKFileName(), b)
}

// zips keeps each download once made: its bytes depend only on the binary (at most a few
// hundred KiB for every kit together), so no request compresses anything twice.
var zips sync.Map

// cachedZip is the zip named key (a kit's canonical name, never a request's own spelling of
// it: the cache holds one entry per kit), made by build the first time.
func cachedZip(key string, build func(io.Writer) error) ([]byte, error) {
	if b, ok := zips.Load(key); ok {
		return b.([]byte), nil
	}
	var buf bytes.Buffer
	if err := build(&buf); err != nil {
		return nil, err
	}
	b, _ := zips.LoadOrStore(key, buf.Bytes())
	return b.([]byte), nil
}

func sendZip(w http.ResponseWriter, name string, b []byte) {
	h := w.Header()
	h.Set("Content-Type", "application/zip")
	h.Set("Content-Disposition", `attachment; filename="`+name+`"`)
	h.Set("Content-Length", fmt.Sprint(len(b)))
	h.Set("Cache-Control", "public, max-age=300")
	_, _ = w.Write(b)
}

func (s *Server) pageEnter(w http.ResponseWriter, r *http.Request) {
	gs, err := s.games(r.Context())
	if err != nil {
		s.internal(w, r, err)
		return
	}
	scheme := "http"
	if r.TLS != nil || s.opt.SecureCookies {
		scheme = "https"
	}
	// The examples name this site as the visitor reached it (a proxy's Host included).
	site := scheme + "://" + r.Host
	first := "dynamite"
	if len(gs) > 0 && !slices.ContainsFunc(gs, func(g GameInfo) bool { return g.Name == first }) {
		first = gs[0].Name
	}
	// A house bot to play against: the game's ladder house bot, as house:<game>/<name>.
	house := "house:" + first + "/NAME"
	if spec, err := game.Lookup(first); err == nil {
		if h, err := spec.LadderHouse(); err == nil {
			house = "house:" + first + "/" + h.Name
		}
	}
	s.render(w, r, "enter", map[string]any{"Title": "How to enter", "Games": gs, "Site": site, "First": first, "House": house,
		"MaxMiB": s.opt.MaxUpload >> 20})
}

// parseParts adds the templates every page may use (assets/parts: the front door's sections
// of a game's page) to a page's template.
func parseParts(t *template.Template) error {
	names, err := fs.Glob(assets, "assets/parts/*.html")
	if err != nil {
		return err
	}
	for _, n := range names {
		b, err := assets.ReadFile(n)
		if err != nil {
			return err
		}
		if _, err := t.New(n).Parse(string(b)); err != nil {
			return fmt.Errorf("template %s: %w", n, err)
		}
	}
	return nil
}
