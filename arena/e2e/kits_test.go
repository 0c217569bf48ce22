package e2e_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/botarena/arena/arena/botspec"
	"github.com/botarena/arena/arena/build"
	"github.com/botarena/arena/arena/game"
	"github.com/botarena/arena/arena/host"
	"github.com/botarena/arena/arena/store"
	"github.com/botarena/arena/arena/tournament"
	"github.com/botarena/arena/internal/slack"
	"github.com/botarena/arena/sdk/handshake"
)

// kitLanguages are the starter kits, one bot folder per game: examples/<language>/<game>.
var kitLanguages = []string{"go", "python", "javascript", "typescript", "rust", "java", "cpp"}

// networked builds the TypeScript kit, whose first build fetches its npm packages.
var networked = &botspec.Resolver{Build: build.Options{Network: true}}

// resolverOf is the resolver that builds a language's bots.
func resolverOf(lang string) *botspec.Resolver {
	if lang == "typescript" {
		return networked
	}
	return resolver
}

// TestEveryKitPlaysEveryGame: every kit bot, in every language, plays its game against a
// house bot in the full sandbox, built by its language's recipe, without a fault.
func TestEveryKitPlaysEveryGame(t *testing.T) {
	t.Parallel()
	// A game with an example bot in any kit has one in every kit: a kit that lost one fails
	// here. A game with none (a new game, played by each kit's generic path) is skipped.
	examples := map[string][]string{}
	for _, name := range game.Names() {
		for _, lang := range kitLanguages {
			if _, err := os.Stat(bot(filepath.Join("examples", lang, name))); err == nil {
				examples[name] = append(examples[name], lang)
			}
		}
	}
	for _, lang := range kitLanguages {
		t.Run(lang, func(t *testing.T) {
			// Every registered game, against the house bot and with the parameters its Spec.Kit names.
			for _, name := range game.Names() {
				spec, err := game.Lookup(name)
				if err != nil {
					t.Fatal(err)
				}
				t.Run(name, func(t *testing.T) {
					dir, r := bot(filepath.Join("examples", lang, name)), resolverOf(lang)
					if _, err := os.Stat(dir); err != nil {
						if len(examples[name]) > 0 {
							t.Fatalf("the %s kit has no example bot of %s (%s), and the kits %v have one: restore it", lang, name, dir, examples[name])
						}
						// A game without the kits' typed layers is played by their generic
						// paths (TestThrowawayGame, internal/newgame, plays one so with every kit).
						t.Skipf("no kit has an example bot of %s: their generic paths play it", name)
					}
					opponent := bot(filepath.Join("bots", name, "cmd", spec.Kit.Opponent))
					res, procs := playWith(t, r, name, 2*time.Second, spec.Kit.Params, dir, opponent)
					for _, f := range res.Outcome.Faults {
						if f.Seat == 0 {
							t.Fatalf("%s: fault %+v", dir, f)
						}
					}
					if res.Steps == 0 {
						t.Fatalf("%s: no move played", dir)
					}
					// Every kit takes the fast lane the host offers (its SDK, or the stdio bridge).
					if os.Getenv(host.LaneEnvOff) != "grpc" && !procs[0].OnLane() {
						t.Fatalf("%s: its moves went over gRPC: the kit did not announce the fast lane (%s) in Describe",
							dir, handshake.LaneName)
					}
				})
			}
		})
	}
}

// TestMixedLanguageTournament: a tournament of dynamite bots in every kit's language finishes,
// every match played, none failed.
func TestMixedLanguageTournament(t *testing.T) {
	t.Parallel()
	var es []tournament.Entry
	for _, lang := range kitLanguages {
		dir := bot(filepath.Join("examples", lang, "dynamite"))
		es = append(es, tournament.Entry{Name: lang, Spec: dir, Language: lang})
	}
	ctx := context.Background()
	st, err := store.Open(filepath.Join(t.TempDir(), "arena.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	cfg := tournament.Config{Game: "dynamite", Params: map[string]string{"target": "50", "rounds": "150"}, Seed: 5, Reps: 1,
		Deadline: 2 * time.Second, StartTimeout: slack.Of(t, 30*time.Second), Entries: es}
	id, err := tournament.Create(ctx, st, "mixed", cfg)
	if err != nil {
		t.Fatal(err)
	}
	sum, err := tournament.Run(ctx, st, id, tournament.Options{Jobs: 2, Resolver: networked})
	if err != nil {
		t.Fatal(err)
	}
	if want := len(es) * (len(es) - 1); sum.Total != want || sum.Done != want || sum.Failed != 0 {
		t.Fatalf("summary %+v, want %d matches done", sum, want)
	}
	s, err := tournament.Compute(ctx, st, id)
	if err != nil {
		t.Fatal(err)
	}
	var table strings.Builder
	if err := s.WriteTable(&table); err != nil {
		t.Fatal(err)
	}
	t.Logf("standings:\n%s", table.String())
	faults, err := st.Faults(ctx, id, -1)
	if err != nil {
		t.Fatal(err)
	}
	if len(faults) != 0 {
		t.Fatalf("faults in a tournament of kit bots: %+v", faults)
	}
}

// TestMavenBot: a pom.xml submission is built by Maven in the build sandbox (fetching its
// plugins needs the network, which the organiser allows) and plays.
func TestMavenBot(t *testing.T) {
	t.Parallel()
	res, _ := playWith(t, networked, "dynamite", 2*time.Second, map[string]string{"target": "20", "rounds": "50"},
		"testdata/maven", bot("examples/cpp/dynamite"))
	if len(res.Outcome.Faults) != 0 || res.Steps == 0 {
		t.Fatalf("steps %d, faults %+v", res.Steps, res.Outcome.Faults)
	}
}
