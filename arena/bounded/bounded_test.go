package bounded

import (
	"os"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestText(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name string
		in   string
		max  int
		want string // exact result, or "" to check only the properties
	}{
		{"short is kept", "hello", 10, "hello"},
		{"exact fit", "0123456789", 10, "0123456789"},
		{"cut keeps head and tail", "aaaaabbbbbbbbbbccccc", 10, "aaaaa\n[... 10 bytes cut ...]\nccccc"},
		{"invalid utf-8 is replaced", "a\xffb", 10, "a?b"},
		{"cut inside a rune", "ééééééééé", 5, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			got := Text(c.in, c.max)
			if c.want != "" && got != c.want {
				t.Fatalf("Text(%q, %d) = %q, want %q", c.in, c.max, got, c.want)
			}
			if !utf8.ValidString(got) {
				t.Fatalf("not UTF-8: %q", got)
			}
			if len(c.in) > c.max && !strings.Contains(got, "bytes cut") {
				t.Fatalf("no cut marker: %q", got)
			}
		})
	}
}

func TestTextBig(t *testing.T) {
	t.Parallel()
	in := "HEAD" + strings.Repeat("x", 4<<20) + "TAIL"
	got := Text(in, Message)
	if len(got) > Message+64 || !strings.HasPrefix(got, "HEAD") || !strings.HasSuffix(got, "TAIL") ||
		!strings.Contains(got, "[... 4193288 bytes cut ...]") {
		t.Fatalf("len %d: %.80q ... %.80q", len(got), got, got[len(got)-80:])
	}
}

func TestOneLine(t *testing.T) {
	t.Parallel()
	if got := OneLine("evil\nFAULT forged\x1b[2J", Name); got != "evil FAULT forged [2J" {
		t.Fatalf("%q", got)
	}
	if got := OneLine(strings.Repeat("n", 1000), Name); len(got) > Name+40 || strings.Contains(got, "\n") {
		t.Fatalf("%q", got)
	}
}

func TestLines(t *testing.T) {
	t.Parallel()
	in := "first\n" + strings.Repeat("y", 100000) + "\nlast"
	got := Lines(in, Trace)
	if len(got) > Trace+64 || !strings.HasPrefix(got, "first\n") || !strings.HasSuffix(got, "\nlast") {
		t.Fatalf("len %d: %q", len(got), got)
	}
	many := strings.Repeat("z\n", 5<<20)
	if got := Lines(many, Trace); len(got) > Trace+64 {
		t.Fatalf("a flood of short lines kept %d bytes", len(got))
	}
}

// A RecursionError-like traceback through copy.deepcopy (made by testdata's recipe: 600
// frames of copy.py between two frames of the bot): the bot's frames, the header and the
// final error survive; the last 8 lines would show only copy.py.
func TestTracebackThroughLibrary(t *testing.T) {
	t.Parallel()
	raw, err := os.ReadFile("testdata/deepcopy.txt")
	if err != nil {
		t.Fatal(err)
	}
	tb := string(raw)
	got := Traceback(tb, Trace)
	if len(got) > Trace+256 {
		t.Fatalf("kept %d bytes:\n%s", len(got), got)
	}
	for _, want := range []string{
		"Traceback (most recent call last):\n",
		`/tmp/mine/bot.py", line 10, in move`,
		"return copy.deepcopy(deep(300))",
		`/tmp/mine/bot.py", line 4, in __deepcopy__`,
		"ValueError: boom xxx",
		"frames cut ...]",
		"bytes cut ...]", // the 2000-byte error line
	} {
		if !strings.Contains(got, want) {
			t.Errorf("missing %q in:\n%s", want, got)
		}
	}
	if !strings.HasSuffix(strings.TrimSpace(got), "xxxx") {
		t.Errorf("the final error line is not last:\n%s", got)
	}
}

func TestTracebackChainedAndGo(t *testing.T) {
	t.Parallel()
	frame := "  File \"/usr/lib/python3.11/json/decoder.py\", line 337, in decode\n    obj, end = self.raw_decode(s, idx=_w(s, 0).end())\n"
	chained := pyHeader + "\n" + strings.Repeat(frame, 200) + "KeyError: 'a'\n\nDuring handling of the above exception, another exception occurred:\n\n" +
		pyHeader + "\n  File \"/home/me/bot.py\", line 3, in move\n    json.loads(x)\n" + strings.Repeat(frame, 200) + "json.decoder.JSONDecodeError: Expecting value\n"
	got := Traceback(chained, Trace)
	for _, want := range []string{"earlier chained exceptions cut", "/home/me/bot.py", "JSONDecodeError: Expecting value"} {
		if !strings.Contains(got, want) {
			t.Errorf("missing %q in:\n%s", want, got)
		}
	}
	if len(got) > Trace+256 {
		t.Errorf("kept %d bytes", len(got))
	}
	goStack := "goroutine 1 [running]:\nmain.crash()\n" + strings.Repeat("\truntime/x.go:1 +0x1\n", 10000) + "main.main()\n"
	got = Traceback(goStack, Trace)
	if !strings.HasPrefix(got, "goroutine 1 [running]:\nmain.crash()") || !strings.HasSuffix(got, "main.main()\n") || len(got) > Trace+64 {
		t.Errorf("go stack kept %d bytes: %q", len(got), got)
	}
}

func FuzzTraceback(f *testing.F) {
	f.Add(pyHeader+"\n  File \"a.py\", line 1, in m\n    x\nE: y\n", 100)
	f.Add("plain", 3)
	f.Fuzz(func(t *testing.T, s string, max int) {
		if max < 64 || max > 1<<16 {
			max = 64 + (max&0x7fffffff)%(1<<16)
		}
		for _, got := range []string{Text(s, max), Traceback(s, max), Lines(s, max)} {
			if !utf8.ValidString(got) {
				t.Fatalf("not UTF-8: %q", got)
			}
			if len(got) > 2*max+256 {
				t.Fatalf("%d bytes kept for max %d", len(got), max)
			}
		}
	})
}

func TestSize(t *testing.T) {
	for n, want := range map[int64]string{300: "300 bytes", 64 << 20: "64 MiB", 1536: "1.5 KiB", 67108864 + 5<<20: "69 MiB", 3 << 30: "3 GiB"} {
		if got := Size(n); got != want {
			t.Errorf("Size(%d) = %q, want %q", n, got, want)
		}
	}
}
