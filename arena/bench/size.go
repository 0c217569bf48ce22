package bench

import (
	"google.golang.org/protobuf/proto"

	arenav1 "github.com/botarena/arena/proto/arena/v1"
)

// sizeOf is the wire size of a request as it travels inside the stream message.
func sizeOf(req *arenav1.ActRequest) int {
	return proto.Size(&arenav1.ActStreamRequest{Act: req})
}
