package cli_test

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"net"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/botarena/arena/arena/cli"
	"github.com/botarena/arena/arena/selfsigned"
	"github.com/botarena/arena/internal/slack"
)

// runIn runs the command line with stdin and returns the error and everything printed.
func runIn(t *testing.T, stdin string, args ...string) (error, string) {
	t.Helper()
	var out syncBuffer
	root := cli.NewRoot(&out, &out)
	root.SetIn(strings.NewReader(stdin))
	root.SetArgs(args)
	err := root.ExecuteContext(context.Background())
	return err, out.String()
}

// TestUsersAndTLSServe makes the organiser the one way there is (arena user add on the store,
// the password from stdin), serves HTTPS with a self-signed pair, logs in, and changes the
// role and the password while the server runs.
func TestUsersAndTLSServe(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	db := filepath.Join(dir, "a.db")
	if err, out := runIn(t, "orga password\n", "user", "add", "orga", "--organiser", "--store", db); err != nil {
		t.Fatalf("user add: %v\n%s", err, out)
	}
	pwFile := filepath.Join(dir, "pw")
	os.WriteFile(pwFile, []byte("ada password\n"), 0o600)
	if err, out := runIn(t, "", "user", "add", "ada", "--password-file", pwFile, "--store", db); err != nil {
		t.Fatalf("user add --password-file: %v\n%s", err, out)
	}
	for _, c := range []struct {
		stdin string
		args  []string
		want  string
	}{
		{"x password\n", []string{"user", "add", "0rga", "--store", db}, `looks too much like "orga"`},
		{"x password\n", []string{"user", "add", "house", "--store", db}, "arena's"},
		{"short\n", []string{"user", "add", "bob", "--store", db}, "8 to 1024"},
		{"", []string{"user", "role", "nobody", "organiser", "--store", db}, "no account"},
		{"", []string{"user", "role", "ada", "king", "--store", db}, "author or organiser"},
		{"", []string{"serve", "--organiser", "ada", "--store", db}, "arena user add NAME --organiser"},
		{"", []string{"serve", "--tls-cert", pwFile, "--store", db}, "both --tls-cert and --tls-key"},
		{"", []string{"serve", "--tls-cert", pwFile, "--tls-key", pwFile, "--store", db}, "PEM"},
		{"", []string{"serve", "--trusted-proxy", "the proxy", "--store", db}, "neither an address nor a CIDR"},
	} {
		err, out := runIn(t, c.stdin, c.args...)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v: %v\n%s", c.args, err, out)
		}
	}
	if err, out := runIn(t, "", "user", "list", "--store", db); err != nil || !regexp.MustCompile(`orga +organiser`).MatchString(out) || !regexp.MustCompile(`ada +author`).MatchString(out) {
		t.Fatalf("user list: %v\n%s", err, out)
	}

	// Secure cookies over plain HTTP: the log says what to do.
	{
		var out syncBuffer
		root := cli.NewRoot(&out, &out)
		root.SetArgs([]string{"serve", "--addr", "127.0.0.1:0", "--store", db, "--jobs", "1", "--secure-cookies", "true"})
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan error, 1)
		go func() { done <- root.ExecuteContext(ctx) }()
		for deadline := time.Now().Add(slack.Of(t, 30*time.Second)); !strings.Contains(out.String(), "http://127.0.0.1") && time.Now().Before(deadline); {
			time.Sleep(20 * time.Millisecond)
		}
		cancel()
		<-done
		if !strings.Contains(out.String(), "browsers will not keep a login") || !strings.Contains(out.String(), "--tls-cert") {
			t.Errorf("serve with Secure cookies over plain HTTP says nothing of it:\n%s", out.String())
		}
	}

	cert, key, err := selfsigned.New(selfsigned.Spec{CommonName: "127.0.0.1", IPs: []net.IP{net.IPv4(127, 0, 0, 1)}, Valid: time.Hour,
		Usages: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth}})
	if err != nil {
		t.Fatal(err)
	}
	certFile, keyFile := filepath.Join(dir, "cert.pem"), filepath.Join(dir, "key.pem")
	os.WriteFile(certFile, cert, 0o644)
	os.WriteFile(keyFile, key, 0o600)
	var out syncBuffer
	root := cli.NewRoot(&out, &out)
	root.SetArgs([]string{"serve", "--addr", "127.0.0.1:0", "--store", db, "--jobs", "1", "--tls-cert", certFile, "--tls-key", keyFile})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- root.ExecuteContext(ctx) }()
	t.Cleanup(func() {
		cancel()
		select {
		case <-done:
		case <-time.After(slack.Of(t, 30*time.Second)):
			t.Error("serve did not stop")
		}
	})
	var base string
	for deadline := time.Now().Add(slack.Of(t, 30*time.Second)); base == "" && time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		base = regexp.MustCompile(`https://127\.0\.0\.1:\d+`).FindString(out.String())
	}
	if base == "" {
		t.Fatalf("arena serve printed no https address: %s", out.String())
	}
	mustMatch := regexp.MustCompile(`organisers: orga`)
	if !mustMatch.MatchString(out.String()) {
		t.Errorf("serve's log does not name the organisers:\n%s", out.String())
	}

	pool := x509.NewCertPool()
	pool.AppendCertsFromPEM(cert)
	client := &http.Client{Timeout: time.Minute, Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: pool}},
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := client.PostForm(base+"/login", url.Values{"name": {"orga"}, "password": {"orga password"}})
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	var session *http.Cookie
	for _, c := range resp.Cookies() {
		if c.Name == "arena_session" {
			session = c
		}
	}
	if resp.StatusCode != http.StatusSeeOther || session == nil || !strings.Contains(resp.Header.Get("Set-Cookie"), "Secure") {
		t.Fatalf("login over TLS: %s, Set-Cookie %q", resp.Status, resp.Header.Get("Set-Cookie"))
	}
	organiserPage := func() int {
		req, _ := http.NewRequest("GET", base+"/organiser", nil)
		req.AddCookie(session)
		resp, err := client.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp.StatusCode
	}
	if code := organiserPage(); code != http.StatusOK {
		t.Fatalf("the organiser's page: %d", code)
	}
	// Plain HTTP to the TLS port is not served.
	if resp, err := http.Get(strings.Replace(base, "https://", "http://", 1) + "/"); err == nil {
		resp.Body.Close()
		if resp.StatusCode == http.StatusOK {
			t.Fatal("plain HTTP answered on the TLS port")
		}
	}
	// A role changed on the store holds from the next request.
	if err, out := runIn(t, "", "user", "role", "orga", "author", "--store", db); err != nil {
		t.Fatalf("user role: %v\n%s", err, out)
	}
	if code := organiserPage(); code != http.StatusForbidden {
		t.Fatalf("the organiser's page after the role was taken away: %d", code)
	}
	// A password reset ends every session.
	if err, out := runIn(t, "new orga password\n", "user", "password", "orga", "--store", db); err != nil || !strings.Contains(out, "1 sessions ended") {
		t.Fatalf("user password: %v\n%s", err, out)
	}
	if code := organiserPage(); code != http.StatusSeeOther {
		t.Fatalf("the organiser's page after a password reset: %d, want a redirect to log in", code)
	}
}
