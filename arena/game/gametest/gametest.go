package gametest

import (
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"hash"
	"math/rand/v2"
	"strconv"
	"testing"

	"google.golang.org/protobuf/proto"

	"github.com/botarena/arena/arena/game"
	arenav1 "github.com/botarena/arena/proto/arena/v1"
)

// Harness describes an engine to the suite.
type Harness struct {
	Spec game.Spec
	// Players are the player counts to try (default: Spec.MinPlayers).
	Players []int
	// Params keep matches small enough for tests.
	Params map[string]string
	// Legal returns a random legal answer for a request.
	Legal func(r *rand.Rand, req *arenav1.ActRequest) *arenav1.ActResponse
	// MaxSteps is the cap no match may pass (a safety net: the game's own cap must end it first).
	MaxSteps int
	// Seeds to try (default 5).
	Seeds int
}

// For is the harness the spec itself describes: its Legal answers and its TestPlan.
func For(s game.Spec) Harness {
	return Harness{Spec: s, Legal: s.Legal, Players: s.Test.Players, Params: s.Test.Params, MaxSteps: s.Test.MaxSteps}
}

// Chooser decides each answer; it gets the step, the seat and its request.
type Chooser func(step, seat int, req *arenav1.ActRequest) game.Answer

// Transcript is a played match.
type Transcript struct {
	Outcome game.Outcome
	Steps   int
	// Hash covers every observation, setup and answer, so equal hashes mean equal matches.
	Hash string
}

// Play runs a match in-process with choose answering for every seat.
func Play(h Harness, seed uint64, players int, choose Chooser) (Transcript, error) {
	cfg := game.Config{Seed: seed, Params: h.Params}
	for i := range players {
		cfg.Players = append(cfg.Players, game.Player{Name: "p" + strconv.Itoa(i)})
	}
	eng, err := h.Spec.NewEngine(cfg)
	if err != nil {
		return Transcript{}, err
	}
	hs := sha256.New()
	mo := proto.MarshalOptions{Deterministic: true}
	seats := eng.Seats()
	for i, s := range seats {
		if s.Player < 0 || s.Player >= players {
			return Transcript{}, fmt.Errorf("seat %d belongs to player %d of %d", i, s.Player, players)
		}
		req := &arenav1.StartRequest{}
		eng.Setup(i, req)
		write(hs, mo, req)
	}
	max := h.MaxSteps
	if max <= 0 {
		max = 1 << 22
	}
	steps := 0
	reqs := make([]arenav1.ActRequest, len(seats))
	for !eng.Done() {
		if steps >= max {
			return Transcript{}, fmt.Errorf("match not over after %d steps", steps)
		}
		steps++
		pending := eng.Pending()
		if len(pending) == 0 {
			return Transcript{}, fmt.Errorf("step %d: not done but nobody pending", steps)
		}
		answers := make([]game.Answer, 0, len(pending))
		for i, s := range pending {
			if i > 0 && s <= pending[i-1] {
				return Transcript{}, fmt.Errorf("step %d: pending %v not ascending", steps, pending)
			}
			req := &reqs[s]
			req.Step = int64(steps)
			eng.Observe(s, req)
			if req.Observation == nil {
				return Transcript{}, fmt.Errorf("step %d: seat %d got no observation", steps, s)
			}
			write(hs, mo, req)
			a := choose(steps, s, req)
			a.Seat = s
			a.Order = i
			if a.Action != nil {
				write(hs, mo, a.Action)
			}
			if a.Fault != nil {
				hs.Write([]byte{byte(a.Fault.Kind)})
			}
			// The engine gets what the runner would give it: its game's action or a fault.
			answers = append(answers, game.JudgeAnswer(h.Spec.Name, a))
		}
		if err := eng.Apply(answers); err != nil {
			return Transcript{}, fmt.Errorf("step %d: Apply: %w", steps, err)
		}
	}
	out := eng.Outcome()
	if len(out.Players) != players {
		return Transcript{}, fmt.Errorf("outcome has %d players, want %d", len(out.Players), players)
	}
	for i, p := range out.Players {
		if p.Result == game.ResultNone || p.Rank < 1 || p.Rank > players {
			return Transcript{}, fmt.Errorf("player %d has no proper outcome: %+v", i, p)
		}
	}
	if out.Summary == "" {
		return Transcript{}, fmt.Errorf("outcome has no summary")
	}
	for i := range seats {
		end := &arenav1.EndRequest{}
		eng.Final(i, end)
		if end.Result == arenav1.Result_RESULT_UNSPECIFIED {
			return Transcript{}, fmt.Errorf("seat %d: Final gave no result", i)
		}
		write(hs, mo, end)
	}
	fmt.Fprintf(hs, "%+v", out.Players)
	return Transcript{Outcome: out, Steps: steps, Hash: fmt.Sprintf("%x", hs.Sum(nil))}, nil
}

func write(h hash.Hash, mo proto.MarshalOptions, m proto.Message) {
	b, _ := mo.Marshal(m)
	var n [8]byte
	binary.LittleEndian.PutUint64(n[:], uint64(len(b)))
	h.Write(n[:])
	h.Write(b)
}

// LegalChooser answers every request with h.Legal, drawing from a seeded generator.
func LegalChooser(h Harness, seed uint64) Chooser {
	r := rand.New(rand.NewPCG(seed, 0x5eed))
	return func(_, _ int, req *arenav1.ActRequest) game.Answer {
		return game.Answer{Action: h.Legal(r, req)}
	}
}

func (h Harness) counts() []int {
	if len(h.Players) > 0 {
		return h.Players
	}
	return []int{h.Spec.MinPlayers}
}

func (h Harness) seeds() int {
	if h.Seeds > 0 {
		return h.Seeds
	}
	return 5
}

// Run is the contract suite.
func Run(t *testing.T, h Harness) {
	t.Helper()
	for _, n := range h.counts() {
		t.Run(fmt.Sprintf("%dplayers", n), func(t *testing.T) {
			t.Parallel()
			t.Run("RandomLegalPlayTerminates", func(t *testing.T) {
				for s := range uint64(h.seeds()) {
					if _, err := Play(h, s, n, LegalChooser(h, s)); err != nil {
						t.Fatalf("seed %d: %v", s, err)
					}
				}
			})
			t.Run("SameSeedSameMatch", func(t *testing.T) {
				a, err := Play(h, 42, n, LegalChooser(h, 7))
				if err != nil {
					t.Fatal(err)
				}
				b, err := Play(h, 42, n, LegalChooser(h, 7))
				if err != nil {
					t.Fatal(err)
				}
				if a.Hash != b.Hash || a.Steps != b.Steps {
					t.Fatalf("same seed, different matches: %d steps %s vs %d steps %s", a.Steps, a.Hash, b.Steps, b.Hash)
				}
			})
			t.Run("EveryFaultKindHandled", func(t *testing.T) {
				for _, k := range []game.FaultKind{game.FaultTimeout, game.FaultCrash, game.FaultGarbage} {
					for _, at := range []int{1, 2, 7} {
						legal := LegalChooser(h, uint64(at))
						injected := false
						choose := func(step, seat int, req *arenav1.ActRequest) game.Answer {
							if seat == 0 && step >= at {
								injected = true
								return game.Answer{Fault: &game.Fault{Kind: k, Detail: "injected"}}
							}
							return legal(step, seat, req)
						}
						tr, err := Play(h, uint64(at), n, choose)
						if err != nil {
							t.Fatalf("%v from step %d: %v", k, at, err)
						}
						if injected && !charged(tr.Outcome, 0, k) {
							t.Fatalf("%v from step %d: seat 0 faulted but no fault of that kind charged to it: %+v", k, at, tr.Outcome.Faults)
						}
					}
				}
			})
			t.Run("WrongGameAnswerIsGarbage", func(t *testing.T) {
				legal := LegalChooser(h, 3)
				choose := func(step, seat int, req *arenav1.ActRequest) game.Answer {
					if seat == 0 {
						return game.Answer{Action: &arenav1.ActResponse{Step: int64(step)}}
					}
					return legal(step, seat, req)
				}
				tr, err := Play(h, 3, n, choose)
				if err != nil {
					t.Fatal(err)
				}
				if !charged(tr.Outcome, 0, game.FaultGarbage) {
					t.Fatalf("empty answers were not charged as garbage: %+v", tr.Outcome.Faults)
				}
			})
		})
	}
}

func charged(o game.Outcome, seat int, k game.FaultKind) bool {
	for _, f := range o.Faults {
		if f.Seat == seat && f.Kind == k && f.Penalty != "" && f.Where != "" {
			return true
		}
	}
	return false
}

// Fuzz feeds arbitrary answers: legal moves, every fault kind, empty answers and answers
// decoded from random bytes; the engine must never error and must end within MaxSteps.
func Fuzz(f *testing.F, h Harness) {
	FuzzMany(f, func(uint64) Harness { return h })
}

// FuzzMany is Fuzz over several games: pick gives the harness for a seed.
func FuzzMany(f *testing.F, pick func(seed uint64) Harness) {
	f.Add(uint64(1), []byte{0, 1, 2, 3, 4, 5})
	f.Add(uint64(2), []byte{5, 5, 5, 0xff, 0x10, 0x08, 0x01})
	f.Add(uint64(3), []byte{})
	f.Fuzz(func(t *testing.T, seed uint64, data []byte) {
		h := pick(seed)
		legal := LegalChooser(h, seed)
		i := 0
		next := func() byte {
			if len(data) == 0 {
				return 0
			}
			b := data[i%len(data)]
			i++
			return b
		}
		choose := func(step, seat int, req *arenav1.ActRequest) game.Answer {
			switch next() % 8 {
			case 1:
				return game.Answer{Fault: &game.Fault{Kind: game.FaultTimeout}}
			case 2:
				return game.Answer{Fault: &game.Fault{Kind: game.FaultCrash}}
			case 3:
				return game.Answer{Action: &arenav1.ActResponse{Step: int64(step)}}
			case 4:
				var a arenav1.ActResponse
				n := int(next()) % 16
				raw := make([]byte, n)
				for j := range raw {
					raw[j] = next()
				}
				if proto.Unmarshal(raw, &a) != nil {
					return game.Answer{Fault: &game.Fault{Kind: game.FaultGarbage}}
				}
				return game.Answer{Action: &a}
			}
			return legal(step, seat, req)
		}
		n := h.counts()[int(seed%uint64(len(h.counts())))]
		if _, err := Play(h, seed, n, choose); err != nil {
			t.Fatal(err)
		}
	})
}

var observationCases = (&arenav1.ActRequest{}).ProtoReflect().Descriptor().Oneofs().ByName("observation")

// Drive runs an engine the test already built to its end, asking policy for every pending
// seat, and returns the number of requests made. It fails the test on an engine error or when
// the match is not over within limit requests.
func Drive(t testing.TB, e game.Engine, limit int, policy func(seat int, req *arenav1.ActRequest) game.Answer) int {
	t.Helper()
	n := 0
	for !e.Done() {
		var answers []game.Answer
		for _, s := range e.Pending() {
			req := &arenav1.ActRequest{Seat: int32(s), Step: int64(n + 1)}
			e.Observe(s, req)
			a := policy(s, req)
			a.Seat = s
			// Judged as the runner would, for the game whose observation this is.
			name := ""
			if f := req.ProtoReflect().WhichOneof(observationCases); f != nil {
				name = string(f.Name())
			}
			answers = append(answers, game.JudgeAnswer(name, a))
			n++
		}
		if err := e.Apply(answers); err != nil {
			t.Fatal(err)
		}
		if n > limit {
			t.Fatalf("match still running after %d requests", n)
		}
	}
	return n
}

// Payload plays one match of the game's default length (its own parameters, not h.Params)
// with legal answers and fails when a request grows with the match: the largest request of
// the second half may pass the largest of the first half by a quarter and 16 bytes at most
// (numbers that grow a varint byte), since a bot is sent what changed, not the history.
func Payload(t *testing.T, h Harness) {
	t.Helper()
	h.Params, h.MaxSteps = nil, 0
	legal := LegalChooser(h, 1)
	var sizes []int
	n := h.counts()[len(h.counts())-1]
	tr, err := Play(h, 1, n, func(step, seat int, req *arenav1.ActRequest) game.Answer {
		for len(sizes) < step {
			sizes = append(sizes, 0)
		}
		sizes[step-1] = max(sizes[step-1], proto.Size(req))
		return legal(step, seat, req)
	})
	if err != nil {
		t.Fatal(err)
	}
	first, second := 0, 0
	for i, z := range sizes {
		if i < len(sizes)/2 {
			first = max(first, z)
		} else {
			second = max(second, z)
		}
	}
	if limit := first + first/4 + 16; second > limit {
		t.Fatalf("%s: requests grow with the match: at most %d bytes in the first %d steps, %d bytes later (limit %d)",
			h.Spec.Name, first, len(sizes)/2, second, limit)
	}
	t.Logf("%s, %d players: %d steps, largest request %d bytes (first half) / %d bytes (second half)", h.Spec.Name, n, tr.Steps, first, second)
}
