package cli

import (
	"errors"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/botarena/arena/arena/build"
	"github.com/botarena/arena/sandbox"
)

func init() { extraCommands = append(extraCommands, newSandbox) }

// ErrLayersMissing is returned by `arena sandbox check --strict` on a machine that lacks a layer.
var ErrLayersMissing = errors.New("sandbox layers missing")

func newSandbox() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "sandbox",
		Short: "Inspect the sandbox every bot runs in",
	}
	var strict bool
	check := &cobra.Command{
		Use:   "check",
		Short: "Print which sandbox layers work on this machine, and why any does not",
		Long: "check starts one real sandbox, trying every layer (namespaces, cgroups, seccomp, Landlock,\n" +
			"rlimits...), and prints each one: active or not, and why, then the build sandbox's own layers\n" +
			"(private compiler cache, files store, no network, toolchain). With --strict it fails when any\n" +
			"layer is missing, as a strict match would.",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			rep := sandbox.Probe()
			if err := rep.Write(cmd.OutOrStdout()); err != nil {
				return err
			}
			writeClockReport(cmd.OutOrStdout())
			// Builds run in the same sandbox; these are what they add.
			brep := build.Report(build.Options{})
			if err := brep.Write(cmd.OutOrStdout()); err != nil {
				return err
			}
			miss := append(rep.Missing(), brep.Missing()...)
			if strict && len(miss) > 0 {
				return fmt.Errorf("%w: %d of them (first: %s)", ErrLayersMissing, len(miss), miss[0].Name)
			}
			return nil
		},
	}
	check.Flags().BoolVar(&strict, "strict", false, "fail when any layer is missing")
	cleanup := &cobra.Command{
		Use:   "cleanup",
		Short: "Remove what crashed arena runs left behind (cgroups, work-dir mounts, work dirs)",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			rep, err := sandbox.Cleanup()
			fmt.Fprintln(cmd.OutOrStdout(), rep)
			return err
		},
	}
	cmd.AddCommand(check, cleanup)
	return cmd
}
