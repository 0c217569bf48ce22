package realtv

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/botarena/arena/arena/game"
	arenav1 "github.com/botarena/arena/proto/arena/v1"
)

// The seed's constants.
const (
	PlayersPerIsland    = 12
	InstancesPerPlayer  = 11 // strengths 0..10
	ScoreForTrial       = 3
	ScoreForLastMan     = 100
	ScoreForAllTraitors = 100
	DifficultyA         = 7
	DifficultyB         = -3
	// FillerName is the class name filler bots show (the original engine's BotPareto).
	FillerName = "BotPareto"
	// IDLength and IDAlphabet shape instance ids, as the original Player.__init__ drew them.
	IDLength   = 10
	IDAlphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
)

// unit is one point: scores are kept as integers of 1/unit points. unit = lcm(1..12), so the
// 100 points of a failed trial split exactly among the up to 12 traitors of an island.
const unit = 27720

// Points converts an exact score to points.
func Points(units int64) float64 { return float64(units) / unit }

// Difficulty of a trial with n players.
func Difficulty(n int) int { return DifficultyA*n + DifficultyB }

// Spec describes the game; init registers it.
var Spec game.Spec

func init() {
	Spec = game.Spec{
		Name: "realtv",
		Summary: "Real TV island contest: each script plays 11 instances (strengths 0..10) over many phases " +
			"of islands of 12; vote, betray, pass trials, be the last one standing",
		MinPlayers: 1,
		MaxPlayers: 0,
		Params: []game.Param{
			{Name: "phases", Default: "100", Help: "phases in the contest (each instance visits one island per phase)"},
		},
		New:   New,
		Legal: RandomLegal,
		// Ten phases keep the suite quick and still ask every seat again after step 7 (each phase
		// opens with a vote of every instance), which EveryFaultKindHandled needs. An island lasts
		// at most 11 days of two votes each.
		Test: game.TestPlan{Players: []int{1, 2, 5}, Params: map[string]string{"phases": "10"}, MaxSteps: 10 * 22},
		// A contest ranks scripts by the total score of their instances.
		Ranking: game.RankByTotal,
	}
	game.Register(Spec)
}

type status uint8

const (
	active status = iota
	betrayer
	eliminated
)

type stage uint8

const (
	stageFirst stage = iota // waiting for the day's elimination votes
	stageTie                // waiting for the tie votes
	stageOver               // the island has ended
)

// instance is one seat: a script's instance with a fixed strength.
type instance struct {
	player   int
	strength int
	id       string
	score    int64 // exact, in units
	// where it is this phase
	island, member int
	// statistics for the table
	won, trials, betrayals, eliminated, bounties, islands int
	lastDetail                                            string
}

// member is a player on an island: an instance (seat >= 0) or a filler bot (seat -1).
type member struct {
	seat     int
	id       string
	name     string
	strength int
	filler   int64 // a filler's own score, in units (instances keep theirs in instance.score)
	status   status
	dayScore int64 // score at the start of the day, as contexts show it
	// votes on this island, one entry per day. Observations share these messages, so an entry
	// is never changed once an observation may hold it: the tie vote replaces the day's entry.
	votes []*arenav1.RealtvVotes
}

type island struct {
	index   int
	members []member
	day     int
	stage   stage
	ties    []int // member indexes of the current tie
}

// Engine runs one contest.
type Engine struct {
	cfg    game.Config
	phases int
	names  []string // script names, made unique
	r      *rand.Rand
	ids    map[string]bool
	inst   []instance
	seats  []game.Seat

	phase     int
	islands   []*island
	totalBots int
	done      bool

	pending   []int
	isPending []bool
	faults    []game.FaultRecord
	outcome   *game.Outcome // cached once done
}

// New builds a contest.
func New(cfg game.Config) (game.Engine, error) {
	phases, err := Spec.Int(cfg, "phases", 1, 1_000_000)
	if err != nil {
		return nil, err
	}
	e := &Engine{cfg: cfg, phases: phases, r: rand.New(rand.NewPCG(cfg.Seed, 0x7ea1_7)), ids: map[string]bool{}}
	e.names = uniqueNames(cfg.Players)
	for p := range cfg.Players {
		for s := range InstancesPerPlayer {
			e.inst = append(e.inst, instance{player: p, strength: s, id: e.newID()})
			e.seats = append(e.seats, game.Seat{Player: p, Name: e.names[p] + " STR=" + strconv.Itoa(s)})
		}
	}
	e.isPending = make([]bool, len(e.inst))
	e.startPhase()
	return e, nil
}

// classOf is the class name other players see for script p: what the bot calls itself when
// known (RULES.md: PlayerContext.name is the class name), else its display name.
func (e *Engine) classOf(p int) string {
	if c := e.cfg.Players[p].Class; c != "" {
		return c
	}
	return e.names[p]
}

func uniqueNames(ps []game.Player) []string {
	seen := map[string]bool{}
	out := make([]string, len(ps))
	for i, p := range ps {
		base := p.Name
		if base == "" {
			base = "script" + strconv.Itoa(i)
		}
		n := base
		for k := 2; seen[n]; k++ {
			n = base + "#" + strconv.Itoa(k)
		}
		seen[n] = true
		out[i] = n
	}
	return out
}

// newID draws an id of 10 upper-case letters and digits, unique in the contest.
func (e *Engine) newID() string {
	var b [IDLength]byte
	for {
		for i := range b {
			b[i] = IDAlphabet[e.r.IntN(len(IDAlphabet))]
		}
		if id := string(b[:]); !e.ids[id] {
			e.ids[id] = true
			return id
		}
	}
}

// Seats are the instances: seat p*11+s is script p's instance of strength s.
func (e *Engine) Seats() []game.Seat { return e.seats }

// Setup tells an instance who it is.
func (e *Engine) Setup(seat int, req *arenav1.StartRequest) {
	in := &e.inst[seat]
	req.Setup = &arenav1.StartRequest_Realtv{Realtv: &arenav1.RealtvSetup{
		Id: in.id, Name: e.classOf(in.player), Strength: int32(in.strength), Phases: int32(e.phases),
		PlayersPerIsland: PlayersPerIsland, Instance: int32(in.strength)}}
}

// IslandSizes spreads h instances as evenly as possible over ceil(h/12) islands, the larger
// islands first (as the original Arena.makeIslands did).
func IslandSizes(h int) []int {
	n := (h + PlayersPerIsland - 1) / PlayersPerIsland
	sizes := make([]int, n)
	for i := range sizes {
		sizes[i] = h / n
		if i < h%n {
			sizes[i]++
		}
	}
	return sizes
}

// startPhase shuffles the instances over fresh islands and fills them with filler bots.
func (e *Engine) startPhase() {
	order := e.r.Perm(len(e.inst))
	sizes := IslandSizes(len(e.inst))
	e.islands = e.islands[:0]
	e.totalBots = len(sizes)*PlayersPerIsland - len(e.inst)
	next := 0
	for i, size := range sizes {
		isl := &island{index: i}
		for _, seat := range order[next : next+size] {
			in := &e.inst[seat]
			isl.members = append(isl.members, member{seat: seat, id: in.id, name: e.classOf(in.player), strength: in.strength})
		}
		next += size
		for len(isl.members) < PlayersPerIsland {
			isl.members = append(isl.members, member{seat: -1, id: e.newID(), name: FillerName, strength: e.r.IntN(InstancesPerPlayer)})
		}
		// Seat order on the island is random too (it decides which of equally weak players a
		// filler bot picks).
		e.r.Shuffle(len(isl.members), func(a, b int) { isl.members[a], isl.members[b] = isl.members[b], isl.members[a] })
		for m, mb := range isl.members {
			if mb.seat >= 0 {
				in := &e.inst[mb.seat]
				in.island, in.member = i, m
				in.islands++
			}
		}
		e.islands = append(e.islands, isl)
		e.beginDay(isl)
	}
	e.refreshPending()
}

func (e *Engine) score(m *member) int64 {
	if m.seat >= 0 {
		return e.inst[m.seat].score
	}
	return m.filler
}

func (e *Engine) award(m *member, units int64) {
	if m.seat >= 0 {
		e.inst[m.seat].score += units
	} else {
		m.filler += units
	}
}

// beginDay starts the next day of an island; the contexts show scores as of now.
func (e *Engine) beginDay(isl *island) {
	isl.day++
	isl.stage = stageFirst
	isl.ties = isl.ties[:0]
	for m := range isl.members {
		mb := &isl.members[m]
		mb.dayScore = e.score(mb)
	}
	e.playFillersOnly(isl)
}

// playFillersOnly plays out an island on which no instance is active any more: nobody needs to
// be asked, so its days run here, at once.
func (e *Engine) playFillersOnly(isl *island) {
	for isl.stage != stageOver {
		for _, mb := range isl.members {
			if mb.seat >= 0 && mb.status == active {
				return
			}
		}
		if isl.stage == stageFirst {
			e.resolveFirst(isl, nil)
		} else {
			e.resolveTie(isl, nil)
		}
	}
}

func (e *Engine) refreshPending() {
	for _, s := range e.pending {
		e.isPending[s] = false
	}
	e.pending = e.pending[:0]
	if e.done {
		return
	}
	for _, isl := range e.islands {
		if isl.stage == stageOver {
			continue
		}
		for _, mb := range isl.members {
			if mb.seat >= 0 && mb.status == active {
				e.pending = append(e.pending, mb.seat)
				e.isPending[mb.seat] = true
			}
		}
	}
	slices.Sort(e.pending)
}

// Pending is every active instance of every island still running.
func (e *Engine) Pending() []int {
	if e.done {
		return nil
	}
	return e.pending
}

// Observe gives an instance its island's context (at most 12 players).
func (e *Engine) Observe(seat int, req *arenav1.ActRequest) {
	in := &e.inst[seat]
	isl := e.islands[in.island]
	o := &arenav1.RealtvObservation{
		Decision:          arenav1.RealtvDecision_REALTV_DECISION_ELIMINATION,
		IslandIndex:       int32(isl.index),
		Game:              &arenav1.RealtvGameContext{TotalBots: int32(e.totalBots), TotalHumans: int32(len(e.inst)), PhaseIndex: int32(e.phase)},
		ActivePlayers:     map[string]*arenav1.RealtvPlayer{},
		Betrayers:         map[string]*arenav1.RealtvPlayer{},
		EliminatedPlayers: map[string]*arenav1.RealtvPlayer{},
		OwnScore:          Points(in.score),
		OwnId:             in.id,
		Day:               int32(isl.day),
	}
	ctx := make([]*arenav1.RealtvPlayer, len(isl.members))
	for m := range isl.members {
		mb := &isl.members[m]
		p := &arenav1.RealtvPlayer{Id: mb.id, Name: mb.name, Strength: int32(mb.strength), Score: Points(mb.dayScore),
			PreviousMoves: mb.votes}
		ctx[m] = p
		switch mb.status {
		case active:
			o.ActivePlayers[mb.id] = p
		case betrayer:
			o.Betrayers[mb.id] = p
		case eliminated:
			o.EliminatedPlayers[mb.id] = p
		}
	}
	if isl.stage == stageTie {
		o.Decision = arenav1.RealtvDecision_REALTV_DECISION_TIE
		o.CurrentTies = make(map[string]*arenav1.RealtvPlayer, len(isl.ties))
		for _, m := range isl.ties {
			o.CurrentTies[isl.members[m].id] = ctx[m]
		}
	}
	req.Observation = &arenav1.ActRequest_Realtv{Realtv: o}
}

// Apply takes one vote from every pending instance and advances every island by one vote.
func (e *Engine) Apply(answers []game.Answer) error {
	if e.done {
		return fmt.Errorf("realtv: apply after the end")
	}
	if len(answers) != len(e.pending) {
		return fmt.Errorf("realtv: %w: %d answers for %d pending seats", game.ErrNotPending, len(answers), len(e.pending))
	}
	got := make(map[int]*game.Answer, len(answers))
	for i := range answers {
		a := &answers[i]
		if a.Seat < 0 || a.Seat >= len(e.inst) || !e.isPending[a.Seat] || got[a.Seat] != nil {
			return fmt.Errorf("realtv: %w: seat %d", game.ErrNotPending, a.Seat)
		}
		got[a.Seat] = a
	}
	for _, isl := range e.islands {
		switch isl.stage {
		case stageFirst:
			e.resolveFirst(isl, got)
		case stageTie:
			e.resolveTie(isl, got)
		}
		e.playFillersOnly(isl)
	}
	over := true
	for _, isl := range e.islands {
		over = over && isl.stage == stageOver
	}
	if over {
		e.phase++
		if e.phase >= e.phases {
			e.done = true
		} else {
			e.startPhase()
			return nil
		}
	}
	e.refreshPending()
	return nil
}

// vote reads an instance's answer: the id voted for, or the fault that stands for it.
func (e *Engine) vote(a *game.Answer) (id string, k game.FaultKind, detail string) {
	if a.Fault != nil {
		return "", a.Fault.Kind, a.Fault.Detail
	}
	// game.Judge let through only a realtv vote.
	return a.Action.GetRealtv().GetVoteId(), game.FaultNone, ""
}

func (e *Engine) where(isl *island, tie bool) string {
	w := "phase " + strconv.Itoa(e.phase+1) + ", island " + strconv.Itoa(isl.index+1) + ", day " + strconv.Itoa(isl.day)
	if tie {
		w += ", tie vote"
	}
	return w
}

func (e *Engine) charge(seat int, where string, k game.FaultKind, detail, penalty string) {
	in := &e.inst[seat]
	// A dead script faults on every later vote with the same text: keep the record short.
	if detail != "" && detail == in.lastDetail {
		detail = "(as before)"
	} else if detail != "" {
		in.lastDetail = detail
	}
	e.faults = append(e.faults, game.FaultRecord{Seat: seat, Where: where, Kind: k, Detail: detail, Penalty: penalty})
}

// fillerVote is the filler bots' rule: the weakest of the candidates 80% of the time, the
// strongest 20% (themselves included); among equals the first in island order.
func (e *Engine) fillerVote(isl *island, candidates []int) int {
	weakest := e.r.Float64() < 0.8
	best := -1
	for _, m := range candidates {
		s := isl.members[m].strength
		if best < 0 || (weakest && s < isl.members[best].strength) || (!weakest && s > isl.members[best].strength) {
			best = m
		}
	}
	return best
}

func (isl *island) activeMembers() []int {
	var out []int
	for m := range isl.members {
		if isl.members[m].status == active {
			out = append(out, m)
		}
	}
	return out
}

func (isl *island) find(id string) int {
	for m := range isl.members {
		if isl.members[m].id == id {
			return m
		}
	}
	return -1
}

// resolveFirst applies the day's elimination votes: betrayal, the trial, the elimination.
func (e *Engine) resolveFirst(isl *island, got map[int]*game.Answer) {
	act := isl.activeMembers()
	target := make([]int, len(isl.members)) // member voted for, -1 for a betrayal
	where := ""
	for _, m := range act {
		mb := &isl.members[m]
		target[m] = -1
		day := &arenav1.RealtvVotes{}
		mb.votes = append(mb.votes, day)
		if mb.seat < 0 {
			t := e.fillerVote(isl, act)
			day.FirstVote = isl.members[t].id
			if t != m {
				target[m] = t
			}
			continue
		}
		if where == "" {
			where = e.where(isl, false)
		}
		id, k, detail := e.vote(got[mb.seat])
		day.FirstVote = id
		if k != game.FaultNone {
			e.charge(mb.seat, where, k, detail, "betrayal")
			continue
		}
		t := isl.find(id)
		switch {
		case id == "" || t == m:
			// No vote, or a vote for oneself: the seed's way to betray. Not a fault.
		case t < 0 || isl.members[t].status != active:
			e.charge(mb.seat, where, game.FaultIllegal, fmt.Sprintf("voted for %q, who is not an active player", id), "betrayal")
		default:
			target[m] = t
		}
	}
	// Traitors leave now.
	for _, m := range act {
		if target[m] < 0 {
			isl.members[m].status = betrayer
			if s := isl.members[m].seat; s >= 0 {
				e.inst[s].betrayals++
			}
		}
	}
	rest := isl.activeMembers()
	switch len(rest) {
	case 0:
		isl.stage = stageOver // nobody scores
		return
	case 1:
		e.lastMan(isl, rest[0])
		return
	}
	sum := 0
	for _, m := range rest {
		sum += isl.members[m].strength
	}
	if sum < Difficulty(len(rest)) {
		e.trialFailed(isl)
		return
	}
	for _, m := range rest {
		e.award(&isl.members[m], ScoreForTrial*unit)
		if s := isl.members[m].seat; s >= 0 {
			e.inst[s].trials++
		}
	}
	// Votes for today's traitors are lost; traitors' own votes do not count.
	count := make([]int, len(isl.members))
	any := false
	for _, m := range rest {
		if t := target[m]; t >= 0 && isl.members[t].status == active {
			count[t]++
			any = true
		}
	}
	if !any {
		e.beginDay(isl) // nobody leaves
		return
	}
	top := mostVoted(rest, count)
	if len(top) == 1 {
		e.eliminate(isl, top[0])
		return
	}
	isl.stage = stageTie
	isl.ties = append(isl.ties[:0], top...)
}

// mostVoted returns the candidates with the most votes, in island order.
func mostVoted(candidates, count []int) []int {
	best := -1
	var top []int
	for _, m := range candidates {
		switch {
		case count[m] > best:
			best = count[m]
			top = append(top[:0], m)
		case count[m] == best:
			top = append(top, m)
		}
	}
	return top
}

// resolveTie applies the tie votes: invalid ones are ignored; a second tie removes the weakest,
// and among equally weak a random one.
func (e *Engine) resolveTie(isl *island, got map[int]*game.Answer) {
	act := isl.activeMembers()
	count := make([]int, len(isl.members))
	inTie := make([]bool, len(isl.members))
	for _, m := range isl.ties {
		inTie[m] = true
	}
	where := ""
	for _, m := range act {
		mb := &isl.members[m]
		n := len(mb.votes)
		day := &arenav1.RealtvVotes{FirstVote: mb.votes[n-1].GetFirstVote()}
		// Copy on write: earlier observations still hold the old slice and entry.
		mb.votes = append(mb.votes[:n-1:n-1], day)
		if mb.seat < 0 {
			t := e.fillerVote(isl, isl.ties)
			day.TieVote = isl.members[t].id
			count[t]++
			continue
		}
		if where == "" {
			where = e.where(isl, true)
		}
		id, k, detail := e.vote(got[mb.seat])
		day.TieVote = id
		if k != game.FaultNone {
			e.charge(mb.seat, where, k, detail, "tie vote ignored")
			continue
		}
		t := isl.find(id)
		switch {
		case id == "":
			// No tie vote: ignored, as an abstention.
		case t < 0 || !inTie[t]:
			e.charge(mb.seat, where, game.FaultIllegal, fmt.Sprintf("tie vote for %q, who is not among the tied", id), "tie vote ignored")
		default:
			count[t]++
		}
	}
	top := mostVoted(isl.ties, count)
	if len(top) > 1 {
		weakest := isl.members[top[0]].strength
		for _, m := range top {
			weakest = min(weakest, isl.members[m].strength)
		}
		var equal []int
		for _, m := range top {
			if isl.members[m].strength == weakest {
				equal = append(equal, m)
			}
		}
		top = equal
		if len(top) > 1 {
			top = []int{top[e.r.IntN(len(top))]}
		}
	}
	e.eliminate(isl, top[0])
}

func (e *Engine) eliminate(isl *island, m int) {
	isl.members[m].status = eliminated
	if s := isl.members[m].seat; s >= 0 {
		e.inst[s].eliminated++
	}
	if rest := isl.activeMembers(); len(rest) == 1 {
		e.lastMan(isl, rest[0])
		return
	}
	e.beginDay(isl)
}

func (e *Engine) lastMan(isl *island, m int) {
	e.award(&isl.members[m], ScoreForLastMan*unit)
	if s := isl.members[m].seat; s >= 0 {
		e.inst[s].won++
	}
	isl.stage = stageOver
}

// trialFailed ends the island and splits the bounty among all its traitors so far.
func (e *Engine) trialFailed(isl *island) {
	isl.stage = stageOver
	var traitors []int
	for m := range isl.members {
		if isl.members[m].status == betrayer {
			traitors = append(traitors, m)
		}
	}
	if len(traitors) == 0 {
		return
	}
	share := int64(ScoreForAllTraitors*unit) / int64(len(traitors))
	for _, m := range traitors {
		e.award(&isl.members[m], share)
		if s := isl.members[m].seat; s >= 0 {
			e.inst[s].bounties++
		}
	}
}

// Done reports the end of the contest.
func (e *Engine) Done() bool { return e.done }

// Final tells an instance its score and its script's result.
func (e *Engine) Final(seat int, req *arenav1.EndRequest) {
	out := e.Outcome()
	req.Result = out.Players[e.inst[seat].player].Result.Proto()
	req.Score = Points(e.inst[seat].score)
}

// Score of an instance now, in points.
func (e *Engine) Score(seat int) float64 { return Points(e.inst[seat].score) }

// ID of an instance.
func (e *Engine) ID(seat int) string { return e.inst[seat].id }

// Phase being played, from 0.
func (e *Engine) Phase() int { return e.phase }

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
