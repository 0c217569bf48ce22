package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"

	"github.com/spf13/cobra"

	_ "github.com/botarena/arena/arena/games/all" // every engine
)

// ErrUsage marks errors caused by the command line itself (exit status 2).
var ErrUsage = errors.New("usage")

// Main runs the command line and returns the process exit status.
func Main(args []string, stdout, stderr io.Writer) int {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	root := NewRoot(stdout, stderr)
	root.SetArgs(args)
	if err := root.ExecuteContext(ctx); err != nil {
		fmt.Fprintln(stderr, "arena:", err)
		if errors.Is(err, ErrUsage) {
			return 2
		}
		return 1
	}
	return 0
}

// NewRoot builds the command tree.
func NewRoot(stdout, stderr io.Writer) *cobra.Command {
	root := &cobra.Command{
		Use:   "arena",
		Short: "Run bot competitions: every bot a separate, sandboxed process in any language",
		Long: "arena runs matches and tournaments between bots written in Go, Python or any language,\n" +
			"each in its own process talking gRPC through hashicorp/go-plugin.",
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	// A flag that does not parse (or is out of its range, see rangeVar) is a usage error.
	root.SetFlagErrorFunc(func(_ *cobra.Command, err error) error { return fmt.Errorf("%w: %v", ErrUsage, err) })
	root.SetOut(stdout)
	root.SetErr(stderr)
	root.AddCommand(newPlay(), newGames(), newReplay())
	for _, extra := range extraCommands {
		root.AddCommand(extra())
	}
	return root
}

// extraCommands lets other files (sandbox, tournament, bench) add commands without editing root.
var extraCommands []func() *cobra.Command
