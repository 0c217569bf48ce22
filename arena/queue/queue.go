package queue

import (
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

// Names of the streams, the shared consumer and the object store.
const (
	JobsStream      = "ARENA_JOBS"
	ResultsStream   = "ARENA_RESULTS"
	ExhaustedStream = "ARENA_EXHAUSTED"
	WorkersConsumer = "workers"
	FilesBucket     = "arena-files"
	jobsPrefix      = "arena.jobs."
	resultsPrefix   = "arena.results."
	// MaxJob bounds a job message (a few hundred bytes in practice).
	MaxJob = 1 << 20
	// MaxResult bounds a result message: the outcome, faults, timings and compressed replay.
	MaxResult = MaxPayload
)

// exhaustedSubject is where the server announces a job that reached MaxDeliver.
const exhaustedSubject = "$JS.EVENT.ADVISORY.CONSUMER.MAX_DELIVERIES." + JobsStream + "." + WorkersConsumer

// Config is fixed by the coordinator when it opens the queue.
type Config struct {
	// AckWait is how long a job is a worker's without a heartbeat (default 30s); workers
	// heartbeat four times per AckWait.
	AckWait time.Duration
	// MaxDeliver is how many times a job is handed out before it is an infrastructure
	// failure (default 5).
	MaxDeliver int
	// Dedup is the de-duplication window for jobs and results (default 2h): a coordinator
	// restarted within it publishes nothing twice.
	Dedup time.Duration
	// Keep bounds how long a result nobody collects (its coordinator gone for good) and an
	// exhausted-job notice stay in their streams (default 7 days).
	Keep time.Duration
	// ResultBytes bounds the results stream on disk (default 2 GiB), FilesBytes the bot
	// files' object store (default 16 GiB): what a flood can take, not what a run needs.
	ResultBytes, FilesBytes int64
	// Secret keys the nonce each job carries (Nonce); the same secret after a restart lets
	// a coordinator check results of jobs it published before (default: random).
	Secret []byte
	// Quarantine cuts a worker off (its credential disabled); nil: the coordinator only
	// refuses its results from then on.
	Quarantine func(worker, why string) error
	// Audit is the share of matches (0 to 1) a coordinator has played again by another
	// worker, counted only when both agree (default 0: none; the command line's is 3%).
	Audit float64
}

func (c Config) withDefaults() Config {
	if c.AckWait <= 0 {
		c.AckWait = 30 * time.Second
	}
	if c.MaxDeliver <= 0 {
		c.MaxDeliver = 5
	}
	if c.Dedup <= 0 {
		c.Dedup = 2 * time.Hour
	}
	if c.Keep <= 0 {
		c.Keep = 7 * 24 * time.Hour
	}
	if c.ResultBytes <= 0 {
		c.ResultBytes = 2 << 30
	}
	if c.FilesBytes <= 0 {
		c.FilesBytes = 16 << 30
	}
	if len(c.Secret) == 0 {
		c.Secret = make([]byte, 32)
		_, _ = rand.Read(c.Secret)
	}
	return c
}

// resultsPerJob bounds the results one worker may leave for one match: a worker that
// answers again and again fills its own subject, not the disk.
const resultsPerJob = 8

// Queue is one connection's view of the streams.
type Queue struct {
	nc      *nats.Conn
	js      jetstream.JetStream
	jobs    jetstream.Stream
	workers jetstream.Consumer
	files   jetstream.ObjectStore
	// AckWait and MaxDeliver as the workers consumer has them.
	AckWait    time.Duration
	MaxDeliver int
	// worker names this connection's results (LocalWorker for a coordinator's).
	worker string
	cfg    Config // the coordinator's (Open)

	mu          sync.Mutex
	quarantined map[string]string
}

// Open creates (or updates to cfg) the streams, the workers consumer and the object store,
// each with its limits, and keeps re-creating whichever goes missing while nc is open. The
// coordinator's own workers publish their results as LocalWorker.
func Open(ctx context.Context, nc *nats.Conn, cfg Config) (*Queue, error) {
	cfg = cfg.withDefaults()
	js, err := jetstream.New(nc)
	if err != nil {
		return nil, err
	}
	if err := ensure(ctx, js, cfg, true); err != nil {
		return nil, err
	}
	q, err := Join(ctx, nc, LocalWorker)
	if err != nil {
		return nil, err
	}
	q.cfg = cfg
	go q.keep()
	return q, nil
}

// ensure creates what is missing (everything, with all) or updates it to cfg.
func ensure(ctx context.Context, js jetstream.JetStream, cfg Config, all bool) error {
	streams := []jetstream.StreamConfig{
		{Name: JobsStream, Subjects: []string{jobsPrefix + ">"}, Retention: jetstream.WorkQueuePolicy,
			Storage: jetstream.FileStorage, Duplicates: cfg.Dedup, MaxMsgSize: MaxJob, MaxBytes: 4 << 30},
		// A work queue too (each tournament's consumer filters its own key): a result leaves
		// the stream once its coordinator has committed it, so the stream holds only what is
		// in flight, not a day of replays. Bounded in bytes (new results are refused when it
		// is full, rather than old ones dropped) and per worker and match.
		{Name: ResultsStream, Subjects: []string{resultsPrefix + ">"}, Retention: jetstream.WorkQueuePolicy,
			Storage: jetstream.FileStorage, Duplicates: cfg.Dedup, MaxAge: cfg.Keep, MaxMsgSize: MaxResult,
			MaxBytes: cfg.ResultBytes, Discard: jetstream.DiscardNew, MaxMsgsPerSubject: resultsPerJob, DiscardNewPerSubject: true},
		{Name: ExhaustedStream, Subjects: []string{exhaustedSubject}, Retention: jetstream.LimitsPolicy,
			Storage: jetstream.FileStorage, MaxAge: cfg.Keep, MaxMsgSize: 64 << 10, MaxBytes: 256 << 20},
	}
	for _, sc := range streams {
		if !all {
			if _, err := js.Stream(ctx, sc.Name); !errors.Is(err, jetstream.ErrStreamNotFound) {
				continue
			}
		}
		if _, err := js.CreateOrUpdateStream(ctx, sc); err != nil {
			return fmt.Errorf("NATS stream %s: %w", sc.Name, err)
		}
	}
	if _, err := js.Consumer(ctx, JobsStream, WorkersConsumer); all || errors.Is(err, jetstream.ErrConsumerNotFound) {
		if _, err := js.CreateOrUpdateConsumer(ctx, JobsStream, jetstream.ConsumerConfig{
			Durable: WorkersConsumer, AckPolicy: jetstream.AckExplicitPolicy, AckWait: cfg.AckWait,
			MaxDeliver: cfg.MaxDeliver, MaxAckPending: -1, MaxWaiting: 4096,
		}); err != nil {
			return fmt.Errorf("NATS consumer %s: %w", WorkersConsumer, err)
		}
	}
	if _, err := js.ObjectStore(ctx, FilesBucket); all || errors.Is(err, jetstream.ErrBucketNotFound) {
		if _, err := js.CreateOrUpdateObjectStore(ctx, jetstream.ObjectStoreConfig{Bucket: FilesBucket, Storage: jetstream.FileStorage,
			MaxBytes: cfg.FilesBytes}); err != nil {
			return fmt.Errorf("NATS object store %s: %w", FilesBucket, err)
		}
	}
	return nil
}

// keepEvery is how often a coordinator looks for a stream, consumer or bucket gone missing.
var keepEvery = 2 * time.Second

// keep re-creates what went missing (deleted by an operator, or by a NATS server of the
// operator's own that lets workers do it) until the connection closes.
func (q *Queue) keep() {
	for !q.nc.IsClosed() {
		time.Sleep(keepEvery)
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		_ = ensure(ctx, q.js, q.cfg, false)
		cancel()
	}
}

// Join finds the queue a coordinator opened, waiting (until ctx ends) while there is none;
// worker names the results this connection publishes (a NATS server of the arena's own
// lets a worker publish under its own name only).
func Join(ctx context.Context, nc *nats.Conn, worker string) (*Queue, error) {
	js, err := jetstream.New(nc)
	if err != nil {
		return nil, err
	}
	q := &Queue{nc: nc, js: js, worker: worker}
	for {
		err = q.find(ctx)
		if err == nil {
			return q, nil
		}
		select {
		case <-ctx.Done():
			return nil, fmt.Errorf("no arena queue on %s (start the coordinator: arena tournament ... --nats-listen or --nats): %w", nc.ConnectedUrlRedacted(), err)
		case <-time.After(500 * time.Millisecond):
		}
	}
}

func (q *Queue) find(ctx context.Context) error {
	var err error
	if q.jobs, err = q.js.Stream(ctx, JobsStream); err != nil {
		return err
	}
	if q.workers, err = q.jobs.Consumer(ctx, WorkersConsumer); err != nil {
		return err
	}
	if q.files, err = q.js.ObjectStore(ctx, FilesBucket); err != nil {
		return err
	}
	info, err := q.workers.Info(ctx)
	if err != nil {
		return err
	}
	q.AckWait, q.MaxDeliver = info.Config.AckWait, info.Config.MaxDeliver
	return nil
}

// PublishJob adds a job for the tournament key; id names this attempt of the match, so
// publishing it again within the de-duplication window adds nothing. seq is the job's
// stream sequence (JobWaiting).
func (q *Queue) PublishJob(ctx context.Context, key, id string, data []byte) (seq uint64, err error) {
	ack, err := q.js.Publish(ctx, jobsPrefix+key, data, jetstream.WithMsgID(id))
	if err != nil {
		return 0, err
	}
	return ack.Sequence, nil
}

// JobWaiting reports whether the job at seq is still in the queue (waiting, or held by a
// worker); false once a worker acknowledged it.
func (q *Queue) JobWaiting(ctx context.Context, seq uint64) (bool, error) {
	_, err := q.jobs.GetMsg(ctx, seq)
	if errors.Is(err, jetstream.ErrMsgNotFound) || (err != nil && strings.Contains(err.Error(), "no message found")) {
		return false, nil
	}
	return err == nil, err
}

// Nonce is the secret a job published under id carries: only a worker that was handed the
// job knows it, and its result must repeat it.
func (q *Queue) Nonce(id string) string {
	m := hmac.New(sha256.New, q.cfg.Secret)
	m.Write([]byte(id))
	return hex.EncodeToString(m.Sum(nil)[:16])
}

// Audit is the share of matches the coordinator has played twice (Config.Audit).
func (q *Queue) Audit() float64 { return q.cfg.Audit }

// Worker is the name this connection publishes results under.
func (q *Queue) Worker() string { return q.worker }

// Quarantine refuses a worker's results from now on and cuts it off (Config.Quarantine);
// LocalWorker, the coordinator's own, is never quarantined.
func (q *Queue) Quarantine(worker, why string) error {
	if worker == LocalWorker {
		return nil
	}
	q.mu.Lock()
	if q.quarantined == nil {
		q.quarantined = map[string]string{}
	}
	q.quarantined[worker] = why
	q.mu.Unlock()
	if q.cfg.Quarantine != nil {
		return q.cfg.Quarantine(worker, why)
	}
	return nil
}

// Quarantined says why a worker's results are refused ("" when they are not).
func (q *Queue) Quarantined(worker string) string {
	q.mu.Lock()
	defer q.mu.Unlock()
	return q.quarantined[worker]
}

// Outgoing is one job to publish: its de-duplication id and its data.
type Outgoing struct {
	ID   string
	Data []byte
}

// publishWindow is how many jobs PublishJobs has in flight before it waits for their acks.
const publishWindow = 256

// PublishJobs adds many jobs for key, publishWindow of them in flight at a time rather than
// one round trip each, and returns once every one is stored (or with the first error; the
// jobs are de-duplicated by id, so publishing them all again is safe), with their stream
// sequences in order.
func (q *Queue) PublishJobs(ctx context.Context, key string, jobs []Outgoing) ([]uint64, error) {
	futs := make([]jetstream.PubAckFuture, 0, publishWindow)
	seqs := make([]uint64, 0, len(jobs))
	settle := func() error {
		defer func() { futs = futs[:0] }()
		for _, f := range futs {
			select {
			case ack := <-f.Ok():
				seqs = append(seqs, ack.Sequence)
			case err := <-f.Err():
				return fmt.Errorf("publishing job %s: %w", f.Msg().Header.Get(jetstream.MsgIDHeader), err)
			case <-ctx.Done():
				return ctx.Err()
			}
		}
		return nil
	}
	for _, j := range jobs {
		f, err := q.js.PublishAsync(jobsPrefix+key, j.Data, jetstream.WithMsgID(j.ID))
		if err != nil {
			return seqs, fmt.Errorf("publishing job %s: %w", j.ID, err)
		}
		if futs = append(futs, f); len(futs) == publishWindow {
			if err := settle(); err != nil {
				return seqs, err
			}
		}
	}
	return seqs, settle()
}

// Delivery is a job handed to this worker.
type Delivery struct {
	msg jetstream.Msg
	// Delivered counts the times the job was handed out, this one included.
	Delivered uint64
	// Seq is the job's stream sequence.
	Seq uint64
}

// Data is the job as published.
func (d *Delivery) Data() []byte { return d.msg.Data() }

// Heartbeat tells the server the job is still being played (it restarts the ack wait).
func (d *Delivery) Heartbeat() error { return d.msg.InProgress() }

// Done removes the job from the queue, waiting for the server to confirm.
func (d *Delivery) Done(ctx context.Context) error { return d.msg.DoubleAck(ctx) }

// Retry hands the job back for another worker at once.
func (d *Delivery) Retry() error { return d.msg.Nak() }

// RetryAfter hands the job back, to be handed out again (to any worker) no sooner than after
// wait: the server holds it that long, so a job no worker can play now does not spend its
// deliveries in milliseconds.
func (d *Delivery) RetryAfter(wait time.Duration) error { return d.msg.NakWithDelay(wait) }

// Next waits up to wait for a job; it returns nil, nil when none came.
func (q *Queue) Next(ctx context.Context, wait time.Duration) (*Delivery, error) {
	fctx, cancel := context.WithTimeout(ctx, wait)
	defer cancel()
	b, err := q.workers.Fetch(1, jetstream.FetchContext(fctx))
	if err != nil {
		return nil, err
	}
	for m := range b.Messages() {
		md, err := m.Metadata()
		if err != nil {
			_ = m.Nak()
			return nil, err
		}
		return &Delivery{msg: m, Delivered: md.NumDelivered, Seq: md.Sequence.Stream}, nil
	}
	if err := b.Error(); err != nil && !errors.Is(err, context.DeadlineExceeded) && !errors.Is(err, nats.ErrTimeout) {
		return nil, err
	}
	return nil, nil
}

// PublishResult publishes the result of match idx's job id under this connection's worker
// name; dup reports that this worker's result for that job was already in the stream (a
// redelivered job played again here). Each worker's result has an id of its own: a result
// from one worker never keeps another's out.
func (q *Queue) PublishResult(ctx context.Context, key string, idx int, id string, data []byte) (dup bool, err error) {
	subj := fmt.Sprintf("%s%s.%s.%d", resultsPrefix, key, q.worker, idx)
	ack, err := q.js.Publish(ctx, subj, data, jetstream.WithMsgID(id+"/"+q.worker))
	if err != nil {
		return false, err
	}
	return ack.Duplicate, nil
}

// Incoming is a result or an exhausted job for a coordinator; Ack it once handled.
type Incoming struct {
	// Result is a result's data; nil for an exhausted job.
	Result []byte
	// Worker published the result (the server let it publish under that name only) and Idx
	// is the match it says it answers: known even when its data cannot be read.
	Worker string
	Idx    int
	// Job is an exhausted job's data, JobSeq its sequence and Deliveries how often it was
	// handed out.
	Job        []byte
	JobSeq     uint64
	Deliveries uint64
	msg        jetstream.Msg
}

// Ack marks it handled; it is delivered again (to a restarted coordinator) until acked.
func (in Incoming) Ack() error { return in.msg.Ack() }

// Inbox delivers a tournament's results and exhausted jobs.
type Inbox struct {
	C    <-chan Incoming
	stop []jetstream.MessagesContext
}

// Close stops the inbox.
func (ib *Inbox) Close() {
	for _, s := range ib.stop {
		s.Stop()
	}
}

// Listen opens the tournament key's durable consumers: what arrived while its coordinator
// was down is delivered now.
func (q *Queue) Listen(ctx context.Context, key string) (*Inbox, error) {
	res, err := q.js.CreateOrUpdateConsumer(ctx, ResultsStream, jetstream.ConsumerConfig{
		Durable: "results-" + key, FilterSubject: resultsPrefix + key + ".>", AckPolicy: jetstream.AckExplicitPolicy,
		AckWait: time.Minute, MaxAckPending: 1024,
	})
	if err != nil {
		return nil, fmt.Errorf("NATS results consumer: %w", err)
	}
	exh, err := q.js.CreateOrUpdateConsumer(ctx, ExhaustedStream, jetstream.ConsumerConfig{
		Durable: "exhausted-" + key, AckPolicy: jetstream.AckExplicitPolicy, AckWait: time.Minute,
	})
	if err != nil {
		return nil, fmt.Errorf("NATS exhausted-jobs consumer: %w", err)
	}
	ch := make(chan Incoming)
	ib := &Inbox{C: ch}
	rit, err := res.Messages()
	if err != nil {
		return nil, err
	}
	eit, err := exh.Messages()
	if err != nil {
		rit.Stop()
		return nil, err
	}
	ib.stop = []jetstream.MessagesContext{rit, eit}
	go func() {
		for {
			m, err := rit.Next()
			if err != nil {
				return // stopped
			}
			in := Incoming{Result: m.Data(), msg: m, Idx: -1}
			// arena.results.<key>.<worker>.<idx>
			if parts := strings.Split(strings.TrimPrefix(m.Subject(), resultsPrefix+key+"."), "."); len(parts) == 2 {
				in.Worker = parts[0]
				if n, err := strconv.Atoi(parts[1]); err == nil {
					in.Idx = n
				}
			}
			if in.Worker == "" || in.Idx < 0 {
				_ = m.Ack() // not a result's subject (a results stream shared with older arenas)
				continue
			}
			select {
			case ch <- in:
			case <-ctx.Done():
				return
			}
		}
	}()
	go func() {
		for {
			m, err := eit.Next()
			if err != nil {
				return
			}
			in, mine := q.exhausted(ctx, key, m)
			if !mine {
				_ = m.Ack() // another tournament's, or a job already removed
				continue
			}
			select {
			case ch <- in:
			case <-ctx.Done():
				return
			}
		}
	}()
	return ib, nil
}

// exhausted reads the job an advisory names; mine is false when it is not key's or is gone.
func (q *Queue) exhausted(ctx context.Context, key string, m jetstream.Msg) (Incoming, bool) {
	var adv struct {
		StreamSeq  uint64 `json:"stream_seq"`
		Deliveries uint64 `json:"deliveries"`
	}
	if err := json.Unmarshal(m.Data(), &adv); err != nil || adv.StreamSeq == 0 {
		return Incoming{}, false
	}
	raw, err := q.jobs.GetMsg(ctx, adv.StreamSeq)
	if err != nil || raw.Subject != jobsPrefix+key {
		return Incoming{}, false
	}
	return Incoming{Job: raw.Data, JobSeq: adv.StreamSeq, Deliveries: adv.Deliveries, msg: m}, true
}

// DropJob removes an exhausted job from the queue (it is no longer handed out, but a
// work-queue stream keeps it until it is removed).
func (q *Queue) DropJob(ctx context.Context, seq uint64) error {
	err := q.jobs.DeleteMsg(ctx, seq)
	if errors.Is(err, jetstream.ErrMsgNotFound) || (err != nil && strings.Contains(err.Error(), "no message found")) {
		return nil
	}
	return err
}

// PurgeJobs removes every job of key still in the queue, handed out or not (a worker that
// holds one may still publish its result): for a coordinator that publishes again what it
// still wants, under new ids.
func (q *Queue) PurgeJobs(ctx context.Context, key string) error {
	return q.jobs.Purge(ctx, jetstream.WithPurgeSubject(jobsPrefix+key))
}

// Forget removes a finished tournament's consumers.
func (q *Queue) Forget(ctx context.Context, key string) {
	_ = q.js.DeleteConsumer(ctx, ResultsStream, "results-"+key)
	_ = q.js.DeleteConsumer(ctx, ExhaustedStream, "exhausted-"+key)
}

// Pending is the number of jobs waiting or being played.
func (q *Queue) Pending(ctx context.Context) (uint64, error) {
	info, err := q.jobs.Info(ctx)
	if err != nil {
		return 0, err
	}
	return info.State.Msgs, nil
}
