package game

import (
	"errors"
	"reflect"
	"testing"
)

func TestByScore(t *testing.T) {
	t.Parallel()
	cases := []struct {
		scores []float64
		want   []Result
		ranks  []int
	}{
		{[]float64{3, 1}, []Result{ResultWin, ResultLoss}, []int{1, 2}},
		{[]float64{2, 2}, []Result{ResultDraw, ResultDraw}, []int{1, 1}},
		{[]float64{1, 5, 5, 0}, []Result{ResultLoss, ResultDraw, ResultDraw, ResultLoss}, []int{3, 1, 1, 4}},
	}
	for _, c := range cases {
		out := ByScore(c.scores)
		var got []Result
		var ranks []int
		for _, p := range out {
			got, ranks = append(got, p.Result), append(ranks, p.Rank)
		}
		if !reflect.DeepEqual(got, c.want) || !reflect.DeepEqual(ranks, c.ranks) {
			t.Errorf("ByScore(%v) = %v ranks %v, want %v ranks %v", c.scores, got, ranks, c.want, c.ranks)
		}
	}
}

func TestSpecChecksPlayersAndParams(t *testing.T) {
	t.Parallel()
	s := Spec{Name: "g", MinPlayers: 2, MaxPlayers: 2, Params: []Param{{Name: "n", Default: "3"}},
		New: func(Config) (Engine, error) { return nil, nil }}
	if _, err := s.NewEngine(Config{Players: []Player{{}}}); !errors.Is(err, ErrPlayers) {
		t.Errorf("one player: %v", err)
	}
	if _, err := s.NewEngine(Config{Players: []Player{{}, {}}, Params: map[string]string{"m": "1"}}); !errors.Is(err, ErrParam) {
		t.Errorf("unknown param: %v", err)
	}
	if n, err := s.Int(Config{}, "n", 1, 9); n != 3 || err != nil {
		t.Errorf("default: %d %v", n, err)
	}
	if _, err := s.Int(Config{Params: map[string]string{"n": "x"}}, "n", 1, 9); !errors.Is(err, ErrParam) {
		t.Errorf("not a number: %v", err)
	}
	if _, err := s.Int(Config{Params: map[string]string{"n": "10"}}, "n", 1, 9); !errors.Is(err, ErrParam) {
		t.Errorf("out of range: %v", err)
	}
	if _, err := Lookup("no-such-game"); !errors.Is(err, ErrUnknownGame) {
		t.Errorf("lookup: %v", err)
	}
}
