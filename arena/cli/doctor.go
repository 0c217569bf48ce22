package cli

import (
	"errors"
	"fmt"
	"strings"

	"github.com/spf13/cobra"
)

func init() { extraCommands = append(extraCommands, newDoctor) }

// ErrNotReady is returned by `arena doctor --strict` when a language cannot be built here.
var ErrNotReady = errors.New("languages not ready")

// doctor is its own command rather than part of `arena sandbox check`: that one says how
// bots are isolated (kernel layers), this one what this machine can build and run at all
// (toolchains, the Python SDK, where requirements come from), the question a new machine or
// a worker asks first. It asks with the checks every build makes (botspec.Languages).
func newDoctor() *cobra.Command {
	var strict bool
	cmd := &cobra.Command{
		Use:   "doctor",
		Short: "Print which bot languages this machine builds and runs, and for the others why not and the fix",
		Long: "doctor checks each language a bot may be written in (Go, Python, JavaScript, TypeScript, Rust,\n" +
			"Java, C++, and stdio programs) with the same checks the arena makes before each build, and\n" +
			"prints the toolchain found and its version, or why none is ready and how to fix it. A tournament\n" +
			"charges a bot whose language is not ready in each of its matches (with that reason); a worker\n" +
			"declines its jobs for another worker. Give the build flags you will play with (--wheels,\n" +
			"--build-network) to see where requirements.txt would come from. It exits with an error only\n" +
			"with --strict, when a language is not ready. The sandbox's layers: arena sandbox check.",
		Example: "  arena doctor\n  ARENA_PYTHON=.venv/bin/python arena doctor --wheels wheels/ --strict",
		Args:    cobra.NoArgs,
	}
	cmd.Flags().BoolVar(&strict, "strict", false, "exit with an error when any language is not ready here")
	resolver := buildFlags(cmd)
	cmd.RunE = func(cmd *cobra.Command, _ []string) error {
		out := cmd.OutOrStdout()
		const row = "%-11s %-10s %s\n"
		indent := fmt.Sprintf("%23s", "")
		fmt.Fprintf(out, row, "language", "status", "toolchain, or why not and the fix")
		var missing []string
		for _, l := range resolver(false).Languages() {
			if l.Err != nil {
				missing = append(missing, l.Name)
				fmt.Fprintf(out, row, l.Name, "not ready", strings.Join(brief(l.Err.Error()), "\n"+indent))
				continue
			}
			fmt.Fprintf(out, row, l.Name, "ready", l.Found)
			if l.Note != "" {
				fmt.Fprintf(out, "%s%s\n", indent, l.Note)
			}
		}
		if len(missing) > 0 {
			fmt.Fprintf(out, "\n%d of them not ready here: a tournament charges their bots in each match (a worker declines their jobs for another worker)\n", len(missing))
		}
		fmt.Fprintln(out, "how bots are isolated here: arena sandbox check")
		if strict && len(missing) > 0 {
			return fmt.Errorf("%w: %v", ErrNotReady, missing)
		}
		return nil
	}
	return cmd
}

// brief keeps a long reason readable: its first line and its last two (a Python traceback's
// error and the fix that follows it).
func brief(why string) []string {
	lines := strings.Split(strings.TrimSpace(why), "\n")
	if len(lines) <= 4 {
		return lines
	}
	return append([]string{lines[0], "..."}, lines[len(lines)-2:]...)
}
