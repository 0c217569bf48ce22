package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"time"

	"github.com/mattn/go-isatty"
	"github.com/schollz/progressbar/v3"
	"github.com/spf13/cobra"

	"github.com/botarena/arena/arena/botspec"
	"github.com/botarena/arena/arena/game"
	"github.com/botarena/arena/arena/match"
	"github.com/botarena/arena/arena/store"
	"github.com/botarena/arena/arena/tournament"
)

func init() { extraCommands = append(extraCommands, newTournament) }

func newTournament() *cobra.Command {
	var (
		storePath, name, resume, csvPath, jsonPath string
		seed                                       uint64
		reps, jobs, table                          int
		deadline, startTimeout                     time.Duration
		fresh, plain, measure                      bool
	)
	cmd := &cobra.Command{
		Use:   "tournament <game> BOT... | --resume NAME",
		Short: "Run a tournament (round robin, auction tables or the realtv contest) into a durable store",
		Long: "Run a tournament and keep every match in an SQLite store (default ./arena.db).\n\n" +
			"Two-player games are a round robin with seats swapped; multi-player games are played in\n" +
			"tables of --table bots (default: all at one table), dealt afresh each repetition.\n" +
			"A BOT is a .py file, a Go package directory, an executable, a folder with bot.json\n" +
			"({\"name\",\"author\",\"language\",\"command\"}), or a folder of such submissions.\n\n" +
			"Kill it at any time (Ctrl-C, kill -9) and continue with --resume NAME: finished matches are\n" +
			"never played again and never lost.",
		Example: "  arena tournament dynamite bots/dynamite/cmd/* examples/python/dynamite/bot.py --reps 2\n" +
			"  arena tournament auction submissions/ --table 4 --reps 10 --name spring\n" +
			"  arena tournament --resume spring --store arena.db",
	}
	params := paramFlags(cmd)
	f := cmd.Flags()
	f.StringVar(&storePath, "store", "arena.db", "SQLite store file")
	f.StringVar(&name, "name", "", "tournament name (default: <game>-<date>-<time>)")
	f.StringVar(&resume, "resume", "", "resume the tournament with this name or id from --store")
	rangeVar(f, &seed, "seed", 0, 0, math.MaxUint64, "tournament seed; every match seed derives from it (0: random, printed)")
	rangeVar(f, &reps, "reps", 1, 1, tournament.MaxMatches, "repetitions of the whole schedule")
	rangeVar(f, &jobs, "jobs", runtime.NumCPU(), 0, maxJobs(), "matches played at once (with a queue: by this process's own workers; 0 leaves every match to arena worker)")
	rangeVar(f, &table, "table", 0, 0, 100_000, "bots per table in multi-player games (0: all bots at one table)")
	var startDeadline, endDeadline time.Duration
	timeFlags(f, &deadline, &startTimeout, &startDeadline, &endDeadline)
	clock := clockFlags(f)
	f.BoolVar(&fresh, "fresh", false, "start fresh bot processes for every match instead of reusing each worker's processes")
	f.BoolVar(&plain, "plain", false, "plain progress lines even on a terminal")
	f.BoolVar(&measure, "measure-moves", false, "measure each bot's CPU time and memory around every move (into timings and replays)")
	f.StringVar(&csvPath, "csv", "", "write standings to FILE and match results to FILE-matches (CSV)")
	f.StringVar(&jsonPath, "json", "", "write standings and match results to FILE (JSON)")
	applyLimits := sandboxFlags(cmd)
	resolver := buildFlags(cmd)
	openQueue := queueFlags(cmd, true)
	cmd.RunE = func(cmd *cobra.Command, args []string) error {
		ctx := cmd.Context()
		out := cmd.OutOrStdout()
		queued := f.Changed("queue") || f.Changed("nats") || f.Changed("nats-listen")
		if jobs == 0 && !queued {
			return fmt.Errorf("%w: --jobs 0 plays nothing here; it is for a coordinator whose matches arena worker plays (--nats or --nats-listen)", ErrUsage)
		}
		// Check the command line before touching the store, so a typo leaves no trace there.
		if resume == "" && len(args) >= 2 {
			spec, err := game.Lookup(args[0])
			if err != nil {
				return fmt.Errorf("%w: %v", ErrUsage, err)
			}
			entries, _, err := tournament.FromArgs(args[1:])
			if err != nil {
				return err
			}
			// Game parameters, player counts and the schedule's size (from the counts alone),
			// before the schedule is built or the store is touched.
			ps, err := params()
			if err != nil {
				return err
			}
			if err := tournament.Check(spec, tournament.Config{Params: ps, Reps: reps, Table: table, Entries: entries}); err != nil {
				return fmt.Errorf("%w: %v", ErrUsage, err)
			}
			var errs []error
			for _, e := range entries {
				if _, err := botspec.Parse(e.Spec); err != nil {
					errs = append(errs, fmt.Errorf("bot %s: %w", e.Name, err))
				}
			}
			if err := errors.Join(errs...); err != nil {
				return err
			}
		}
		if dir := filepath.Dir(storePath); !isDir(dir) {
			return fmt.Errorf("%w: the store's directory %s does not exist: create it or give another --store", ErrUsage, dir)
		}
		release, err := lockStore(storePath)
		if err != nil {
			return err
		}
		defer release()
		st, err := store.Open(storePath)
		if err != nil {
			return err
		}
		defer st.Close()
		// Without --nats or --nats-listen no other worker can reach the queue: this process
		// plays every match itself.
		alone := f.Lookup("nats").Value.String() == "" && f.Lookup("nats-listen").Value.String() == ""
		var id int64
		if resume != "" {
			if len(args) > 0 {
				return fmt.Errorf("%w: --resume takes the game and bots from the store; give no arguments", ErrUsage)
			}
			t, err := st.FindTournament(ctx, resume)
			if err != nil {
				return err
			}
			id = t.ID
			tcfg, err := tournament.LoadConfig(t)
			if err != nil {
				return err
			}
			// The stored clock holds for the rest of the tournament: its matches stay comparable.
			if ok, why := cpuClock(); tcfg.ClockMode() == match.ClockCPU && !ok && alone {
				return fmt.Errorf("%w: tournament %s is played on the CPU clock, which this machine cannot give (%s); resume it where cgroups count a bot's CPU time ('arena sandbox check')",
					ErrNoCPUClock, t.Name, why)
			}
			fmt.Fprintf(out, "resuming %s (id %d, %s, %s clock) from %s\n", t.Name, t.ID, t.Game, tcfg.ClockMode(), storePath)
		} else {
			if len(args) < 2 {
				return fmt.Errorf("%w: give a game and at least one bot (or a folder of bots), or --resume NAME", ErrUsage)
			}
			spec, err := game.Lookup(args[0])
			if err != nil {
				return fmt.Errorf("%w: %v", ErrUsage, err)
			}
			entries, skipped, err := tournament.FromArgs(args[1:])
			if err != nil {
				return err
			}
			for _, s := range skipped {
				fmt.Fprintf(cmd.ErrOrStderr(), "skipped %s\n", s)
			}
			if seed == 0 {
				seed = uint64(time.Now().UnixNano()) >> 1
			}
			if name == "" {
				name = fmt.Sprintf("%s-%s", spec.Name, time.Now().Format("20060102-150405"))
			}
			ps, err := params()
			if err != nil {
				return err
			}
			clk, err := clock(cmd.ErrOrStderr(), alone)
			if err != nil {
				return err
			}
			cfg := tournament.Config{Game: spec.Name, Params: ps, Seed: seed, Reps: reps, Table: table,
				Deadline: deadline, StartTimeout: startTimeout, StartDeadline: startDeadline, EndDeadline: endDeadline, Entries: entries,
				Clock: string(clk.Mode), WallFactor: clk.WallFactor, Bank: clk.Bank}
			id, err = tournament.Create(ctx, st, name, cfg)
			if err != nil {
				return err
			}
			fmt.Fprintf(out, "tournament %s (id %d): %s, %d bots, seed %d, %s clock, store %s\n", name, id, spec.Name, len(entries), seed, clk.Mode, storePath)
		}
		q, closeQueue, err := openQueue(ctx, storePath, out)
		if err != nil {
			return err
		}
		defer closeQueue()
		prog := newProgress(out, cmd.ErrOrStderr(), plain)
		topt := tournament.Options{Jobs: jobs, OnEvent: prog.event, Fresh: fresh, MeasureMoves: measure, Queue: q}
		// A bot this machine cannot build is then charged at once, as in a direct run.
		topt.Alone = alone
		applyLimits(&topt.Host)
		topt.Resolver = resolver(topt.Host.Strict)
		sum, runErr := tournament.Run(ctx, st, id, topt)
		prog.finish()
		if sum.Played > 0 {
			fmt.Fprintf(out, "played %d matches in %v (%.2f matches/s, %d jobs)\n", sum.Played, sum.Elapsed.Round(time.Millisecond),
				float64(sum.Played)/sum.Elapsed.Seconds(), jobs)
		}
		bg := context.WithoutCancel(ctx)
		standings, err := tournament.Compute(bg, st, id)
		if err != nil {
			return errors.Join(runErr, err)
		}
		fmt.Fprintln(out)
		if err := standings.WriteTable(out); err != nil {
			return err
		}
		if err := export(out, standings, csvPath, jsonPath); err != nil {
			return errors.Join(runErr, err)
		}
		return runErr
	}
	return cmd
}

func export(out io.Writer, s *tournament.Standings, csvPath, jsonPath string) error {
	if csvPath != "" {
		mp, err := s.WriteCSV(csvPath)
		if err != nil {
			return err
		}
		fmt.Fprintf(out, "standings written to %s, match results to %s\n", csvPath, mp)
	}
	if jsonPath != "" {
		if err := s.WriteJSON(jsonPath); err != nil {
			return err
		}
		fmt.Fprintf(out, "standings and match results written to %s\n", jsonPath)
	}
	return nil
}

// progress shows a live bar on a terminal and one line per finished match otherwise.
type progress struct {
	mu      sync.Mutex
	out     io.Writer
	bar     *progressbar.ProgressBar
	start   time.Time
	resumed int
	played  int
}

func newProgress(out, errw io.Writer, plain bool) *progress {
	p := &progress{out: out, start: time.Now(), resumed: -1}
	if f, ok := errw.(*os.File); ok && !plain && isatty.IsTerminal(f.Fd()) {
		p.bar = progressbar.NewOptions(-1, progressbar.OptionSetWriter(f), progressbar.OptionShowCount(),
			progressbar.OptionSetPredictTime(false), progressbar.OptionThrottle(100*time.Millisecond),
			progressbar.OptionSetDescription("matches"), progressbar.OptionFullWidth(), progressbar.OptionClearOnFinish())
	}
	return p
}

func (p *progress) event(e tournament.Event) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if e.Kind == tournament.BotCharged {
		// Once per bot: the real cause, and its fix (the whole text is in each match's fault).
		why := strings.Split(e.Summary, "\n")
		if len(why) > 12 {
			why = append(why[:12], fmt.Sprintf("... (arena show --bot %s --faults)", e.Bot))
		}
		if p.bar != nil {
			_ = p.bar.Clear()
		}
		fmt.Fprintf(p.out, "bot %s forfeits each of its matches (charged as a crash at its start): %s\n", e.Bot, strings.Join(why, "\n  "))
		return
	}
	if p.resumed < 0 {
		p.resumed = e.Resumed
		p.start = time.Now() // the rate counts matches, not the time spent building bots
		if p.bar != nil {
			p.bar.ChangeMax(e.Total)
			_ = p.bar.Set(e.Done)
		}
	}
	if e.Kind == tournament.MatchDone {
		p.played++
	}
	el := time.Since(p.start)
	rate := float64(p.played) / el.Seconds()
	eta := "?"
	if rate > 0 {
		eta = time.Duration(float64(e.Total-e.Done) / rate * float64(time.Second)).Round(time.Second).String()
	}
	status := fmt.Sprintf("done %d/%d, running %d, failed %d, %.2f/s, ETA %s", e.Done, e.Total, e.Running, e.Failed, rate, eta)
	if p.bar != nil {
		p.bar.Describe(status)
		_ = p.bar.Set(e.Done)
		return
	}
	switch e.Kind {
	case tournament.MatchDone:
		fmt.Fprintf(p.out, "[%s] %s: %s\n", status, e.Match.MatchID, e.Summary)
	case tournament.MatchFailed:
		fmt.Fprintf(p.out, "[%s] %s FAILED: %v\n", status, e.Match.MatchID, e.Err)
	case tournament.MatchNote:
		fmt.Fprintf(p.out, "[%s] match %d: %s\n", status, e.Match.Idx, e.Summary)
	}
}

func (p *progress) finish() {
	if p.bar != nil {
		_ = p.bar.Finish()
		fmt.Fprintln(p.out)
	}
}

func isDir(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.IsDir()
}
