package docs_test

import (
	"fmt"
	"os"
	"regexp"
	"strings"
	"testing"

	"google.golang.org/protobuf/proto"

	arenav1 "github.com/botarena/arena/proto/arena/v1"
	"github.com/botarena/arena/sdk/handshake"
)

// frameMark marks a fast-lane frame in the document (section 13): the recorded example NAME as
// the host sends it (request) or as a bot answers it (answer: match_id and seat copied from
// the request of the same step, as the SDKs do), in hex, 16 bytes a line.
var frameMark = regexp.MustCompile(`^<!-- frame (\S+) (request|answer) -->$`)

// frameHex is what a frame block must hold.
func frameHex(t *testing.T, ex map[string]proto.Message, name, dir string) string {
	t.Helper()
	m, ok := ex[name]
	if !ok {
		t.Fatalf("%s: unknown example %q in a frame", doc, name)
	}
	if dir == "answer" {
		req, ok := ex[strings.Replace(name, "/answer-", "/act-", 1)].(*arenav1.ActRequest)
		resp, isResp := m.(*arenav1.ActResponse)
		if !ok || !isResp {
			t.Fatalf("%s: frame %s: an answer frame needs an ActResponse example and its act- request", doc, name)
		}
		resp = proto.Clone(resp).(*arenav1.ActResponse)
		resp.MatchId, resp.Seat = req.GetMatchId(), req.GetSeat()
		m = resp
	}
	b, err := handshake.AppendFrame(nil, m)
	if err != nil {
		t.Fatal(err)
	}
	var lines []string
	for len(b) > 0 {
		n := min(16, len(b))
		var hex []string
		for _, c := range b[:n] {
			hex = append(hex, fmt.Sprintf("%02x", c))
		}
		lines = append(lines, strings.Join(hex, " "))
		b = b[n:]
	}
	return strings.Join(lines, "\n")
}

// TestLaneFrames checks the fast lane's example frames against the framing the host and the
// Go SDK use (`go test ./docs -update` rewrites them).
func TestLaneFrames(t *testing.T) {
	raw, err := os.ReadFile(doc)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(raw), "\n")
	ex := examples(t)
	found := 0
	for i := len(lines) - 1; i >= 0; i-- {
		m := frameMark.FindStringSubmatch(lines[i])
		if m == nil {
			continue
		}
		found++
		if i+1 >= len(lines) || lines[i+1] != "```" {
			t.Fatalf("%s:%d: a frame mark must be followed by a fenced block", doc, i+1)
		}
		end := i + 2
		for end < len(lines) && lines[end] != "```" {
			end++
		}
		if end == len(lines) {
			t.Fatalf("%s:%d: frame %s has no closing fence", doc, i+1, m[1])
		}
		want := frameHex(t, ex, m[1], m[2])
		if *update {
			lines = append(lines[:i+2], append(strings.Split(want, "\n"), lines[end:]...)...)
			continue
		}
		if got := strings.Join(lines[i+2:end], "\n"); got != want {
			t.Errorf("%s:%d: frame %s (%s) is not what the lane sends; run go test ./docs -update\n--- document\n%s\n--- lane\n%s",
				doc, i+1, m[1], m[2], got, want)
		}
	}
	if found < 2 {
		t.Errorf("%s shows %d fast-lane frames, want a request and an answer", doc, found)
	}
	if *update {
		if err := os.WriteFile(doc, []byte(strings.Join(lines, "\n")), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
