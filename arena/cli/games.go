package cli

import (
	"fmt"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/botarena/arena/arena/game"
)

func newGames() *cobra.Command {
	return &cobra.Command{
		Use:   "games",
		Short: "List the games, their player counts and parameters",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			w := tabwriter.NewWriter(cmd.OutOrStdout(), 0, 4, 2, ' ', 0)
			for _, name := range game.Names() {
				s, _ := game.Lookup(name)
				fmt.Fprintf(w, "%s\t%s players\t%s\n", s.Name, playerRange(s), s.Summary)
				for _, p := range s.Params {
					fmt.Fprintf(w, "\t  --%s\t%s (default %s)\n", p.Name, p.Help, p.Default)
				}
			}
			return w.Flush()
		},
	}
}

func playerRange(s game.Spec) string {
	switch {
	case s.MaxPlayers == 0:
		return fmt.Sprintf("%d+", s.MinPlayers)
	case s.MinPlayers == s.MaxPlayers:
		return fmt.Sprint(s.MinPlayers)
	}
	return fmt.Sprintf("%d-%d", s.MinPlayers, s.MaxPlayers)
}

// paramFlags declares one string flag per parameter name of any game; only flags the user
// set are passed on, and the engine rejects names its game does not have.
func paramFlags(cmd *cobra.Command) func() map[string]string {
	seen := map[string]bool{}
	for _, name := range game.Names() {
		s, _ := game.Lookup(name)
		for _, p := range s.Params {
			if seen[p.Name] || cmd.Flags().Lookup(p.Name) != nil {
				continue
			}
			seen[p.Name] = true
			var games []string
			for _, n2 := range game.Names() {
				s2, _ := game.Lookup(n2)
				for _, p2 := range s2.Params {
					if p2.Name == p.Name {
						games = append(games, n2)
					}
				}
			}
			cmd.Flags().String(p.Name, "", fmt.Sprintf("game parameter (%s); see arena games", strings.Join(games, ", ")))
		}
	}
	return func() map[string]string {
		out := map[string]string{}
		for name := range seen {
			if f := cmd.Flags().Lookup(name); f != nil && f.Changed {
				out[name] = f.Value.String()
			}
		}
		return out
	}
}
