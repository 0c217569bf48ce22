package cli

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/botarena/arena/arena/replay"
)

func newReplay() *cobra.Command {
	var quiet bool
	cmd := &cobra.Command{
		Use:   "replay FILE",
		Short: "Re-run the engine on a recorded match, confirm the result, and print it turn by turn",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			rec, err := replay.Read(args[0])
			if err != nil {
				return err
			}
			out := cmd.OutOrStdout()
			fmt.Fprintf(out, "%s %s: %s (seed %d)\n", rec.Game, rec.MatchID, strings.Join(rec.Bots, " vs "), rec.Config.Seed)
			var visit replay.Visit
			if !quiet {
				visit = replay.Turns(out)
			}
			o, err := replay.Run(rec, visit)
			if err != nil {
				return err
			}
			fmt.Fprintf(out, "\nreplayed: %s\nthe recorded result is confirmed\n", o.Summary)
			return nil
		},
	}
	cmd.Flags().BoolVarP(&quiet, "quiet", "q", false, "only confirm the result")
	return cmd
}
