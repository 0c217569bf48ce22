package hostile_test

import (
	"archive/zip"
	"crypto/sha256"
	"encoding/base64"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// makeWheel writes a minimal pure-Python wheel holding one module.
func makeWheel(t *testing.T, dir, name, version, module string) {
	t.Helper()
	f, err := os.Create(filepath.Join(dir, fmt.Sprintf("%s-%s-py3-none-any.whl", name, version)))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	z := zip.NewWriter(f)
	info := fmt.Sprintf("%s-%s.dist-info", name, version)
	files := map[string]string{
		name + ".py":            module,
		info + "/METADATA":      fmt.Sprintf("Metadata-Version: 2.1\nName: %s\nVersion: %s\n", name, version),
		info + "/WHEEL":         "Wheel-Version: 1.0\nGenerator: arena-test\nRoot-Is-Purelib: true\nTag: py3-none-any\n",
		info + "/top_level.txt": name + "\n",
	}
	var record strings.Builder
	for _, n := range []string{name + ".py", info + "/METADATA", info + "/WHEEL", info + "/top_level.txt"} {
		w, err := z.Create(n)
		if err != nil {
			t.Fatal(err)
		}
		_, _ = w.Write([]byte(files[n]))
		sum := sha256.Sum256([]byte(files[n]))
		fmt.Fprintf(&record, "%s,sha256=%s,%d\n", n, base64.RawURLEncoding.EncodeToString(sum[:]), len(files[n]))
	}
	record.WriteString(info + "/RECORD,,\n")
	w, _ := z.Create(info + "/RECORD")
	_, _ = w.Write([]byte(record.String()))
	if err := z.Close(); err != nil {
		t.Fatal(err)
	}
}
