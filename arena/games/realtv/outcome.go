package realtv

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/botarena/arena/arena/game"
	arenav1 "github.com/botarena/arena/proto/arena/v1"
)

// The end: each instance's result, and the scripts ranked by the total of their 11 instances.

// Final tells an instance its score and its script's result.
func (e *Engine) Final(seat int, req *arenav1.EndRequest) {
	out := e.Outcome()
	req.Result = out.Players[e.inst[seat].player].Result.Proto()
	req.Score = Points(e.inst[seat].score)
}

// Totals is each script's total score in exact units.
func (e *Engine) totals() []int64 {
	t := make([]int64, len(e.cfg.Players))
	for _, in := range e.inst {
		t[in.player] += in.score
	}
	return t
}

// Outcome ranks scripts by the total score of their 11 instances.
func (e *Engine) Outcome() game.Outcome {
	if e.outcome != nil {
		return *e.outcome
	}
	out := e.outcomeNow()
	if e.done {
		e.outcome = &out
	}
	return out
}

func (e *Engine) outcomeNow() game.Outcome {
	tot := e.totals()
	scores := make([]float64, len(tot))
	for i, t := range tot {
		scores[i] = Points(t)
	}
	ranks := game.Ranks(scores)
	firsts := 0
	for _, r := range ranks {
		if r == 1 {
			firsts++
		}
	}
	out := game.Outcome{Faults: e.faults}
	for i := range tot {
		res := game.ResultLoss
		if ranks[i] == 1 {
			res = game.ResultWin
			if firsts > 1 {
				res = game.ResultDraw
			}
		}
		out.Players = append(out.Players, game.PlayerOutcome{Result: res, Score: scores[i], Rank: ranks[i]})
	}
	byRank := make([]int, len(tot))
	for i := range byRank {
		byRank[i] = i
	}
	sort.SliceStable(byRank, func(a, b int) bool { return ranks[byRank[a]] < ranks[byRank[b]] })
	var parts []string
	for _, p := range byRank {
		parts = append(parts, e.names[p]+" "+fmtPoints(tot[p]))
	}
	phases := e.phase
	lead := byRank[0]
	verb := "wins"
	if firsts > 1 {
		verb = "ties for first"
	}
	if !e.done {
		verb = "leads"
	}
	out.Summary = fmt.Sprintf("%s %s after %d phases: %s", e.names[lead], verb, phases, strings.Join(parts, ", "))
	out.Table = [][]string{{"rank", "script", "instance", "id", "score", "won", "trials", "betrayed", "bounties", "eliminated"}}
	for _, p := range byRank {
		var won, trials, betr, boun, elim int
		var rows [][]string
		for s := range InstancesPerPlayer {
			in := &e.inst[p*InstancesPerPlayer+s]
			won, trials, betr, boun, elim = won+in.won, trials+in.trials, betr+in.betrayals, boun+in.bounties, elim+in.eliminated
			rows = append(rows, []string{"", "", "STR=" + strconv.Itoa(in.strength), in.id, fmtPoints(in.score),
				strconv.Itoa(in.won), strconv.Itoa(in.trials), strconv.Itoa(in.betrayals), strconv.Itoa(in.bounties), strconv.Itoa(in.eliminated)})
		}
		out.Table = append(out.Table, []string{strconv.Itoa(ranks[p]), e.names[p], "all 11", "", fmtPoints(tot[p]),
			strconv.Itoa(won), strconv.Itoa(trials), strconv.Itoa(betr), strconv.Itoa(boun), strconv.Itoa(elim)})
		out.Table = append(out.Table, rows...)
	}
	return out
}

// fmtPoints prints an exact score with at most two decimals.
func fmtPoints(units int64) string {
	if units%unit == 0 {
		return strconv.FormatInt(units/unit, 10)
	}
	return strconv.FormatFloat(Points(units), 'f', 2, 64)
}
