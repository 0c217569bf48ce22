package handshake

import (
	"bytes"
	"testing"

	"golang.org/x/net/http2"
)

// The headers of x/net's frames are found whatever the pieces the stream is cut into, and the
// stream is between frames exactly at the end of each.
func TestHTTP2SplitterFindsEveryFrameInAnyPieces(t *testing.T) {
	var buf bytes.Buffer
	fr := http2.NewFramer(&buf, nil)
	_ = fr.WritePing(false, [8]byte{1})
	_ = fr.WriteData(1, true, bytes.Repeat([]byte("x"), 300))
	_ = fr.WriteWindowUpdate(0, 5)
	_ = fr.WriteData(3, false, nil)
	stream := buf.Bytes()
	want := []HTTP2Header{{http2.FramePing, 0, 8}, {http2.FrameData, http2.FlagDataEndStream, 300},
		{http2.FrameWindowUpdate, 0, 4}, {http2.FrameData, 0, 0}}
	for _, piece := range []int{1, 2, 7, 9, 10, 64, len(stream)} {
		var s HTTP2Splitter
		var got []HTTP2Header
		for p := stream; len(p) > 0; {
			k := min(piece, len(p))
			s.Feed(p[:k], func(h HTTP2Header) { got = append(got, h) })
			p = p[k:]
		}
		if len(got) != len(want) {
			t.Fatalf("pieces of %d: found %d frames, want %d: %v", piece, len(got), len(want), got)
		}
		for i := range want {
			if got[i] != want[i] {
				t.Errorf("pieces of %d: frame %d is %+v, want %+v", piece, i, got[i], want[i])
			}
		}
		if !s.Between() {
			t.Errorf("pieces of %d: not between frames at the end of the stream", piece)
		}
	}
	var s HTTP2Splitter
	s.Feed(stream[:HTTP2HeaderLen+3], nil)
	if s.Between() {
		t.Error("between frames inside a PING's payload")
	}
}
