package server

import (
	"archive/zip"
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/botarena/arena/arena/ladder"
	"github.com/botarena/arena/arena/queue"
	"github.com/botarena/arena/arena/store"
	"github.com/botarena/arena/internal/slack"
)

// Fair and bounded for authors: what /events tells strangers, the validation limit under
// concurrent uploads, quotas, collection of files nobody plays, fair shares of the ladder, the
// organiser's pause across a restart, organiser tournaments' bound and cancel.

// TestEventsCarryNoVerdict: an anonymous listener on /events learns that a version failed,
// never why: the verdict and log quote the bot's stderr and source, which only its author
// sees (on their own pages and API calls).
func TestEventsCarryNoVerdict(t *testing.T) {
	t.Parallel()
	e := newEnv(t, envOptions{})
	resp, err := http.Get(e.ts.URL + "/events") // anonymous: no cookie, no token
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	lines := make(chan string, 256)
	go func() {
		sc := bufio.NewScanner(resp.Body)
		for sc.Scan() {
			lines <- sc.Text()
		}
		close(lines)
	}()
	ada := e.register("ada")
	v := ada.uploadAPI("dynamite", "crasher", "crasher.py", []byte(crashingBot), http.StatusAccepted)
	secrets := []string{"boom on purpose", "about to fail on purpose", "RuntimeError", "raise", "Traceback", "crasher.py", "bot.py"}
	timeout := time.After(slack.Of(t, 4*time.Minute))
	var seen []string
	for {
		select {
		case line, ok := <-lines:
			if !ok {
				t.Fatal("the event stream ended")
			}
			if !strings.HasPrefix(line, "data: ") {
				continue
			}
			seen = append(seen, line)
			mustNotContain(t, line, secrets...)
			var ev ladder.Event
			if err := json.Unmarshal([]byte(strings.TrimPrefix(line, "data: ")), &ev); err != nil {
				t.Fatalf("%v: %s", err, line)
			}
			if ev.Kind != ladder.Validated || ev.VersionID != v.ID {
				continue
			}
			if ev.Status != store.VersionFailed || ev.Summary != "" {
				t.Fatalf("validated event: %s", line)
			}
			// The author still reads the whole verdict, which holds what the event left out.
			got := ada.waitVersion(v.ID)
			mustContain(t, got.Verdict+got.LogTail, "boom on purpose", "about to fail on purpose")
			t.Logf("%d events, none with the verdict; the last: %s", len(seen), line)
			return
		case <-timeout:
			t.Fatalf("no validated event for version %d; seen: %v", v.ID, seen)
		}
	}
}

// TestConcurrentUploadsTakeTheValidationLimitAtomically: 12 uploads at once by one author
// leave at most 3 versions validating; the others are refused with 429 and store nothing.
func TestConcurrentUploadsTakeTheValidationLimitAtomically(t *testing.T) {
	t.Parallel()
	e := newEnv(t, envOptions{noLadder: true}) // nothing validates: the slots stay taken
	ada := e.register("ada")
	const n = 12
	codes := make([]int, n)
	var wg sync.WaitGroup
	start := make(chan struct{})
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			ct, body := multipartBody(map[string]string{"game": "dynamite", "name": fmt.Sprintf("b%d", i%4)}, "bot.py", exampleBot(t))
			req, _ := http.NewRequest("POST", e.ts.URL+"/api/v1/uploads", bytes.NewReader(body))
			req.Header.Set("Content-Type", ct)
			req.Header.Set("Authorization", "Bearer "+ada.token)
			<-start
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Error(err)
				return
			}
			io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
			codes[i] = resp.StatusCode
		}()
	}
	close(start)
	wg.Wait()
	accepted := 0
	for _, c := range codes {
		switch c {
		case http.StatusAccepted:
			accepted++
		case http.StatusTooManyRequests:
		default:
			t.Fatalf("an upload answered %d: %v", c, codes)
		}
	}
	u, err := e.st.UserByName(context.Background(), "ada")
	if err != nil {
		t.Fatal(err)
	}
	validating, err := e.st.Validating(context.Background(), u.ID)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%d concurrent uploads: %d accepted, %d validating, answers %v", n, accepted, validating, codes)
	if accepted < 1 || accepted > MaxValidating || validating != accepted {
		t.Fatalf("%d accepted and %d validating, want 1 to %d", accepted, validating, MaxValidating)
	}
}

// TestQuotas: an author past the versions quota or the bytes quota is refused with a message
// naming the quota and the fix, and the refused upload holds no bot name; an upload of a
// bot's next version is not held against the quota by the version it replaces.
func TestQuotas(t *testing.T) {
	t.Parallel()
	e := newEnv(t, envOptions{noLadder: true, quota: store.Quota{Versions: 2, Bytes: 200 << 10}})
	ada := e.register("ada")
	a := ada.uploadAPI("dynamite", "a", "bot.py", exampleBot(t), http.StatusAccepted)
	ada.uploadAPI("dynamite", "b", "bot.py", exampleBot(t), http.StatusAccepted)
	msg := ada.uploadAPI2("dynamite", "c", "bot.py", exampleBot(t), http.StatusForbidden)
	mustContain(t, msg, "--max-versions 2", "upload a new version of one of your bots")
	var me struct{ Bots []store.WebBot }
	ada.apiJSON("GET", "/api/v1/me", nil, http.StatusOK, &me)
	for _, b := range me.Bots {
		if b.Name == "c" {
			t.Fatal("a refused upload holds the bot name c")
		}
	}
	// a's version passes; its next version replaces it, so it fits the quota.
	if err := e.st.SetVerdict(context.Background(), a.ID, store.VersionOK, "passed", "", ""); err != nil {
		t.Fatal(err)
	}
	ada.uploadAPI("dynamite", "a", "bot.py", exampleBot(t), http.StatusAccepted)

	// Bytes: 150 KiB fits in 200 KiB once, not twice.
	big := e.register("big")
	data := zipOf(t, map[string]string{"bot.py": string(exampleBot(t)), "book.txt": strings.Repeat("x", 150<<10)})
	v := big.uploadAPI("dynamite", "one", "one.zip", data, http.StatusAccepted)
	if v.Bytes < 150<<10 {
		t.Fatalf("version's bytes %d, want its unpacked size", v.Bytes)
	}
	msg = big.uploadAPI2("dynamite", "two", "two.zip", data, http.StatusForbidden)
	mustContain(t, msg, "quota: 0.2 MiB, --max-stored", "leave out data")
	t.Logf("refusals: %s", msg)
}

// TestMalformedArchiveIs400: an archive the unpacker cannot lay out (a file and a folder of
// one name) is the author's error, 400 with what is wrong, not 413 "too big".
func TestMalformedArchiveIs400(t *testing.T) {
	t.Parallel()
	e := newEnv(t, envOptions{noLadder: true})
	ada := e.register("ada")
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, name := range []string{"a", "a/bot.py"} {
		f, _ := zw.Create(name)
		f.Write([]byte("x = 1\n"))
	}
	zw.Close()
	msg := ada.uploadAPI2("dynamite", "broken", "broken.zip", buf.Bytes(), http.StatusBadRequest)
	mustContain(t, msg, "a file and a folder of one name", "a/bot.py")
	mustNotContain(t, msg, "too big", "/run/unpack")
}

// TestCollection: a failed version's files and a replaced passing version's files leave the
// data folder and the NATS object store; the passing version that replaced it keeps its own.
func TestCollection(t *testing.T) {
	t.Parallel()
	e := newEnv(t, envOptions{})
	ctx := context.Background()
	ada := e.register("ada")
	bad := ada.uploadAPI("dynamite", "crasher", "crasher.py", []byte(crashingBot), http.StatusAccepted)
	v1 := ada.uploadAPI("dynamite", "freq", "bot.py", exampleBot(t), http.StatusAccepted)
	if got := ada.waitVersion(v1.ID); got.Status != store.VersionOK {
		t.Fatalf("v1: %s: %s", got.Status, got.Verdict)
	}
	v2 := ada.uploadAPI("dynamite", "freq", "bot.py", append(exampleBot(t), "\n# the next version\n"...), http.StatusAccepted)
	if got := ada.waitVersion(v2.ID); got.Status != store.VersionOK {
		t.Fatalf("v2: %s: %s", got.Status, got.Verdict)
	}
	if got := ada.waitVersion(bad.ID); got.Status != store.VersionFailed {
		t.Fatalf("crasher: %s", got.Status)
	}
	dir := func(id int64) string { return filepath.Join(e.srv.opt.DataDir, "versions", strconv.FormatInt(id, 10)) }
	collected := func(id int64) store.Version {
		deadline := time.Now().Add(slack.Of(t, 2*time.Minute))
		for {
			v, err := e.st.VersionByID(ctx, id)
			if err != nil {
				t.Fatal(err)
			}
			if !v.Collected.IsZero() {
				return v
			}
			if time.Now().After(deadline) {
				t.Fatalf("version %d (%s) not collected after 2 minutes", id, v.Status)
			}
			time.Sleep(100 * time.Millisecond)
		}
	}
	for _, id := range []int64{bad.ID, v1.ID} {
		v := collected(id)
		if _, err := os.Stat(dir(id)); !os.IsNotExist(err) {
			t.Fatalf("version %d collected but its folder is there (%v)", id, err)
		}
		if v.Hash == "" || e.lad.Queue.HasFiles(ctx, v.Hash) {
			t.Fatalf("version %d collected but its files (%q) are in the object store", id, v.Hash)
		}
		ada.apiJSON("GET", fmt.Sprintf("/api/v1/versions/%d/files", id), nil, http.StatusGone, nil)
	}
	cur, err := e.st.VersionByID(ctx, v2.ID)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir(v2.ID), "src", "bot.py")); err != nil || !cur.Collected.IsZero() || !e.lad.Queue.HasFiles(ctx, cur.Hash) {
		t.Fatalf("the current version lost its files: %v, collected %v, object store %v", err, cur.Collected, e.lad.Queue.HasFiles(ctx, cur.Hash))
	}
	// Its old version's record stays, for its ratings and matches.
	old, _ := e.st.VersionByID(ctx, v1.ID)
	if old.Status != store.VersionOK || old.Verdict == "" {
		t.Fatalf("the collected version's record: %+v", old)
	}
	// A ladder match of the collected version cannot be played again: refused, not queued.
	mid, err := e.st.StartLadderMatch(ctx, "dynamite", store.KindLadder, 7, []int64{v1.ID, v2.ID})
	if err != nil {
		t.Fatal(err)
	}
	e.st.FailLadderMatch(ctx, mid, "a record for this test")
	orga := e.organiser("orga")
	mustContain(t, orga.apiJSON("POST", fmt.Sprintf("/api/v1/matches/%d/replay", mid), nil, http.StatusConflict, nil), "were collected")
}

// TestFairShareUnderFlood: while one author uploads new versions of six bots without pause,
// an author with one bot still gets its share of ladder matches, and the flooder gets no more
// than its own (three authors with the house, two seats a match: 2/3 of the matches each).
func TestFairShareUnderFlood(t *testing.T) {
	t.Parallel()
	e := newEnv(t, envOptions{jobs: 2})
	ctx := context.Background()
	hon, fl := e.register("honest"), e.register("flooder")
	hv := hon.uploadAPI("dynamite", "steady", "bot.py", exampleBot(t), http.StatusAccepted)
	if got := hon.waitVersion(hv.ID); got.Status != store.VersionOK {
		t.Fatalf("honest bot: %s: %s", got.Status, got.Verdict)
	}
	first := fl.uploadAPI("dynamite", "f0", "bot.py", exampleBot(t), http.StatusAccepted)
	if got := fl.waitVersion(first.ID); got.Status != store.VersionOK {
		t.Fatalf("flooder's bot: %s: %s", got.Status, got.Verdict)
	}
	var uploads, refused atomic.Int64
	stop := make(chan struct{})
	flooded := make(chan struct{})
	go func() {
		defer close(flooded)
		for i := 1; ; i++ {
			select {
			case <-stop:
				return
			default:
			}
			ct, body := multipartBody(map[string]string{"game": "dynamite", "name": fmt.Sprintf("f%d", i%6)}, "bot.py",
				append(exampleBot(t), fmt.Sprintf("\n# version %d\n", i)...))
			req, _ := http.NewRequest("POST", e.ts.URL+"/api/v1/uploads", bytes.NewReader(body))
			req.Header.Set("Content-Type", ct)
			req.Header.Set("Authorization", "Bearer "+fl.token)
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				return
			}
			io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
			if resp.StatusCode == http.StatusAccepted {
				uploads.Add(1)
				continue
			}
			refused.Add(1)
			time.Sleep(100 * time.Millisecond) // at the validation limit: try again soon
		}
	}()
	defer func() { close(stop); <-flooded }()
	base, err := e.st.LadderMatches(ctx, store.MatchFilter{Kind: store.KindLadder, Limit: 1})
	if err != nil {
		t.Fatal(err)
	}
	var from int64
	if len(base) > 0 {
		from = base[0].ID
	}
	const want = 24
	var done []store.LadderMatch
	deadline := time.Now().Add(slack.Of(t, 10*time.Minute))
	for len(done) < want {
		if time.Now().After(deadline) {
			t.Fatalf("%d ladder matches done in 10 minutes of flooding (%d uploads)", len(done), uploads.Load())
		}
		time.Sleep(500 * time.Millisecond)
		ms, err := e.st.LadderMatches(ctx, store.MatchFilter{Kind: store.KindLadder, Status: store.LadderDone, Limit: 500})
		if err != nil {
			t.Fatal(err)
		}
		done = done[:0]
		for _, m := range ms {
			if m.ID > from {
				done = append(done, m)
			}
		}
	}
	seats := map[string]int{}
	for _, m := range done {
		for _, s := range m.Seats {
			seats[s.Author]++
		}
	}
	n := len(done)
	t.Logf("while the flooder uploaded %d versions (%d more refused at the validation limit): of %d ladder matches, honest played %d, flooder %d, house %d",
		uploads.Load(), refused.Load(), n, seats["honest"], seats["flooder"], seats["house"])
	if uploads.Load() < 6 {
		t.Fatalf("the flooder uploaded only %d versions: not a flood", uploads.Load())
	}
	// A fair share is 2n/3 each; the slack is for where the window of n matches starts.
	if seats["honest"] < n/2 {
		t.Fatalf("the honest author played %d of %d matches while another flooded", seats["honest"], n)
	}
	if seats["flooder"] > 2*n/3+n/8 {
		t.Fatalf("the flooder played %d of %d matches, more than a fair share", seats["flooder"], n)
	}
}

// TestPauseSurvivesRestart: the organiser pauses the ladder, the server process is killed
// and started again over the same store: still paused; resumed, it stays resumed.
func TestPauseSurvivesRestart(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	start := func() (string, func()) {
		t.Helper()
		cmd := exec.Command(os.Args[0], "-test.run=^$")
		cmd.Env = append(os.Environ(), serveChildEnv+"="+dir)
		out, err := cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		cmd.Stderr = os.Stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		addr, err := bufio.NewReader(out).ReadString('\n')
		if err != nil {
			cmd.Process.Kill()
			cmd.Wait()
			t.Fatalf("the server process printed no address: %v", err)
		}
		return "http://" + strings.TrimSpace(addr), func() { cmd.Process.Kill(); cmd.Wait() }
	}
	call := func(method, url, token string, body any) map[string]any {
		t.Helper()
		var rd io.Reader
		if body != nil {
			b, _ := json.Marshal(body)
			rd = bytes.NewReader(b)
		}
		req, _ := http.NewRequest(method, url, rd)
		if token != "" {
			req.Header.Set("Authorization", "Bearer "+token)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var out map[string]any
		b, _ := io.ReadAll(resp.Body)
		if resp.StatusCode >= 300 || json.Unmarshal(b, &out) != nil {
			t.Fatalf("%s %s: %s %s", method, url, resp.Status, b)
		}
		return out
	}
	url, stop := start()
	tok := call("POST", url+"/api/v1/tokens", "", map[string]string{"name": "orga", "password": "organiser password"})["token"].(string)
	call("POST", url+"/api/v1/ladder?running=false", tok, nil)
	stop() // killed: no chance to write anything on the way out
	for _, want := range []bool{false, true} {
		url, stop = start()
		got := call("GET", url+"/api/v1/ladder", "", nil)["running"]
		t.Logf("after a restart: running %v, want %v", got, want)
		if got != want {
			stop()
			t.Fatalf("after a restart the ladder's running is %v, want %v", got, want)
		}
		call("POST", url+"/api/v1/ladder?running=true", tok, nil)
		stop()
	}
}

// serveChildEnv names the store folder of a server process the test binary runs (TestMain).
const serveChildEnv = "ARENA_TEST_SERVE_CHILD"

// serveChild is a server over the store in dir, with its own embedded NATS and the ladder,
// until it is killed; it prints its address first.
func serveChild(dir string) int {
	ctx := context.Background()
	fail := func(err error) int { fmt.Fprintln(os.Stderr, "serve child:", err); return 1 }
	st, err := store.Open(filepath.Join(dir, "arena.db"))
	if err != nil {
		return fail(err)
	}
	emb, err := queue.StartEmbedded(filepath.Join(dir, "nats"), "")
	if err != nil {
		return fail(err)
	}
	nc, err := emb.Connect("serve child")
	if err != nil {
		return fail(err)
	}
	q, err := queue.Open(ctx, nc, queue.Config{})
	if err != nil {
		return fail(err)
	}
	lad := &ladder.Ladder{Store: st, Queue: q, Jobs: 1, Games: []string{"dynamite"}, Pause: 50 * time.Millisecond}
	// The organiser is made on the store, as arena user add does (once: this child restarts).
	if _, err := st.UserByName(ctx, "orga"); err != nil {
		hash, err := HashPassword("organiser password")
		if err != nil {
			return fail(err)
		}
		if _, err := st.CreateUser(ctx, "orga", hash, store.RoleOrganiser); err != nil {
			return fail(err)
		}
	}
	srv, err := New(ctx, st, lad, Options{})
	if err != nil {
		return fail(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return fail(err)
	}
	go lad.Run(ctx)
	fmt.Println(ln.Addr())
	return fail(http.Serve(ln, srv))
}

// TestOrganiserTournamentBoundAndCancel: an organiser's tournament over the bound is refused
// naming it; one within it is cancelled from the API (the page shows the button): its
// matches stop, what it played stays, its status is cancelled. Authors cannot cancel.
func TestOrganiserTournamentBoundAndCancel(t *testing.T) {
	t.Parallel()
	e := newEnv(t, envOptions{maxTourn: 10})
	ada, bob, orga := e.register("ada"), e.register("bob"), e.organiser("orga")
	// Slow bots: a tournament of them cannot end before it is cancelled.
	slow := strings.Replace(string(exampleBot(t)), "    def move(self, state: dynamite.State) -> str:\n",
		"    def move(self, state: dynamite.State) -> str:\n        import time\n        time.sleep(0.05)\n", 1)
	if slow == string(exampleBot(t)) {
		t.Fatal("the slow bot is not slow: the example bot changed")
	}
	for _, c := range []*client{ada, bob} {
		v := c.uploadAPI("dynamite", "slow-"+c.name, "bot.py", []byte(slow), http.StatusAccepted)
		if got := c.waitVersion(v.ID); got.Status != store.VersionOK {
			t.Fatalf("%s's bot: %s: %s", c.name, got.Status, got.Verdict)
		}
	}
	msg := orga.apiJSON("POST", "/api/v1/tournaments", map[string]any{"game": "dynamite", "name": "huge", "reps": 50}, http.StatusBadRequest, nil)
	mustContain(t, msg, "100 matches", "--max-tournament-matches 10", "at most 5")
	var created struct {
		ID int64 `json:"tournament_id"`
	}
	orga.apiJSON("POST", "/api/v1/tournaments", map[string]any{"game": "dynamite", "name": "cup", "reps": 4}, http.StatusCreated, &created)
	page := orga.get(fmt.Sprintf("/tournaments/%d", created.ID), http.StatusOK)
	mustContain(t, page, fmt.Sprintf(`action="/organiser/tournaments/%d/cancel"`, created.ID), "cancel this tournament")
	mustNotContain(t, ada.get(fmt.Sprintf("/tournaments/%d", created.ID), http.StatusOK), "cancel this tournament")
	ada.apiJSON("POST", fmt.Sprintf("/api/v1/tournaments/%d/cancel", created.ID), nil, http.StatusForbidden, nil)
	(&client{e: e}).apiJSON("POST", fmt.Sprintf("/api/v1/tournaments/%d/cancel", created.ID), nil, http.StatusUnauthorized, nil)
	orga.apiJSON("POST", fmt.Sprintf("/api/v1/tournaments/%d/cancel", created.ID+100), nil, http.StatusNotFound, nil)
	var res struct{ Status string }
	orga.apiJSON("POST", fmt.Sprintf("/api/v1/tournaments/%d/cancel", created.ID), nil, http.StatusOK, &res)
	if res.Status != StatusCancelled {
		t.Fatalf("cancel answered %+v", res)
	}
	var tv struct {
		Status string
		Done   int `json:"matches_done"`
		Total  int `json:"matches_total"`
	}
	orga.apiJSON("GET", fmt.Sprintf("/api/v1/tournaments/%d", created.ID), nil, http.StatusOK, &tv)
	before := tv.Done
	time.Sleep(3 * time.Second) // a running tournament would finish a slow match or two meanwhile
	orga.apiJSON("GET", fmt.Sprintf("/api/v1/tournaments/%d", created.ID), nil, http.StatusOK, &tv)
	t.Logf("cancelled: %s with %d of %d matches done", tv.Status, tv.Done, tv.Total)
	if tv.Status != StatusCancelled || tv.Total != 8 || tv.Done >= tv.Total || tv.Done != before {
		t.Fatalf("after cancel: %+v (done %d right after it)", tv, before)
	}
	// The page's button posts the form (with the session's CSRF token): a second cancel is
	// harmless and leads back to the tournament.
	req, _ := http.NewRequest("POST", fmt.Sprintf("%s/organiser/tournaments/%d/cancel", e.ts.URL, created.ID),
		strings.NewReader("csrf="+orga.csrf))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	orga.do(req, http.StatusSeeOther)
}

// zipOf zips files given by name.
func zipOf(t *testing.T, files map[string]string) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for name, body := range files {
		f, err := zw.Create(name)
		if err != nil {
			t.Fatal(err)
		}
		f.Write([]byte(body))
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}
