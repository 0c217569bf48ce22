package cli

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"
	"golang.org/x/term"

	"github.com/botarena/arena/arena/names"
	"github.com/botarena/arena/arena/server"
	"github.com/botarena/arena/arena/store"
)

func init() { extraCommands = append(extraCommands, newUser) }

// newUser manages arena serve's accounts on the store itself: the only way to make an
// organiser (registering on the web never gives a role) and the way back into an account whose
// password is lost. It works while arena serve runs on the same store; a role or password
// changed here holds from the next request.
func newUser() *cobra.Command {
	var storePath string
	cmd := &cobra.Command{
		Use:   "user",
		Short: "Manage arena serve's accounts: add an organiser, change a role, reset a password, list accounts",
	}
	cmd.PersistentFlags().StringVar(&storePath, "store", "arena.db", "the store arena serve uses")
	open := func(mustExist bool) (*store.Store, error) {
		if _, err := os.Stat(storePath); mustExist && err != nil {
			return nil, fmt.Errorf("%w: no store at %s: give the --store arena serve uses", ErrUsage, storePath)
		}
		return store.Open(storePath)
	}

	var organiser bool
	var passwordFile string
	add := &cobra.Command{
		Use:   "add NAME",
		Short: "Make an account (with --organiser, an organiser); the password comes from a prompt, stdin or --password-file",
		Long: "add makes an account on the store, before or while arena serve runs. The password is asked\n" +
			"twice on a terminal, else read from the first line of stdin or of --password-file: never\n" +
			"from the command line, which other users of the machine can read.",
		Example: "  arena user add ada --organiser --store arena.db\n  arena user add ci --password-file /run/secrets/ci-password",
		Args:    cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			name := args[0]
			if err := names.User(name); err != nil {
				return fmt.Errorf("%w: %v", ErrUsage, err)
			}
			pw, err := readPassword(cmd, passwordFile)
			if err != nil {
				return err
			}
			hash, err := server.HashPassword(pw)
			if err != nil {
				return err
			}
			st, err := open(false)
			if err != nil {
				return err
			}
			defer st.Close()
			role := store.RoleAuthor
			if organiser {
				role = store.RoleOrganiser
			}
			if _, err := st.CreateUser(cmd.Context(), name, hash, role); err != nil {
				return err
			}
			fmt.Fprintf(cmd.OutOrStdout(), "%s added to %s as %s: log in on /login\n", name, storePath, role)
			return nil
		},
	}
	add.Flags().BoolVar(&organiser, "organiser", false, "give the account the organiser role")
	add.Flags().StringVar(&passwordFile, "password-file", "", "read the password from the first line of this file")

	role := &cobra.Command{
		Use:     "role NAME author|organiser",
		Short:   "Give an existing account a role",
		Example: "  arena user role ada organiser\n  arena user role mallory author",
		Args:    cobra.ExactArgs(2),
		RunE: func(cmd *cobra.Command, args []string) error {
			if args[1] != store.RoleAuthor && args[1] != store.RoleOrganiser {
				return fmt.Errorf("%w: role %q: give author or organiser", ErrUsage, args[1])
			}
			st, err := open(true)
			if err != nil {
				return err
			}
			defer st.Close()
			if err := st.SetRole(cmd.Context(), args[0], args[1]); err != nil {
				if errors.Is(err, store.ErrNotFound) {
					return fmt.Errorf("no account %q in %s: arena user list shows them, arena user add makes one", args[0], storePath)
				}
				return err
			}
			fmt.Fprintf(cmd.OutOrStdout(), "%s is now %s\n", args[0], args[1])
			return nil
		},
	}

	var resetFile string
	password := &cobra.Command{
		Use:   "password NAME",
		Short: "Set an account's password and end all its sessions and API tokens",
		Long: "password sets a new password (asked like add's) and ends every session and API token of\n" +
			"the account: the way back into an account whose password was lost or stolen.",
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			st, err := open(true)
			if err != nil {
				return err
			}
			defer st.Close()
			u, err := st.UserByName(cmd.Context(), args[0])
			if err != nil {
				if errors.Is(err, store.ErrNotFound) {
					return fmt.Errorf("no account %q in %s: arena user list shows them", args[0], storePath)
				}
				return err
			}
			if u.Name == names.House {
				return fmt.Errorf("%w: %s is the arena's own account: nobody logs in as it", ErrUsage, u.Name)
			}
			pw, err := readPassword(cmd, resetFile)
			if err != nil {
				return err
			}
			hash, err := server.HashPassword(pw)
			if err != nil {
				return err
			}
			if err := st.SetPassword(cmd.Context(), u.ID, hash); err != nil {
				return err
			}
			ended, err := st.DeleteSessions(cmd.Context(), u.ID, "")
			if err != nil {
				return err
			}
			revoked, err := st.RevokeTokens(cmd.Context(), u.ID)
			if err != nil {
				return err
			}
			fmt.Fprintf(cmd.OutOrStdout(), "%s has a new password; %d sessions ended, %d API tokens revoked\n", u.Name, ended, revoked)
			return nil
		},
	}
	password.Flags().StringVar(&resetFile, "password-file", "", "read the password from the first line of this file")

	list := &cobra.Command{
		Use:   "list",
		Short: "List the accounts with their roles",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			st, err := store.OpenReadOnly(storePath)
			if err != nil {
				return err
			}
			defer st.Close()
			users, err := st.Users(cmd.Context())
			if err != nil {
				return err
			}
			tw := tabwriter.NewWriter(cmd.OutOrStdout(), 0, 4, 2, ' ', 0)
			fmt.Fprintln(tw, "NAME\tROLE\tCREATED")
			for _, u := range users {
				fmt.Fprintf(tw, "%s\t%s\t%s\n", u.Name, u.Role, u.Created.Format("2006-01-02 15:04"))
			}
			return tw.Flush()
		},
	}
	cmd.AddCommand(add, role, password, list)
	return cmd
}

// readPassword takes a new password from file (its first line), else from a terminal (asked
// twice, not echoed), else from stdin's first line; and checks it.
func readPassword(cmd *cobra.Command, file string) (string, error) {
	var pw string
	switch {
	case file != "":
		f, err := os.Open(file)
		if err != nil {
			return "", fmt.Errorf("%w: --password-file: %v", ErrUsage, err)
		}
		defer f.Close()
		pw, err = firstLine(f)
		if err != nil {
			return "", fmt.Errorf("--password-file %s: %w", file, err)
		}
	case isTerminal(cmd.InOrStdin()):
		fd := int(cmd.InOrStdin().(*os.File).Fd())
		fmt.Fprint(cmd.ErrOrStderr(), "password: ")
		a, err := term.ReadPassword(fd)
		fmt.Fprintln(cmd.ErrOrStderr())
		if err != nil {
			return "", err
		}
		fmt.Fprint(cmd.ErrOrStderr(), "again: ")
		b, err := term.ReadPassword(fd)
		fmt.Fprintln(cmd.ErrOrStderr())
		if err != nil {
			return "", err
		}
		if string(a) != string(b) {
			return "", fmt.Errorf("%w: the two passwords differ: try again", ErrUsage)
		}
		pw = string(a)
	default:
		var err error
		if pw, err = firstLine(cmd.InOrStdin()); err != nil {
			return "", fmt.Errorf("reading the password from stdin: %w", err)
		}
	}
	if err := server.PasswordRule(pw); err != nil {
		return "", fmt.Errorf("%w: %v", ErrUsage, err)
	}
	return pw, nil
}

func firstLine(r io.Reader) (string, error) {
	line, err := bufio.NewReader(io.LimitReader(r, 4096)).ReadString('\n')
	if err != nil && !errors.Is(err, io.EOF) {
		return "", err
	}
	return strings.TrimRight(line, "\r\n"), nil
}

func isTerminal(r io.Reader) bool {
	f, ok := r.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}
