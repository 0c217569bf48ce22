package hostile_test

import (
	"context"
	"errors"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/botarena/arena/arena/botspec"
	"github.com/botarena/arena/arena/build"
	"github.com/botarena/arena/arena/host"
	"github.com/botarena/arena/arena/players"
	"github.com/botarena/arena/internal/slack"
	"github.com/botarena/arena/sandbox"
)

func write(t *testing.T, dir, name, text string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// A handshake naming a symlink in the bot's own socket dir is refused: the host (root) never
// follows it to the socket it points at.
func TestSymlinkedSocketRefused(t *testing.T) {
	t.Parallel()
	target := filepath.Join(t.TempDir(), "root-only.sock")
	l, err := net.Listen("unix", target)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	_ = os.Chmod(target, 0o600)
	accepted := make(chan struct{}, 1)
	go func() {
		if c, err := l.Accept(); err == nil {
			c.Close()
			accepted <- struct{}{}
		}
	}()
	arg := filepath.Join(root, "bots/hostile/symsock")
	p, err := resolver.Prepare(arg)
	if err != nil {
		t.Fatal(err)
	}
	c := p.Command
	c.Args = []string{target}
	_, err = host.Launch(context.Background(), c, host.Options{StartTimeout: slack.Of(t, 10*time.Second)})
	if err == nil || !errors.Is(err, host.ErrBadHandshake) || !strings.Contains(err.Error(), "not a unix socket") {
		t.Fatalf("a handshake naming a symlink was not refused as one: %v", err)
	}
	select {
	case <-accepted:
		t.Fatal("the host connected to the socket the symlink points at")
	case <-time.After(200 * time.Millisecond):
	}
	assertNoSandboxOf(t, arg)
}

// A Python submission carrying a module named like a standard one (json.py) never runs on the
// host: nothing of a submission is on the interpreter's path when the arena inspects it, and
// the bot itself runs in its sandbox, where the host's files are out of reach.
func TestShadowingModuleRunsOnlyInTheSandbox(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	marker := filepath.Join(t.TempDir(), "marker")
	shadow := "open(" + quote(marker) + ", 'w').write('ran as ' + str(__import__('os').getuid()))\n" +
		"raise SystemExit('json.py ran')\n"
	for _, m := range []string{"json.py", "sys.py", "os.py", "site.py", "importlib.py", "arena_sdk.py", "sitecustomize.py"} {
		write(t, dir, m, shadow)
	}
	write(t, dir, "bot.py", "import json\nclass Bot:\n    def make_move(self, gamestate):\n        return 'R'\n")
	r := &botspec.Resolver{}
	p, err := r.Prepare(dir)
	if err == nil {
		// Start it from the submission's own folder, as a careless organiser would.
		old, _ := os.Getwd()
		if err := os.Chdir(dir); err != nil {
			t.Fatal(err)
		}
		b, lerr := host.Launch(context.Background(), p.Command, host.Options{StartTimeout: slack.Of(t, 20*time.Second)})
		_ = os.Chdir(old)
		if lerr == nil {
			b.Close()
		}
	}
	if b, err := os.ReadFile(marker); err == nil {
		t.Fatalf("a module of the submission ran on the host: %s", b)
	}
}

// A spy in a folder of submissions sees neither its neighbours, nor the folder, nor the store.
func TestSpySeesOnlyItself(t *testing.T) {
	t.Parallel()
	subs := t.TempDir()
	secret := "victim-secret-" + filepath.Base(subs)
	write(t, subs, "victim.py", "SECRET = "+quote(secret)+"\nclass Bot:\n    def make_move(self, gamestate):\n        return 'P'\n")
	write(t, subs, "arena.db", "store "+secret)
	write(t, subs, "helper/bot.py", "import victim\n")
	spy := write(t, subs, "spy.py", `import glob, os, sys
found = []
def look(p):
    try:
        with open(p) as f:
            t = f.read()
        if `+quote(secret)+` in t:
            found.append(p)
    except Exception:
        pass
for p in [`+quote(filepath.Join(subs, "victim.py"))+`, `+quote(filepath.Join(subs, "arena.db"))+`, "../victim.py", "victim.py",
          os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "victim.py")]:
    look(p)
for root, dirs, files in os.walk("/"):
    if root.startswith("/proc") or root.startswith("/sys"):
        dirs[:] = []
        continue
    for f in files:
        if f in ("victim.py", "arena.db"):
            look(os.path.join(root, f))
try:
    import victim
    found.append("import victim")
except ImportError:
    pass
class Bot:
    def make_move(self, gamestate):
        if found:
            raise RuntimeError("LEAK " + ", ".join(found))
        return "R"
`)
	// The spy walks every folder it can see before its handshake: on a cold disk cache that
	// took more than 30 s of waiting for the disk (the first run after a suite had filled
	// the memory), which is the machine's speed, not what this test is about.
	o := playStarting(t, 3*time.Minute, spy, time.Second, sandbox.Limits{}, "6")
	if strings.Contains(o.log, "LEAK") || strings.Contains(o.log, secret) {
		t.Fatalf("the spy read its neighbour or the store:\n%s", tail(o.log))
	}
	for _, f := range o.res.Outcome.Faults {
		if strings.Contains(f.Detail, "LEAK") {
			t.Fatalf("the spy read its neighbour or the store: %s", f.Detail)
		}
	}
	if len(o.res.Outcome.Faults) != 0 {
		t.Fatalf("the spy did not play cleanly: %+v", o.res.Outcome.Faults)
	}
}

// Go builds run in the build sandbox: cgo is off unless the organiser turns it on, and then a
// preamble that embeds a root-only file finds nothing to embed; a compiler bomb is stopped by
// the build's memory limit within seconds.
func TestHostileGoBuilds(t *testing.T) {
	t.Parallel()
	shadow := "package main\n\n/*\n__asm__(\".section .rodata\\n.incbin \\\"/etc/shadow\\\"\\n\");\n*/\nimport \"C\"\n\nfunc main() {}\n"
	bomb := "package main\n\n/*\n#include \"/dev/zero\"\n*/\nimport \"C\"\n\nfunc main() {}\n"
	cases := []struct {
		name, src string
		opt       build.Options
		want      string // in the build error
		within    time.Duration
	}{
		{"cgo off", shadow, build.Options{}, "build constraints exclude all Go files", 2 * time.Minute},
		{"incbin", shadow, build.Options{CGO: true}, "/etc/shadow", 5 * time.Minute},
		{"include /dev/zero", bomb, build.Options{CGO: true, Limits: sandbox.Limits{MemoryBytes: 512 << 20}}, "memory limit", 5 * time.Minute},
	}
	shadowText, _ := os.ReadFile("/etc/shadow")
	// Warm the compiler cache first (once per kit, minutes on a cold machine): the bombs' time
	// to fail is what is measured.
	if err := build.WarmGo(build.Options{}); err != nil {
		t.Fatal(err)
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			write(t, dir, "main.go", c.src+"// "+c.name+"\n")
			r := &botspec.Resolver{Build: c.opt}
			t0 := time.Now()
			_, err := r.Prepare(dir)
			took := time.Since(t0)
			if !errors.Is(err, build.ErrBuild) || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("build error %v, want a build failure mentioning %q", err, c.want)
			}
			if !slack.Within(t, "the build's failure", took, 0, c.within) {
				t.FailNow()
			}
			for _, l := range strings.Split(string(shadowText), "\n") {
				if len(l) > 8 && strings.Contains(err.Error(), l) {
					t.Fatalf("the build's output shows a line of /etc/shadow: %v", err)
				}
			}
			t.Logf("%s: failed in %v: %v", c.name, took.Round(time.Millisecond), firstLine(err.Error()))
		})
	}
}

// A Python submission's requirements.txt is installed at build time from the organiser's
// wheel folder into that submission's own environment, and the bot imports it.
func TestRequirementsFromWheels(t *testing.T) {
	t.Parallel()
	wheels := t.TempDir()
	makeWheel(t, wheels, "arenatinydep", "0.1", "VALUE = 'from the wheel'\n")
	dir := t.TempDir()
	write(t, dir, "requirements.txt", "arenatinydep==0.1\n")
	write(t, dir, "bot.py", "import arenatinydep\nassert arenatinydep.VALUE == 'from the wheel'\nclass Bot:\n    def make_move(self, gamestate):\n        return 'R'\n")
	// Without a wheel folder or network, the error says what to give.
	if _, err := (&botspec.Resolver{}).Prepare(dir); !errors.Is(err, build.ErrNoSource) {
		t.Fatalf("requirements without a source: %v", err)
	}
	r := &botspec.Resolver{Build: build.Options{Wheels: wheels}}
	p, err := r.Prepare(dir)
	if err != nil {
		t.Fatal(err)
	}
	procs, err := players.Launch(context.Background(), r, []string{dir}, host.Options{StartTimeout: slack.Of(t, 20*time.Second)})
	if err != nil {
		t.Fatalf("the bot cannot import its dependency: %v", err)
	}
	players.CloseAll(procs)
	// A missing package is that bot's build failure, with pip's own words.
	write(t, dir, "requirements.txt", "arenatinydep==0.1\nnosuchpackage-arena==9\n")
	if _, err := (&botspec.Resolver{Build: build.Options{Wheels: wheels}}).Prepare(dir); !errors.Is(err, build.ErrBuild) || !strings.Contains(err.Error(), "nosuchpackage") {
		t.Fatalf("a missing requirement: %v", err)
	}
	_ = p
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}

func quote(s string) string { return "'" + strings.ReplaceAll(s, "'", "\\'") + "'" }

// A real bot's /proc/self/mountinfo and /proc/self/cgroup name no host path of the arena's
// state: not its snapshot's folder, not where it was submitted from, not its work dir, not the
// host's cgroups.
func TestBotProcSelfShowsNoArenaPath(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	files, err := sandbox.FilesDir()
	if err != nil {
		t.Fatal(err)
	}
	forbidden := []string{dir, files, "/run/arena-sandbox", os.TempDir() + "/arena-bot-", "arena-sandbox", "process_api"}
	var list []string
	for _, f := range forbidden {
		list = append(list, quote(f))
	}
	write(t, dir, "bot.py", `found = []
for f in ("/proc/self/mountinfo", "/proc/self/cgroup"):
    text = open(f).read()
    for bad in [`+strings.Join(list, ", ")+`]:
        if bad in text:
            found.append(f + " shows " + bad + ": " + text)
class Bot:
    def make_move(self, gamestate):
        if found:
            raise RuntimeError("LEAK " + " | ".join(found))
        return "R"
`)
	o := play(t, dir, time.Second, sandbox.Limits{}, "4")
	if len(o.res.Outcome.Faults) != 0 || strings.Contains(o.log, "LEAK") {
		t.Fatalf("the bot sees host paths: %+v\n%s", o.res.Outcome.Faults, tail(o.log))
	}
}

// The rule for local authoring: a file is a bot on its own; its folder, given instead, brings
// the helper modules beside it. The single file's fault says so.
func TestSingleFileSeesOnlyItself(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	write(t, dir, "helper.py", "MOVE = 'R'\n")
	file := write(t, dir, "bot.py", "import helper\nclass Bot:\n    def make_move(self, gamestate):\n        return helper.MOVE\n")
	_, err := players.Launch(context.Background(), resolver, []string{file}, host.Options{StartTimeout: slack.Of(t, 20*time.Second)})
	if err == nil || !strings.Contains(err.Error(), "No module named 'helper'") || !strings.Contains(err.Error(), "give the folder") {
		t.Fatalf("a single file importing its neighbour: %v", err)
	}
	procs, err := players.Launch(context.Background(), resolver, []string{dir}, host.Options{StartTimeout: slack.Of(t, 20*time.Second)})
	if err != nil {
		t.Fatalf("the folder does not bring its helper module: %v", err)
	}
	players.CloseAll(procs)
	// Local authoring (arena play): the file brings the .py modules beside it, nothing else.
	write(t, dir, "notes.txt", "not a module")
	p, err := (&botspec.Resolver{Authoring: true}).Prepare(file)
	if err != nil {
		t.Fatal(err)
	}
	ents, _ := os.ReadDir(p.Snapshot.Dir)
	if len(ents) != 2 || ents[0].Name() != "bot.py" || ents[1].Name() != "helper.py" {
		t.Fatalf("arena play's snapshot of a file holds %v, want bot.py and helper.py", ents)
	}
}
