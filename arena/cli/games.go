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
					fmt.Fprintf(w, "\t  --%s\t%s (default %s)\n", ParamFlag(p.Name), p.Help, p.Default)
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

// ParamFlag is the flag spelling of a game parameter: kebab case like every other flag
// (start_money -> --start-money).
func ParamFlag(param string) string { return strings.ReplaceAll(param, "_", "-") }

// paramFlags declares one string flag per parameter name of any game, in kebab case, with the
// parameter's snake_case spelling kept as a hidden, deprecated alias; only flags the user set are
// passed on (under the parameter's own name), and the engine checks the names and ranges.
func paramFlags(cmd *cobra.Command) func() (map[string]string, error) {
	type param struct{ flag, alias string }
	var params []param
	seen := map[string]bool{}
	for _, name := range game.Names() {
		s, _ := game.Lookup(name)
		for _, p := range s.Params {
			flag := ParamFlag(p.Name)
			if seen[p.Name] || cmd.Flags().Lookup(flag) != nil {
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
			cmd.Flags().String(flag, "", fmt.Sprintf("game parameter (%s); see arena games", strings.Join(games, ", ")))
			pr := param{flag: flag}
			if flag != p.Name {
				pr.alias = p.Name
				cmd.Flags().String(p.Name, "", "deprecated spelling of --"+flag)
				_ = cmd.Flags().MarkHidden(p.Name)
			}
			params = append(params, pr)
		}
	}
	return func() (map[string]string, error) {
		out := map[string]string{}
		for _, p := range params {
			name := p.flag
			if p.alias != "" {
				name = p.alias
			}
			if f := cmd.Flags().Lookup(p.flag); f.Changed {
				out[name] = f.Value.String()
			}
			if p.alias == "" {
				continue
			}
			if a := cmd.Flags().Lookup(p.alias); a.Changed {
				fmt.Fprintf(cmd.ErrOrStderr(), "arena: --%s is deprecated, write --%s\n", p.alias, p.flag)
				if v, both := out[name]; both && v != a.Value.String() {
					return nil, fmt.Errorf("%w: --%s %s and --%s %s disagree: give only --%s", ErrUsage, p.flag, v, p.alias, a.Value.String(), p.flag)
				}
				out[name] = a.Value.String()
			}
		}
		return out, nil
	}
}
