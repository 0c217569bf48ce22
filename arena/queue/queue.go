package queue

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
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
	return c
}

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
}

// Open creates (or updates to cfg) the streams, the workers consumer and the object store.
func Open(ctx context.Context, nc *nats.Conn, cfg Config) (*Queue, error) {
	cfg = cfg.withDefaults()
	js, err := jetstream.New(nc)
	if err != nil {
		return nil, err
	}
	streams := []jetstream.StreamConfig{
		{Name: JobsStream, Subjects: []string{jobsPrefix + ">"}, Retention: jetstream.WorkQueuePolicy,
			Storage: jetstream.FileStorage, Duplicates: cfg.Dedup, MaxMsgSize: MaxJob},
		// A work queue too (each tournament's consumer filters its own key): a result leaves
		// the stream once its coordinator has committed it, so the stream holds only what is
		// in flight, not a day of replays.
		{Name: ResultsStream, Subjects: []string{resultsPrefix + ">"}, Retention: jetstream.WorkQueuePolicy,
			Storage: jetstream.FileStorage, Duplicates: cfg.Dedup, MaxAge: cfg.Keep, MaxMsgSize: MaxResult},
		{Name: ExhaustedStream, Subjects: []string{exhaustedSubject}, Retention: jetstream.LimitsPolicy,
			Storage: jetstream.FileStorage, MaxAge: cfg.Keep},
	}
	for _, sc := range streams {
		if _, err := js.CreateOrUpdateStream(ctx, sc); err != nil {
			return nil, fmt.Errorf("NATS stream %s: %w", sc.Name, err)
		}
	}
	if _, err := js.CreateOrUpdateConsumer(ctx, JobsStream, jetstream.ConsumerConfig{
		Durable: WorkersConsumer, AckPolicy: jetstream.AckExplicitPolicy, AckWait: cfg.AckWait,
		MaxDeliver: cfg.MaxDeliver, MaxAckPending: -1, MaxWaiting: 4096,
	}); err != nil {
		return nil, fmt.Errorf("NATS consumer %s: %w", WorkersConsumer, err)
	}
	if _, err := js.CreateOrUpdateObjectStore(ctx, jetstream.ObjectStoreConfig{Bucket: FilesBucket, Storage: jetstream.FileStorage}); err != nil {
		return nil, fmt.Errorf("NATS object store %s: %w", FilesBucket, err)
	}
	return Join(ctx, nc)
}

// Join finds the queue a coordinator opened, waiting (until ctx ends) while there is none.
func Join(ctx context.Context, nc *nats.Conn) (*Queue, error) {
	js, err := jetstream.New(nc)
	if err != nil {
		return nil, err
	}
	q := &Queue{nc: nc, js: js}
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
// publishing it again within the de-duplication window adds nothing.
func (q *Queue) PublishJob(ctx context.Context, key, id string, data []byte) error {
	_, err := q.js.Publish(ctx, jobsPrefix+key, data, jetstream.WithMsgID(id))
	return err
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
// jobs are de-duplicated by id, so publishing them all again is safe).
func (q *Queue) PublishJobs(ctx context.Context, key string, jobs []Outgoing) error {
	futs := make([]jetstream.PubAckFuture, 0, publishWindow)
	settle := func() error {
		defer func() { futs = futs[:0] }()
		for _, f := range futs {
			select {
			case <-f.Ok():
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
			return fmt.Errorf("publishing job %s: %w", j.ID, err)
		}
		if futs = append(futs, f); len(futs) == publishWindow {
			if err := settle(); err != nil {
				return err
			}
		}
	}
	return settle()
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

// PublishResult publishes a job's result under the job's id; dup reports that a result with
// that id was already in the stream (a late result of a redelivered job).
func (q *Queue) PublishResult(ctx context.Context, key, id string, data []byte) (dup bool, err error) {
	ack, err := q.js.Publish(ctx, resultsPrefix+key, data, jetstream.WithMsgID(id))
	if err != nil {
		return false, err
	}
	return ack.Duplicate, nil
}

// Incoming is a result or an exhausted job for a coordinator; Ack it once handled.
type Incoming struct {
	// Result is a result's data; nil for an exhausted job.
	Result []byte
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
		Durable: "results-" + key, FilterSubject: resultsPrefix + key, AckPolicy: jetstream.AckExplicitPolicy,
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
			select {
			case ch <- Incoming{Result: m.Data(), msg: m}:
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
