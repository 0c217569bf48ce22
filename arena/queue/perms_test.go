package queue

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/botarena/arena/internal/slack"
)

// coordinator starts an embedded server, opens the queue as its coordinator and registers
// a worker, whose connection (in-process, with exactly its rights) it returns too.
func coordinator(t *testing.T, cfg Config) (*Embedded, *Queue, *nats.Conn, []byte) {
	t.Helper()
	emb, err := StartEmbedded(t.TempDir(), "")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(emb.Shutdown)
	nc, err := emb.Connect("coordinator")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(nc.Close)
	ctx, cancel := context.WithTimeout(context.Background(), slack.Of(t, 20*time.Second))
	defer cancel()
	q, err := Open(ctx, nc, cfg)
	if err != nil {
		t.Fatal(err)
	}
	secret, err := emb.Registry().Add("honest")
	if err != nil {
		t.Fatal(err)
	}
	if err := emb.Reload(); err != nil {
		t.Fatal(err)
	}
	wc, err := emb.ConnectWorker(secret)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(wc.Close)
	return emb, q, wc, secret
}

// TestWorkerPermissions: a worker's credential lets it do a worker's work (find the queue,
// pull a job, extend and ack it, fetch bot files, publish a result under its own name) and
// nothing else: publishing jobs, advisories or results in another worker's name, deleting
// or purging streams, objects and consumers, creating streams, reading jobs directly and
// subscribing to jobs or results are refused by the real server, and the state it guards is
// unchanged after each attempt.
func TestWorkerPermissions(t *testing.T) {
	t.Parallel()
	_, q, wc, _ := coordinator(t, Config{})
	ctx, cancel := context.WithTimeout(context.Background(), slack.Of(t, 3*time.Minute))
	defer cancel()
	src := t.TempDir()
	os.WriteFile(filepath.Join(src, "bot.py"), []byte("print('hi')\n"), 0o644)
	hash := strings.Repeat("ab", 32)
	if err := q.PutFiles(ctx, hash, src); err != nil {
		t.Fatal(err)
	}
	seq, err := q.PublishJob(ctx, "k", "k-0-0", []byte(`{"job":0}`))
	if err != nil {
		t.Fatal(err)
	}
	ib, err := q.Listen(ctx, "k")
	if err != nil {
		t.Fatal(err)
	}
	defer ib.Close()

	// What a worker does.
	w, err := Join(ctx, wc, "honest")
	if err != nil {
		t.Fatalf("the worker cannot find the queue: %v", err)
	}
	d, err := w.Next(ctx, 10*time.Second)
	if err != nil || d == nil || string(d.Data()) != `{"job":0}` {
		t.Fatalf("the worker cannot pull its job: %v %v", d, err)
	}
	if err := d.Heartbeat(); err != nil {
		t.Fatal(err)
	}
	if err := w.GetFiles(ctx, hash, filepath.Join(t.TempDir(), "bot")); err != nil {
		t.Fatalf("the worker cannot fetch bot files: %v", err)
	}
	if _, err := w.PublishResult(ctx, "k", 0, "k-0-0", []byte("result")); err != nil {
		t.Fatalf("the worker cannot publish its result: %v", err)
	}
	if err := d.Done(ctx); err != nil {
		t.Fatalf("the worker cannot ack its job: %v", err)
	}
	select {
	case in := <-ib.C:
		if in.Worker != "honest" || in.Idx != 0 || string(in.Result) != "result" {
			t.Fatalf("the coordinator got %q from %q for match %d", in.Result, in.Worker, in.Idx)
		}
		in.Ack()
	case <-ctx.Done():
		t.Fatal("the worker's result never came")
	}
	if waiting, err := q.JobWaiting(ctx, seq); err != nil || waiting {
		t.Fatalf("the acked job is still waiting (%v)", err)
	}

	// What it may not do.
	js, err := jetstream.New(wc)
	if err != nil {
		t.Fatal(err)
	}
	short := func() (context.Context, context.CancelFunc) { return context.WithTimeout(ctx, time.Second) }
	jobsBefore, _ := q.Pending(ctx)
	refused := map[string]func(context.Context) error{
		"publish a job": func(c context.Context) error {
			_, err := js.Publish(c, jobsPrefix+"k", []byte(`{"limits":{"MemoryBytes":3221225472}}`))
			return err
		},
		"publish a max-deliveries advisory": func(c context.Context) error {
			_, err := js.Publish(c, exhaustedSubject, []byte(`{"stream_seq":1,"deliveries":5}`))
			return err
		},
		"publish a result in another worker's name": func(c context.Context) error {
			_, err := js.Publish(c, resultsPrefix+"k.other.0", []byte("forged"))
			return err
		},
		"delete the jobs stream":    func(c context.Context) error { return js.DeleteStream(c, JobsStream) },
		"delete the results stream": func(c context.Context) error { return js.DeleteStream(c, ResultsStream) },
		"delete the files bucket":   func(c context.Context) error { return js.DeleteObjectStore(c, FilesBucket) },
		"purge the jobs stream": func(c context.Context) error {
			s, err := js.Stream(c, JobsStream)
			if err != nil {
				return err
			}
			return s.Purge(c)
		},
		"delete the workers consumer": func(c context.Context) error { return js.DeleteConsumer(c, JobsStream, WorkersConsumer) },
		"create a stream": func(c context.Context) error {
			_, err := js.CreateStream(c, jetstream.StreamConfig{Name: "MINE", Subjects: []string{"mine.>"}})
			return err
		},
		"delete a bot's files": func(c context.Context) error {
			obs, err := js.ObjectStore(c, FilesBucket)
			if err != nil {
				return err
			}
			return obs.Delete(c, hash)
		},
		"replace a bot's files": func(c context.Context) error {
			obs, err := js.ObjectStore(c, FilesBucket)
			if err != nil {
				return err
			}
			_, err = obs.Put(c, jetstream.ObjectMeta{Name: hash}, bytes.NewReader([]byte("evil")))
			return err
		},
		"read a job directly": func(c context.Context) error {
			_, err := wc.RequestWithContext(c, "$JS.API.STREAM.MSG.GET."+JobsStream, []byte(`{"seq":1}`))
			return err
		},
	}
	for what, f := range refused {
		c, stop := short()
		err := f(c)
		stop()
		if err == nil {
			t.Errorf("a worker could %s", what)
		} else {
			t.Logf("%s %s: refused (%v)", time.Now().Format("15:04:05.000"), what, err)
		}
	}
	// Nothing it tried changed anything.
	for _, name := range []string{JobsStream, ResultsStream, ExhaustedStream, "OBJ_" + FilesBucket} {
		if _, err := q.js.Stream(ctx, name); err != nil {
			t.Errorf("stream %s: %v", name, err)
		}
	}
	if _, err := q.js.Consumer(ctx, JobsStream, WorkersConsumer); err != nil {
		t.Errorf("the workers consumer: %v", err)
	}
	if n, _ := q.Pending(ctx); n != jobsBefore {
		t.Errorf("%d jobs, were %d", n, jobsBefore)
	}
	if info, err := q.files.GetInfo(ctx, hash); err != nil || info.Size == 4 {
		t.Errorf("the bot's files: %+v %v", info, err)
	}
	if s, _ := q.js.Stream(ctx, ExhaustedStream); s != nil {
		if info, _ := s.Info(ctx); info != nil && info.State.Msgs != 0 {
			t.Errorf("%d advisories in the exhausted stream", info.State.Msgs)
		}
	}
	select {
	case in := <-ib.C:
		t.Errorf("the coordinator got a result from %q: %q", in.Worker, in.Result)
	case <-time.After(300 * time.Millisecond):
	}

	// It sees no job but those it pulls, and no other worker's result.
	for _, subj := range []string{jobsPrefix + ">", resultsPrefix + ">", "_INBOX.>", "$JS.EVENT.>"} {
		got := make(chan *nats.Msg, 8)
		errs := make(chan error, 1)
		wc.SetErrorHandler(func(_ *nats.Conn, _ *nats.Subscription, err error) {
			select {
			case errs <- err:
			default:
			}
		})
		t.Logf("%s subscribe %s", time.Now().Format("15:04:05.000"), subj)
		sub, err := wc.ChanSubscribe(subj, got)
		if err == nil {
			_ = wc.Flush()
		}
		if _, err := q.PublishJob(ctx, "k", "k-9-"+subj, []byte(`{"job":9}`)); err != nil {
			t.Fatal(err)
		}
		if _, err := q.PublishResult(ctx, "k", 9, "k-9-"+subj, []byte("another's result")); err != nil {
			t.Fatal(err)
		}
		select {
		case m := <-got:
			t.Errorf("subscribed to %s, the worker got %s: %q", subj, m.Subject, m.Data)
		case err := <-errs:
			if !errors.Is(err, nats.ErrPermissionViolation) && !strings.Contains(strings.ToLower(err.Error()), "permissions violation") {
				t.Errorf("subscribing to %s: %v", subj, err)
			}
		case <-time.After(slack.Of(t, 2*time.Second)):
			t.Errorf("subscribing to %s: no permission error", subj)
		}
		if sub != nil {
			sub.Unsubscribe()
		}
		select {
		case in := <-ib.C:
			in.Ack()
		case <-ctx.Done():
		}
	}
}

// TestMissingStreamsRecreated: what goes missing (deleted through a NATS server of the
// operator's own that allows it) is made again by the coordinator, with its limits.
func TestMissingStreamsRecreated(t *testing.T) {
	t.Parallel()
	_, q, _, _ := coordinator(t, Config{ResultBytes: 64 << 20})
	ctx, cancel := context.WithTimeout(context.Background(), slack.Of(t, 60*time.Second))
	defer cancel()
	for _, name := range []string{JobsStream, ResultsStream, "OBJ_" + FilesBucket} {
		if err := q.js.DeleteStream(ctx, name); err != nil {
			t.Fatal(err)
		}
	}
	for _, name := range []string{JobsStream, ResultsStream, "OBJ_" + FilesBucket} {
		for {
			s, err := q.js.Stream(ctx, name)
			if err == nil {
				if name == ResultsStream && (s.CachedInfo().Config.MaxBytes != 64<<20 || s.CachedInfo().Config.MaxMsgSize != MaxResult) {
					t.Fatalf("results stream re-created without its limits: %+v", s.CachedInfo().Config)
				}
				break
			}
			if ctx.Err() != nil {
				t.Fatalf("stream %s never re-created: %v", name, err)
			}
			time.Sleep(100 * time.Millisecond)
		}
	}
	for {
		if _, err := q.js.Consumer(ctx, JobsStream, WorkersConsumer); err == nil {
			break
		} else if ctx.Err() != nil {
			t.Fatalf("the workers consumer never re-created: %v", err)
		}
		time.Sleep(100 * time.Millisecond)
	}
}
