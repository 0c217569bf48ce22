package server

import (
	"reflect"
	"testing"

	"github.com/botarena/arena/arena/host"
)

// TestLogSteps: a seat's log is cut where host.FormatSteps put a heading, and nothing else
// is taken for one (a bot's own look-alike line comes indented; an older log has none).
func TestLogSteps(t *testing.T) {
	log := host.FormatSteps([]host.StepLine{{Step: 0, Text: "hello"}, {Step: 2, Text: "a"}, {Step: 2, Text: "--- step 5 ---"}, {Step: 7, Text: "b"}})
	want := []LogStep{
		{Step: 0, Heading: "--- before the first move ---", Lines: "hello"},
		{Step: 2, Heading: "--- step 2 ---", Lines: "a\n --- step 5 ---"},
		{Step: 7, Heading: "--- step 7 ---", Lines: "b"},
	}
	if got := logSteps(log); !reflect.DeepEqual(got, want) {
		t.Fatalf("got %+v\nwant %+v", got, want)
	}
	if got := logSteps("an older log\n--- step 01 ---"); len(got) != 1 || got[0].Step != -1 {
		t.Fatalf("a log without headings: %+v", got)
	}
}
