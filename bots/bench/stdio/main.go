// Command stdio is the bench's rock bot as a stdio program (docs/protocol.md section 11): the
// same trivial strategy as bots/bench/cmd/rock, behind the stdio bridge, so that the bench
// can show what the bridge adds to a move.
package main

import (
	"bufio"
	"encoding/json"
	"os"
)

// request holds the only fields the answers need.
type request struct {
	Describe *struct{} `json:"describe"`
	Act      *struct {
		Step json.RawMessage `json:"step"`
	} `json:"act"`
}

func main() {
	in := bufio.NewReaderSize(os.Stdin, 1<<20)
	out := bufio.NewWriter(os.Stdout)
	for {
		line, err := in.ReadSlice('\n')
		if err != nil {
			return
		}
		var req request
		if err := json.Unmarshal(line, &req); err != nil {
			out.WriteString("{}\n")
		} else if req.Describe != nil {
			out.WriteString(`{"name":"rock-stdio","games":["dynamite"],"sdk":"go-stdio/bench"}` + "\n")
		} else if req.Act != nil {
			out.WriteString(`{"step":`)
			out.Write(req.Act.Step)
			out.WriteString(`,"dynamite":{"move":"DYNAMITE_MOVE_ROCK"}}` + "\n")
		} else {
			out.WriteString("{}\n")
		}
		if err := out.Flush(); err != nil {
			return
		}
	}
}
