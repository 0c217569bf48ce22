package cli

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/botarena/arena/arena/queue"
	"github.com/botarena/arena/arena/tournament"
	"github.com/botarena/arena/sandbox"
)

func init() { extraCommands = append(extraCommands, newWorker) }

// credentialsEnv holds a worker's credential (the file's content) when no file is given.
const credentialsEnv = "ARENA_WORKER_CREDENTIALS"

func newWorker() *cobra.Command {
	var (
		url    string
		ca     string
		creds  string
		jobs   int
		strict bool
		most   tournament.Policy
	)
	cmd := &cobra.Command{
		Use:   "worker --nats URL --credentials FILE",
		Short: "Play tournament and ladder matches taken from NATS JetStream (run one per machine); add, revoke and list workers",
		Long: "worker pulls match jobs from a coordinator's NATS JetStream queue (arena tournament or arena\n" +
			"serve with --nats or --nats-listen), fetches each bot's files by content hash from the object store (a hash mismatch\n" +
			"is refused), builds and plays them in this machine's sandbox exactly as a local tournament\n" +
			"does, and publishes the result and replay, which the coordinator checks by re-running the\n" +
			"engine before anything counts. Kill it at any time: its job goes to another worker after\n" +
			"the ack wait and is played again from its seed, recorded once.\n\n" +
			"At its start it says which languages it builds (as arena doctor does). A job with a bot it\n" +
			"cannot build here it declines: the job is held back --retry-delay, doubling with each\n" +
			"delivery, for a worker that can; at the job's last delivery the bot is charged with the reason.\n" +
			"Each job is played on its coordinator's clock (--clock-mode there); a CPU-clock job on a\n" +
			"machine whose cgroups cannot count CPU time is declined too, and fails, charged to no bot,\n" +
			"at its last delivery.\n\n" +
			"A coordinator's own server (--nats-listen) lets in only workers it knows: arena worker add\n" +
			"NAME on the coordinator's machine makes a credential and prints the command to run; the\n" +
			"credential comes from --credentials FILE or the environment variable " + credentialsEnv + ",\n" +
			"never the command line. A job asking for more than this machine's --max-* limits is refused.",
		Example: "  arena worker add gpu1 --store arena.db        # on the coordinator's machine\n" +
			"  arena worker --nats tls://coordinator:4222 --nats-ca arena.db.nats/tls-cert.pem --credentials gpu1.creds --jobs 8",
		Args: cobra.NoArgs,
	}
	f := cmd.Flags()
	f.StringVar(&url, "nats", "", "the coordinator's NATS server or cluster (the URL its start prints, tls://host:port, or nats://host:4222)")
	f.StringVar(&ca, "nats-ca", "", "certificates (PEM) to trust for the server's TLS: the file the coordinator's start names (default: the system's)")
	f.StringVar(&creds, "credentials", "", "this worker's credential file (arena worker add NAME makes it; default: the environment variable "+credentialsEnv+")")
	rangeVar(f, &jobs, "jobs", runtime.NumCPU(), 1, maxJobs(), "matches played at once")
	// Sandbox limits come with each job (the coordinator's), so a match runs the same
	// anywhere, up to this machine's maxima.
	f.BoolVar(&strict, "strict", false, "refuse to build or start a bot when any sandbox layer is missing here, whatever the job says")
	var retryDelay time.Duration
	rangeVar(f, &retryDelay, "retry-delay", tournament.DefaultRetryDelay, 10*time.Millisecond, tournament.MaxRetryDelay,
		"a job this worker hands back (it cannot build one of its bots here, or their files are not to be had now) waits this long before it is handed out again, doubling with each delivery")
	var memMiB, outMiB, diskMiB int64
	var procs, cpuSecs int
	var cpus float64
	rangeVar(f, &memMiB, "max-memory", sandbox.DefaultMemoryBytes>>20, 16, 1<<20, "most memory a job may give a bot, MiB")
	rangeVar(f, &procs, "max-procs", sandbox.DefaultProcesses, 1, 1<<16, "most processes and threads a job may give a bot")
	rangeVar(f, &cpuSecs, "max-cpu-seconds", sandbox.DefaultCPUSeconds, 1, 7*24*3600, "most CPU seconds a job may give a bot")
	rangeVar(f, &cpus, "max-cpus", sandbox.DefaultCPUs, 0.01, 1024, "most cores a job may give a bot at once")
	rangeVar(f, &outMiB, "max-output", sandbox.DefaultOutputBytes>>20, 1, 1<<20, "most stdout+stderr a job may let a bot write, MiB")
	rangeVar(f, &diskMiB, "max-disk", sandbox.DefaultDiskBytes>>20, 1, 1<<20, "most a job may let a bot write into its directory, MiB")
	rangeVar(f, &most.Deadline, "max-move-time", tournament.DefaultDeadline, time.Millisecond, time.Hour, "most time a job may give a bot for a move or its start")
	resolver := buildFlags(cmd)
	cmd.RunE = func(cmd *cobra.Command, _ []string) error {
		if url == "" {
			return fmt.Errorf("%w: give the coordinator's server: --nats with the URL its start prints (tls://host:port), or nats://host:4222 for a NATS server of your own", ErrUsage)
		}
		most.Limits = sandbox.Limits{MemoryBytes: memMiB << 20, Processes: procs, CPUSeconds: cpuSecs, CPUs: cpus, OutputBytes: outMiB << 20, DiskBytes: diskMiB << 20}
		secret, err := readCredential(creds)
		if err != nil {
			return err
		}
		name := ""
		if secret != nil {
			s, err := queue.ParseSecret(secret)
			if err != nil {
				return fmt.Errorf("worker credential: %w", err)
			}
			name = s.Worker
		} else {
			// A NATS server of the operator's own: it knows this worker by the URL's user;
			// results go under this machine's name (a subject token).
			h, _ := os.Hostname()
			name = strings.Map(func(r rune) rune {
				if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '-' {
					return r
				}
				return '-'
			}, strings.ToLower(fmt.Sprintf("w%d-%.20s", os.Getpid(), h)))
		}
		ctx := cmd.Context()
		out := cmd.OutOrStdout()
		var mu sync.Mutex
		logf := func(s string) {
			mu.Lock()
			defer mu.Unlock()
			fmt.Fprintf(out, "%s %s\n", time.Now().UTC().Format("15:04:05.000"), s)
		}
		nc, err := queue.Dial(queue.Client{URL: url, Name: "arena worker " + name, CA: ca, Secret: secret, Warn: logf})
		if err != nil {
			return err
		}
		defer nc.Close()
		logf(fmt.Sprintf("worker %s (pid %d): waiting for the queue on %s", name, os.Getpid(), queue.Redact(url)))
		q, err := queue.Join(ctx, nc, name)
		if err != nil {
			return err
		}
		logf(fmt.Sprintf("worker %s: %d jobs at once, ack wait %v, max deliver %d", name, jobs, q.AckWait, q.MaxDeliver))
		return tournament.Work(ctx, q, tournament.WorkOptions{Jobs: jobs, Resolver: resolver(strict), Strict: strict, Log: logf, Most: most, RetryDelay: retryDelay})
	}
	cmd.AddCommand(newWorkerAdd(), newWorkerRevoke(), newWorkerEnable(), newWorkerList())
	return cmd
}

// readCredential reads the worker's credential from file, else from the environment (nil
// when neither: a NATS server of the operator's own may need none).
func readCredential(file string) ([]byte, error) {
	if file != "" {
		b, err := os.ReadFile(file)
		if err != nil {
			return nil, fmt.Errorf("--credentials: %w: copy the file arena worker add made on the coordinator's machine here", err)
		}
		return b, nil
	}
	if v := os.Getenv(credentialsEnv); v != "" {
		return []byte(v), nil
	}
	return nil, nil
}

// registryFlag declares --store and returns the registry beside it.
func registryFlag(cmd *cobra.Command) func() *queue.Registry {
	var storePath string
	cmd.Flags().StringVar(&storePath, "store", "arena.db", "the coordinator's store (its NATS server's files are beside it, in STORE.nats/)")
	return func() *queue.Registry { return queue.OpenRegistry(storePath + ".nats") }
}

func newWorkerAdd() *cobra.Command {
	var outFile string
	cmd := &cobra.Command{
		Use:   "add NAME",
		Short: "Give a worker machine its own credential for this coordinator's NATS server; prints its command",
		Long: "add registers a worker NAME with the coordinator's embedded NATS server (its list is\n" +
			"STORE.nats/workers.json: names and public keys only; a running server takes it up within a\n" +
			"second) and writes the worker's credential, its secret, to --out (readable by you only).\n" +
			"Copy that file to the worker machine; nothing else keeps the secret.",
		Args: cobra.ExactArgs(1),
	}
	reg := registryFlag(cmd)
	cmd.Flags().StringVar(&outFile, "out", "", "where to write the credential (default: NAME.creds in the current folder; never overwritten)")
	cmd.RunE = func(cmd *cobra.Command, args []string) error {
		name := args[0]
		if err := queue.CheckWorkerName(name); err != nil {
			return fmt.Errorf("%w: %v", ErrUsage, err)
		}
		if outFile == "" {
			outFile = name + ".creds"
		}
		// The file is made first (and never over another): the worker is registered only
		// once its secret has somewhere to go.
		f, err := os.OpenFile(outFile, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o600)
		if err != nil {
			return fmt.Errorf("--out %s: %w (give another --out, or remove it)", outFile, err)
		}
		r := reg()
		secret, err := r.Add(name)
		if err == nil {
			_, err = f.Write(append(secret, '\n'))
		}
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			os.Remove(outFile)
			return err
		}
		abs, _ := filepath.Abs(outFile)
		dir := filepath.Dir(r.Path())
		u := queue.ServerURL(dir)
		if u == "" {
			u = "tls://THIS-MACHINE:PORT"
		}
		w := cmd.OutOrStdout()
		fmt.Fprintf(w, "worker %s added; its credential (a secret) is in %s\n", name, abs)
		caFlag := ""
		if cert, err := filepath.Abs(filepath.Join(dir, "tls-cert.pem")); err == nil && isFile(cert) {
			fmt.Fprintf(w, "copy it and %s (the server's certificate) to the worker machine, then run there:\n", cert)
			caFlag = " --nats-ca " + cert
		} else {
			fmt.Fprintf(w, "copy it to the worker machine, then run there:\n")
		}
		fmt.Fprintf(w, "  arena worker --nats %s%s --credentials %s\n", u, caFlag, abs)
		fmt.Fprintf(w, "(or put the file's content in the environment variable %s); arena worker revoke %s cuts it off\n", credentialsEnv, name)
		return nil
	}
	return cmd
}

func newWorkerRevoke() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "revoke NAME",
		Short: "Remove a worker's credential: a running server disconnects it within a second",
		Args:  cobra.ExactArgs(1),
	}
	reg := registryFlag(cmd)
	cmd.RunE = func(cmd *cobra.Command, args []string) error {
		if err := reg().Revoke(args[0]); err != nil {
			if errors.Is(err, queue.ErrNoWorker) {
				return fmt.Errorf("%w: %v", ErrUsage, err)
			}
			return err
		}
		fmt.Fprintf(cmd.OutOrStdout(), "worker %s revoked: its credential opens nothing any more\n", args[0])
		return nil
	}
	return cmd
}

func newWorkerEnable() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "enable NAME",
		Short: "Let a quarantined worker in again (after finding why its results disagreed)",
		Args:  cobra.ExactArgs(1),
	}
	reg := registryFlag(cmd)
	cmd.RunE = func(cmd *cobra.Command, args []string) error {
		if err := reg().Enable(args[0]); err != nil {
			if errors.Is(err, queue.ErrNoWorker) {
				return fmt.Errorf("%w: %v", ErrUsage, err)
			}
			return err
		}
		fmt.Fprintf(cmd.OutOrStdout(), "worker %s enabled\n", args[0])
		return nil
	}
	return cmd
}

func newWorkerList() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "list",
		Short: "List the workers allowed on this coordinator's NATS server, and the quarantined ones",
		Args:  cobra.NoArgs,
	}
	reg := registryFlag(cmd)
	cmd.RunE = func(cmd *cobra.Command, _ []string) error {
		cs, err := reg().List()
		if err != nil {
			return err
		}
		tw := tabwriter.NewWriter(cmd.OutOrStdout(), 2, 4, 2, ' ', 0)
		fmt.Fprintln(tw, "NAME\tADDED\tSTATE")
		for _, c := range cs {
			state := "enabled"
			if c.Disabled != "" {
				state = c.Disabled
			}
			fmt.Fprintf(tw, "%s\t%s\t%s\n", c.Name, c.Added.Format("2006-01-02 15:04"), state)
		}
		return tw.Flush()
	}
	return cmd
}

func isFile(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.Mode().IsRegular()
}
