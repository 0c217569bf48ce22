package cli

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/botarena/arena/arena/match"
	"github.com/botarena/arena/arena/replay"
	"github.com/botarena/arena/arena/store"
	"github.com/botarena/arena/arena/tournament"
)

func init() { extraCommands = append(extraCommands, newShow) }

func newShow() *cobra.Command {
	var (
		matchRef, bot, replayOut, csvPath, jsonPath string
		faults, turns, all                          bool
	)
	cmd := &cobra.Command{
		Use:   "show STORE [TOURNAMENT]",
		Short: "Show the tournaments in a store, one tournament's standings, one match, or one bot's faults",
		Example: "  arena show arena.db\n" +
			"  arena show arena.db night\n" +
			"  arena show arena.db night --match dynamite-r0-1-2 --turns\n" +
			"  arena show arena.db night --bot paper --faults",
		Args: cobra.RangeArgs(1, 2),
	}
	f := cmd.Flags()
	f.StringVar(&matchRef, "match", "", "show one match (its id or index)")
	f.BoolVar(&turns, "turns", false, "with --match: print the match turn by turn from its replay")
	f.StringVar(&replayOut, "replay", "", "with --match: write its replay to FILE (for arena replay FILE)")
	f.StringVar(&bot, "bot", "", "show one bot's faults")
	f.BoolVar(&faults, "faults", false, "show faults (of --bot, or of every bot)")
	f.BoolVar(&all, "matches", false, "list every match of the tournament")
	f.StringVar(&csvPath, "csv", "", "export standings and match results as CSV")
	f.StringVar(&jsonPath, "json", "", "export standings and match results as JSON")
	cmd.RunE = func(cmd *cobra.Command, args []string) error {
		ctx := cmd.Context()
		out := cmd.OutOrStdout()
		path := args[0]
		// Read-only: show never writes (nor migrates) a store, so it also reads one in a
		// read-only folder or on a read-only mount, and one another arena is writing.
		st, err := store.OpenReadOnly(path)
		if err != nil {
			return err
		}
		defer st.Close()
		if len(args) == 1 && matchRef == "" && bot == "" && !faults {
			ts, err := st.Tournaments(ctx)
			if err != nil {
				return err
			}
			if len(ts) == 0 {
				fmt.Fprintf(out, "%s holds no tournaments\n", path)
				return nil
			}
			w := tabwriter.NewWriter(out, 0, 4, 2, ' ', 0)
			fmt.Fprintln(w, "id\tname\tgame\tstatus\tmatches done\tcreated")
			for _, t := range ts {
				ms, err := st.Matches(ctx, t.ID)
				if err != nil {
					return err
				}
				done := 0
				for _, m := range ms {
					if m.Status == store.StatusDone {
						done++
					}
				}
				fmt.Fprintf(w, "%d\t%s\t%s\t%s\t%d/%d\t%s\n", t.ID, t.Name, t.Game, shownStatus(t.Status, path), done, len(ms), t.Created.Local().Format(time.DateTime))
			}
			return w.Flush()
		}
		ref := ""
		if len(args) == 2 {
			ref = args[1]
		}
		t, err := st.FindTournament(ctx, ref)
		if err != nil {
			return err
		}
		cfg, err := tournament.LoadConfig(t)
		if err != nil {
			return err
		}
		switch {
		case matchRef != "":
			return showMatch(cmd, st, t, cfg, matchRef, turns, replayOut)
		case bot != "" || faults:
			botIdx := -1
			if bot != "" {
				for i, e := range cfg.Entries {
					if e.Name == bot {
						botIdx = i
					}
				}
				if botIdx < 0 {
					var names []string
					for _, e := range cfg.Entries {
						names = append(names, e.Name)
					}
					return fmt.Errorf("%w: no bot %q in %s (bots: %s)", ErrUsage, bot, t.Name, strings.Join(names, ", "))
				}
			}
			fs, err := st.Faults(ctx, t.ID, botIdx)
			if err != nil {
				return err
			}
			ms, err := st.Matches(ctx, t.ID)
			if err != nil {
				return err
			}
			who := "all bots"
			if bot != "" {
				who = bot
			}
			fmt.Fprintf(out, "%s: %d faults of %s\n", t.Name, len(fs), who)
			for _, f := range fs {
				name := "?"
				if f.BotIdx >= 0 && f.BotIdx < len(cfg.Entries) {
					name = cfg.Entries[f.BotIdx].Name
				}
				fmt.Fprintf(out, "  %s seat %d, %s: %s, %s (%s)\n", ms[f.MatchIdx].MatchID, f.Seat, f.Where, f.Kind, f.Penalty, name)
				if f.Detail != "" {
					fmt.Fprintf(out, "    %s\n", strings.ReplaceAll(f.Detail, "\n", "\n    "))
				}
			}
			return nil
		}
		s, err := tournament.Compute(ctx, st, t.ID)
		if err != nil {
			return err
		}
		fmt.Fprintf(out, "tournament %s (id %d), status %s, seed %d, %s clock, created %s\n", t.Name, t.ID, shownStatus(t.Status, path), cfg.Seed,
			cfg.ClockMode(), t.Created.Local().Format(time.DateTime))
		if err := s.WriteTable(out); err != nil {
			return err
		}
		for _, m := range s.Matches {
			if all || m.Status != store.StatusDone {
				line := m.Summary
				if m.Status != store.StatusDone {
					line = m.Status
					if m.Error != "" {
						line += ": " + m.Error
					}
				}
				fmt.Fprintf(out, "  %-24s %s: %s\n", m.MatchID, strings.Join(m.Bots, " vs "), line)
			}
		}
		return export(out, s, csvPath, jsonPath)
	}
	return cmd
}

func showMatch(cmd *cobra.Command, st *store.Store, t store.Tournament, cfg tournament.Config, ref string, turns bool, replayOut string) error {
	ctx := cmd.Context()
	out := cmd.OutOrStdout()
	m, err := st.Match(ctx, t.ID, ref)
	if err != nil {
		return err
	}
	var names []string
	for _, b := range m.Players {
		names = append(names, cfg.Entries[b].Name)
	}
	fmt.Fprintf(out, "%s match %d %s: %s\nseed %d, status %s\n", t.Name, m.Idx, m.MatchID, strings.Join(names, " vs "), m.Seed, m.Status)
	if m.Note != "" {
		fmt.Fprintf(out, "note: %s\n", m.Note)
	}
	if m.Error != "" {
		fmt.Fprintf(out, "error: %s\n", m.Error)
	}
	if m.Status != store.StatusDone {
		return nil
	}
	var res match.Result
	if err := json.Unmarshal(m.Result, &res); err != nil {
		return fmt.Errorf("match %s: stored result: %w", m.MatchID, err)
	}
	// The clock recorded with the match; a store older than schema 7 has only the tournament's.
	clock := m.Clock
	if clock == "" {
		clock = string(cfg.ClockMode())
	}
	fmt.Fprintf(out, "finished %s after %d steps in %v, on the %s clock\n", m.Finished.Local().Format(time.DateTime), res.Steps, res.Duration.Round(time.Millisecond), clock)
	printResult(out, &res, names, nil)
	b, err := st.Replay(ctx, t.ID, m.Idx)
	if err != nil {
		return err
	}
	if replayOut != "" {
		if err := os.WriteFile(replayOut, b, 0o644); err != nil {
			return err
		}
		fmt.Fprintf(out, "replay written to %s\n", replayOut)
	}
	rec, err := replay.Decode(bytes.NewReader(b), m.MatchID)
	if err != nil {
		return err
	}
	var visit replay.Visit
	if turns {
		visit = replay.Turns(out)
	}
	if _, err := replay.Run(rec, visit); err != nil {
		return fmt.Errorf("match %s: %w", m.MatchID, err)
	}
	fmt.Fprintln(out, "replay re-run: the recorded result is confirmed")
	return nil
}
