package host

import (
	"fmt"
	"strings"
	"testing"
)

func TestCauseKeepsTheErrorLine(t *testing.T) {
	// Node 20's report of a syntax error: the frames of its own loader pushed the SyntaxError
	// line out of the last 8 lines.
	node := strings.Split(`/bot/bot.js:3
const x = = 1;
          ^
SyntaxError: Unexpected token '='
    at wrapSafe (node:internal/modules/cjs/loader:1378:20)
    at Module._compile (node:internal/modules/cjs/loader:1428:41)
    at Module._extensions..js (node:internal/modules/cjs/loader:1548:10)
    at Module.load (node:internal/modules/cjs/loader:1288:32)
    at Module._load (node:internal/modules/cjs/loader:1104:12)
    at Function.executeUserEntryPoint [as runMain] (node:internal/modules/run_main:174:12)
    at node:internal/main/run_main_module:28:49
Node.js v20.20.2
arena-bridge: the bot's program exited (exit status 1)`, "\n")
	got := DeathLines(node, 8)
	if len(got) != 5 || got[3] != "SyntaxError: Unexpected token '='" || got[0] != "/bot/bot.js:3" {
		t.Fatalf("node: %q", got)
	}
	// A Go panic with a long stack: the panic line stays, with the end.
	goPanic := []string{"panic: no config file", "goroutine 1 [running]:"}
	for i := range 40 {
		goPanic = append(goPanic, fmt.Sprintf("main.f%d()", i), fmt.Sprintf("\t/bot/main.go:%d +0x25", i))
	}
	goPanic = append(goPanic, "exit status 2")
	got = DeathLines(goPanic, 8)
	if len(got) != 8 || got[0] != "panic: no config file" || got[7] != "exit status 2" || !strings.Contains(got[5], "lines ...]") {
		t.Fatalf("go: %q", got)
	}
	// Nothing that names an error: the last lines.
	plain := []string{"a", "b", "c"}
	if got := DeathLines(plain, 2); len(got) != 2 || got[1] != "c" {
		t.Fatalf("plain: %q", got)
	}
}

func TestOwnFilesNamesTheSubmission(t *testing.T) {
	cases := []struct{ line, files, want string }{
		{"/bot/bot.js:3", "mybot", "mybot/bot.js:3"},
		{`  File "/bot/x.py", line 1`, ".", `  File "x.py", line 1`},
		{"at (/bot/lib/a.js:1:2) /botany/x", "m", "at (m/lib/a.js:1:2) /botany/x"},
		{"/bot/bot.js:3", "", "/bot/bot.js:3"},
	}
	for _, c := range cases {
		if got := ownFiles(c.line, c.files); got != c.want {
			t.Errorf("ownFiles(%q, %q) = %q, want %q", c.line, c.files, got, c.want)
		}
	}
}
