package queue

import (
	"fmt"
	"os"
	"strings"

	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nkeys"
)

// inboxPrefix is where a worker's replies come (JetStream's answers, its pulled jobs, its
// object store chunks): its own, so it subscribes to nothing anyone else receives.
func inboxPrefix(worker string) string { return "_INBOX.w." + worker }

// WorkerPermissions are all a worker may do: pull jobs from the shared consumer and ack,
// nak or extend its deliveries; read the bot files' object store; publish results under its
// own name; receive on its own inbox. Everything else (publishing jobs or advisories, any
// JetStream administration: creating, deleting or purging streams, consumers or objects,
// reading a stream's messages directly, subscribing to jobs or to other workers' results) is
// refused by the server.
func WorkerPermissions(worker string) *server.Permissions {
	files := "OBJ_" + FilesBucket
	return &server.Permissions{
		Publish: &server.SubjectPermission{Allow: []string{
			"$JS.API.STREAM.INFO." + JobsStream,
			"$JS.API.CONSUMER.INFO." + JobsStream + "." + WorkersConsumer,
			"$JS.API.CONSUMER.MSG.NEXT." + JobsStream + "." + WorkersConsumer,
			"$JS.ACK." + JobsStream + "." + WorkersConsumer + ".>",
			// The object store: its info, its objects' metadata, and the ordered consumer a
			// read makes (read-only by nature; it ends when the reader stops).
			"$JS.API.STREAM.INFO." + files,
			"$JS.API.STREAM.MSG.GET." + files,
			"$JS.API.DIRECT.GET." + files + ".>",
			"$JS.API.CONSUMER.CREATE." + files,
			"$JS.API.CONSUMER.CREATE." + files + ".>",
			"$JS.FC." + files + ".>",
			resultsPrefix + "*." + worker + ".*",
		}},
		Subscribe: &server.SubjectPermission{Allow: []string{inboxPrefix(worker) + ".>"}},
	}
}

// workerOptions connect as the worker a credential names: its nkey signs the server's
// challenge (the seed never leaves the process) and its replies come to its own inbox.
func workerOptions(s WorkerSecret) ([]nats.Option, error) {
	kp, err := nkeys.FromSeed([]byte(s.Seed))
	if err != nil {
		return nil, err
	}
	pub, err := kp.PublicKey()
	if err != nil {
		return nil, err
	}
	return []nats.Option{nats.Nkey(pub, kp.Sign), nats.CustomInboxPrefix(inboxPrefix(s.Worker)), nats.ErrorHandler(quietDeletes)}, nil
}

// quietDeletes reports a worker connection's asynchronous errors as NATS's default does,
// except the refusal to delete the object store reader's consumer when a read ends (a worker
// may not delete consumers; the server removes an idle one itself): it would fill the log.
func quietDeletes(_ *nats.Conn, _ *nats.Subscription, err error) {
	if strings.Contains(err.Error(), "$JS.API.CONSUMER.DELETE.OBJ_"+FilesBucket+".") {
		return
	}
	fmt.Fprintf(os.Stderr, "nats: %v\n", err)
}
