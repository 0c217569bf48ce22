package cli

import (
	"cmp"
	"errors"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/botarena/arena/arena/botspec"
	"github.com/botarena/arena/arena/game"
	"github.com/botarena/arena/arena/host"
	"github.com/botarena/arena/arena/match"
	"github.com/botarena/arena/arena/matchplay"
	"github.com/botarena/arena/arena/players"
	"github.com/botarena/arena/arena/replay"
	"github.com/botarena/arena/arena/rerun"
)

// recordPlay is `arena play`'s way to play a recorded match again: --against RECORD (your bot
// live in its seat, every other seat from the record, until your bot answers differently) and
// --from RECORD --step N (the recorded answers up to step N, then the bots given).
type recordPlay struct {
	against, from string
	seat          string
	then          string
	step          int
}

func recordFlags(cmd *cobra.Command) *recordPlay {
	r := &recordPlay{}
	f := cmd.Flags()
	f.StringVar(&r.against, "against", "", "play the match recorded in this file (a replay) again with the one BOT given live in its seat and "+
		"every other seat answered from the record; stops where BOT answers differently and says how")
	f.StringVar(&r.seat, "seat", "", "--against: the recorded player BOT replaces, by index from 0 or by name (default: the player named like BOT)")
	f.StringVar(&r.then, "then", "", "--against: where BOT answers differently, go on with this bot playing every other seat live "+
		"(it follows the recorded match from the start, so it knows the history) instead of stopping")
	f.StringVar(&r.from, "from", "", "fork the match recorded in this file (a replay): replay its answers up to --step, then play on with the BOTs given, one per recorded player")
	rangeVar(f, &r.step, "step", 0, 0, 1<<30, "--from: the first step (from 1) the BOTs play themselves (the viewer shows the command for each step)")
	return r
}

func (r *recordPlay) active() bool { return r.against != "" || r.from != "" }

// run plays the re-run or the fork; opt carries the move limits and the clock of the command line.
func (r *recordPlay) run(cmd *cobra.Command, args []string, resolver *botspec.Resolver, hopt host.Options, opt match.Options, replayPath, matchID string) error {
	if r.against != "" && r.from != "" {
		return fmt.Errorf("%w: --against and --from are two ways to play a record: give one", ErrUsage)
	}
	fixed := []string{"seed"}
	for _, g := range game.Names() {
		s, _ := game.Lookup(g)
		for _, p := range s.Params {
			fixed = append(fixed, p.Name, ParamFlag(p.Name))
		}
	}
	for _, name := range fixed {
		if fl := cmd.Flags().Lookup(name); fl != nil && fl.Changed {
			return fmt.Errorf("%w: --%s: the record fixes the match (its seed and parameters)", ErrUsage, name)
		}
	}
	path := r.against + r.from
	rec, err := replay.Read(path)
	if err != nil {
		return err
	}
	spec, err := game.Lookup(rec.Game)
	if err != nil {
		return err
	}
	if len(args) > 0 && args[0] == rec.Game {
		args = args[1:] // the game is the record's; naming it is allowed
	}
	cfg := rec.Config
	n := len(cfg.Players)
	bots := make([]string, n) // "" = answered from the record
	plan := &rerun.Plan{Rec: rec}
	out := cmd.OutOrStdout()
	switch {
	case r.against != "":
		if len(args) != 1 {
			return fmt.Errorf("%w: --against plays one bot of yours in its recorded seat: give one BOT (got %d)", ErrUsage, len(args))
		}
		if r.step != 0 {
			return fmt.Errorf("%w: --step goes with --from", ErrUsage)
		}
		which := r.seat
		if which == "" {
			which = args[0]
		}
		p, err := rerun.PlayerByName(rec, which)
		if err != nil {
			if r.seat == "" {
				return fmt.Errorf("%w: which recorded player does %s replace? Name it with --seat: %s", ErrUsage, args[0], rerun.Players(rec))
			}
			return fmt.Errorf("%w: --seat: %v", ErrUsage, err)
		}
		plan.Live = make([]bool, n)
		plan.Live[p] = true
		bots[p] = args[0]
		if r.then != "" {
			plan.Continue = true
			for i := range bots {
				if i != p {
					bots[i] = r.then
				}
			}
		}
		fmt.Fprintf(out, "%s: match %s again (seed %d, %d steps recorded in %s)\n  %s plays live for %s; %s\n",
			rec.Game, rec.MatchID, cfg.Seed, len(rec.Steps), path, args[0], describePlayer(rec, p), othersText(r.then))
	default:
		if r.seat != "" || r.then != "" {
			return fmt.Errorf("%w: --seat and --then go with --against", ErrUsage)
		}
		if len(args) != n {
			return fmt.Errorf("%w: --from plays on with one BOT per recorded player: give %d (%s), got %d", ErrUsage, n, rerun.Players(rec), len(args))
		}
		if r.step < 1 || r.step > len(rec.Steps) {
			return fmt.Errorf("%w: --step %d: the record has steps 1 to %d", ErrUsage, r.step, len(rec.Steps))
		}
		plan.From = r.step
		copy(bots, args)
		// The forked match is the new bots' own: named as given, and each tells the engine
		// what it calls itself (the runner fills Class in), as in a match of their own.
		cfg.Players = make([]game.Player, n)
		for i, b := range args {
			cfg.Players[i] = game.Player{Name: b}
		}
		fmt.Fprintf(out, "%s: match %s (seed %d) forked at step %d of %d from %s\n  steps 1 to %d are the recorded answers; from step %d on: %s\n",
			rec.Game, rec.MatchID, cfg.Seed, r.step, len(rec.Steps), path, r.step-1, r.step, strings.Join(args, " vs "))
	}

	// Launch the live bots, one process per player that has one.
	var specs []string
	var at []int
	for i, b := range bots {
		if b != "" {
			specs = append(specs, b)
			at = append(at, i)
		}
	}
	ctx := cmd.Context()
	procs, err := players.Launch(ctx, resolver, specs, hopt)
	if err != nil {
		return err
	}
	defer players.CloseAll(procs)
	ps := make([]match.Player, n)
	for i := range ps {
		ps[i] = &rerun.Recorded{Name: cfg.Players[i].Name, Rec: rec}
	}
	for k, i := range at {
		ps[i] = players.Process{Bot: procs[k]}
	}

	if matchID == "" {
		matchID = rec.MatchID
	}
	opt.MatchID = matchID
	names := make([]string, n)
	for i := range names {
		names[i] = cmp.Or(bots[i], cfg.Players[i].Name)
	}
	p, err := matchplay.Play(ctx, matchplay.Match{Spec: plan.Spec(spec), Config: cfg, Players: ps, Options: opt, Bots: names,
		Unrecorded: replayPath == "", Wrap: func(r *replay.Recorder) match.Recorder {
			plan.Recorder = r
			return rerun.Begin{R: r}
		}})
	res := p.Result
	players.CloseAll(procs)
	var div *rerun.Divergence
	if errors.As(err, &div) {
		fmt.Fprintf(out, "\ndiverged at step %d of %d:\n", div.Step, len(rec.Steps))
		for _, d := range div.Diffs {
			fmt.Fprintf(out, "  %s (seat %d): recorded %s, live %s\n", d.Name, d.Seat, d.Recorded, d.Live)
		}
		fmt.Fprintf(out, "steps 1 to %d were answered as recorded. Fork the match there with:\n  arena play --from %s --step %d BOT...\n",
			div.Step-1, shellWord(path), div.Step)
		return fmt.Errorf("the re-run stopped at step %d, where %s answered differently from the record (--then BOT plays on)", div.Step, args[0])
	}
	if err != nil {
		return err
	}
	if plan.Live != nil {
		if d := plan.Divergence(); d != nil {
			fmt.Fprintf(out, "\ndiverged at step %d; the match went on live:\n", d.Step)
			for _, x := range d.Diffs {
				fmt.Fprintf(out, "  %s (seat %d): recorded %s, live %s\n", x.Name, x.Seat, x.Recorded, x.Live)
			}
		} else {
			fmt.Fprintf(out, "\nno divergence: every answer of %s in all %d steps was the recorded one\n", args[0], res.Steps)
		}
	}
	printRecordResult(out, res, rec)
	if p.Record != nil {
		if err := replay.Write(replayPath, p.Record); err != nil {
			return err
		}
		fmt.Fprintf(out, "replay written to %s\n", replayPath)
	}
	return nil
}

func describePlayer(rec *replay.Record, p int) string {
	return fmt.Sprintf("player %d (%s)", p, rec.Config.Players[p].Name)
}

func othersText(then string) string {
	if then != "" {
		return "the others from the record, then " + then + " where the answers differ"
	}
	return "the others answer from the record"
}

// printRecordResult prints the outcome and whether it is the recorded one.
func printRecordResult(out io.Writer, res *match.Result, rec *replay.Record) {
	o := res.Outcome
	fmt.Fprintf(out, "\n%s\n", o.Summary)
	if rec.Outcome != nil {
		if rec.Outcome.Summary == o.Summary {
			fmt.Fprintln(out, "(the recorded result)")
		} else {
			fmt.Fprintf(out, "(recorded: %s)\n", rec.Outcome.Summary)
		}
	}
	if len(o.Table) > 0 {
		fmt.Fprintln(out)
		w := tabwriter.NewWriter(out, 0, 4, 2, ' ', 0)
		for _, row := range o.Table {
			fmt.Fprintln(w, strings.Join(row, "\t"))
		}
		w.Flush()
	}
	printFaults(out, o.Faults, res.Seats)
}

// shellWord quotes s for a POSIX shell when it needs it.
func shellWord(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./:=@%+,") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
