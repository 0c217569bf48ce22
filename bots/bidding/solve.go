package biddingbots

import (
	"sync"
	"sync/atomic"
)

// A bidding game has few enough states to solve one question exactly: what can I force
// against an opponent who sees my bid before making its own? That opponent is stronger than
// any real one (bids are sealed), so a win it cannot stop is a sure win, and a draw it cannot
// stop is a sure draw. Strong plays such a bid whenever one exists.

// outcome of a game for me, ordered so that larger is better.
type outcome int8

const (
	loss outcome = iota
	draw
	win
)

// places on the board from my point of view: need is how far the bottle still has to move to
// my end (0: I have won; places: the opponent has).
const places = 10

// guarantees holds the forced outcome of every state of one game shape (start money, rounds).
type guarantees struct {
	money, rounds int
	v             []outcome
}

// index of the state: my money, the opponent's, my need, rounds left (this one included), and
// whether I hold the draw advantage.
func (g *guarantees) index(m, o, need, left int, adv bool) int {
	i := ((left*(places+1)+need)*(g.money+1)*(g.money+1) + m*(g.money+1) + o) * 2
	if adv {
		i++
	}
	return i
}

// value is the forced outcome of a state (terminal states included).
func (g *guarantees) value(m, o, need, left int, adv bool) outcome {
	switch {
	case need <= 0:
		return win
	case need >= places:
		return loss
	case left <= 0:
		return draw
	}
	return g.v[g.index(m, o, need, left, adv)]
}

// worst is what a bid b forces: the opponent picks the reply that is worst for me. Among
// replies that beat me it only needs the cheapest, since money never hurts its owner.
func (g *guarantees) worst(m, o, need, left int, adv bool, b int) outcome {
	minBid := min(1, o)
	res := win
	if minBid < b { // it lets me win the round
		res = min(res, g.value(m-b, o, need-1, left-1, adv))
	}
	if b >= minBid && b <= o { // it ties: the advantage holder wins and the advantage passes
		if adv {
			res = min(res, g.value(m-b, o, need-1, left-1, false))
		} else {
			res = min(res, g.value(m, o-b, need+1, left-1, true))
		}
	}
	if b+1 <= o { // it outbids me by the least it can
		res = min(res, g.value(m, o-b-1, need+1, left-1, adv))
	}
	return res
}

// best returns the forced outcome of a state and every bid that forces it.
func (g *guarantees) best(m, o, need, left int, adv bool, bids []int) (outcome, []int) {
	bids = bids[:0]
	top := loss
	lo := min(1, m)
	for b := lo; b <= m; b++ {
		switch w := g.worst(m, o, need, left, adv, b); {
		case w > top:
			top, bids = w, append(bids[:0], b)
		case w == top:
			bids = append(bids, b)
		}
	}
	return top, bids
}

func solveGuarantees(money, rounds int) *guarantees {
	g := &guarantees{money: money, rounds: rounds}
	n := money + 1
	layer := n * n * 2 // one (need, left) slice: [m][o][adv]
	g.v = make([]outcome, (rounds+1)*(places+1)*layer)
	// Terminal layers: left == 0 is a draw; need 0 and need 10 are filled for every left so that
	// children can be read without branching.
	for left := 0; left <= rounds; left++ {
		for need := 0; need <= places; need++ {
			var v outcome
			switch {
			case need == 0:
				v = win
			case need == places:
				v = loss
			case left == 0:
				v = draw
			default:
				continue
			}
			base := (left*(places+1) + need) * layer
			for k := range layer {
				g.v[base+k] = v
			}
		}
	}
	for left := 1; left <= rounds; left++ {
		for need := 1; need < places; need++ {
			base := (left*(places+1) + need) * layer
			closer := g.v[((left-1)*(places+1)+need-1)*layer:][:layer]  // I won the round
			farther := g.v[((left-1)*(places+1)+need+1)*layer:][:layer] // it won the round
			for m := 0; m <= money; m++ {
				for o := 0; o <= money; o++ {
					for a := range 2 {
						g.v[base+(m*n+o)*2+a] = solveState(closer, farther, n, m, o, a)
					}
				}
			}
		}
	}
	return g
}

// solveState is best's value on flat layers, for speed: closer and farther are the states
// after a round I win or lose, indexed [(m*n+o)*2+adv]; a is 1 when I hold the advantage.
func solveState(closer, farther []outcome, n, m, o, a int) outcome {
	minO := min(1, o)
	top := loss
	for b := min(1, m); b <= m; b++ {
		w := win
		if minO < b {
			w = min(w, closer[((m-b)*n+o)*2+a])
		}
		if w > top && b >= minO && b <= o {
			if a == 1 {
				w = min(w, closer[((m-b)*n+o)*2])
			} else {
				w = min(w, farther[(m*n+o-b)*2+1])
			}
		}
		if w > top && b+1 <= o {
			w = min(w, farther[(m*n+o-b-1)*2+a])
		}
		if w > top {
			top = w
			if top == win {
				break
			}
		}
	}
	return top
}

// maxSolvedMoney bounds the table (its size grows with the square of the start money); above
// it Strong plays by heuristics alone.
const maxSolvedMoney = 200

// solving is one game shape's table, solved once.
type solving struct {
	once sync.Once
	done atomic.Bool
	g    *guarantees
}

var (
	tablesMu sync.Mutex
	tables   = map[[2]int]*solving{}
)

func entry(money, rounds int) *solving {
	if money < 0 || money > maxSolvedMoney || rounds < 1 || rounds > 50 {
		return nil
	}
	tablesMu.Lock()
	defer tablesMu.Unlock()
	k := [2]int{money, rounds}
	e := tables[k]
	if e == nil {
		e = &solving{}
		tables[k] = e
	}
	return e
}

func (e *solving) solve(money, rounds int) *guarantees {
	e.once.Do(func() {
		e.g = solveGuarantees(money, rounds)
		e.done.Store(true)
	})
	return e.g
}

// guaranteesFor returns the solved table for a game shape, solving it now if need be, or nil
// when the shape is too big.
func guaranteesFor(money, rounds int) *guarantees {
	e := entry(money, rounds)
	if e == nil {
		return nil
	}
	return e.solve(money, rounds)
}

// readyGuarantees returns the table for a game shape if it is solved, and otherwise starts
// solving it in the background and returns nil, so that no bid waits for it.
func readyGuarantees(money, rounds int) *guarantees {
	e := entry(money, rounds)
	if e == nil {
		return nil
	}
	if e.done.Load() {
		return e.g
	}
	go e.solve(money, rounds)
	return nil
}
