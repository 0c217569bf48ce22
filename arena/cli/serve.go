package cli

import (
	"context"
	cryptotls "crypto/tls"
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
	"github.com/botarena/arena/arena/server/budget"
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
		trustedProxies        []string
		tlsCert, tlsKey       string
		tokenDays             int
		maxUploadMiB          int64
		deadline              time.Duration
		webBudget             server.Budget
		clientConns, maxConns int
		maxVersions           int
		maxStoredMiB          int64
		keepVersions          int
		maxTournament         int
		privateWebhooks       bool
		announcement          string
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
			"and by arena worker on any machine. The JSON API is under /api/v1/ (docs/api.md).\n" +
			"Registering makes authors only: make the organiser with arena user add NAME --organiser.",
		Example: "  arena user add ada --organiser --store arena.db\n" +
			"  arena serve --addr 127.0.0.1:8080 --store arena.db\n" +
			"  arena serve --addr :8443 --tls-cert cert.pem --tls-key key.pem\n" +
			"  arena serve --addr 127.0.0.1:8080 --trusted-proxy 127.0.0.1   # behind nginx or caddy on this machine",
		Args: cobra.NoArgs,
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
	clock := clockFlags(f)
	f.StringVar(&secure, "secure-cookies", "auto", "mark the session cookie Secure (HTTPS only): true, false, or auto (true with --tls-cert or --trusted-proxy, or when --addr is not a loopback address)")
	f.StringSliceVar(&organisers, "organiser", nil, "removed: a name gives no role; arena user add NAME --organiser makes an organiser")
	_ = f.MarkHidden("organiser")
	f.StringSliceVar(&trustedProxies, "trusted-proxy", nil, "address or CIDR of a reverse proxy whose X-Forwarded-For names the client (repeatable); from any other peer the header is ignored")
	f.StringVar(&tlsCert, "tls-cert", "", "serve HTTPS with this PEM certificate (chain) file; needs --tls-key")
	f.StringVar(&tlsKey, "tls-key", "", "the PEM private key of --tls-cert")
	rangeVar(f, &tokenDays, "token-days", 90, 1, 3650, "how many days a new API token works (its maker may ask for fewer)")
	rangeVar(f, &maxUploadMiB, "max-upload", 16, 1, 1024, "largest upload, MiB")
	rangeVar(f, &webBudget.RegisterPerAddress, "register-rate", 20, 1, 1_000_000, "new accounts an hour from one client address")
	rangeVar(f, &webBudget.RegisterTotal, "register-total", 500, 1, 1_000_000, "new accounts an hour in all")
	rangeVar(f, &clientConns, "client-conns", 128, 1, 1_000_000, "open connections from one client address (more are closed at once)")
	rangeVar(f, &maxConns, "max-conns", 4096, 16, 1_000_000, "open connections in all (more wait to be accepted)")
	rangeVar(f, &deadline, "deadline", time.Second, time.Millisecond, time.Hour, "time per move in ladder and smoke matches")
	rangeVar(f, &maxVersions, "max-versions", server.DefaultMaxVersions, 1, 100000, "versions one author may keep files of (failed and replaced versions are collected)")
	rangeVar(f, &keepVersions, "keep-versions", store.KeptVersions, 1, 100, "passing versions of each bot that keep their files, so an author can go back to one (older ones are collected; the pinned one is kept too)")
	rangeVar(f, &maxStoredMiB, "max-stored", server.DefaultMaxStored>>20, 1, 1<<20, "MiB of unpacked files one author may keep")
	f.StringVar(&announcement, "announcement", "", "the organisers' announcement on the front page (plain text, kept in the store; \"\" removes it; without the flag the stored one stays)")
	rangeVar(f, &maxTournament, "max-tournament-matches", server.DefaultMaxTournamentMatches, 1, 1_000_000, "matches an organiser's tournament may play")
	f.BoolVar(&privateWebhooks, "webhooks-private", false, "let authors' webhook URLs point at loopback or private addresses (a receiver on this machine or LAN); off, they are refused, so the server is no way into its own network")
	cmd.RunE = func(cmd *cobra.Command, _ []string) error {
		if len(organisers) > 0 {
			// The flag made whoever first registered the name an organiser. Refused rather than
			// kept: any meaning it kept would still hand a role to a name.
			return fmt.Errorf("%w: --organiser is gone (whoever registered the name first got the role): make organisers on the store with "+
				"arena user add NAME --organiser --store %s, or arena user role NAME organiser for an account you have checked is yours (arena user list)",
				ErrUsage, storePath)
		}
		if (tlsCert == "") != (tlsKey == "") {
			return fmt.Errorf("%w: give both --tls-cert and --tls-key, or neither", ErrUsage)
		}
		tls := tlsCert != ""
		secureCookies, err := secureFor(secure, addr, tls || len(trustedProxies) > 0)
		if err != nil {
			return fmt.Errorf("%w: %v", ErrUsage, err)
		}
		// Without --nats or --nats-listen only this process's workers play the matches.
		alone := f.Lookup("nats").Value.String() == "" && f.Lookup("nats-listen").Value.String() == ""
		clk, err := clock(cmd.ErrOrStderr(), alone)
		if err != nil {
			return err
		}
		if !cmd.Flags().Changed("local-jobs") {
			localJobs = jobs
		}
		st, err := store.Open(storePath)
		if err != nil {
			return err
		}
		defer st.Close()
		if f.Changed("announcement") {
			if err := server.SetAnnouncement(cmd.Context(), st, announcement); err != nil {
				return fmt.Errorf("%w: --announcement: %v", ErrUsage, err)
			}
		}
		hopt := host.Options{}
		applyLimits(&hopt)
		q, closeQueue, err := openQueue(cmd.Context(), storePath, cmd.OutOrStdout())
		if err != nil {
			return err
		}
		defer closeQueue()
		lad := &ladder.Ladder{Store: st, Queue: q, Resolver: resolver(hopt.Strict), Jobs: jobs, LocalJobs: localJobs, Host: hopt, Deadline: deadline, Clock: clk, KeepVersions: keepVersions}
		logger := log.New(cmd.ErrOrStderr(), "arena serve: ", log.LstdFlags)
		ctx := cmd.Context()
		srv, err := server.New(ctx, st, lad, server.Options{DataDir: data, SecureCookies: secureCookies, MaxUpload: maxUploadMiB << 20,
			TrustedProxies: trustedProxies, TokenLife: time.Duration(tokenDays) * 24 * time.Hour, Logger: logger, Budget: webBudget,
			MaxTournamentMatches: maxTournament, Quota: store.Quota{Versions: maxVersions, Bytes: maxStoredMiB << 20},
			AllowPrivateWebhooks: privateWebhooks})
		if err != nil {
			return err
		}
		defer srv.Close()
		hs := srv.HTTPServer()
		if tls {
			// Loaded now, so a wrong path or a key that does not match fails the start, not the
			// first visitor.
			if hs.TLSConfig, err = tlsConfig(tlsCert, tlsKey); err != nil {
				return err
			}
		}
		ln, err := net.Listen("tcp", addr)
		if err != nil {
			return fmt.Errorf("listen on %s: %w: give another --addr", addr, err)
		}
		// One client holds at most --client-conns of the server's descriptors, everyone --max-conns;
		// a trusted proxy speaks for many clients and is not held to one client's share.
		ln = budget.NewListener(ln, clientConns, maxConns, srv.TrustedProxy)
		scheme := "http"
		if tls {
			scheme = "https"
		}
		fmt.Fprintf(cmd.OutOrStdout(), "arena serve: %s://%s (store %s, %d jobs in flight, %d played here, %s clock)\n", scheme, ln.Addr(), storePath, jobs, localJobs, clk.Mode)
		if secureCookies && !tls && len(trustedProxies) == 0 {
			logger.Printf("session cookies are Secure (HTTPS only) but this serves plain HTTP on %s: browsers will not keep a login. "+
				"Give --tls-cert and --tls-key, or serve behind an HTTPS proxy (--trusted-proxy ITS-ADDRESS), "+
				"or on a LAN you trust --secure-cookies=false", addr)
		}
		ladCtx, stopLadder := context.WithCancel(ctx)
		ladDone := make(chan error, 1)
		go func() { ladDone <- lad.Run(ladCtx) }()
		errc := make(chan error, 1)
		go func() {
			if tls {
				errc <- hs.ServeTLS(ln, "", "")
				return
			}
			errc <- hs.Serve(ln)
		}()
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

// secureFor decides the Secure mark of session cookies: auto is true when the browser reaches
// the server over HTTPS (httpsFront: TLS here or a proxy in front) or from another machine.
func secureFor(v, addr string, httpsFront bool) (bool, error) {
	switch v {
	case "true":
		return true, nil
	case "false":
		return false, nil
	case "auto":
		if httpsFront {
			return true, nil
		}
		host, _, err := net.SplitHostPort(addr)
		if err != nil {
			return false, fmt.Errorf("--addr %q: %v", addr, err)
		}
		ip := net.ParseIP(host)
		return !(host == "localhost" || (ip != nil && ip.IsLoopback())), nil
	}
	return false, fmt.Errorf("--secure-cookies %q: give true, false or auto", v)
}

// tlsConfig loads the certificate and key for serve --tls-cert/--tls-key.
func tlsConfig(certFile, keyFile string) (*cryptotls.Config, error) {
	cert, err := cryptotls.LoadX509KeyPair(certFile, keyFile)
	if err != nil {
		return nil, fmt.Errorf("%w: --tls-cert %s / --tls-key %s: %v: give a PEM certificate and its PEM private key", ErrUsage, certFile, keyFile, err)
	}
	return &cryptotls.Config{Certificates: []cryptotls.Certificate{cert}, MinVersion: cryptotls.VersionTLS12}, nil
}
