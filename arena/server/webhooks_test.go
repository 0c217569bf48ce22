package server

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/botarena/arena/arena/ladder"
	"github.com/botarena/arena/arena/store"
	"github.com/botarena/arena/internal/slack"
)

// receiver is a local webhook endpoint that records every delivery and fails the first ones.
type receiver struct {
	*httptest.Server
	mu       sync.Mutex
	got      []hookCall
	failures int // answer 500 to this many requests first
}

type hookCall struct {
	event, delivery, signature string
	body                       []byte
}

func newReceiver(t *testing.T, failures int) *receiver {
	rc := &receiver{failures: failures}
	rc.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(io.LimitReader(r.Body, 1<<20))
		rc.mu.Lock()
		rc.got = append(rc.got, hookCall{r.Header.Get("X-Arena-Event"), r.Header.Get("X-Arena-Delivery"), r.Header.Get(SignatureHeader), b})
		fail := rc.failures > 0
		rc.failures--
		rc.mu.Unlock()
		if fail {
			http.Error(w, "not now", http.StatusInternalServerError)
		}
	}))
	t.Cleanup(rc.Close)
	return rc
}

func (rc *receiver) calls() []hookCall {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	return append([]hookCall(nil), rc.got...)
}

// waitFor polls until ok holds for the receiver's calls.
func (rc *receiver) waitFor(t *testing.T, what string, ok func([]hookCall) bool) []hookCall {
	t.Helper()
	deadline := time.Now().Add(slack.Of(t, 90*time.Second))
	for time.Now().Before(deadline) {
		if c := rc.calls(); ok(c) {
			return c
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Fatalf("webhook receiver: no %s; got %d calls", what, len(rc.calls()))
	return nil
}

func has(event string) func([]hookCall) bool {
	return func(cs []hookCall) bool {
		for _, c := range cs {
			if c.event == event {
				return true
			}
		}
		return false
	}
}

// TestWebhooksDelivered: two authors with a local receiver each upload a bot and see it
// validated and rated on the ladder (real bot processes). Every delivery is signed with its
// author's secret, a failed one is tried again (same delivery id) until it succeeds, and no
// body speaks of the other author's bot.
func TestWebhooksDelivered(t *testing.T) {
	t.Parallel()
	e := newEnv(t, envOptions{privateHooks: true, hookRetry: 20 * time.Millisecond})
	ada, bob := e.register("ada"), e.register("bob")
	ra, rb := newReceiver(t, 2), newReceiver(t, 0)
	const adaSecret = "ada's secret, long enough"
	ada.apiJSON("PUT", "/api/v1/me/webhook", map[string]string{"url": ra.URL + "/hook", "secret": adaSecret}, http.StatusOK, nil)
	var made struct{ Secret string }
	bob.apiJSON("PUT", "/api/v1/me/webhook", map[string]string{"url": rb.URL + "/hook"}, http.StatusOK, &made)
	if !strings.HasPrefix(made.Secret, "whsec_") {
		t.Fatalf("a secret made for bob: %q", made.Secret)
	}
	mustContain(t, bob.apiJSON("GET", "/api/v1/me/webhook", nil, http.StatusOK, nil), rb.URL)
	mustNotContain(t, bob.apiJSON("GET", "/api/v1/me/webhook", nil, http.StatusOK, nil), made.Secret)

	va := ada.uploadAPI("dynamite", "adabot", "bot.py", exampleBot(t), http.StatusAccepted)
	vb := bob.uploadAPI("dynamite", "bobbot", "bot.py", exampleBot(t), http.StatusAccepted)
	for _, c := range []struct {
		rc          *receiver
		secret, bot string
		other       []string
		version     int64
	}{{ra, adaSecret, "adabot", []string{"bobbot", `"bob"`}, va.ID}, {rb, made.Secret, "bobbot", []string{"adabot", `"ada"`}, vb.ID}} {
		calls := c.rc.waitFor(t, "validation.finished and rating.moved", func(cs []hookCall) bool {
			return has(EventValidationFinished)(cs) && has(EventRatingMoved)(cs)
		})
		for _, call := range calls {
			if call.signature != Sign(c.secret, call.body) {
				t.Fatalf("%s: signature %q does not sign %s", c.bot, call.signature, call.body)
			}
			mustNotContain(t, string(call.body), c.other...)
			var body map[string]any
			if err := json.Unmarshal(call.body, &body); err != nil {
				t.Fatal(err)
			}
			if body["bot"] != c.bot || body["event"] != call.event || body["delivery"] != call.delivery {
				t.Fatalf("%s got %s", c.bot, call.body)
			}
			switch call.event {
			case EventValidationFinished:
				if body["status"] != store.VersionOK || body["version_id"] != float64(c.version) {
					t.Fatalf("validation: %s", call.body)
				}
			case EventRatingMoved:
				if body["match_id"] == nil || body["mu"] == nil || body["sigma"] == nil || body["result"] == "" {
					t.Fatalf("rating: %s", call.body)
				}
			}
		}
	}
	// Ada's receiver failed twice: her first delivery came three times, with one id.
	first := ra.calls()[:3]
	if first[0].delivery != first[1].delivery || first[1].delivery != first[2].delivery {
		t.Fatalf("retries of one delivery: %q %q %q", first[0].delivery, first[1].delivery, first[2].delivery)
	}
	// No webhook, no delivery: bob removes his.
	bob.apiJSON("DELETE", "/api/v1/me/webhook", nil, http.StatusNoContent, nil)
	bob.apiJSON("GET", "/api/v1/me/webhook", nil, http.StatusNotFound, nil)
}

// TestHostileWebhookURLs: without serve --webhooks-private a webhook to loopback, private,
// link-local or other internal addresses is refused when set, and again when connecting (a
// URL stored before, or a name that resolves elsewhere later, reaches nothing); a receiver's
// endless answer is read no further than the bound.
func TestHostileWebhookURLs(t *testing.T) {
	t.Parallel()
	e := newEnv(t, envOptions{noLadder: true, hookRetry: time.Millisecond})
	ada := e.register("ada")
	for _, u := range []string{
		"http://127.0.0.1:8080/hook", "http://localhost/hook", "http://[::1]/", "http://10.1.2.3/", "http://192.168.0.1/",
		"http://169.254.169.254/latest/meta-data", "http://[::ffff:127.0.0.1]/", "http://0.0.0.0/", "http://100.64.0.1/",
		"http://[fd00::1]/", "http://2130706433/", "ftp://example.org/", "javascript:alert(1)", "http://user:pw@example.org/",
		"http:///nohost", "http://example.org/" + strings.Repeat("a", 2100), "",
	} {
		body := ada.apiJSON("PUT", "/api/v1/me/webhook", map[string]string{"url": u, "secret": "a secret of some length"}, http.StatusBadRequest, nil)
		mustContain(t, body, "webhook")
	}
	ada.apiJSON("PUT", "/api/v1/me/webhook", map[string]string{"url": "http://93.184.215.14/", "secret": "short"}, http.StatusBadRequest, nil)
	ada.apiJSON("PUT", "/api/v1/me/webhook", map[string]string{"url": "http://93.184.215.14/", "extra": "x"}, http.StatusBadRequest, nil)
	(&client{e: e}).apiJSON("PUT", "/api/v1/me/webhook", map[string]string{"url": "http://93.184.215.14/"}, http.StatusUnauthorized, nil)
	// The page refuses the same, as a page.
	mustContain(t, ada.postForm("/me/webhook", map[string][]string{"url": {"http://127.0.0.1/"}}, http.StatusBadRequest), "internal")

	// A loopback URL in the store all the same: the connection is refused, every attempt.
	rc := newReceiver(t, 0)
	ctx := context.Background()
	au, _ := e.st.UserByName(ctx, "ada")
	v := fixtureVersion(t, e, "ada", "dynamite", "hooked", map[string]string{"bot.py": "x"})
	if err := e.st.SetWebhook(ctx, au.ID, rc.URL, "a secret of some length"); err != nil {
		t.Fatal(err)
	}
	e.srv.hooks.event(ladder.Event{Kind: ladder.Validated, Game: "dynamite", VersionID: v.ID, Status: store.VersionOK})
	deadline := time.Now().Add(slack.Of(t, 10*time.Second))
	for e.srv.hooks.failed.Load() == 0 && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if e.srv.hooks.failed.Load() != 1 || len(rc.calls()) != 0 {
		t.Fatalf("a stored loopback webhook: %d failed, %d reached the receiver", e.srv.hooks.failed.Load(), len(rc.calls()))
	}
}

// TestWebhookAnswerBounded: a receiver answering without end is read to the bound and hung up on.
func TestWebhookAnswerBounded(t *testing.T) {
	t.Parallel()
	e := newEnv(t, envOptions{noLadder: true, privateHooks: true})
	e.register("ada")
	const endless = 256 << 20
	wrote := make(chan int64, 1)
	rc := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		chunk := make([]byte, 64<<10)
		var n int64
		for n < endless {
			k, err := w.Write(chunk)
			n += int64(k)
			if err != nil {
				break
			}
		}
		wrote <- n
	}))
	defer rc.Close()
	ctx := context.Background()
	au, _ := e.st.UserByName(ctx, "ada")
	v := fixtureVersion(t, e, "ada", "dynamite", "hooked", map[string]string{"bot.py": "x"})
	if err := e.srv.hooks.s.st.SetWebhook(ctx, au.ID, rc.URL, "a secret of some length"); err != nil {
		t.Fatal(err)
	}
	e.srv.hooks.event(ladder.Event{Kind: ladder.Validated, Game: "dynamite", VersionID: v.ID, Status: store.VersionOK})
	select {
	case n := <-wrote:
		if n >= endless {
			t.Fatalf("the server read the whole %d-byte answer", n)
		}
	case <-time.After(slack.Of(t, 20*time.Second)):
		t.Fatal("the delivery never ended")
	}
	deadline := time.Now().Add(slack.Of(t, 5*time.Second))
	for e.srv.hooks.sent.Load() == 0 && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if e.srv.hooks.sent.Load() != 1 {
		t.Fatalf("sent %d, failed %d", e.srv.hooks.sent.Load(), e.srv.hooks.failed.Load())
	}
}

// TestWebhookQueueBounded: while a receiver holds both delivery workers, deliveries past the
// queue's bound are dropped and counted, and queuing never waits.
func TestWebhookQueueBounded(t *testing.T) {
	t.Parallel()
	e := newEnv(t, envOptions{noLadder: true, privateHooks: true, hookQueue: 1})
	release := make(chan struct{})
	var mu sync.Mutex
	got := 0
	rc := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		<-release
		mu.Lock()
		got++
		mu.Unlock()
	}))
	defer rc.Close()
	n := e.srv.hooks
	queued := make(chan struct{})
	go func() {
		for i := range 10 {
			n.enqueue(&delivery{url: rc.URL, secret: "a secret of some length", event: EventValidationFinished, id: fmt.Sprint(i), body: []byte("{}")})
		}
		close(queued)
	}()
	// The receiver holds every delivery until the queuing is over: a queue that waited for
	// room would never get there.
	select {
	case <-queued:
	case <-time.After(slack.Of(t, 10*time.Second)):
		close(release)
		t.Fatal("queuing a delivery waited for a slow receiver")
	}
	close(release)
	deadline := time.Now().Add(slack.Of(t, 10*time.Second))
	for n.sent.Load()+n.dropped.Load() < 10 && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	// Two workers and one place in the queue: at most 3 delivered, the rest dropped.
	if d, s := n.dropped.Load(), n.sent.Load(); d < 7 || s+d != 10 {
		t.Fatalf("dropped %d, sent %d of 10 with a queue of 1", d, s)
	}
	mu.Lock()
	defer mu.Unlock()
	if int64(got) != n.sent.Load() {
		t.Fatalf("the receiver got %d, the server counts %d sent", got, n.sent.Load())
	}
}
