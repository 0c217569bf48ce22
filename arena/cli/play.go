package cli

import (
	"cmp"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/botarena/arena/arena/game"
	"github.com/botarena/arena/arena/host"
	"github.com/botarena/arena/arena/match"
	"github.com/botarena/arena/arena/matchplay"
	"github.com/botarena/arena/arena/players"
	"github.com/botarena/arena/arena/replay"
)

func newPlay() *cobra.Command {
	var (
		seed         uint64
		deadline     time.Duration
		startTimeout time.Duration
		replayPath   string
		matchID      string
		measure      bool
	)
	cmd := &cobra.Command{
		Use:   "play <game> BOT...",
		Short: "Play one match (or one realtv contest) and print the result",
		Long: "Play one match. A BOT is a .py file (optionally file.py:ClassName), a Go package directory,\n" +
			"or an executable. Run 'arena games' for the games and their parameters.",
		Example: "  arena play dynamite examples/python/dynamite/bot.py bots/dynamite/cmd/beatlast\n" +
			"  arena play finger --games 100 examples/go/finger bots/finger/cmd/random\n" +
			"  arena play --against match.json --seat 0 mybot.py      # the recorded match again, mybot live in seat 0\n" +
			"  arena play --from match.json --step 40 mybot.py bots/dynamite/cmd/beatlast",
		Args: cobra.MinimumNArgs(1),
	}
	params := paramFlags(cmd)
	applyLimits := sandboxFlags(cmd)
	resolver := buildFlags(cmd)
	rangeVar(cmd.Flags(), &seed, "seed", 0, 0, math.MaxUint64, "match seed (0: random, printed so the match can be re-run)")
	var startDeadline, endDeadline time.Duration
	timeFlags(cmd.Flags(), &deadline, &startTimeout, &startDeadline, &endDeadline)
	cmd.Flags().StringVar(&replayPath, "replay", "", "write the match record to this file (replay it with 'arena replay FILE')")
	cmd.Flags().StringVar(&matchID, "match-id", "", "match id sent to the bots (default: generated)")
	clock := clockFlags(cmd.Flags())
	cmd.Flags().BoolVar(&measure, "measure-moves", true, "measure each bot's CPU time and memory around every move (into the result and the replay)")
	launch := logsFlag(cmd)
	recorded := recordFlags(cmd)
	cmd.RunE = func(cmd *cobra.Command, args []string) error {
		if recorded.active() { // play_record.go
			clk, err := clock(cmd.ErrOrStderr(), true)
			if err != nil {
				return err
			}
			hopt := host.Options{StartTimeout: startTimeout}
			applyLimits(&hopt)
			return recorded.run(cmd, args, resolver(hopt.Strict), hopt, match.Options{Deadline: deadline, StartDeadline: startDeadline,
				EndDeadline: endDeadline, MeasureMoves: measure, Clock: clk.Mode, WallFactor: clk.WallFactor, Bank: clk.Bank}, replayPath, matchID)
		}
		spec, err := game.Lookup(args[0])
		if err != nil {
			return fmt.Errorf("%w: %v", ErrUsage, err)
		}
		bots := args[1:]
		gameParams, err := params()
		if err != nil {
			return err
		}
		if seed == 0 {
			seed = uint64(time.Now().UnixNano())
		}
		cfg := matchplay.Config(seed, gameParams, bots)
		// Check players and parameters before starting any process.
		if _, err := spec.NewEngine(cfg); err != nil {
			return fmt.Errorf("%w: %v", ErrUsage, err)
		}
		if matchID == "" {
			matchID = fmt.Sprintf("%s-%d", spec.Name, cfg.Seed)
		}
		clk, err := clock(cmd.ErrOrStderr(), true)
		if err != nil {
			return err
		}
		opt := match.Options{MatchID: matchID, Deadline: deadline, StartDeadline: startDeadline, EndDeadline: endDeadline, MeasureMoves: measure,
			Clock: clk.Mode, WallFactor: clk.WallFactor, Bank: clk.Bank}
		ctx := cmd.Context()
		out := cmd.OutOrStdout()
		fmt.Fprintf(out, "%s: %s (seed %d, %s clock)\n", spec.Name, strings.Join(bots, " vs "), cfg.Seed, clk.Mode)
		hopt := host.Options{StartTimeout: startTimeout}
		applyLimits(&hopt)
		procs, flushLogs, err := launch(ctx, resolver(hopt.Strict), bots, hopt, cmd.ErrOrStderr())
		if err != nil {
			return err
		}
		defer flushLogs()
		defer players.CloseAll(procs)
		ps := make([]match.Player, len(procs))
		for i, p := range procs {
			ps[i] = players.Process{Bot: p}
		}
		p, err := matchplay.Play(ctx, matchplay.Match{Spec: spec, Config: cfg, Players: ps, Options: opt, Unrecorded: replayPath == ""})
		if err != nil {
			return err
		}
		players.CloseAll(procs)
		printResult(out, p.Result, bots, procs)
		if p.Record != nil {
			usage := make([]map[string]any, len(procs))
			for i, b := range procs {
				u := b.Usage()
				usage[i] = map[string]any{"bot": bots[i], "exit": b.Why(), "cpu_ns": u.CPU, "peak_bytes": u.PeakBytes, "wall_ns": u.Wall}
			}
			p.Record.Extra["usage"] = usage
			if err := replay.Write(replayPath, p.Record); err != nil {
				return err
			}
			fmt.Fprintf(out, "replay written to %s\n", replayPath)
		}
		return nil
	}
	return cmd
}

func printResult(out io.Writer, res *match.Result, bots []string, procs []*host.Bot) {
	o := res.Outcome
	fmt.Fprintf(out, "\n%s\n\n", o.Summary)
	if len(o.Table) > 0 {
		w := tabwriter.NewWriter(out, 0, 4, 2, ' ', 0)
		for _, row := range o.Table {
			fmt.Fprintln(w, strings.Join(row, "\t"))
		}
		w.Flush()
	}
	printFaults(out, o.Faults, res.Seats)
	// Resource use of every bot that failed.
	failed := map[int]bool{}
	for _, f := range o.Faults {
		failed[res.Seats[f.Seat].Player] = true
	}
	for i, b := range procs {
		if !failed[i] {
			continue
		}
		u := b.Usage()
		fmt.Fprintf(out, "  %s: %s; cpu %v, peak memory %.1f MiB, ran %v\n", bots[i], b.Why(), u.CPU.Round(time.Millisecond),
			float64(u.PeakBytes)/(1<<20), u.Wall.Round(time.Millisecond))
		for s, st := range res.Stats {
			if res.Seats[s].Player != i || st.Moves == 0 {
				continue
			}
			fmt.Fprintf(out, "    seat %d: %d moves, wall mean %v, charged max %v", s, st.Moves,
				(cmp.Or(st.Wall, st.Total) / time.Duration(st.Moves)).Round(time.Microsecond), st.Max.Round(time.Microsecond))
			if st.CPU > 0 {
				fmt.Fprintf(out, ", cpu mean %v max %v, peak memory %.1f MiB", (st.CPU / time.Duration(st.Moves)).Round(time.Microsecond),
					st.MaxCPU.Round(time.Microsecond), float64(st.PeakMemory)/(1<<20))
			}
			fmt.Fprintln(out)
		}
	}
	var moves int
	var total time.Duration
	for _, s := range res.Stats {
		moves += s.Moves
		total += cmp.Or(s.Wall, s.Total)
	}
	if moves > 0 {
		fmt.Fprintf(out, "\n%d steps in %v (%d moves, mean %v of wall time per move)\n", res.Steps, res.Duration.Round(time.Millisecond),
			moves, (total / time.Duration(moves)).Round(time.Microsecond))
	}
}

// printFaults prints every fault, or, when there are many, one line per seat, kind and
// penalty with a count, the first place and the first fault's detail.
func printFaults(out io.Writer, faults []game.FaultRecord, seats []game.Seat) {
	if len(faults) == 0 {
		fmt.Fprintln(out, "\nno faults")
		return
	}
	fmt.Fprintf(out, "\nfaults (%d):\n", len(faults))
	type key struct {
		seat    int
		kind    game.FaultKind
		penalty string
	}
	type group struct {
		first game.FaultRecord
		last  string
		n     int
	}
	var order []key
	groups := map[key]*group{}
	for _, f := range faults {
		k := key{f.Seat, f.Kind, f.Penalty}
		if len(faults) <= 20 {
			k.penalty += "\x00" + strconv.Itoa(len(order))
		}
		g := groups[k]
		if g == nil {
			g = &group{first: f}
			groups[k] = g
			order = append(order, k)
		}
		g.n++
		g.last = f.Where
	}
	for _, k := range order {
		g := groups[k]
		f := g.first
		where := f.Where
		if g.n > 1 {
			where = fmt.Sprintf("%d times, from %s to %s", g.n, f.Where, g.last)
		}
		fmt.Fprintf(out, "  %s, %s: %s, %s", seats[f.Seat].Name, where, f.Kind, f.Penalty)
		if f.Detail != "" {
			fmt.Fprintf(out, "\n    %s", strings.ReplaceAll(f.Detail, "\n", "\n    "))
		}
		fmt.Fprintln(out)
	}
}
