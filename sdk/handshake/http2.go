package handshake

import "golang.org/x/net/http2"

// HTTP/2 frames on go-plugin's gRPC connection: the host counts a bot's control frames as gRPC
// reads them (arena/host, frames.go), and the hostile ping-flood bot follows gRPC's own output to
// write its PINGs between whole frames (bots/hostile/attack). Both see the stream in pieces of any
// size as it passes through (a Read, a Write), which x/net's Framer, reading whole frames from a
// Reader, cannot take; HTTP2Splitter finds the frame headers without buffering the frames.

// HTTP2HeaderLen is the length of an HTTP/2 frame header.
const HTTP2HeaderLen = 9

// HTTP2Header is what an HTTP2Splitter reads of a frame.
type HTTP2Header struct {
	Type   http2.FrameType
	Flags  http2.Flags
	Length uint32
}

// HTTP2Splitter finds HTTP/2 frame headers in a stream fed in pieces.
type HTTP2Splitter struct {
	// Skip is what is left of the current frame's payload; set it to skip what comes before
	// the first frame (a client's connection preface).
	Skip int
	hdr  [HTTP2HeaderLen]byte
	have int
}

// Feed reads p, calling each (when not nil) for every frame header completed in it.
func (s *HTTP2Splitter) Feed(p []byte, each func(HTTP2Header)) {
	for len(p) > 0 {
		if s.Skip > 0 {
			k := min(s.Skip, len(p))
			s.Skip -= k
			p = p[k:]
			continue
		}
		k := copy(s.hdr[s.have:], p)
		s.have += k
		p = p[k:]
		if s.have < HTTP2HeaderLen {
			return
		}
		s.have = 0
		h := HTTP2Header{Length: uint32(s.hdr[0])<<16 | uint32(s.hdr[1])<<8 | uint32(s.hdr[2]),
			Type: http2.FrameType(s.hdr[3]), Flags: http2.Flags(s.hdr[4])}
		s.Skip = int(h.Length)
		if each != nil {
			each(h)
		}
	}
}

// Between reports whether the stream fed so far ends at a frame boundary.
func (s *HTTP2Splitter) Between() bool { return s.Skip == 0 && s.have == 0 }
