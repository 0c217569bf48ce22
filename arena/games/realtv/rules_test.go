package realtv

import (
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/botarena/arena/arena/game"
	arenav1 "github.com/botarena/arena/proto/arena/v1"
)

func TestRealtvElevenInstancesPerScript(t *testing.T) {
	t.Parallel()
	e := contest(t, 1, 3, 1)
	seats := e.Seats()
	if len(seats) != 33 {
		t.Fatalf("%d seats for 3 scripts", len(seats))
	}
	for i, s := range seats {
		p, str := i/11, i%11
		if s.Player != p || e.inst[i].strength != str || s.Name != e.names[p]+" STR="+strconv.Itoa(str) {
			t.Fatalf("seat %d: %+v strength %d", i, s, e.inst[i].strength)
		}
		req := &arenav1.StartRequest{}
		e.Setup(i, req)
		su := req.GetRealtv()
		if su.GetId() != e.inst[i].id || su.GetStrength() != int32(str) || su.GetName() != e.names[p] || su.GetPhases() != 1 ||
			su.GetPlayersPerIsland() != 12 || su.GetInstance() != int32(str) {
			t.Fatalf("setup %v", su)
		}
	}
}

func TestRealtvInstanceIDsFromSeed(t *testing.T) {
	t.Parallel()
	a, b, c := contest(t, 9, 4, 1), contest(t, 9, 4, 1), contest(t, 10, 4, 1)
	seen := map[string]bool{}
	for i := range a.inst {
		id := a.inst[i].id
		if len(id) != 10 || strings.Trim(id, IDAlphabet) != "" || seen[id] {
			t.Fatalf("id %q: want 10 distinct upper-case letters and digits", id)
		}
		seen[id] = true
		if b.inst[i].id != id {
			t.Fatal("same seed, different ids")
		}
		if c.inst[i].id == id {
			t.Fatal("different seed, same id")
		}
	}
}

func TestRealtvIslandsBalanced(t *testing.T) {
	t.Parallel()
	for h := 1; h <= 400; h++ {
		sizes := IslandSizes(h)
		want := int(math.Ceil(float64(h) / 12))
		if len(sizes) != want {
			t.Fatalf("h=%d: %d islands, want ceil(h/12)=%d", h, len(sizes), want)
		}
		sum, lo, hi := 0, 99, 0
		for _, s := range sizes {
			sum += s
			lo, hi = min(lo, s), max(hi, s)
		}
		if sum != h || hi-lo > 1 || hi > 12 || lo < 1 {
			t.Fatalf("h=%d: sizes %v", h, sizes)
		}
	}
	// 13 scripts = 143 instances: 12 islands of 11 or 12, topped up to 12 with fillers.
	e := contest(t, 3, 13, 2)
	for phase := range 2 {
		if len(e.islands) != 12 || e.totalBots != 12*12-143 {
			t.Fatalf("phase %d: %d islands, %d bots", phase, len(e.islands), e.totalBots)
		}
		seen := map[int]bool{}
		for _, isl := range e.islands {
			humans, fillers := 0, 0
			for _, m := range isl.members {
				if m.seat >= 0 {
					humans++
					if seen[m.seat] {
						t.Fatalf("seat %d on two islands", m.seat)
					}
					seen[m.seat] = true
				} else {
					fillers++
					if m.strength < 0 || m.strength > 10 || m.name != FillerName {
						t.Fatalf("filler %+v", m)
					}
				}
			}
			if humans+fillers != 12 || humans < 11 {
				t.Fatalf("island %d: %d instances + %d fillers", isl.index, humans, fillers)
			}
		}
		if len(seen) != 143 {
			t.Fatalf("%d instances placed, want 143", len(seen))
		}
		o := observe(e, 0)
		if o.GetGame().GetTotalBots() != 1 || o.GetGame().GetTotalHumans() != 143 || o.GetGame().GetPhaseIndex() != int32(phase) {
			t.Fatalf("game context %v", o.GetGame())
		}
		for phase == e.phase && !e.Done() {
			play(t, e, func(int, *arenav1.RealtvObservation) game.Answer { return faultOf(game.FaultCrash) })
		}
	}
}

func TestRealtvShuffledEveryPhase(t *testing.T) {
	t.Parallel()
	e := contest(t, 4, 6, 3)
	where := func() []int {
		w := make([]int, len(e.inst))
		for i := range e.inst {
			w[i] = e.inst[i].island*100 + e.inst[i].member
		}
		return w
	}
	first := where()
	for e.phase == 0 {
		play(t, e, func(int, *arenav1.RealtvObservation) game.Answer { return voteFor("") })
	}
	second, same := where(), 0
	for i := range first {
		if first[i] == second[i] {
			same++
		}
	}
	if same > len(first)/4 {
		t.Fatalf("%d of %d instances kept their place: not reshuffled", same, len(first))
	}
}

func TestRealtvFillerVotes(t *testing.T) {
	t.Parallel()
	e := rig(t, 5, 1, filler(4), 2, 7, filler(2), 9, filler(9))
	isl := e.islands[0]
	all := []int{0, 1, 2, 3, 4, 5}
	n, weakest, strongest := 20000, 0, 0
	for range n {
		switch e.fillerVote(isl, all) {
		case 1: // the first member of strength 2 in island order
			weakest++
		case 4: // the first member of strength 9
			strongest++
		default:
			t.Fatal("a filler voted for neither the first weakest nor the first strongest")
		}
	}
	if f := float64(weakest) / float64(n); math.Abs(f-0.8) > 0.02 {
		t.Fatalf("weakest %.3f of the time, want 0.8", f)
	}
	// Themselves included: the filler of strength 2 at index 3 is not the first weakest, but a
	// filler alone at the bottom votes for itself, which is betrayal.
	e2 := rig(t, 6, 1, 9, 9, filler(0), 9)
	isl2 := e2.islands[0]
	self := 0
	for range 1000 {
		if e2.fillerVote(isl2, []int{0, 1, 2, 3}) == 2 {
			self++
		}
	}
	if self < 700 || self > 900 {
		t.Fatalf("the weakest filler voted for itself %d/1000 times, want about 800", self)
	}
	// Tie votes alike, among the tied only.
	for range 1000 {
		if v := e.fillerVote(isl, []int{2, 5}); v != 2 && v != 5 {
			t.Fatal("tie vote outside the tie")
		}
	}
}

func TestRealtvFillerBetrayalThroughAnEngineDay(t *testing.T) {
	t.Parallel()
	// Islands made only of fillers after the instances leave are played out by the engine.
	e := rig(t, 7, 1, 5, filler(0), filler(3), filler(10), filler(6))
	votes(t, e, voteFor(""))
	if !e.Done() {
		t.Fatal("the island had no instance left: the engine must play it out alone")
	}
	isl := e.islands[0]
	if isl.stage != stageOver {
		t.Fatal("island not over")
	}
	for _, m := range isl.members[1:] {
		if len(m.votes) == 0 || m.votes[0].GetFirstVote() == "" {
			t.Fatalf("filler %s did not vote", m.id)
		}
	}
}

func TestRealtvSelfVoteIsBetrayal(t *testing.T) {
	t.Parallel()
	e := rig(t, 1, 1, 10, 10, 10, 0)
	votes(t, e, voteFor(id(e, 1)), voteFor(id(e, 0)), voteFor(id(e, 0)), voteFor(id(e, 3)))
	isl := e.islands[0]
	if isl.statusOf(e, 3) != betrayer || e.inst[3].betrayals != 1 {
		t.Fatal("a vote for oneself is betrayal")
	}
	if len(e.Outcome().Faults) != 0 {
		t.Fatalf("betraying by a self vote is a legal move, not a fault: %+v", e.Outcome().Faults)
	}
	o := observe(e, 1)
	if _, ok := o.GetBetrayers()[id(e, 3)]; !ok || len(o.GetBetrayers()) != 1 {
		t.Fatalf("betrayers %v", o.GetBetrayers())
	}
}

func TestRealtvInvalidFirstVotesAreBetrayal(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name  string
		vote  func(e *Engine) game.Answer
		fault game.FaultKind
	}{
		{"NoVote", func(*Engine) game.Answer { return voteFor("") }, game.FaultNone},
		{"UnknownID", func(*Engine) game.Answer { return voteFor("NOTANID123") }, game.FaultIllegal},
		{"PlayerNotOnIsland", func(e *Engine) game.Answer { return voteFor(id(e, 20)) }, game.FaultIllegal},
		{"Timeout", func(*Engine) game.Answer { return faultOf(game.FaultTimeout) }, game.FaultTimeout},
		{"Crash", func(*Engine) game.Answer { return faultOf(game.FaultCrash) }, game.FaultCrash},
		{"Garbage", func(*Engine) game.Answer { return faultOf(game.FaultGarbage) }, game.FaultGarbage},
		{"WrongGame", func(*Engine) game.Answer {
			return game.Answer{Action: &arenav1.ActResponse{Action: &arenav1.ActResponse_Auction{Auction: &arenav1.AuctionAction{}}}}
		}, game.FaultGarbage},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			e := rig(t, 1, 1, 10, 10, 10, 10)
			votes(t, e, voteFor(id(e, 1)), voteFor(id(e, 0)), voteFor(id(e, 0)), tc.vote(e))
			if e.islands[0].statusOf(e, 3) != betrayer {
				t.Fatal("seat 3 should have betrayed")
			}
			f := e.Outcome().Faults
			if tc.fault == game.FaultNone {
				if len(f) != 0 {
					t.Fatalf("faults %+v", f)
				}
				return
			}
			if len(f) != 1 || f[0].Seat != 3 || f[0].Kind != tc.fault || f[0].Penalty != "betrayal" || f[0].Where != "phase 1, island 1, day 1" {
				t.Fatalf("faults %+v", f)
			}
		})
	}
}

func TestRealtvVoteForPlayerWhoLeftIsBetrayal(t *testing.T) {
	t.Parallel()
	e := rig(t, 1, 1, 10, 10, 10, 10, 0)
	// Day 1: seat 4 betrays; seat 3 is voted out.
	votes(t, e, voteFor(id(e, 3)), voteFor(id(e, 3)), voteFor(id(e, 3)), voteFor(id(e, 0)), voteFor(""))
	isl := e.islands[0]
	if isl.statusOf(e, 3) != eliminated || isl.statusOf(e, 4) != betrayer || isl.day != 2 {
		t.Fatal("day 1 went wrong")
	}
	// Day 2: votes for the eliminated and for the traitor are betrayal.
	votes(t, e, voteFor(id(e, 3)), voteFor(id(e, 4)), voteFor(id(e, 0)))
	if isl.statusOf(e, 0) != betrayer || isl.statusOf(e, 1) != betrayer {
		t.Fatal("votes for players who are not active must be betrayal")
	}
}

func TestRealtvAllBetrayNoScore(t *testing.T) {
	t.Parallel()
	e := rig(t, 1, 1, 10, 10, 10)
	votes(t, e, voteFor(id(e, 0)), voteFor(""), faultOf(game.FaultCrash))
	if !e.Done() || e.islands[0].stage != stageOver {
		t.Fatal("no one left: the island ends")
	}
	wantScores(t, e, 0, 0, 0)
}

func TestRealtvOneLeftWinsWithoutTrial(t *testing.T) {
	t.Parallel()
	// Strengths 0: a trial would fail, but with one player left there is none.
	e := rig(t, 1, 1, 0, 0, 0)
	votes(t, e, voteFor(id(e, 0)), voteFor(id(e, 1)), voteFor(id(e, 0)))
	wantScores(t, e, 0, 0, 100)
	if e.inst[2].won != 1 || e.inst[2].trials != 0 {
		t.Fatal("won without a trial")
	}
}

func TestRealtvTrialAtExactly7nMinus3Succeeds(t *testing.T) {
	t.Parallel()
	// Four stay (7+6+6+6 = 25 = 7*4-3), one betrays: the trial passes (the original engine
	// wanted strictly more).
	e := rig(t, 1, 1, 7, 6, 6, 6, 10)
	votes(t, e, voteFor(id(e, 1)), voteFor(id(e, 2)), voteFor(id(e, 1)), voteFor(id(e, 1)), voteFor(""))
	wantScores(t, e, 3, 3, 3, 3, 0)
	if e.islands[0].statusOf(e, 1) != eliminated {
		t.Fatal("after the trial the most voted leaves")
	}
}

func TestRealtvTrialBelow7nMinus3Fails(t *testing.T) {
	t.Parallel()
	e := rig(t, 1, 1, 7, 6, 6, 5, 10)
	votes(t, e, voteFor(id(e, 1)), voteFor(id(e, 2)), voteFor(id(e, 1)), voteFor(id(e, 1)), voteFor(""))
	if !e.Done() {
		t.Fatal("24 < 25: the trial fails and the island ends")
	}
	wantScores(t, e, 0, 0, 0, 0, 100)
	if e.islands[0].statusOf(e, 1) != active {
		t.Fatal("nobody is eliminated after a failed trial")
	}
}

func TestRealtvFailedTrialSplitsBountyAmongBetrayers(t *testing.T) {
	t.Parallel()
	e := rig(t, 1, 1, 5, 5, 5, 10, 0, 0)
	// Day 1: seats 4 and 5 betray; 5+5+5+10 = 25 passes; seat 1 is voted out.
	votes(t, e, voteFor(id(e, 1)), voteFor(id(e, 2)), voteFor(id(e, 1)), voteFor(id(e, 1)), voteFor(""), voteFor(id(e, 5)))
	wantScores(t, e, 3, 3, 3, 3, 0, 0)
	// Day 2: seat 3 betrays; 5+5 = 10 < 11 fails: the island's three traitors split 100.
	votes(t, e, voteFor(id(e, 2)), voteFor(id(e, 0)), voteFor(id(e, 3)))
	if !e.Done() {
		t.Fatal("island should be over")
	}
	third := 100.0 / 3
	wantScores(t, e, 3, 3, 3, 3+third, third, third)
	tot := e.totals()[0]
	if tot != (4*3+100)*unit {
		t.Fatalf("split not exact: total %d units", tot)
	}
}

func TestRealtvFailedTrialWithoutBetrayersNobodyScores(t *testing.T) {
	t.Parallel()
	e := rig(t, 1, 1, 1, 2, 3)
	votes(t, e, voteFor(id(e, 1)), voteFor(id(e, 0)), voteFor(id(e, 0)))
	if !e.Done() {
		t.Fatal("6 < 18 fails")
	}
	wantScores(t, e, 0, 0, 0)
}

func TestRealtvVotesForTodaysTraitorsAreLost(t *testing.T) {
	t.Parallel()
	e := rig(t, 1, 1, 10, 10, 10, 0)
	// Three votes for seat 3, who betrays; the one vote for seat 0 decides.
	votes(t, e, voteFor(id(e, 3)), voteFor(id(e, 3)), voteFor(id(e, 0)), voteFor(""))
	isl := e.islands[0]
	if isl.statusOf(e, 0) != eliminated || isl.statusOf(e, 1) != active || isl.statusOf(e, 2) != active {
		t.Fatal("votes for today's traitor must be lost")
	}
}

func TestRealtvNoValidVotesNobodyLeaves(t *testing.T) {
	t.Parallel()
	e := rig(t, 1, 1, 10, 10, 10, 0)
	votes(t, e, voteFor(id(e, 3)), voteFor(id(e, 3)), voteFor(id(e, 3)), voteFor(id(e, 3)))
	isl := e.islands[0]
	if isl.day != 2 || len(isl.activeMembers()) != 3 || isl.stage != stageFirst {
		t.Fatalf("day %d, %d active, stage %d", isl.day, len(isl.activeMembers()), isl.stage)
	}
	wantScores(t, e, 3, 3, 3, 0)
}

func TestRealtvMostVotedLeaves(t *testing.T) {
	t.Parallel()
	e := rig(t, 1, 1, 10, 10, 10)
	votes(t, e, voteFor(id(e, 1)), voteFor(id(e, 0)), voteFor(id(e, 1)))
	isl := e.islands[0]
	if isl.statusOf(e, 1) != eliminated || isl.day != 2 {
		t.Fatal("seat 1 had two votes")
	}
	o := observe(e, 0)
	if _, ok := o.GetEliminatedPlayers()[id(e, 1)]; !ok || len(o.GetActivePlayers()) != 2 {
		t.Fatalf("context %v", o)
	}
}

func TestRealtvTieRevote(t *testing.T) {
	t.Parallel()
	e := rig(t, 1, 1, 10, 10, 10, 10, 0)
	votes(t, e, voteFor(id(e, 1)), voteFor(id(e, 0)), voteFor(id(e, 3)), voteFor(id(e, 2)), voteFor(""))
	isl := e.islands[0]
	if isl.stage != stageTie || len(isl.ties) != 4 {
		t.Fatalf("stage %d ties %v", isl.stage, isl.ties)
	}
	if p := e.Pending(); len(p) != 4 {
		t.Fatalf("every active player votes again: pending %v", p)
	}
	o := observe(e, 2)
	if o.GetDecision() != arenav1.RealtvDecision_REALTV_DECISION_TIE || len(o.GetCurrentTies()) != 4 {
		t.Fatalf("tie context %v", o)
	}
	// A self vote is fine among the tied: seat 1 votes for itself and leaves with 3 votes.
	votes(t, e, voteFor(id(e, 1)), voteFor(id(e, 1)), voteFor(id(e, 1)), voteFor(id(e, 0)))
	if isl.statusOf(e, 1) != eliminated || isl.day != 2 || isl.statusOf(e, 0) != active {
		t.Fatal("the most voted in the revote leaves")
	}
	if len(e.Outcome().Faults) != 0 {
		t.Fatalf("faults %+v", e.Outcome().Faults)
	}
}

func TestRealtvInvalidTieVoteIgnored(t *testing.T) {
	t.Parallel()
	e := rig(t, 1, 1, 9, 8, 7, 6)
	votes(t, e, voteFor(id(e, 1)), voteFor(id(e, 0)), voteFor(id(e, 0)), voteFor(id(e, 1)))
	isl := e.islands[0]
	if isl.stage != stageTie {
		t.Fatal("0 and 1 are tied")
	}
	// Seat 0's vote is for a player outside the tie, 2 crashes, 3 names nobody: all ignored,
	// nobody betrays, and seat 1's single vote for seat 0 decides.
	votes(t, e, voteFor(id(e, 2)), voteFor(id(e, 0)), faultOf(game.FaultCrash), voteFor("ZZZZZZZZZZ"))
	if isl.statusOf(e, 0) != eliminated {
		t.Fatal("seat 0 had the only valid tie vote")
	}
	for _, s := range []int{1, 2, 3} {
		if isl.statusOf(e, s) != active {
			t.Fatalf("seat %d: an invalid tie vote is ignored, not betrayal", s)
		}
	}
	f := e.Outcome().Faults
	if len(f) != 3 {
		t.Fatalf("faults %+v", f)
	}
	for _, r := range f {
		if r.Penalty != "tie vote ignored" || r.Where != "phase 1, island 1, day 1, tie vote" {
			t.Fatalf("fault %+v", r)
		}
	}
}

func TestRealtvAllTieVotesInvalidRemovesWeakest(t *testing.T) {
	t.Parallel()
	e := rig(t, 1, 1, 9, 8, 7, 6)
	votes(t, e, voteFor(id(e, 1)), voteFor(id(e, 0)), voteFor(id(e, 0)), voteFor(id(e, 1)))
	votes(t, e, voteFor(""), faultOf(game.FaultTimeout), voteFor(id(e, 3)), voteFor(id(e, 2)))
	if e.islands[0].statusOf(e, 1) != eliminated {
		t.Fatal("no valid tie vote: still tied, the weakest of the tied (seat 1, strength 8) leaves")
	}
}

func TestRealtvSecondTieRemovesWeakest(t *testing.T) {
	t.Parallel()
	e := rig(t, 1, 1, 9, 8, 7)
	votes(t, e, voteFor(id(e, 1)), voteFor(id(e, 2)), voteFor(id(e, 0)))
	votes(t, e, voteFor(id(e, 1)), voteFor(id(e, 2)), voteFor(id(e, 0)))
	isl := e.islands[0]
	if isl.statusOf(e, 2) != eliminated || isl.statusOf(e, 0) != active || isl.statusOf(e, 1) != active {
		t.Fatal("second tie: the weakest (seat 2) leaves")
	}
	// The weakest of those tied again, not of the first tie.
	e2 := rig(t, 1, 1, 9, 8, 7, 10)
	votes(t, e2, voteFor(id(e2, 1)), voteFor(id(e2, 2)), voteFor(id(e2, 0)), voteFor(""))
	votes(t, e2, voteFor(id(e2, 1)), voteFor(id(e2, 0)), voteFor("ZZZZZZZZZZ"))
	if e2.islands[0].statusOf(e2, 1) != eliminated {
		t.Fatal("tied again: 0 (9) and 1 (8), not 2 (7); the weakest of them is 1")
	}
}

func TestRealtvEqualStrengthTieRandomFromSeed(t *testing.T) {
	t.Parallel()
	out := func(seed uint64) int {
		e := rig(t, seed, 1, 9, 9, 9, 9)
		votes(t, e, voteFor(id(e, 1)), voteFor(id(e, 0)), voteFor(id(e, 3)), voteFor(id(e, 2)))
		votes(t, e, voteFor(id(e, 1)), voteFor(id(e, 0)), voteFor(id(e, 3)), voteFor(id(e, 2)))
		for s := range 4 {
			if e.islands[0].statusOf(e, s) == eliminated {
				return s
			}
		}
		t.Fatal("nobody left")
		return -1
	}
	seen := map[int]bool{}
	for seed := range uint64(40) {
		a := out(seed)
		if out(seed) != a {
			t.Fatal("same seed, different choice")
		}
		seen[a] = true
	}
	if len(seen) != 4 {
		t.Fatalf("over 40 seeds only %v were chosen", seen)
	}
}

func TestRealtvLastManGets100(t *testing.T) {
	t.Parallel()
	e := rig(t, 1, 1, 10, 5)
	votes(t, e, voteFor(id(e, 1)), voteFor(id(e, 0)))
	votes(t, e, voteFor(id(e, 1)), voteFor(id(e, 1)))
	if !e.Done() {
		t.Fatal("one player left: the island ends")
	}
	wantScores(t, e, 103, 3)
	if e.inst[0].won != 1 {
		t.Fatal("won not counted")
	}
}

func TestRealtvScoresAsOfStartOfDay(t *testing.T) {
	t.Parallel()
	e := rig(t, 1, 1, 10, 10, 10, 10)
	votes(t, e, voteFor(id(e, 1)), voteFor(id(e, 0)), voteFor(id(e, 3)), voteFor(id(e, 2)))
	// Tie vote on day 1: the trial gave +3, but contexts show the start of the day.
	o := observe(e, 0)
	if o.GetOwnScore() != 3 || o.GetActivePlayers()[id(e, 0)].GetScore() != 0 || o.GetCurrentTies()[id(e, 1)].GetScore() != 0 {
		t.Fatalf("own %v, context %v", o.GetOwnScore(), o.GetActivePlayers()[id(e, 0)].GetScore())
	}
	votes(t, e, voteFor(id(e, 1)), voteFor(id(e, 2)), voteFor(id(e, 1)), voteFor(id(e, 1)))
	o = observe(e, 0)
	if o.GetDay() != 2 || o.GetActivePlayers()[id(e, 2)].GetScore() != 3 || o.GetEliminatedPlayers()[id(e, 1)].GetScore() != 3 {
		t.Fatalf("day 2 context %v", o)
	}
}

func TestRealtvPreviousVotesPerInstance(t *testing.T) {
	t.Parallel()
	e := rig(t, 1, 1, 10, 10, 10, 10, 3)
	votes(t, e, voteFor(id(e, 1)), voteFor(id(e, 0)), voteFor(id(e, 3)), voteFor(id(e, 2)), voteFor(id(e, 4)))
	first := observe(e, 0) // tie-vote context: today's first votes are already there
	votes(t, e, voteFor(id(e, 1)), voteFor(id(e, 1)), voteFor(id(e, 1)), voteFor("XX"))
	o := observe(e, 0)
	pm := o.GetActivePlayers()[id(e, 2)].GetPreviousMoves()
	if len(pm) != 1 || pm[0].GetFirstVote() != id(e, 3) || pm[0].GetTieVote() != id(e, 1) {
		t.Fatalf("seat 2's votes %v", pm)
	}
	if pm := o.GetActivePlayers()[id(e, 3)].GetPreviousMoves(); pm[0].GetTieVote() != "XX" {
		t.Fatalf("an invalid tie vote is recorded as given: %v", pm)
	}
	if pm := o.GetBetrayers()[id(e, 4)].GetPreviousMoves(); len(pm) != 1 || pm[0].GetFirstVote() != id(e, 4) || pm[0].GetTieVote() != "" {
		t.Fatalf("traitor's votes %v", pm)
	}
	// An observation already handed out never changes.
	if old := first.GetActivePlayers()[id(e, 2)].GetPreviousMoves(); len(old) != 1 || old[0].GetTieVote() != "" {
		t.Fatalf("an earlier observation changed: %v", old)
	}
}

func TestRealtvTieContextHasTodaysTraitorsAsBetrayers(t *testing.T) {
	t.Parallel()
	e := rig(t, 1, 1, 10, 10, 10, 10, 0)
	votes(t, e, voteFor(id(e, 1)), voteFor(id(e, 0)), voteFor(id(e, 3)), voteFor(id(e, 2)), voteFor(""))
	o := observe(e, 0)
	if _, ok := o.GetBetrayers()[id(e, 4)]; !ok || len(o.GetActivePlayers()) != 4 {
		t.Fatalf("tie context: active %d, betrayers %v", len(o.GetActivePlayers()), o.GetBetrayers())
	}
}

func TestRealtvInstancesKeepScoreAcrossPhases(t *testing.T) {
	t.Parallel()
	e := rig(t, 1, 3, 10, 5)
	votes(t, e, voteFor(id(e, 1)), voteFor(id(e, 0)))
	votes(t, e, voteFor(id(e, 1)), voteFor(id(e, 1)))
	if e.phase != 1 || e.Done() {
		t.Fatal("phase 2 should have started")
	}
	o := observe(e, 0)
	if o.GetOwnScore() != 103 || o.GetActivePlayers()[id(e, 0)].GetScore() != 103 || o.GetGame().GetPhaseIndex() != 1 {
		t.Fatalf("phase 2: %v", o)
	}
	for !e.Done() {
		play(t, e, func(int, *arenav1.RealtvObservation) game.Answer { return voteFor("") })
	}
	if e.Score(0) != 103 || e.Score(1) != 3 {
		t.Fatal("scores lost")
	}
	out := e.Outcome()
	if out.Players[0].Score != 106 || out.Players[0].Result != game.ResultWin || out.Players[1].Result != game.ResultLoss {
		t.Fatalf("outcome %+v", out.Players)
	}
}

func TestRealtvIslandsVoteInParallel(t *testing.T) {
	t.Parallel()
	e := contest(t, 2, 4, 1)
	if len(e.islands) != 4 || len(e.Pending()) != 44 {
		t.Fatalf("%d islands, pending %v", len(e.islands), e.Pending())
	}
}

func TestRealtvContestRanksScriptsByTotal(t *testing.T) {
	t.Parallel()
	e := contest(t, 3, 3, 1)
	e.inst[0].score = 50 * unit
	e.inst[15].score = 30 * unit
	e.inst[16].score = 20 * unit
	e.inst[30].score = 49 * unit
	out := e.Outcome()
	if out.Players[0].Rank != 1 || out.Players[1].Rank != 1 || out.Players[2].Rank != 3 ||
		out.Players[0].Result != game.ResultDraw || out.Players[2].Result != game.ResultLoss {
		t.Fatalf("%+v", out.Players)
	}
	if out.Table[0][1] != "script" || out.Table[1][1] != "s0" || out.Table[1][4] != "50" || len(out.Table) != 1+3*12 {
		t.Fatalf("table %q", out.Table[:2])
	}
	end := &arenav1.EndRequest{}
	e.Final(16, end)
	if end.GetScore() != 20 || end.GetResult() != arenav1.Result_RESULT_DRAW {
		t.Fatalf("final %v", end)
	}
}

func TestRealtvDeadScriptBetraysEveryVote(t *testing.T) {
	t.Parallel()
	e := contest(t, 8, 2, 5)
	for !e.Done() {
		play(t, e, func(seat int, o *arenav1.RealtvObservation) game.Answer {
			if seat < 11 {
				return game.Answer{Fault: &game.Fault{Kind: game.FaultCrash, Detail: "bot is not running: exit status 2, and a long stderr tail"}}
			}
			for id := range o.GetActivePlayers() {
				if id != o.GetOwnId() {
					return voteFor(id)
				}
			}
			return voteFor("")
		})
	}
	long := 0
	for _, f := range e.Outcome().Faults {
		if f.Seat >= 11 || f.Kind != game.FaultCrash || f.Penalty != "betrayal" {
			t.Fatalf("fault %+v", f)
		}
		if f.Detail != "(as before)" {
			long++
		}
	}
	if long != 11 {
		t.Fatalf("%d faults carry the full text, want one per instance", long)
	}
	for s := range 11 {
		if in := e.inst[s]; in.trials != 0 || in.won != 0 || in.betrayals != 5 {
			t.Fatalf("dead instance %d: %+v", s, in)
		}
	}
}

func TestRealtvObservationBounded(t *testing.T) {
	t.Parallel()
	e := contest(t, 11, 3, 30)
	maxPlayers, maxMoves := 0, 0
	for !e.Done() {
		play(t, e, func(seat int, o *arenav1.RealtvObservation) game.Answer {
			n := len(o.GetActivePlayers()) + len(o.GetBetrayers()) + len(o.GetEliminatedPlayers())
			moves := 0
			for _, m := range []map[string]*arenav1.RealtvPlayer{o.GetActivePlayers(), o.GetBetrayers(), o.GetEliminatedPlayers()} {
				for _, p := range m {
					moves += len(p.GetPreviousMoves())
				}
			}
			maxPlayers, maxMoves = max(maxPlayers, n), max(maxMoves, moves)
			for id, p := range o.GetActivePlayers() {
				if id != o.GetOwnId() && p.GetStrength() < 5 {
					return voteFor(id)
				}
			}
			return voteFor(o.GetOwnId())
		})
	}
	if maxPlayers != 12 || maxMoves > 12*12 {
		t.Fatalf("observations up to %d players and %d votes", maxPlayers, maxMoves)
	}
}

func TestRealtvPhasesParam(t *testing.T) {
	t.Parallel()
	if _, err := Spec.NewEngine(game.Config{Players: []game.Player{{Name: "a"}}, Params: map[string]string{"phases": "0"}}); err == nil {
		t.Fatal("0 phases")
	}
	e, err := Spec.NewEngine(game.Config{Players: []game.Player{{Name: "a"}}})
	if err != nil || e.(*Engine).phases != 100 {
		t.Fatal("default is 100 phases")
	}
	if _, err := Spec.NewEngine(game.Config{}); err == nil {
		t.Fatal("no script")
	}
}

func TestRealtvApplyChecksSeats(t *testing.T) {
	t.Parallel()
	e := rig(t, 1, 1, 10, 10, 10)
	if err := e.Apply([]game.Answer{{Seat: 0}, {Seat: 1}}); err == nil {
		t.Fatal("missing answer")
	}
	if err := e.Apply([]game.Answer{{Seat: 0}, {Seat: 1}, {Seat: 5}}); err == nil {
		t.Fatal("seat 5 is not pending")
	}
	if err := e.Apply([]game.Answer{{Seat: 0}, {Seat: 1}, {Seat: 1}}); err == nil {
		t.Fatal("duplicate")
	}
}

func TestRealtvFreshFillersEachPhase(t *testing.T) {
	t.Parallel()
	e := contest(t, 12, 1, 40) // 11 instances + 1 filler per phase
	ids := map[string]bool{}
	strengths := map[int]bool{}
	for !e.Done() {
		for _, m := range e.islands[0].members {
			if m.seat < 0 && m.status == active && e.islands[0].day == 1 && len(m.votes) == 0 {
				if ids[m.id] {
					t.Fatalf("filler %s came back", m.id)
				}
				ids[m.id] = true
				strengths[m.strength] = true
			}
		}
		play(t, e, func(int, *arenav1.RealtvObservation) game.Answer { return voteFor("") })
	}
	if len(ids) != 40 || len(strengths) < 8 {
		t.Fatalf("%d fillers over 40 phases, %d distinct strengths", len(ids), len(strengths))
	}
}
