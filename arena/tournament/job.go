package tournament

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/botarena/arena/arena/store"
	"github.com/botarena/arena/bots/house"
	"github.com/botarena/arena/sandbox"
)

// Job is one attempt at one match, as a worker receives it: everything the match needs and
// each seat's bot by content hash, nothing of the coordinator's paths.
type Job struct {
	// Key names the tournament on the queue (see QueueKey); results go back under it.
	Key        string      `json:"key"`
	Tournament string      `json:"tournament"`
	Match      store.Match `json:"match"`
	// Attempt is the match's attempt count when the job was published: a result of an older
	// attempt is stale.
	Attempt int `json:"attempt"`
	// Round counts the jobs published for this attempt: another after a result was refused,
	// an audit, a tie-break. Nonce is the secret only this job's deliveries carry (the
	// coordinator's queue.Nonce of its ID); a result must repeat it. Avoid names the workers
	// that already answered it: they hand it back.
	Round int      `json:"round,omitempty"`
	Nonce string   `json:"nonce,omitempty"`
	Avoid []string `json:"avoid,omitempty"`
	// Config holds the game, parameters and deadlines; its Entries are left out (Bots).
	Config Config `json:"config"`
	// Bots are the seated bots, in the order of Match.Players.
	Bots []JobBot `json:"bots"`
	// Limits and Strict are the coordinator's sandbox settings, so a match runs the same
	// everywhere.
	Limits       sandbox.Limits `json:"limits"`
	Strict       bool           `json:"strict,omitempty"`
	MeasureMoves bool           `json:"measure_moves,omitempty"`
	// Fresh asks for new bot processes for this match (the coordinator's --fresh) rather
	// than the worker's live ones.
	Fresh bool `json:"fresh,omitempty"`
}

// JobBot is a seat's bot: its name, its snapshot's content hash (the object's name) and what
// runs inside the snapshot: "" for a folder, the file (optionally file.py:Class) for a bot
// that is one file. A house bot (the ladder's) has no files: House names it and the worker
// plays the arena's own code in-process, seeded with HouseSeed.
type JobBot struct {
	Name      string `json:"name"`
	Hash      string `json:"hash,omitempty"`
	Entry     string `json:"entry,omitempty"`
	House     string `json:"house,omitempty"`
	HouseSeed uint64 `json:"house_seed,string,omitempty"`
}

// ID names the job's attempt and round: the de-duplication id of the job and (with the
// worker's name) of its result.
func (j Job) ID() string {
	if j.Round > 0 {
		return fmt.Sprintf("%s-%d-%d-r%d", j.Key, j.Match.Idx, j.Attempt, j.Round)
	}
	return fmt.Sprintf("%s-%d-%d", j.Key, j.Match.Idx, j.Attempt)
}

// check refuses a job a worker must not act on: a hash that is not a hash, an entry that
// leaves the snapshot.
func (j Job) check() error {
	if len(j.Bots) != len(j.Match.Players) || len(j.Bots) == 0 {
		return fmt.Errorf("job %s: %d bots for %d seats", j.ID(), len(j.Bots), len(j.Match.Players))
	}
	for _, b := range j.Match.Players {
		if b < 0 || b > 1_000_000 {
			return fmt.Errorf("job %s: bot index %d out of range", j.ID(), b)
		}
	}
	for _, b := range j.Bots {
		if b.House != "" {
			if _, err := house.New(j.Config.Game, b.House, 1); err != nil || b.Hash != "" {
				return fmt.Errorf("job %s: bot %s: %q is not a house bot of %s, or has files", j.ID(), b.Name, b.House, j.Config.Game)
			}
			continue
		}
		if _, err := hex.DecodeString(b.Hash); err != nil || len(b.Hash) != 64 {
			return fmt.Errorf("job %s: bot %s: %q is not a content hash", j.ID(), b.Name, b.Hash)
		}
		file, _, _ := strings.Cut(b.Entry, ".py:")
		if b.Entry != "" && (file != filepath.Base(file) || file == ".." || file == ".") {
			return fmt.Errorf("job %s: bot %s: entry %q is not a file name", j.ID(), b.Name, b.Entry)
		}
	}
	return nil
}

// Result is what a worker sends back for a job.
type Result struct {
	Key     string `json:"key"`
	Idx     int    `json:"idx"`
	Attempt int    `json:"attempt"`
	// Worker names the machine and process (for logs: the coordinator knows the worker by
	// the name the NATS server let it publish under); Delivered is the job's delivery count
	// there. Job and Nonce name the delivery it answers (the job's ID and secret).
	Worker    string `json:"worker"`
	Delivered uint64 `json:"delivered"`
	Job       string `json:"job"`
	Nonce     string `json:"nonce"`
	Summary   string `json:"summary,omitempty"`
	// Finish is the record (its Replay travels apart, as JSON).
	Finish store.Finish    `json:"finish"`
	Replay json.RawMessage `json:"replay,omitempty"`
	// Infra is an infrastructure failure: the job was refused (its files did not match their
	// hash); charged to no bot.
	Infra string `json:"infra,omitempty"`
	// Error is a match that could not be run (an engine bug), as FailMatch records it.
	Error string `json:"error,omitempty"`
	// Logs holds, per seat (the order of the job's Bots), the tail of the bot's stderr in
	// this match, or why it did not play; Broken, per seat, its build failure ("" if it
	// built), the compiler's last lines included. The ladder keeps both for the bot's author.
	Logs   []string `json:"logs,omitempty"`
	Broken []string `json:"broken,omitempty"`
	// Stalls is how often the worker's machine stalled the match (a bot runnable but given no
	// CPU past its stall limit): each time it was voided and played again.
	Stalls int `json:"stalls,omitempty"`
}

// maxResultJSON bounds a result once decompressed (the message itself is bounded by the
// stream): a replay is large but not unbounded, and it is stored and viewed as it is.
const maxResultJSON = 32 << 20

func encodeResult(r Result) ([]byte, error) {
	var b bytes.Buffer
	zw := gzip.NewWriter(&b)
	if err := json.NewEncoder(zw).Encode(r); err != nil {
		return nil, err
	}
	if err := zw.Close(); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// DecodeResult reads a result as a worker published it (gzip JSON, bounded).
func DecodeResult(data []byte) (Result, error) {
	var r Result
	zr, err := gzip.NewReader(bytes.NewReader(data))
	if err != nil {
		return r, fmt.Errorf("result is not gzip: %w", err)
	}
	raw, err := io.ReadAll(io.LimitReader(zr, maxResultJSON+1))
	if err != nil {
		return r, fmt.Errorf("result cannot be read: %w", err)
	}
	if len(raw) > maxResultJSON {
		return r, fmt.Errorf("result is larger than %d MiB decompressed", maxResultJSON>>20)
	}
	if err := json.Unmarshal(raw, &r); err != nil {
		return r, fmt.Errorf("result is not a result: %w", err)
	}
	return r, nil
}

// ValidFor checks a result against its match before it is written: the record and replay
// must be there and every fault charged to a bot of that match (or to none).
func (r Result) ValidFor(m store.Match) error {
	if len(r.Logs) > len(m.Players) || len(r.Broken) > len(m.Players) {
		return fmt.Errorf("logs or build verdicts for %d seats in a match of %d", max(len(r.Logs), len(r.Broken)), len(m.Players))
	}
	if r.Infra != "" || r.Error != "" {
		return nil
	}
	// Decoding checked that both are JSON; they must be there.
	if len(r.Finish.Result) == 0 || len(r.Replay) == 0 {
		return errors.New("a result without its record or replay")
	}
	seated := map[int]bool{-1: true}
	for _, b := range m.Players {
		seated[b] = true
	}
	for _, f := range r.Finish.Faults {
		if !seated[f.BotIdx] || f.MatchIdx != m.Idx {
			return fmt.Errorf("a fault is charged to bot %d of match %d, who is not in match %d", f.BotIdx, f.MatchIdx, m.Idx)
		}
	}
	for _, t := range r.Finish.Timings {
		if !seated[t.BotIdx] || t.BotIdx < 0 {
			return fmt.Errorf("a timing names bot %d, who is not in match %d", t.BotIdx, m.Idx)
		}
	}
	return nil
}

// QueueKey names a tournament on the queue: the same after a coordinator restart, another
// for every store and tournament.
func QueueKey(storePath string, t store.Tournament) string {
	abs, err := filepath.Abs(storePath)
	if err != nil {
		abs = storePath
	}
	h := sha256.Sum256([]byte(fmt.Sprintf("%s\x00%d\x00%s\x00%s", abs, t.ID, t.Name, t.Created.UTC().Format("2006-01-02T15:04:05.999999999"))))
	return hex.EncodeToString(h[:8])
}
