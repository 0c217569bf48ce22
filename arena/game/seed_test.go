package game_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/botarena/arena/arena/game"
)

// A seed above 2^53 survives JSON exactly, as a string, and older records' numbers still read.
func TestSeedIsAStringInJSON(t *testing.T) {
	t.Parallel()
	const big = 18446744073709365019 // 2^64 - 186597: JavaScript would show ...365000
	cfg := game.Config{Seed: big, Players: []game.Player{{Name: "a"}}, Params: map[string]string{"games": "3"}}
	b, err := json.Marshal(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), `"seed":"18446744073709365019"`) || strings.Count(string(b), `"seed"`) != 1 {
		t.Fatalf("seed not written once as a string: %s", b)
	}
	for _, in := range []string{string(b), `{"seed":18446744073709365019,"players":[{"name":"a"}],"params":{"games":"3"}}`} {
		var back game.Config
		if err := json.Unmarshal([]byte(in), &back); err != nil {
			t.Fatal(err)
		}
		if back.Seed != big || len(back.Players) != 1 || back.Params["games"] != "3" {
			t.Fatalf("read %s as %+v", in, back)
		}
	}
	var bad game.Config
	if err := json.Unmarshal([]byte(`{"seed":"-1"}`), &bad); err == nil || !strings.Contains(err.Error(), "seed") {
		t.Fatalf("negative seed read with %v", err)
	}
}
