package host

import (
	"go/parser"
	"go/token"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestHostImportsOnlyTheHandshakeOfTheSDK: the host speaks to bots through the wire contract
// and the go-plugin handshake, never through the SDK's bot-side code.
func TestHostImportsOnlyTheHandshakeOfTheSDK(t *testing.T) {
	t.Parallel()
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		for _, imp := range f.Imports {
			path, _ := strconv.Unquote(imp.Path.Value)
			if strings.HasPrefix(path, "github.com/botarena/arena/sdk") && path != "github.com/botarena/arena/sdk/handshake" {
				t.Errorf("%s imports %s: the host may import only sdk/handshake", name, path)
			}
		}
	}
}
