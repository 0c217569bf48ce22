package cli

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/spf13/cobra"

	"github.com/botarena/arena/arena/queue"
)

// queueFlags declares how a coordinator reaches NATS JetStream and returns a function that
// opens the queue (nil, nil when no flag asks for one) and a function that closes it. With
// optional false the queue is always used (no --queue flag): an embedded server by default.
func queueFlags(cmd *cobra.Command, optional bool) func(ctx context.Context, storePath string, out io.Writer) (*queue.Queue, func(), error) {
	var (
		url, listen string
		ca          string
		cert, key   string
		tlsNames    []string
		embedded    = true
		ackWait     time.Duration
		maxDeliver  int
		audit       float64
	)
	f := cmd.Flags()
	if optional {
		f.BoolVar(&embedded, "queue", true, "play matches as jobs on NATS JetStream, through a server embedded in this process (no port; files in <store>.nats/); --queue=false plays them directly")
	}
	f.StringVar(&url, "nats", "", "play matches as jobs on this NATS server or cluster (nats://host:4222) instead of an embedded one")
	f.StringVar(&listen, "nats-listen", "", "run the embedded NATS server on this address (host:port, port 0 picks one) for workers on other machines, TLS only, each worker with its own credential (arena worker add NAME --store STORE); prints the URL and the certificate workers trust")
	f.StringVar(&cert, "nats-tls-cert", "", "with --nats-listen: the server's certificate (PEM) instead of the self-signed one it makes in <store>.nats/")
	f.StringVar(&key, "nats-tls-key", "", "with --nats-listen: the key (PEM) of --nats-tls-cert")
	f.StringSliceVar(&tlsNames, "nats-tls-name", nil, "with --nats-listen: another name or address workers reach this machine by (a public address, a full domain name), added to the self-signed certificate (repeatable)")
	f.StringVar(&ca, "nats-ca", "", "with --nats: certificates (PEM) to trust for the server's TLS (default: the system's)")
	rangeVar(f, &ackWait, "ack-wait", 30*time.Second, 100*time.Millisecond, time.Hour, "a job goes to another worker after this long without a heartbeat from its worker")
	rangeVar(f, &maxDeliver, "max-deliver", 5, 1, 1000, "times a job is handed out before it is an infrastructure failure (charged to no bot)")
	rangeVar(f, &audit, "audit", 0.03, 0, 1, "share of matches played by a worker elsewhere that another worker plays again, counted only when both agree (a worker that disagrees is quarantined)")
	return func(ctx context.Context, storePath string, out io.Writer) (*queue.Queue, func(), error) {
		if url != "" && listen != "" {
			return nil, nil, fmt.Errorf("%w: --nats uses a server elsewhere and --nats-listen runs one here: give one of them", ErrUsage)
		}
		if (cert != "" || key != "" || len(tlsNames) > 0) && listen == "" {
			return nil, nil, fmt.Errorf("%w: --nats-tls-cert, --nats-tls-key and --nats-tls-name are for the server --nats-listen runs", ErrUsage)
		}
		if ca != "" && url == "" {
			return nil, nil, fmt.Errorf("%w: --nats-ca is for a server elsewhere (--nats); an embedded server's own certificate needs none here", ErrUsage)
		}
		if url == "" && listen == "" && !embedded {
			return nil, func() {}, nil
		}
		var emb *queue.Embedded
		closeAll := func() {
			if emb != nil {
				emb.Shutdown()
			}
		}
		var err error
		var q *queue.Queue
		// The nonces' key outlives a restart, so results of jobs published before it are
		// still recognised; it stays beside the store, readable by its owner only.
		dir := storePath + ".nats"
		secret, err := loadSecret(dir)
		if err != nil {
			return nil, nil, err
		}
		cfg := queue.Config{AckWait: ackWait, MaxDeliver: maxDeliver, Secret: secret, Audit: audit}
		if url != "" {
			c, err := queue.Dial(queue.Client{URL: url, Name: "arena coordinator", CA: ca, Warn: func(s string) { fmt.Fprintln(out, s) }})
			if err != nil {
				return nil, nil, err
			}
			closeAll = c.Close
			// A server of the operator's own: its users and permissions are the operator's
			// (docs: the worker permissions queue.WorkerPermissions lists); a quarantined
			// worker's results are refused here from then on.
			q, err = queue.Open(ctx, c, cfg)
			if err != nil {
				c.Close()
				return nil, nil, fmt.Errorf("NATS at %s: %w", queue.Redact(url), err)
			}
			return q, closeAll, nil
		}
		var opts []queue.Option
		if cert != "" || key != "" {
			opts = append(opts, queue.WithTLS(cert, key))
		}
		if len(tlsNames) > 0 {
			opts = append(opts, queue.WithTLSNames(tlsNames...))
		}
		if emb, err = queue.StartEmbedded(dir, listen, opts...); err != nil {
			return nil, nil, err
		}
		if u := emb.URL(); u != "" {
			abs, _ := filepath.Abs(storePath)
			fmt.Fprintf(out, "NATS listening on %s (TLS; each worker with its own credential): give a machine one with arena worker add NAME --store %s, which prints its command\n", u, abs)
			if emb.CAFile() != "" {
				ca, _ := filepath.Abs(emb.CAFile())
				fmt.Fprintf(out, "(copy %s to each worker machine: it is the server's self-signed certificate)\n", ca)
			}
		}
		cfg.Quarantine = emb.Quarantine
		c, err := emb.Connect("arena coordinator")
		if err != nil {
			emb.Shutdown()
			return nil, nil, err
		}
		closeAll = func() { c.Close(); emb.Shutdown() }
		if q, err = queue.Open(ctx, c, cfg); err != nil {
			closeAll()
			return nil, nil, err
		}
		return q, closeAll, nil
	}
}

// loadSecret reads the coordinator's nonce key from dir, making it the first time.
func loadSecret(dir string) ([]byte, error) {
	p := filepath.Join(dir, "nonce-key")
	if b, err := os.ReadFile(p); err == nil && len(b) == 32 {
		return b, nil
	} else if err != nil && !errors.Is(err, os.ErrNotExist) {
		return nil, fmt.Errorf("the queue's nonce key %s: %w", p, err)
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, err
	}
	b := make([]byte, 32)
	if _, err := rand.Read(b); err != nil {
		return nil, err
	}
	if err := os.WriteFile(p, b, 0o600); err != nil {
		return nil, fmt.Errorf("the queue's nonce key %s: %w", p, err)
	}
	return b, nil
}
