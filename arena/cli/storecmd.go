package cli

import (
	"fmt"
	"os"

	"github.com/spf13/cobra"

	"github.com/botarena/arena/arena/store"
)

func init() { extraCommands = append(extraCommands, newStore) }

func newStore() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "store",
		Short: "Back up or check a tournament store",
	}
	backup := &cobra.Command{
		Use:   "backup STORE COPY",
		Short: "Copy a store consistently, even while a tournament is writing to it",
		Long: "backup writes a consistent snapshot of STORE to COPY (SQLite's VACUUM INTO, one read\n" +
			"transaction: a running tournament keeps playing), checks the copy, and never overwrites:\n" +
			"COPY must not exist. It only reads STORE, so STORE may sit in a read-only folder.",
		Example: "  arena store backup night.db /backups/night-$(date +%F).db",
		Args:    cobra.ExactArgs(2),
		RunE: func(cmd *cobra.Command, args []string) error {
			st, err := store.OpenReadOnly(args[0])
			if err != nil {
				return err
			}
			defer st.Close()
			if err := st.Backup(cmd.Context(), args[1]); err != nil {
				return err
			}
			size := int64(0)
			if fi, err := os.Stat(args[1]); err == nil {
				size = fi.Size()
			}
			fmt.Fprintf(cmd.OutOrStdout(), "%s backed up to %s (%.1f MiB, checked)\n", args[0], args[1], float64(size)/(1<<20))
			return nil
		},
	}
	check := &cobra.Command{
		Use:   "check STORE",
		Short: "Run SQLite's full integrity check on a store (read-only)",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			st, err := store.OpenReadOnly(args[0])
			if err != nil {
				return err
			}
			defer st.Close()
			problems, err := st.Check(cmd.Context())
			if err != nil {
				return err
			}
			if len(problems) > 0 {
				for _, p := range problems {
					fmt.Fprintln(cmd.OutOrStdout(), " ", p)
				}
				return fmt.Errorf("%w: %s: %d problems found by integrity_check; restore the last backup", store.ErrDamaged, args[0], len(problems))
			}
			fmt.Fprintf(cmd.OutOrStdout(), "%s: ok (schema version %d, integrity_check passed)\n", args[0], st.Version())
			return nil
		},
	}
	cmd.AddCommand(backup, check)
	return cmd
}
