package viewer

import (
	"bytes"
	"crypto/sha256"
	_ "embed"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"

	"github.com/botarena/arena/arena/game"
	"github.com/botarena/arena/arena/replay"
	arenav1 "github.com/botarena/arena/proto/arena/v1"
)

// MaxBytes bounds the replay data a page may hold. Chromium opens a page of 37 MiB (a dynamite
// match of 60,000 rounds) in about 0.6 s here (BenchmarkBrowserOpen); far past that a tab
// stalls, so a longer match is refused. Matches with default parameters take 0.1 to 4 MiB.
const MaxBytes = 48 << 20

// ErrTooLarge means a match holds more data than one page can show.
var ErrTooLarge = errors.New("replay too large for the viewer")

// Generator is the meta element near the top of every page, by which a tool can tell a page
// of this package from another file before it overwrites it.
const Generator = `<meta name="generator" content="arena viewer">`

// DataID is the id of the <script type="application/json"> element that holds the page's data
// (a Data value), for tools and tests that read it back.
const DataID = "arena-replay"

//go:embed assets/viewer.html
var pageHTML string

//go:embed assets/viewer.css
var pageCSS string

//go:embed assets/viewer.js
var pageJS string

// scriptHash lets the page's own script run and no other (the Content-Security-Policy): even
// if a bot's text ever escaped into markup, a script it smuggled in would not run. The hashed
// text is exactly the script element's content in assets/viewer.html.
var scriptHash = func() string {
	sum := sha256.Sum256([]byte("\n" + pageJS + "\n"))
	return "'sha256-" + base64.StdEncoding.EncodeToString(sum[:]) + "'"
}()

// Data is what the page's script reads: the record as it was written, and what the engine
// showed at every step when it was re-run on it.
type Data struct {
	Record *replay.Record `json:"record"`
	// Seats lists the engine's seats (realtv: one per script instance).
	Seats []game.Seat `json:"seats"`
	// Setups is each seat's Start message (the game's case of StartRequest.setup).
	Setups []json.RawMessage `json:"setups"`
	// Frames has one entry per step and one more for the end.
	Frames []Frame `json:"frames,omitempty"`
	// Outcome is the replayed outcome (equal to the recorded one when the record has it).
	Outcome game.Outcome `json:"outcome"`
	// Source names the record's file for the command the page shows at every step (arena
	// play --from SOURCE --step N); empty: replay.json.
	Source string `json:"source,omitempty"`
}

// Frame is the state before one step (or, for the last frame, after the match).
type Frame struct {
	// Obs is what each seat asked at this step saw (the game's case of the observation), keyed
	// by seat; at the end, what each seat is told with its result (games that tell nothing
	// leave it empty). Realtv keeps one view per island instead (Islands).
	Obs map[int]json.RawMessage `json:"obs,omitempty"`
	// Islands is realtv's view of each island with a pending instance, keyed by island index;
	// the instances on one island see the same island, so one view stands for all of them.
	Islands map[int]json.RawMessage `json:"islands,omitempty"`
	// Charged lists the faults the engine charged when it applied this step.
	Charged []game.FaultRecord `json:"charged,omitempty"`
}

var pj = protojson.MarshalOptions{UseProtoNames: true}

// Write re-runs rec's engine and writes one self-contained HTML page that replays the match.
// It fails without writing anything when the record does not replay (an unknown game, a
// mismatch) or when its data would pass MaxBytes.
func Write(w io.Writer, rec *replay.Record) error { return WriteLimit(w, rec, MaxBytes) }

// WriteLimit is Write with another bound on the page's data, in bytes (a server may want a
// smaller one); past it the error wraps ErrTooLarge.
func WriteLimit(w io.Writer, rec *replay.Record, limit int) error {
	return WriteSource(w, rec, "", limit)
}

// WriteSource is WriteLimit for a record read from the file source (its name shows in the
// page's fork command).
func WriteSource(w io.Writer, rec *replay.Record, source string, limit int) error {
	data, err := Build(rec)
	if err != nil {
		return err
	}
	data.Source = source
	blob, err := encode(data, limit)
	if err != nil {
		return err
	}
	title := fmt.Sprintf("%s %s: %s", rec.Game, rec.MatchID, strings.Join(rec.Bots, " vs "))
	var page bytes.Buffer
	page.Grow(len(blob) + len(pageHTML) + len(pageCSS) + len(pageJS) + 256)
	r := strings.NewReplacer("{{TITLE}}", htmlText(title), "{{CSS}}", pageCSS, "{{JS}}", pageJS, "{{DATAID}}", DataID,
		"{{SCRIPTHASH}}", scriptHash)
	head, tail, ok := strings.Cut(pageHTML, "{{DATA}}")
	if !ok {
		return errors.New("viewer: the page template has no {{DATA}} slot")
	}
	page.WriteString(r.Replace(head))
	page.Write(blob)
	page.WriteString(r.Replace(tail))
	_, err = w.Write(page.Bytes())
	return err
}

// Build re-runs the record and collects what the page shows.
func Build(rec *replay.Record) (*Data, error) {
	if rec == nil {
		return nil, errors.New("viewer: no record")
	}
	d := &Data{Record: rec, Frames: make([]Frame, 0, len(rec.Steps)+1)}
	var eng game.Engine
	seen := 0 // faults already attributed
	var marshalErr error
	visit := func(st replay.Step, e game.Engine, answers []game.Answer) {
		if eng == nil {
			eng = e
			d.Seats = e.Seats()
			d.Setups = make([]json.RawMessage, len(d.Seats))
			for s := range d.Seats {
				var req arenav1.StartRequest
				e.Setup(s, &req)
				d.Setups[s] = marshalCase(&req, "setup", &marshalErr)
			}
		}
		if n := len(d.Frames); n > 0 {
			d.Frames[n-1].Charged, seen = chargedSince(e, seen)
		}
		f := Frame{}
		for _, a := range answers {
			var req arenav1.ActRequest
			e.Observe(a.Seat, &req)
			if rec.Game == "realtv" {
				isl := int(req.GetRealtv().GetIslandIndex())
				if _, ok := f.Islands[isl]; !ok {
					if f.Islands == nil {
						f.Islands = map[int]json.RawMessage{}
					}
					f.Islands[isl] = islandView(req.GetRealtv(), &marshalErr)
				}
				continue
			}
			if f.Obs == nil {
				f.Obs = make(map[int]json.RawMessage, len(answers))
			}
			f.Obs[a.Seat] = marshalCase(&req, "observation", &marshalErr)
		}
		d.Frames = append(d.Frames, f)
	}
	out, err := replay.Run(rec, visit)
	if err != nil {
		return nil, fmt.Errorf("cannot show %s match %s: %w", rec.Game, rec.MatchID, err)
	}
	if marshalErr != nil {
		return nil, fmt.Errorf("cannot show %s match %s: %w", rec.Game, rec.MatchID, marshalErr)
	}
	d.Outcome = out
	end := Frame{}
	if eng != nil {
		if n := len(d.Frames); n > 0 {
			d.Frames[n-1].Charged, _ = chargedSince(eng, seen)
		}
		for s := range d.Seats {
			var req arenav1.EndRequest
			eng.Final(s, &req)
			if raw := marshalCase(&req, "observation", &marshalErr); raw != nil && rec.Game != "realtv" {
				if end.Obs == nil {
					end.Obs = map[int]json.RawMessage{}
				}
				end.Obs[s] = raw
			}
		}
	}
	d.Frames = append(d.Frames, end)
	return d, marshalErr
}

// chargedSince returns the faults the engine charged after the first seen ones (nil for an
// engine that cannot tell before the end; the page then lists the outcome's faults only).
func chargedSince(e game.Engine, seen int) ([]game.FaultRecord, int) {
	fl, ok := e.(game.FaultLog)
	if !ok {
		return nil, seen
	}
	all := fl.Faults()
	if len(all) <= seen {
		return nil, seen
	}
	return append([]game.FaultRecord(nil), all[seen:]...), len(all)
}

// marshalCase encodes the message set in msg's oneof named oneof (nil when none is set).
func marshalCase(msg proto.Message, oneof string, errp *error) json.RawMessage {
	m := msg.ProtoReflect()
	od := m.Descriptor().Oneofs().ByName(protoreflect.Name(oneof))
	if od == nil {
		return nil
	}
	fd := m.WhichOneof(od)
	if fd == nil {
		return nil
	}
	b, err := pj.Marshal(m.Get(fd).Message().Interface())
	if err != nil && *errp == nil {
		*errp = err
	}
	return b
}

// islandView is a realtv observation without what belongs to the one instance that saw it.
func islandView(o *arenav1.RealtvObservation, errp *error) json.RawMessage {
	v := proto.Clone(o).(*arenav1.RealtvObservation)
	v.OwnId, v.OwnScore = "", 0
	b, err := pj.Marshal(v)
	if err != nil && *errp == nil {
		*errp = err
	}
	return b
}

// encode writes d as JSON that is safe inside a <script> element and refuses it past limit.
// encoding/json escapes <, > and & inside strings, and outside strings JSON has none, so the
// text can never close the element; the replacement below keeps that true for raw messages too.
func encode(d *Data, limit int) ([]byte, error) {
	var buf bytes.Buffer
	lw := &limitWriter{w: &buf, left: limit}
	enc := json.NewEncoder(lw)
	enc.SetEscapeHTML(true)
	// Frames are written one by one so that a huge match stops at the limit, not after it.
	head := *d
	head.Frames = nil
	if err := writeJSON(lw, enc, &head, d, limit); err != nil {
		return nil, err
	}
	b := buf.Bytes()
	b = bytes.ReplaceAll(b, []byte("<"), []byte(`\u003c`))
	b = bytes.ReplaceAll(b, []byte(">"), []byte(`\u003e`))
	b = bytes.ReplaceAll(b, []byte("&"), []byte(`\u0026`))
	return b, nil
}

func writeJSON(lw *limitWriter, enc *json.Encoder, head, d *Data, limit int) error {
	tooLarge := func() error {
		return fmt.Errorf("%w: %s match %s has %d steps and needs more than %d MiB of page data (the viewer's limit); "+
			"record a shorter match to view it (fewer rounds or games: see 'arena games' for %s's parameters)",
			ErrTooLarge, d.Record.Game, d.Record.MatchID, len(d.Record.Steps), limit>>20, d.Record.Game)
	}
	// {"record":...,"seats":...,...,"frames":[f0,f1,...]}
	if err := enc.Encode(head); err != nil {
		if errors.Is(err, errLimit) {
			return tooLarge()
		}
		return err
	}
	// The encoder closed the object (without frames, which are nil): reopen it.
	b := lw.w.Bytes()
	const closing = "}\n"
	if !bytes.HasSuffix(b, []byte(closing)) {
		return errors.New("viewer: unexpected encoding of the page data")
	}
	lw.w.Truncate(len(b) - len(closing))
	lw.left += len(closing)
	if _, err := io.WriteString(lw, `,"frames":[`); err != nil {
		return tooLarge()
	}
	for i := range d.Frames {
		if i > 0 {
			if _, err := io.WriteString(lw, ","); err != nil {
				return tooLarge()
			}
		}
		if err := enc.Encode(&d.Frames[i]); err != nil {
			if errors.Is(err, errLimit) {
				return tooLarge()
			}
			return err
		}
	}
	if _, err := io.WriteString(lw, "]}"); err != nil {
		return tooLarge()
	}
	return nil
}

var errLimit = errors.New("limit reached")

type limitWriter struct {
	w    *bytes.Buffer
	left int
}

func (l *limitWriter) Write(p []byte) (int, error) {
	if len(p) > l.left {
		return 0, errLimit
	}
	l.left -= len(p)
	return l.w.Write(p)
}

// htmlText escapes s for an HTML text node.
func htmlText(s string) string {
	return strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&#34;", "'", "&#39;").Replace(s)
}
