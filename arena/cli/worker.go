package cli

import (
	"fmt"
	"os"
	"runtime"
	"sync"
	"time"

	"github.com/spf13/cobra"

	"github.com/botarena/arena/arena/queue"
	"github.com/botarena/arena/arena/tournament"
)

func init() { extraCommands = append(extraCommands, newWorker) }

func newWorker() *cobra.Command {
	var (
		url    string
		ca     string
		jobs   int
		strict bool
	)
	cmd := &cobra.Command{
		Use:   "worker --nats URL",
		Short: "Play tournament and ladder matches taken from NATS JetStream (run one per machine)",
		Long: "worker pulls match jobs from a coordinator's NATS JetStream queue (arena tournament or arena\n" +
			"serve with --nats or --nats-listen), fetches each bot's files by content hash from the object store (a hash mismatch\n" +
			"is refused), builds and plays them in this machine's sandbox exactly as a local tournament\n" +
			"does, and publishes the result and replay. Kill it at any time: its job goes to another worker\n" +
			"after the ack wait and is played again from its seed, recorded once.\n\n" +
			"At its start it says which languages it builds (as arena doctor does). A job with a bot it\n" +
			"cannot build here it declines: the job is held back --retry-delay, doubling with each\n" +
			"delivery, for a worker that can; at the job's last delivery the bot is charged with the reason.",
		Example: "  arena worker --nats nats://coordinator:4222 --jobs 8",
		Args:    cobra.NoArgs,
	}
	f := cmd.Flags()
	f.StringVar(&url, "nats", "", "the coordinator's NATS server or cluster (the URL its start prints, tls://token@host:port, or nats://host:4222)")
	f.StringVar(&ca, "nats-ca", "", "certificates (PEM) to trust for the server's TLS: the file the coordinator's start names (default: the system's)")
	rangeVar(f, &jobs, "jobs", runtime.NumCPU(), 1, maxJobs(), "matches played at once")
	// Sandbox limits come with each job (the coordinator's), so a match runs the same anywhere.
	f.BoolVar(&strict, "strict", false, "refuse to build or start a bot when any sandbox layer is missing here, whatever the job says")
	var retryDelay time.Duration
	rangeVar(f, &retryDelay, "retry-delay", tournament.DefaultRetryDelay, 10*time.Millisecond, tournament.MaxRetryDelay,
		"a job this worker hands back (it cannot build one of its bots here, or their files are not to be had now) waits this long before it is handed out again, doubling with each delivery")
	resolver := buildFlags(cmd)
	cmd.RunE = func(cmd *cobra.Command, _ []string) error {
		if url == "" {
			return fmt.Errorf("%w: give the coordinator's server: --nats with the URL its start prints (tls://token@host:port), or nats://host:4222 for a NATS server of your own", ErrUsage)
		}
		ctx := cmd.Context()
		out := cmd.OutOrStdout()
		var mu sync.Mutex
		logf := func(s string) {
			mu.Lock()
			defer mu.Unlock()
			fmt.Fprintf(out, "%s %s\n", time.Now().UTC().Format("15:04:05.000"), s)
		}
		nc, err := queue.Dial(queue.Client{URL: url, Name: "arena worker", CA: ca, Warn: logf})
		if err != nil {
			return err
		}
		defer nc.Close()
		logf(fmt.Sprintf("worker %d: waiting for the queue on %s", os.Getpid(), queue.Redact(url)))
		q, err := queue.Join(ctx, nc)
		if err != nil {
			return err
		}
		logf(fmt.Sprintf("worker %d: %d jobs at once, ack wait %v, max deliver %d", os.Getpid(), jobs, q.AckWait, q.MaxDeliver))
		return tournament.Work(ctx, q, tournament.WorkOptions{Jobs: jobs, Resolver: resolver(strict), Strict: strict, Log: logf, RetryDelay: retryDelay})
	}
	return cmd
}
