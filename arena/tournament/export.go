package tournament

import (
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"os"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"
)

// WriteTable prints the standings as an aligned table.
func (s *Standings) WriteTable(w io.Writer) error {
	fmt.Fprintf(w, "%s: %s, %d/%d matches done, ratings: %s\n\n", s.Tournament, s.Game, s.Done, s.Total, s.Method)
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', tabwriter.AlignRight)
	hashes := false // older stores, and bots given without a snapshot, have no content hash
	for _, r := range s.Rows {
		hashes = hashes || r.Hash != ""
	}
	head := "rank\tbot\trating\t±\tmatches\twins\tdraws\tlosses\tscore\tfaults\tmean move\t"
	if hashes {
		head += "hash\t"
	}
	fmt.Fprintln(tw, head)
	for _, r := range s.Rows {
		rating, err := fmt.Sprintf("%.1f", r.Rating), fmt.Sprintf("%.1f", r.RatingErr)
		if r.Unrated {
			rating, err = "unrated", "-" // no match recorded: the prior says nothing
		}
		fmt.Fprintf(tw, "%d\t%s\t%s\t%s\t%d\t%d\t%d\t%d\t%s\t%d\t%v\t", r.Rank, r.Bot, rating, err,
			r.Matches, r.Wins, r.Draws, r.Losses, shortNum(r.Score), r.Faults, durationUs(r.MeanMoveUs).Round(time.Microsecond))
		if hashes {
			fmt.Fprintf(tw, "%s\t", ShortHash(r.Hash))
		}
		fmt.Fprintln(tw)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if len(s.Notes) > 0 {
		fmt.Fprintf(w, "\nnotes:\n  %s\n", strings.Join(s.Notes, "\n  "))
	}
	return nil
}

// ShortHash is the short form of a content hash shown in tables: the first 12 characters of the
// digest, without an "algorithm:" prefix ("-" for none). Exports keep the whole hash.
func ShortHash(h string) string {
	if i := strings.LastIndexByte(h, ':'); i >= 0 {
		h = h[i+1:]
	}
	switch {
	case h == "":
		return "-"
	case len(h) > 12:
		return h[:12]
	}
	return h
}

func num(f float64) string { return strconv.FormatFloat(f, 'f', -1, 64) }

// shortNum shows at most two decimals in tables (exports keep every digit).
func shortNum(f float64) string { return strconv.FormatFloat(math.Round(f*100)/100, 'f', -1, 64) }

// WriteJSON writes standings and match results as one JSON document.
func (s *Standings) WriteJSON(path string) error {
	b, err := json.MarshalIndent(s, "", "  ")
	if err != nil {
		return err
	}
	return writeFile(path, append(b, '\n'))
}

// WriteCSV writes the standings to path and the match results to path with "-matches" before
// its extension (standings.csv, standings-matches.csv).
func (s *Standings) WriteCSV(path string) (matchesPath string, err error) {
	var sb strings.Builder
	cw := csv.NewWriter(&sb)
	cw.Write([]string{"rank", "bot", "author", "language", "rating", "rating_err", "ordinal", "matches", "wins", "draws", "losses", "score", "faults", "mean_move_us", "max_move_us", "content_hash"})
	for _, r := range s.Rows {
		cw.Write([]string{strconv.Itoa(r.Rank), r.Bot, r.Author, r.Language, fmt.Sprintf("%.2f", r.Rating), fmt.Sprintf("%.2f", r.RatingErr),
			fmt.Sprintf("%.2f", r.Ordinal), strconv.Itoa(r.Matches), strconv.Itoa(r.Wins), strconv.Itoa(r.Draws), strconv.Itoa(r.Losses),
			num(r.Score), strconv.Itoa(r.Faults), fmt.Sprintf("%.1f", r.MeanMoveUs), fmt.Sprintf("%.1f", r.MaxMoveUs), r.Hash})
	}
	cw.Flush()
	if err := writeFile(path, []byte(sb.String())); err != nil {
		return "", err
	}
	sb.Reset()
	cw = csv.NewWriter(&sb)
	cw.Write([]string{"idx", "match_id", "rep", "seed", "status", "bots", "results", "scores", "ranks", "faults", "steps", "duration_s", "summary", "note", "error"})
	for _, m := range s.Matches {
		scores := make([]string, len(m.Scores))
		for i, v := range m.Scores {
			scores[i] = num(v)
		}
		ranks := make([]string, len(m.Ranks))
		for i, v := range m.Ranks {
			ranks[i] = strconv.Itoa(v)
		}
		cw.Write([]string{strconv.Itoa(m.Idx), m.MatchID, strconv.Itoa(m.Rep), strconv.FormatUint(m.Seed, 10), m.Status,
			strings.Join(m.Bots, ";"), strings.Join(m.Results, ";"), strings.Join(scores, ";"), strings.Join(ranks, ";"),
			strconv.Itoa(m.Faults), strconv.Itoa(m.Steps), fmt.Sprintf("%.3f", m.Duration), m.Summary, m.Note, m.Error})
	}
	cw.Flush()
	ext := ""
	base := path
	if i := strings.LastIndex(path, "."); i > strings.LastIndex(path, "/") {
		base, ext = path[:i], path[i:]
	}
	matchesPath = base + "-matches" + ext
	return matchesPath, writeFile(matchesPath, []byte(sb.String()))
}

func writeFile(path string, b []byte) error {
	if err := os.WriteFile(path, b, 0o644); err != nil {
		return fmt.Errorf("export: %w", err)
	}
	return nil
}
