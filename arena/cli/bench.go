package cli

import (
	"fmt"
	"os"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/botarena/arena/arena/bench"
)

func init() { extraCommands = append(extraCommands, newBench, newBenchHelper) }

func newBench() *cobra.Command {
	var (
		asJSON, quick      bool
		markdown           bool
		from               string
		root, python       string
		compare, compareTo string
		only               []string
	)
	cmd := &cobra.Command{
		Use:   "bench",
		Short: "Measure the arena against a plain stdio referee (the peer) and print every figure",
		Long: "bench measures, in one run: the peer (a minimal Go and Python stdio bot in the bots' sandbox,\n" +
			"driven over plain pipes: what a Halite-style referee pays), the floor (a pipe and a unix-socket\n" +
			"round trip), a move to a trivial Go and Python bot (p50, p99, CPU), start-up, a move in every\n" +
			"kit language, whole matches per second (process bots and in-process house bots), payload per\n" +
			"move, memory, and scaling with 1 and 2 workers. Move and match figures are shown as multiples\n" +
			"of the peer's (x peer) and time figures of the pipe round trip (x pipe), with the targets of\n" +
			"issues 7, 16 and 23 beside them (met or not met: printed, never asserted). Run it\n" +
			"inside the repository (it builds bots/bench). --compare OLD.json sets this run beside an\n" +
			"earlier one (written with --json); with --with NEW.json it compares two files and runs nothing.",
		Args: cobra.NoArgs,
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the report as JSON")
	cmd.Flags().BoolVar(&quick, "quick", false, "short run (seconds) with noisier figures and shorter matches")
	cmd.Flags().StringVar(&root, "root", "", "repository root (default: found from the working directory)")
	cmd.Flags().StringVar(&python, "python", "", "Python interpreter for Python bots (default $ARENA_PYTHON or python3)")
	cmd.Flags().StringVar(&compare, "compare", "", "set the report beside this earlier one (a file written with --json)")
	cmd.Flags().StringSliceVar(&only, "only", nil, "run only these steps ("+strings.Join(bench.Steps, ", ")+"); floor, build and peer always run")
	cmd.Flags().BoolVar(&markdown, "markdown", false, "print the figures as a Markdown table (README.md's performance table)")
	cmd.Flags().StringVar(&from, "from", "", "print this saved report (a file written with --json) instead of running the bench")
	cmd.Flags().StringVar(&compareTo, "with", "", "with --compare: compare with this report file instead of running the bench")
	cmd.RunE = func(cmd *cobra.Command, _ []string) error {
		for _, step := range only {
			if !slices.Contains(bench.Steps, step) {
				return fmt.Errorf("%w: --only: no step %q: the steps are %s", ErrUsage, step, strings.Join(bench.Steps, ", "))
			}
		}
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
		if asJSON && markdown {
			return fmt.Errorf("%w: --json and --markdown: choose one output", ErrUsage)
		}
		var rep *bench.Report
		var err error
		if from != "" {
			rep, err = bench.ReadReport(from)
		} else {
			rep, err = bench.Run(cmd.Context(), bench.Config{Quick: quick, Root: root, Python: python, Log: cmd.ErrOrStderr(), Only: only})
		}
		if err != nil {
			return err
		}
		switch {
		case asJSON:
			return rep.WriteJSON(cmd.OutOrStdout())
		case markdown:
			return rep.WriteMarkdown(cmd.OutOrStdout())
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
