package cli

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/botarena/arena/arena/game"
	"github.com/botarena/arena/arena/kit"
)

func init() { extraCommands = append(extraCommands, newVersion) }

func newVersion() *cobra.Command {
	return &cobra.Command{
		Use:   "version",
		Short: "Say which arena this is: its module version, the Go that built it, the kits it carries and the house bots",
		Long: "version prints the arena module's version and the Go that built it, then each kit the binary\n" +
			"carries (the Go kit Go bots build against, the Python SDK, the stdio languages' kit libraries)\n" +
			"with its number of files and content hash, and the house bots (house:<game>/<name>) that work\n" +
			"from any folder, each with its strength (fixed, random or strong: the game's baseline) and\n" +
			"the ladder's own marked. Nothing of the arena is read from disk: bots build against these kits.",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			v, err := kit.Info()
			if err != nil {
				return err
			}
			v.Print(cmd.OutOrStdout())
			house, err := kit.HouseBots()
			if err != nil {
				return err
			}
			fmt.Fprintln(cmd.OutOrStdout(), "house bots:")
			for _, h := range house {
				fmt.Fprintf(cmd.OutOrStdout(), "  %-32s %s\n", h, houseStrength(h))
			}
			return nil
		},
	}
}

// houseStrength says what beating the house bot spec (house:<game>/<name>) proves, from its
// game's Spec.House.
func houseStrength(spec string) string {
	g, name, _ := strings.Cut(strings.TrimPrefix(spec, kit.HousePrefix), "/")
	s, err := game.Lookup(g)
	if err != nil {
		return ""
	}
	h, err := s.HouseNamed(name)
	if err != nil {
		return ""
	}
	if h.Ladder {
		return h.Strength.String() + ", the ladder's"
	}
	return h.Strength.String()
}
