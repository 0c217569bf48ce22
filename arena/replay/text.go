package replay

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/botarena/arena/arena/game"
)

// Turns returns a Visit that prints every step on its own line, as `arena replay FILE` shows
// it: the step number, then each answer as seat=action (or seat=FAULT kind).
func Turns(w io.Writer) Visit {
	var seats []game.Seat
	var b strings.Builder
	return func(st Step, eng game.Engine, answers []game.Answer) {
		if seats == nil {
			seats = eng.Seats()
		}
		b.Reset()
		fmt.Fprintf(&b, "%5d", st.N)
		for _, a := range answers {
			b.WriteByte(' ')
			name := fmt.Sprint("seat", a.Seat)
			if a.Seat >= 0 && a.Seat < len(seats) {
				name = seats[a.Seat].Name
			}
			fmt.Fprintf(&b, " %s=%s", name, ActionText(a))
		}
		b.WriteByte('\n')
		io.WriteString(w, b.String())
	}
}

// Text re-runs rec and writes it as text: a header, every turn (see Turns) and the replayed
// outcome in full (each player's result, score and rank, the game's table and every fault
// charged). It is what golden playthroughs compare; any change to an engine's behaviour on
// the recorded answers shows in it.
func Text(w io.Writer, rec *Record) (game.Outcome, error) { return TextWith(w, rec, nil) }

// TextWith is Text with before called on each step ahead of its line, so that a caller can
// print what led to the answers (a golden playthrough prints what each seat observed).
func TextWith(w io.Writer, rec *Record, before Visit) (game.Outcome, error) {
	fmt.Fprintf(w, "%s %s: %s (seed %d)\n", rec.Game, rec.MatchID, strings.Join(rec.Bots, " vs "), rec.Config.Seed)
	if len(rec.Config.Params) > 0 {
		keys := make([]string, 0, len(rec.Config.Params))
		for k := range rec.Config.Params {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		for i, k := range keys {
			keys[i] = k + "=" + rec.Config.Params[k]
		}
		fmt.Fprintf(w, "params: %s\n", strings.Join(keys, " "))
	}
	visit := Turns(w)
	if before != nil {
		turn := visit
		visit = func(st Step, eng game.Engine, answers []game.Answer) {
			before(st, eng, answers)
			turn(st, eng, answers)
		}
	}
	o, err := Run(rec, visit)
	if err != nil {
		return o, err
	}
	WriteOutcome(w, rec, o)
	return o, nil
}

// WriteOutcome writes an outcome in full, one fact a line.
func WriteOutcome(w io.Writer, rec *Record, o game.Outcome) {
	fmt.Fprintf(w, "\nresult: %s\n", o.Summary)
	for i, p := range o.Players {
		name := fmt.Sprint("player", i)
		if i < len(rec.Config.Players) {
			name = rec.Config.Players[i].Name
		}
		fmt.Fprintf(w, "  %s: %s, score %g, rank %d\n", name, p.Result, p.Score, p.Rank)
	}
	if len(o.Table) > 0 {
		fmt.Fprintln(w, "table:")
		for _, row := range o.Table {
			fmt.Fprintf(w, "  %s\n", strings.Join(row, " | "))
		}
	}
	for _, f := range o.Faults {
		fmt.Fprintf(w, "fault: seat %d at %s: %s (%s); %s\n", f.Seat, f.Where, f.Kind, oneLine(f.Detail), f.Penalty)
	}
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }
