package hostile_test

import (
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/botarena/arena/arena/botspec"
	"github.com/botarena/arena/arena/build"
)

// Every language recipe runs the submission's own build code (a Makefile, an npm build
// script, a cargo build script, bot.json's build command) in the build sandbox: it sees no
// secret of the host, no arena source, no other submission, no store; it cannot write outside
// its work folder, nor reach the host's network (a port the test listens on). Each probe
// prints what it found and fails its build, so the verdict carries its report.
func TestHostileLanguageBuilds(t *testing.T) {
	t.Parallel()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	accepted := make(chan struct{}, 8)
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			c.Close()
			accepted <- struct{}{}
		}
	}()
	port := ln.Addr().(*net.TCPAddr).Port
	abs, _ := filepath.Abs(root)
	marker := filepath.Join(os.TempDir(), "..", "root", fmt.Sprintf("arena-pwned-%d", port))
	secrets := []string{"/etc/shadow", filepath.Join(abs, "go.mod"), "/run/arena-sandbox/files/snap", "/root/.ssh", "/root/.cargo/credentials.toml"}
	shellProbe := "for p in " + strings.Join(secrets, " ") + "; do if ls $p >/dev/null 2>&1; then echo SEEN $p; else echo hidden $p; fi; done; " +
		"if touch " + marker + " 2>/dev/null; then echo WROTE; else echo nowrite; fi; exit 1"
	nodeProbe := `const fs = require("fs"), net = require("net");
for (const p of ` + jsList(secrets) + `) { try { fs.statSync(p); console.error("SEEN " + p); } catch { console.error("hidden " + p); } }
try { fs.writeFileSync(` + quote(marker) + `, "x"); console.error("WROTE"); } catch { console.error("nowrite"); }
const c = net.connect(` + fmt.Sprint(port) + `, "127.0.0.1");
c.on("connect", () => { console.error("CONNECTED"); process.exit(1); });
c.on("error", (e) => { console.error("noconnect " + e.code); process.exit(1); });
`
	rustProbe := `use std::{fs, net::TcpStream};
fn main() {
    for p in [` + rustList(secrets) + `] {
        if fs::metadata(p).is_ok() { eprintln!("SEEN {p}"); } else { eprintln!("hidden {p}"); }
    }
    if fs::write(` + `"` + marker + `"` + `, "x").is_ok() { eprintln!("WROTE"); } else { eprintln!("nowrite"); }
    match TcpStream::connect("127.0.0.1:` + fmt.Sprint(port) + `") {
        Ok(_) => eprintln!("CONNECTED"),
        Err(e) => eprintln!("noconnect {e}"),
    }
    std::process::exit(1);
}
`
	cases := []struct {
		name  string
		files map[string]string
	}{
		{"cpp Makefile", map[string]string{"Makefile": "bot:\n\t@" + strings.ReplaceAll(shellProbe, "$p", "$$p") + "\n", "bot.cpp": "int main() {}\n"}},
		{"npm build script", map[string]string{"package.json": `{"name": "probe", "scripts": {"build": "node probe.js"}}`, "probe.js": nodeProbe}},
		{"cargo build script", map[string]string{"Cargo.toml": "[package]\nname = \"probe\"\nversion = \"0.1.0\"\nedition = \"2021\"\nbuild = \"build.rs\"\n",
			"build.rs": rustProbe, "src/main.rs": "fn main() {}\n"}},
		{"bot.json build", map[string]string{"bot.json": `{"language": "java", "build": ` + jsonString(shellProbe) + `}`, "Bot.java": "public class Bot {}\n"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			for name, text := range c.files {
				write(t, dir, name, text)
			}
			_, err := (&botspec.Resolver{}).Prepare(dir)
			if !errors.Is(err, build.ErrBuild) {
				t.Fatalf("the probe's build did not fail as a build: %v", err)
			}
			report := err.Error()
			for _, bad := range []string{"SEEN", "WROTE", "CONNECTED"} {
				if strings.Contains(report, bad) {
					t.Fatalf("the build reached what it must not:\n%s", report)
				}
			}
			if !strings.Contains(report, "hidden /etc/shadow") || !strings.Contains(report, "nowrite") {
				t.Fatalf("the probe did not run (no report in the build's last lines):\n%s", report)
			}
			if _, err := os.Stat(marker); err == nil {
				t.Fatalf("the build wrote %s on the host", marker)
			}
		})
	}
	select {
	case <-accepted:
		t.Fatal("a build connected to the host's loopback port")
	default:
	}
}

func jsList(ss []string) string {
	var q []string
	for _, s := range ss {
		q = append(q, quote(s))
	}
	return "[" + strings.Join(q, ", ") + "]"
}

func rustList(ss []string) string {
	var q []string
	for _, s := range ss {
		q = append(q, `"`+s+`"`)
	}
	return strings.Join(q, ", ")
}

func jsonString(s string) string {
	return `"` + strings.ReplaceAll(strings.ReplaceAll(s, `\`, `\\`), `"`, `\"`) + `"`
}

// A submission that does not compile is its own verdict, with the compiler's last lines, in
// every compiled language.
func TestBuildErrorsAreTheBotsVerdict(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name  string
		files map[string]string
		want  string
	}{
		{"cpp", map[string]string{"bot.cpp": "int main() { return undeclared_thing; }\n"}, "undeclared_thing"},
		{"rust", map[string]string{"Cargo.toml": "[package]\nname = \"broken\"\nversion = \"0.1.0\"\nedition = \"2021\"\n",
			"src/main.rs": "fn main() { let x: u8 = \"not a number\"; }\n"}, "mismatched types"},
		{"java", map[string]string{"Bot.java": "public class Bot { int x = \"not a number\"; }\n"}, "incompatible types"},
		{"javascript", map[string]string{"package.json": `{"name": "broken", "dependencies": {"left-pad": "1.3.0"}}`, "index.js": ""},
			"fetching them needs the network, which the organiser allows with --build-network"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			for name, text := range c.files {
				write(t, dir, name, text)
			}
			_, err := (&botspec.Resolver{}).Prepare(dir)
			var be *build.Error
			if !errors.As(err, &be) || !strings.Contains(err.Error(), c.want) || len(be.Tail) == 0 {
				t.Fatalf("build error %v, want a build failure whose last lines mention %q", err, c.want)
			}
		})
	}
}
