package cli

import (
	"context"
	"errors"
	"fmt"
	"log"
	"net"
	"net/http"
	"os"
	"runtime"
	"time"

	"github.com/spf13/cobra"

	"github.com/botarena/arena/arena/host"
	"github.com/botarena/arena/arena/ladder"
	"github.com/botarena/arena/arena/server"
	"github.com/botarena/arena/arena/store"
	"github.com/botarena/arena/arena/upload"
)

func init() { extraCommands = append(extraCommands, newServe, newUnpackHelper) }

// newUnpackHelper is the sandboxed unpacker serve re-executes the arena binary as.
func newUnpackHelper() *cobra.Command {
	return &cobra.Command{
		Use:    upload.HelperArg,
		Hidden: true,
		Args:   cobra.ArbitraryArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if code := upload.Main(args, cmd.ErrOrStderr()); code != 0 {
				os.Exit(code)
			}
			return nil
		},
	}
}

func newServe() *cobra.Command {
	var (
		addr, storePath, data string
		jobs, localJobs       int
		secure                string
		organisers            []string
		maxUploadMiB          int64
		deadline              time.Duration
		maxVersions           int
		maxStoredMiB          int64
		maxTournament         int
	)
	cmd := &cobra.Command{
		Use:   "serve",
		Short: "Serve the contest on the web: accounts, uploads, validation, the live ladder, leaderboards, the JSON API",
		Long: "serve runs the web server and the live ladder over one store (the one arena tournament\n" +
			"writes: its tournaments show up too). Authors register, upload a bot (a file, zip or\n" +
			"tarball) and see it validated (built in the build sandbox, then a smoke match against the\n" +
			"house bot); passing versions play the ladder, --jobs matches at a time, rated by OpenSkill\n" +
			"and ranked by mu - 3 sigma. Every smoke and ladder match is a job on NATS JetStream (an\n" +
			"embedded server by default, --nats for one elsewhere) played by --local-jobs workers here\n" +
			"and by arena worker on any machine. The JSON API is under /api/v1/ (docs/api.md).",
		Example: "  arena serve --addr 127.0.0.1:8080 --store arena.db --organiser ada",
		Args:    cobra.NoArgs,
	}
	applyLimits := sandboxFlags(cmd)
	resolver := buildFlags(cmd)
	f := cmd.Flags()
	f.StringVar(&addr, "addr", "127.0.0.1:8080", "address to listen on")
	f.StringVar(&storePath, "store", "arena.db", "the SQLite store (created if missing)")
	f.StringVar(&data, "data", "", "folder for uploaded versions' files (default: STORE.files)")
	rangeVar(f, &jobs, "jobs", max(1, runtime.NumCPU()-1), 1, 256, "ladder matches and validations in flight at once (each a job on the queue)")
	rangeVar(f, &localJobs, "local-jobs", 0, 0, 256, "of them, how many this process plays itself (default: --jobs; 0 leaves them all to arena worker)")
	openQueue := queueFlags(cmd, false)
	f.StringVar(&secure, "secure-cookies", "auto", "mark the session cookie Secure (HTTPS only): true, false, or auto (true unless --addr is a loopback address)")
	f.StringSliceVar(&organisers, "organiser", nil, "user name that gets the organiser role (repeatable)")
	rangeVar(f, &maxUploadMiB, "max-upload", 16, 1, 1024, "largest upload, MiB")
	rangeVar(f, &deadline, "deadline", time.Second, time.Millisecond, time.Hour, "time per move in ladder and smoke matches")
	rangeVar(f, &maxVersions, "max-versions", server.DefaultMaxVersions, 1, 100000, "versions one author may keep files of (failed and replaced versions are collected)")
	rangeVar(f, &maxStoredMiB, "max-stored", server.DefaultMaxStored>>20, 1, 1<<20, "MiB of unpacked files one author may keep")
	rangeVar(f, &maxTournament, "max-tournament-matches", server.DefaultMaxTournamentMatches, 1, 1_000_000, "matches an organiser's tournament may play")
	cmd.RunE = func(cmd *cobra.Command, _ []string) error {
		secureCookies, err := secureFor(secure, addr)
		if err != nil {
			return fmt.Errorf("%w: %v", ErrUsage, err)
		}
		if !cmd.Flags().Changed("local-jobs") {
			localJobs = jobs
		}
		st, err := store.Open(storePath)
		if err != nil {
			return err
		}
		defer st.Close()
		hopt := host.Options{}
		applyLimits(&hopt)
		q, closeQueue, err := openQueue(cmd.Context(), storePath, cmd.OutOrStdout())
		if err != nil {
			return err
		}
		defer closeQueue()
		lad := &ladder.Ladder{Store: st, Queue: q, Resolver: resolver(hopt.Strict), Jobs: jobs, LocalJobs: localJobs, Host: hopt, Deadline: deadline}
		logger := log.New(cmd.ErrOrStderr(), "arena serve: ", log.LstdFlags)
		ctx := cmd.Context()
		srv, err := server.New(ctx, st, lad, server.Options{DataDir: data, SecureCookies: secureCookies, MaxUpload: maxUploadMiB << 20,
			Organisers: organisers, Logger: logger, MaxTournamentMatches: maxTournament,
			Quota: store.Quota{Versions: maxVersions, Bytes: maxStoredMiB << 20}})
		if err != nil {
			return err
		}
		ln, err := net.Listen("tcp", addr)
		if err != nil {
			return fmt.Errorf("listen on %s: %w: give another --addr", addr, err)
		}
		hs := &http.Server{Handler: srv, ReadHeaderTimeout: 10 * time.Second, ReadTimeout: 2 * time.Minute, IdleTimeout: 2 * time.Minute}
		fmt.Fprintf(cmd.OutOrStdout(), "arena serve: http://%s (store %s, %d jobs in flight, %d played here)\n", ln.Addr(), storePath, jobs, localJobs)
		ladCtx, stopLadder := context.WithCancel(ctx)
		ladDone := make(chan error, 1)
		go func() { ladDone <- lad.Run(ladCtx) }()
		errc := make(chan error, 1)
		go func() { errc <- hs.Serve(ln) }()
		select {
		case <-ctx.Done():
		case err = <-errc:
		}
		shut, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = hs.Shutdown(shut)
		stopLadder()
		<-ladDone
		if errors.Is(err, http.ErrServerClosed) {
			err = nil
		}
		return err
	}
	return cmd
}

func secureFor(v, addr string) (bool, error) {
	switch v {
	case "true":
		return true, nil
	case "false":
		return false, nil
	case "auto":
		host, _, err := net.SplitHostPort(addr)
		if err != nil {
			return false, fmt.Errorf("--addr %q: %v", addr, err)
		}
		ip := net.ParseIP(host)
		return !(host == "localhost" || (ip != nil && ip.IsLoopback())), nil
	}
	return false, fmt.Errorf("--secure-cookies %q: give true, false or auto", v)
}
