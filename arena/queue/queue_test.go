package queue

import (
	"archive/tar"
	"bufio"
	"bytes"
	"context"
	"crypto/x509"
	"encoding/pem"
	"errors"
	"net"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nkeys"

	"github.com/botarena/arena/arena/submission"
	"github.com/botarena/arena/internal/slack"
)

// open starts an embedded server (no port) with its files in a test folder and opens the
// queue on it.
func open(t *testing.T, cfg Config) *Queue {
	t.Helper()
	emb, err := StartEmbedded(t.TempDir(), "")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(emb.Shutdown)
	nc, err := emb.Connect("test")
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
	return q
}

type entry struct {
	name string
	typ  byte
	mode int64
	body string
	link string
	size int64 // when not len(body)
}

func archive(t *testing.T, es ...entry) []byte {
	t.Helper()
	var b bytes.Buffer
	tw := tar.NewWriter(&b)
	for _, e := range es {
		h := &tar.Header{Name: e.name, Typeflag: e.typ, Mode: e.mode, Size: int64(len(e.body)), Linkname: e.link}
		if e.typ != tar.TypeReg {
			h.Size = 0
		}
		if err := tw.WriteHeader(h); err != nil {
			t.Fatal(err)
		}
		if _, err := tw.Write([]byte(e.body)); err != nil {
			t.Fatal(err)
		}
	}
	if err := tw.Close(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// TestUnpackRefusesHostileArchives: what comes out of the object store is a worker's way in;
// anything Pack does not write is refused and leaves nothing behind.
func TestUnpackRefusesHostileArchives(t *testing.T) {
	t.Parallel()
	outside := t.TempDir()
	lim := submission.Limits{Files: 3, Bytes: 1000}
	cases := map[string][]byte{
		"parent path":   archive(t, entry{name: "../escape", typ: tar.TypeReg, mode: 0o644, body: "x"}),
		"inner parent":  archive(t, entry{name: "a/../../escape", typ: tar.TypeReg, mode: 0o644, body: "x"}),
		"absolute path": archive(t, entry{name: filepath.Join(outside, "abs"), typ: tar.TypeReg, mode: 0o644, body: "x"}),
		"symlink":       archive(t, entry{name: "link", typ: tar.TypeSymlink, link: "/etc/passwd"}),
		"hard link":     archive(t, entry{name: "hard", typ: tar.TypeLink, link: "/etc/passwd"}),
		"device":        archive(t, entry{name: "dev", typ: tar.TypeChar}),
		"fifo":          archive(t, entry{name: "fifo", typ: tar.TypeFifo}),
		"same name twice": archive(t, entry{name: "bot.py", typ: tar.TypeReg, mode: 0o644, body: "a"},
			entry{name: "bot.py", typ: tar.TypeReg, mode: 0o644, body: "b"}),
		"too many files": archive(t, entry{name: "1", typ: tar.TypeReg, body: "1"}, entry{name: "2", typ: tar.TypeReg, body: "2"},
			entry{name: "3", typ: tar.TypeReg, body: "3"}, entry{name: "4", typ: tar.TypeReg, body: "4"}),
		"too many bytes": archive(t, entry{name: "big", typ: tar.TypeReg, body: strings.Repeat("x", 1001)}),
		// Folders count too, named or implied by a file's path, and paths nest only so deep.
		"too many folders": archive(t, entry{name: "a/", typ: tar.TypeDir}, entry{name: "b/", typ: tar.TypeDir},
			entry{name: "c/", typ: tar.TypeDir}, entry{name: "d/", typ: tar.TypeDir}),
		"folders implied by a path": archive(t, entry{name: "a/b/c/d/x", typ: tar.TypeReg, body: "x"}),
		"too deep":                  archive(t, entry{name: strings.Repeat("a/", maxDepth+1) + "x", typ: tar.TypeDir}),
		"not a tar":                 []byte(strings.Repeat("garbage", 200)),
	}
	for name, data := range cases {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			dst := filepath.Join(t.TempDir(), "bot")
			err := Unpack(bytes.NewReader(data), dst, lim)
			if !errors.Is(err, ErrBadFiles) {
				t.Fatalf("Unpack: %v, want ErrBadFiles", err)
			}
			if _, serr := os.Stat(dst); !os.IsNotExist(serr) {
				t.Fatalf("%s left behind after %v", dst, err)
			}
		})
	}
	ents, _ := os.ReadDir(outside)
	if len(ents) > 0 || fileExists(filepath.Join(filepath.Dir(outside), "escape")) {
		t.Fatalf("a hostile archive wrote outside its folder: %v", ents)
	}
}

func fileExists(p string) bool { _, err := os.Stat(p); return err == nil }

// TestFilesRoundTrip: a snapshot put into the object store comes back byte for byte, with
// its executable bits, and its snapshot hash is the same.
func TestFilesRoundTrip(t *testing.T) {
	t.Parallel()
	q := open(t, Config{})
	src := t.TempDir()
	os.MkdirAll(filepath.Join(src, "pkg"), 0o755)
	os.WriteFile(filepath.Join(src, "bot.py"), []byte("print('hi')\n"), 0o644)
	os.WriteFile(filepath.Join(src, "run"), []byte("#!/bin/sh\n"), 0o755)
	os.WriteFile(filepath.Join(src, "pkg", "helper.py"), bytes.Repeat([]byte("# filler\n"), 50_000), 0o644)
	store := t.TempDir()
	take := func(dir string) submission.Snapshot {
		s, err := submission.Take(submission.Source{Arg: dir, Root: dir}, store, submission.Limits{})
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	snap := take(src)
	ctx := context.Background()
	if err := q.PutFiles(ctx, snap.Hash, snap.Dir); err != nil {
		t.Fatal(err)
	}
	if err := q.PutFiles(ctx, snap.Hash, snap.Dir); err != nil { // already there: a no-op
		t.Fatal(err)
	}
	dst := filepath.Join(t.TempDir(), "got")
	if err := q.GetFiles(ctx, snap.Hash, dst); err != nil {
		t.Fatal(err)
	}
	if got := take(dst); got.Hash != snap.Hash || got.Files != 3 {
		t.Fatalf("fetched snapshot %s (%d files), put %s (3 files)", got.Hash, got.Files, snap.Hash)
	}
	if st, err := os.Stat(filepath.Join(dst, "run")); err != nil || st.Mode()&0o111 == 0 {
		t.Fatalf("run lost its executable bit: %v %v", st.Mode(), err)
	}
	if err := q.GetFiles(ctx, strings.Repeat("0", 64), filepath.Join(t.TempDir(), "none")); err == nil {
		t.Fatal("fetching files that were never put succeeded")
	}
}

// TestDeduplication: a job or result published twice under one id is in the stream once,
// and the second publisher of a result is told so.
func TestDeduplication(t *testing.T) {
	t.Parallel()
	q := open(t, Config{})
	ctx := context.Background()
	for range 3 {
		if _, err := q.PublishJob(ctx, "k", "k-0-0", []byte(`{}`)); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := q.PublishJob(ctx, "k", "k-1-0", []byte(`{}`)); err != nil {
		t.Fatal(err)
	}
	if n, err := q.Pending(ctx); err != nil || n != 2 {
		t.Fatalf("pending jobs %d (%v), want 2", n, err)
	}
	if dup, err := q.PublishResult(ctx, "k", 0, "k-0-0", []byte("first")); err != nil || dup {
		t.Fatalf("first result: dup %v, %v", dup, err)
	}
	if dup, err := q.PublishResult(ctx, "k", 0, "k-0-0", []byte("late")); err != nil || !dup {
		t.Fatalf("late result: dup %v, %v; want a duplicate", dup, err)
	}
	ib, err := q.Listen(ctx, "k")
	if err != nil {
		t.Fatal(err)
	}
	defer ib.Close()
	select {
	case in := <-ib.C:
		if string(in.Result) != "first" {
			t.Fatalf("got %q, want the first result", in.Result)
		}
		in.Ack()
	case <-time.After(slack.Of(t, 10*time.Second)):
		t.Fatal("no result delivered")
	}
	select {
	case in := <-ib.C:
		t.Fatalf("a second result was delivered: %q", in.Result)
	case <-time.After(300 * time.Millisecond):
	}
}

// TestExhaustedJob: a job handed out MaxDeliver times and never acked (its workers cut off)
// reaches its tournament's inbox as exhausted, and dropping it empties the queue; another
// tournament's inbox does not see it.
func TestExhaustedJob(t *testing.T) {
	t.Parallel()
	q := open(t, Config{AckWait: 200 * time.Millisecond, MaxDeliver: 2})
	ctx, cancel := context.WithTimeout(context.Background(), slack.Of(t, 30*time.Second))
	defer cancel()
	mine, err := q.Listen(ctx, "mine")
	if err != nil {
		t.Fatal(err)
	}
	defer mine.Close()
	other, err := q.Listen(ctx, "other")
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	if _, err := q.PublishJob(ctx, "mine", "mine-7-0", []byte(`job seven`)); err != nil {
		t.Fatal(err)
	}
	// A worker that takes the job and goes silent, twice; then keeps asking.
	go func() {
		for ctx.Err() == nil {
			_, _ = q.Next(ctx, 300*time.Millisecond)
		}
	}()
	select {
	case in := <-mine.C:
		if string(in.Job) != "job seven" || in.Deliveries != 2 || in.Result != nil {
			t.Fatalf("exhausted: job %q after %d deliveries", in.Job, in.Deliveries)
		}
		if err := q.DropJob(ctx, in.JobSeq); err != nil {
			t.Fatal(err)
		}
		in.Ack()
	case <-ctx.Done():
		t.Fatal("the exhausted job never reached its tournament")
	}
	if n, err := q.Pending(ctx); err != nil || n != 0 {
		t.Fatalf("%d jobs left (%v), want 0", n, err)
	}
	select {
	case in := <-other.C:
		t.Fatalf("another tournament got %q", in.Job)
	case <-time.After(300 * time.Millisecond):
	}
}

// TestListeningServerWantsAWorkerCredential: a server on an address talks TLS only, with a
// certificate of its own, and lets in only clients that trust that certificate and sign with
// a registered worker's key (its URL carries no secret); a restart keeps both, so workers
// need nothing new; a revoked worker is cut off and cannot come back.
func TestListeningServerWantsAWorkerCredential(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	emb, err := StartEmbedded(dir, "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := emb.URL()
	u, err := url.Parse(addr)
	if err != nil || u.User != nil || u.Scheme != "tls" {
		t.Fatalf("URL %q: not TLS, or it carries a secret", addr)
	}
	ca := emb.CAFile()
	if ca == "" {
		t.Fatal("no certificate for workers to trust")
	}
	cert, err := os.ReadFile(ca)
	if err != nil {
		t.Fatal(err)
	}
	// In clear, the server's first line says TLS is required (it speaks nothing else).
	raw, err := net.DialTimeout("tcp", u.Host, 5*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	raw.SetDeadline(time.Now().Add(slack.Of(t, 5*time.Second)))
	info, _ := bufio.NewReader(raw).ReadString('\n')
	raw.Close()
	if !strings.Contains(info, `"tls_required":true`) {
		t.Fatalf("the server's greeting does not require TLS: %q", info)
	}
	secret, err := emb.Registry().Add("w1")
	if err != nil {
		t.Fatal(err)
	}
	if err := emb.Reload(); err != nil { // or wait up to a second for it to see the change
		t.Fatal(err)
	}
	stranger, err := OpenRegistry(t.TempDir()).Add("w1") // a well-formed key nobody registered
	if err != nil {
		t.Fatal(err)
	}
	refused := map[string]Client{
		"trusting it, without a credential":     {URL: addr, CA: ca},
		"trusting it, with an unknown key":      {URL: addr, CA: ca, Secret: stranger},
		"with a credential, over TLS it doubts": {URL: addr, Secret: secret},
	}
	for how, c := range refused {
		opts := []nats.Option{nats.Timeout(5 * time.Second)}
		if c.CA != "" {
			opts = append(opts, nats.RootCAs(c.CA))
		}
		if c.Secret != nil {
			s, _ := ParseSecret(c.Secret)
			wo, _ := workerOptions(s)
			opts = append(opts, wo...)
		}
		if nc, err := nats.Connect(c.URL, opts...); err == nil {
			nc.Close()
			t.Fatalf("a client %s got in", how)
		} else {
			t.Logf("a client %s: %v", how, err)
		}
	}
	nc, err := Dial(Client{URL: addr, Name: "w1", CA: ca, Secret: secret})
	if err != nil {
		t.Fatalf("with the certificate and the credential: %v", err)
	}
	for i := 0; !nc.IsConnected() && i < 200; i++ {
		time.Sleep(50 * time.Millisecond)
	}
	if _, err := nc.RTT(); err != nil || !nc.TLSRequired() {
		t.Fatalf("the worker's connection: %v, TLS %v", err, nc.TLSRequired())
	}
	nc.Close()
	emb.Shutdown()
	again, err := StartEmbedded(dir, u.Host)
	if err != nil {
		t.Fatal(err)
	}
	defer again.Shutdown()
	if again.URL() != addr || ServerURL(dir) != addr {
		t.Fatalf("after a restart the URL is %q (file %q), was %q", again.URL(), ServerURL(dir), addr)
	}
	if now, _ := os.ReadFile(again.CAFile()); string(now) != string(cert) {
		t.Fatal("after a restart the certificate is another")
	}
	closed := make(chan struct{})
	nc, err = nats.Connect(addr, nats.RootCAs(ca), nats.Nkey(mustKey(t, secret)), nats.NoReconnect(), nats.ClosedHandler(func(*nats.Conn) { close(closed) }))
	if err != nil {
		t.Fatalf("the worker after the restart: %v", err)
	}
	defer nc.Close()
	// Revoked by another process's command: the server re-reads its list and cuts it off.
	if err := OpenRegistry(dir).Revoke("w1"); err != nil {
		t.Fatal(err)
	}
	select {
	case <-closed:
	case <-time.After(slack.Of(t, 20*time.Second)):
		t.Fatal("the revoked worker is still connected")
	}
	if nc, err := nats.Connect(addr, nats.RootCAs(ca), nats.Nkey(mustKey(t, secret))); err == nil {
		nc.Close()
		t.Fatal("the revoked worker connected again")
	} else if !strings.Contains(err.Error(), "Authorization") {
		t.Fatalf("the revoked worker: %v", err)
	}
}

// mustKey is a credential's public key and signer.
func mustKey(t *testing.T, secret []byte) (string, nats.SignatureHandler) {
	t.Helper()
	s, err := ParseSecret(secret)
	if err != nil {
		t.Fatal(err)
	}
	kp, err := nkeys.FromSeed([]byte(s.Seed))
	if err != nil {
		t.Fatal(err)
	}
	pub, _ := kp.PublicKey()
	return pub, kp.Sign
}

// TestListeningServerWithGivenCertificate: --nats-tls-cert/--nats-tls-key replace the
// self-signed certificate (workers then trust it their own way); one without the other is
// refused with the fix.
func TestListeningServerWithGivenCertificate(t *testing.T) {
	t.Parallel()
	mine := t.TempDir()
	cert, key := filepath.Join(mine, "c.pem"), filepath.Join(mine, "k.pem")
	if err := selfSign(cert, key, []string{"127.0.0.1"}); err != nil {
		t.Fatal(err)
	}
	if _, err := StartEmbedded(t.TempDir(), "127.0.0.1:0", WithTLS(cert, "")); err == nil || !strings.Contains(err.Error(), "give both") {
		t.Fatalf("a certificate without its key: %v", err)
	}
	emb, err := StartEmbedded(t.TempDir(), "127.0.0.1:0", WithTLS(cert, key))
	if err != nil {
		t.Fatal(err)
	}
	defer emb.Shutdown()
	if emb.CAFile() != "" {
		t.Fatalf("a given certificate, yet CAFile is %q", emb.CAFile())
	}
	secret, err := emb.Registry().Add("w1")
	if err == nil {
		err = emb.Reload()
	}
	if err != nil {
		t.Fatal(err)
	}
	nc, err := nats.Connect(emb.URL(), nats.RootCAs(cert), nats.Nkey(mustKey(t, secret)))
	if err != nil {
		t.Fatalf("trusting the given certificate: %v", err)
	}
	nc.Close()
}

// TestSelfSignedNames: --nats-tls-name adds names to the self-signed certificate; a restart
// keeps the certificate while it still names everything asked for, makes a new one when a
// name is added, and when the key file is damaged.
func TestSelfSignedNames(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	names := func() (dns []string, ips []string) {
		t.Helper()
		b, err := os.ReadFile(filepath.Join(dir, selfCert))
		if err != nil {
			t.Fatal(err)
		}
		blk, _ := pem.Decode(b)
		c, err := x509.ParseCertificate(blk.Bytes)
		if err != nil {
			t.Fatal(err)
		}
		for _, ip := range c.IPAddresses {
			ips = append(ips, ip.String())
		}
		return c.DNSNames, ips
	}
	start := func(opts ...Option) string {
		t.Helper()
		emb, err := StartEmbedded(dir, "127.0.0.1:0", opts...)
		if err != nil {
			t.Fatal(err)
		}
		emb.Shutdown()
		b, _ := os.ReadFile(filepath.Join(dir, selfCert))
		return string(b)
	}
	first := start(WithTLSNames("arena.example.org", "203.0.113.7"))
	dns, ips := names()
	if !slices.Contains(dns, "arena.example.org") || !slices.Contains(ips, "203.0.113.7") || !slices.Contains(ips, "127.0.0.1") {
		t.Fatalf("certificate names %v %v", dns, ips)
	}
	if again := start(); again != first {
		t.Fatal("a restart asking for fewer names made a new certificate")
	}
	if more := start(WithTLSNames("other.example.org")); more == first {
		t.Fatal("a new name did not make a new certificate")
	}
	if dns, _ := names(); !slices.Contains(dns, "other.example.org") {
		t.Fatalf("certificate names %v", dns)
	}
	before := start()
	if err := os.WriteFile(filepath.Join(dir, selfKey), []byte("damaged"), 0o600); err != nil {
		t.Fatal(err)
	}
	if after := start(); after == before {
		t.Fatal("a damaged key did not make a new pair")
	}
	if st, err := os.Stat(filepath.Join(dir, selfKey)); err != nil || st.Mode().Perm() != 0o600 {
		t.Fatalf("key file mode %v (%v), want 0600", st.Mode().Perm(), err)
	}
}

// TestRedact: no token of any URL of a cluster list reaches a log line.
func TestRedact(t *testing.T) {
	for _, in := range []string{"tls://secret1@h1:4222,tls://secret2@h2:4222", "nats://user:secret1@h:1", "tls://secret1@h:1, tls://secret2@h:2", "nats://secret1@%zz"} {
		got := Redact(in)
		if strings.Contains(got, "secret") {
			t.Errorf("Redact(%q) = %q", in, got)
		}
	}
	if got := Redact("nats://h:4222"); got != "nats://h:4222" {
		t.Errorf("a URL with no token changed: %q", got)
	}
}

// TestRefusedWorkerKeepsTrying: a worker refused by the server (here quarantined; in CI, added
// a moment before the server re-read its list) keeps trying, saying why once, and is in as
// soon as its credential opens the server again. nats.go gives up after the same refusal
// twice unless told not to: such a worker sat connected to nothing, forever.
func TestRefusedWorkerKeepsTrying(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	emb, err := StartEmbedded(dir, "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer emb.Shutdown()
	secret, err := emb.Registry().Add("w1")
	if err != nil {
		t.Fatal(err)
	}
	if err := emb.Quarantine("w1", "a test"); err != nil {
		t.Fatal(err)
	}
	warned := make(chan string, 16)
	nc, err := Dial(Client{URL: emb.URL(), Name: "w1", Secret: secret, CA: emb.CAFile(), Warn: func(s string) { warned <- s }})
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	select {
	case w := <-warned:
		if !strings.Contains(w, "Authorization") {
			t.Fatalf("the refused worker was told %q", w)
		}
	case <-time.After(slack.Of(t, 20*time.Second)):
		t.Fatal("the refused worker was not told why")
	}
	// Long enough for several refusals (tries 250 ms, then 500 ms apart): nats.go's own
	// policy closes the connection after the second.
	time.Sleep(1500 * time.Millisecond)
	if nc.IsClosed() {
		t.Fatal("the worker gave up after being refused")
	}
	if err := emb.Registry().Enable("w1"); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(slack.Of(t, 20*time.Second))
	for !nc.IsConnected() {
		if time.Now().After(deadline) || nc.IsClosed() {
			t.Fatalf("the worker enabled again is not in (status %v)", nc.Status())
		}
		time.Sleep(50 * time.Millisecond)
	}
}
