package server

import (
	"context"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"sort"
	"sync"
	"testing"
	"text/tabwriter"
	"time"

	"github.com/botarena/arena/arena/botspec"
	"github.com/botarena/arena/arena/store"
	"github.com/botarena/arena/arena/tournament"
)

var (
	loadRate     = flag.Int("load-rate", 200, "BenchmarkLoad: requests per second")
	loadDuration = flag.Duration("load-duration", 30*time.Second, "BenchmarkLoad: how long to load the server")
)

// BenchmarkLoad measures every page and GET API call while the ladder plays: an open-loop load
// of -load-rate requests per second for -load-duration, spread evenly over the calls, and
// prints p50, p99 and the maximum of each (target: p99 under 50 ms). Figures are printed, not
// asserted. Run it alone:
//
//	go test ./arena/server -run '^$' -bench BenchmarkLoad -benchtime 1x
func BenchmarkLoad(b *testing.B) {
	e := newEnv(b, envOptions{jobs: 1, fullGames: true})
	ada := e.register("ada")
	v := ada.uploadAPI("dynamite", "frequency", "bot.py", exampleBot(b), http.StatusAccepted)
	ada.waitVersion(v.ID)
	ada.waitMatches("dynamite", "frequency", 2)
	// A recorded tournament, as arena tournament leaves one.
	dir := b.TempDir()
	other := filepath.Join(dir, "other.py")
	os.WriteFile(other, exampleBot(b), 0o644)
	cfg := tournament.Config{Game: "dynamite", Reps: 1, Seed: 1, Entries: []tournament.Entry{
		{Name: "a", Spec: "../../examples/python/dynamite/bot.py"}, {Name: "b", Spec: other}}}
	tid, err := tournament.Create(context.Background(), e.st, "night", cfg)
	if err != nil {
		b.Fatal(err)
	}
	if _, err := tournament.Run(context.Background(), e.st, tid, tournament.Options{Jobs: 1, Resolver: &botspec.Resolver{Python: e.lad.Resolver.Python}}); err != nil {
		b.Fatal(err)
	}
	var bv BotView
	ada.apiJSON("GET", fmt.Sprintf("/api/v1/bots/%d", v.BotID), nil, http.StatusOK, &bv)
	var mid int64
	for _, m := range bv.Matches {
		if m.Status == store.LadderDone && mid == 0 {
			mid = m.ID
		}
	}
	paths := []string{
		"/", "/games/dynamite", "/games/dynamite/matches", fmt.Sprintf("/matches/%d", mid), fmt.Sprintf("/bots/%d", v.BotID),
		"/tournaments", fmt.Sprintf("/tournaments/%d", tid), fmt.Sprintf("/tournaments/%d/matches/0", tid), "/login", "/register", "/upload", "/me",
		"/static/style.css", fmt.Sprintf("/matches/%d/viewer", mid), fmt.Sprintf("/tournaments/%d/matches/0/viewer", tid),
		"/api/v1/games", "/api/v1/games/dynamite/leaderboard", "/api/v1/games/dynamite/matches", fmt.Sprintf("/api/v1/matches/%d", mid),
		fmt.Sprintf("/api/v1/matches/%d/replay", mid), fmt.Sprintf("/api/v1/matches/%d/logs", mid), fmt.Sprintf("/api/v1/bots/%d", v.BotID),
		fmt.Sprintf("/api/v1/versions/%d", v.ID), fmt.Sprintf("/api/v1/versions/%d/files", v.ID), "/api/v1/tournaments",
		fmt.Sprintf("/api/v1/tournaments/%d", tid), "/api/v1/me",
	}
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 256}, Timeout: 10 * time.Second}
	var mu sync.Mutex
	lat := map[string][]time.Duration{}
	errs := map[string]int{}
	interval := time.Second / time.Duration(*loadRate)
	b.ResetTimer()
	tick := time.NewTicker(interval)
	defer tick.Stop()
	end := time.Now().Add(*loadDuration)
	var wg sync.WaitGroup
	for i := 0; time.Now().Before(end); i++ {
		<-tick.C
		p := paths[i%len(paths)]
		wg.Add(1)
		go func() {
			defer wg.Done()
			req, _ := http.NewRequest("GET", e.ts.URL+p, nil)
			if len(p) > 4 && p[:5] == "/api/" {
				req.Header.Set("Authorization", "Bearer "+ada.token)
			} else {
				req.AddCookie(ada.cookie)
			}
			start := time.Now()
			resp, err := client.Do(req)
			if err == nil {
				_, _ = io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
			}
			d := time.Since(start)
			mu.Lock()
			defer mu.Unlock()
			if err != nil || resp.StatusCode != http.StatusOK {
				errs[p]++
				return
			}
			lat[p] = append(lat[p], d)
		}()
	}
	wg.Wait()
	b.StopTimer()
	ms, _ := e.st.LadderMatches(context.Background(), store.MatchFilter{Kind: store.KindLadder, Status: store.LadderDone, Limit: 500})
	w := tabwriter.NewWriter(os.Stdout, 0, 4, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(os.Stdout, "\n%d requests/s for %v over %d calls, ladder running (%d jobs; %d ladder matches finished by the end)\n",
		*loadRate, *loadDuration, len(paths), e.lad.Jobs, len(ms))
	fmt.Fprintln(w, "call\trequests\tp50\tp99\tmax\terrors\t")
	var all []time.Duration
	for _, p := range paths {
		ds := lat[p]
		all = append(all, ds...)
		fmt.Fprintf(w, "%s\t%d\t%s\t%s\t%s\t%d\t\n", p, len(ds), q(ds, 0.5), q(ds, 0.99), q(ds, 1), errs[p])
	}
	fmt.Fprintf(w, "all\t%d\t%s\t%s\t%s\t\t\n", len(all), q(all, 0.5), q(all, 0.99), q(all, 1))
	w.Flush()
	fmt.Println("target: p99 under 50 ms for every call")
}

func q(ds []time.Duration, f float64) string {
	if len(ds) == 0 {
		return "-"
	}
	s := append([]time.Duration(nil), ds...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	i := int(f * float64(len(s)-1))
	return fmt.Sprintf("%.2fms", float64(s[i])/1e6)
}
