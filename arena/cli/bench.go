package cli

import (
	"fmt"
	"os"

	"github.com/spf13/cobra"

	"github.com/botarena/arena/arena/bench"
)

func init() { extraCommands = append(extraCommands, newBench, newBenchHelper) }

func newBench() *cobra.Command {
	var (
		asJSON, quick      bool
		root, python       string
		compare, compareTo string
	)
	cmd := &cobra.Command{
		Use:   "bench",
		Short: "Measure the arena against the machine's floor (a pipe round trip) and print every figure",
		Long: "bench measures, in one run: the floor (a pipe and a unix-socket round trip between two\n" +
			"processes), a move to a trivial Go and Python bot (p50, p99), start-up, whole matches per\n" +
			"second (process bots and in-process house bots), payload per move, memory, and scaling\n" +
			"with 1 and 2 workers. Time figures are shown as multiples of the pipe round trip, with the\n" +
			"targets of issues 7 and 16 beside them (✓ holds, ✗ does not: printed, never asserted). Run it\n" +
			"inside the repository (it builds bots/bench). --compare OLD.json sets this run beside an\n" +
			"earlier one (written with --json); with --with NEW.json it compares two files and runs nothing.",
		Args: cobra.NoArgs,
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the report as JSON")
	cmd.Flags().BoolVar(&quick, "quick", false, "short run (seconds) with noisier figures and shorter matches")
	cmd.Flags().StringVar(&root, "root", "", "repository root (default: found from the working directory)")
	cmd.Flags().StringVar(&python, "python", "", "Python interpreter for Python bots (default $ARENA_PYTHON or python3)")
	cmd.Flags().StringVar(&compare, "compare", "", "set the report beside this earlier one (a file written with --json)")
	cmd.Flags().StringVar(&compareTo, "with", "", "with --compare: compare with this report file instead of running the bench")
	cmd.RunE = func(cmd *cobra.Command, _ []string) error {
		var old *bench.Report
		if compare != "" {
			var err error
			if old, err = bench.ReadReport(compare); err != nil {
				return err
			}
		} else if compareTo != "" {
			return fmt.Errorf("%w: --with needs --compare OLD.json", ErrUsage)
		}
		if compareTo != "" {
			rep, err := bench.ReadReport(compareTo)
			if err != nil {
				return err
			}
			return bench.WriteCompare(cmd.OutOrStdout(), "A "+compare, old, "B "+compareTo, rep)
		}
		rep, err := bench.Run(cmd.Context(), bench.Config{Quick: quick, Root: root, Python: python, Log: cmd.ErrOrStderr()})
		if err != nil {
			return err
		}
		if asJSON {
			return rep.WriteJSON(cmd.OutOrStdout())
		}
		if old != nil {
			return bench.WriteCompare(cmd.OutOrStdout(), "A "+compare, old, "B this run", rep)
		}
		return rep.WriteTable(cmd.OutOrStdout())
	}
	return cmd
}

// newBenchHelper is the echo process the bench re-executes the arena binary as.
func newBenchHelper() *cobra.Command {
	return &cobra.Command{
		Use:    bench.HelperArg,
		Hidden: true,
		Args:   cobra.ArbitraryArgs,
		RunE: func(_ *cobra.Command, args []string) error {
			if err := bench.Helper(args); err != nil {
				fmt.Fprintln(os.Stderr, err)
				return err
			}
			return nil
		},
	}
}
