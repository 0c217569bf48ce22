package deploy

import (
	"bufio"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"

	"github.com/botarena/arena/arena/cli"
)

const root = ".."

// instruction is one Dockerfile instruction, continuation lines joined.
type instruction struct {
	op   string // upper case: FROM, COPY, RUN...
	args []string
	line int
}

// flag returns the value of --name=value among the instruction's leading flags.
func (in instruction) flag(name string) string {
	for _, a := range in.args {
		if v, ok := strings.CutPrefix(a, "--"+name+"="); ok {
			return v
		}
	}
	return ""
}

// operands are the instruction's arguments after its --flags.
func (in instruction) operands() []string {
	i := 0
	for i < len(in.args) && strings.HasPrefix(in.args[i], "--") {
		i++
	}
	return in.args[i:]
}

// parseDockerfile reads the instructions; comments and blank lines go, a trailing backslash
// continues the line, as docker build reads them (no heredocs: the Dockerfile has none).
func parseDockerfile(t *testing.T, path string) []instruction {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []instruction
	var cur strings.Builder
	start := 0
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if strings.HasPrefix(line, "#") || (line == "" && cur.Len() == 0) {
			continue
		}
		if cur.Len() == 0 {
			start = n
		}
		if cont, ok := strings.CutSuffix(line, "\\"); ok {
			cur.WriteString(cont + " ")
			continue
		}
		cur.WriteString(line)
		fields := strings.Fields(cur.String())
		cur.Reset()
		if len(fields) == 0 {
			continue
		}
		out = append(out, instruction{op: strings.ToUpper(fields[0]), args: fields[1:], line: start})
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if cur.Len() != 0 {
		t.Fatalf("%s ends inside a continued line", path)
	}
	return out
}

// dockerignore reads the patterns of .dockerignore (the build context's exclusions).
func dockerignore(t *testing.T) []string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(root, ".dockerignore"))
	if err != nil {
		t.Fatal(err)
	}
	var pats []string
	for _, l := range strings.Split(string(b), "\n") {
		if l = strings.TrimSpace(l); l != "" && !strings.HasPrefix(l, "#") {
			pats = append(pats, strings.TrimPrefix(l, "/"))
		}
	}
	return pats
}

// ignored reports whether a context path (or a folder above it) matches a pattern.
func ignored(pats []string, p string) bool {
	for q := filepath.Clean(p); q != "." && q != "/"; q = filepath.Dir(q) {
		for _, pat := range pats {
			if strings.HasPrefix(pat, "!") {
				continue
			}
			if ok, _ := filepath.Match(pat, q); ok {
				return true
			}
		}
	}
	return false
}

// The image's file tree, step by step: every COPY from the checkout names files that exist and
// that .dockerignore lets into the build context; every COPY --from names a stage defined
// before it; the binary the build stage makes is the one copied; the entrypoint is copied
// executable and runs arena.
func TestDockerfileSteps(t *testing.T) {
	steps := parseDockerfile(t, "Dockerfile")
	pats := dockerignore(t)
	stages := map[string]bool{}
	var last string // the final stage's name or image
	var built, entry, cmd []string
	for _, s := range steps {
		switch s.op {
		case "FROM":
			ops := s.operands()
			if len(ops) == 3 && strings.EqualFold(ops[1], "AS") {
				stages[ops[2]] = true
			}
			last = ops[0]
		case "COPY", "ADD":
			ops := s.operands()
			if len(ops) < 2 {
				t.Fatalf("line %d: %s needs a source and a destination", s.line, s.op)
			}
			srcs, dst := ops[:len(ops)-1], ops[len(ops)-1]
			if from := s.flag("from"); from != "" {
				if !stages[from] {
					t.Errorf("line %d: COPY --from=%s: no stage of that name before it", s.line, from)
				}
				if from == "build" && dst == "/usr/local/bin/arena" {
					built = srcs
				}
				continue
			}
			if s.op == "ADD" {
				t.Errorf("line %d: ADD fetches and unpacks; use COPY", s.line)
			}
			for _, src := range srcs {
				p := filepath.Join(root, src)
				if _, err := os.Stat(p); err != nil {
					t.Errorf("line %d: COPY %s: %v", s.line, src, err)
				}
				if ignored(pats, src) {
					t.Errorf("line %d: COPY %s: excluded from the build context by .dockerignore", s.line, src)
				}
				if dst == "/usr/local/bin/arena-entrypoint" {
					if info, err := os.Stat(p); err == nil && info.Mode()&0o111 == 0 {
						t.Errorf("line %d: %s is not executable (git update-index --chmod=+x)", s.line, src)
					}
					entry = append(entry, src)
				}
			}
		case "RUN":
			if i := strings.Index(strings.Join(s.args, " "), "go build"); i >= 0 && !strings.Contains(strings.Join(s.args, " "), "-o /out/arena ./arena/cmd/arena") {
				t.Errorf("line %d: the build stage must make /out/arena from ./arena/cmd/arena", s.line)
			}
		case "ENTRYPOINT":
			if !strings.Contains(strings.Join(s.args, " "), "/usr/local/bin/arena-entrypoint") {
				t.Errorf("line %d: ENTRYPOINT does not run the image's entrypoint: %v", s.line, s.args)
			}
		case "CMD":
			cmd = jsonArgs(t, s)
		}
	}
	if last != "debian:bookworm-slim" {
		t.Errorf("the final stage is %q; the image's runtimes are Debian 12 packages", last)
	}
	if len(built) != 1 || built[0] != "/out/arena" {
		t.Errorf("the arena binary copied into the image: %v, want /out/arena from the build stage", built)
	}
	if len(entry) != 1 {
		t.Fatalf("the entrypoint is copied %d times: %v", len(entry), entry)
	}
	b, err := os.ReadFile(filepath.Join(root, entry[0]))
	if err != nil || !strings.Contains(string(b), `exec arena "$@"`) {
		t.Errorf("%s must end by running arena with the container's arguments (%v)", entry[0], err)
	}
	checkArenaArgs(t, "the Dockerfile's CMD", cmd)
	// What the build context leaves out must not include what the image needs.
	for _, need := range []string{"go.mod", "go.sum", "arena", "sdk", "bots", "kits.go", "proto"} {
		if ignored(pats, need) {
			t.Errorf(".dockerignore excludes %s, which the arena's build needs", need)
		}
	}
}

// jsonArgs reads an instruction's exec form (["a", "b"]).
func jsonArgs(t *testing.T, s instruction) []string {
	t.Helper()
	var out []string
	if err := yaml.Unmarshal([]byte(strings.Join(s.args, " ")), &out); err != nil {
		t.Fatalf("line %d: %s is not in exec form: %v", s.line, s.op, err)
	}
	return out
}

// checkArenaArgs parses args as the arena's command line would, without running anything:
// the command exists and every flag is one of its flags.
func checkArenaArgs(t *testing.T, what string, args []string) {
	t.Helper()
	root := cli.NewRoot(io.Discard, io.Discard)
	cmd, rest, err := root.Find(args)
	if err != nil || cmd == root {
		t.Fatalf("%s: %v is no arena command: %v", what, args, err)
	}
	if err := cmd.ParseFlags(rest); err != nil {
		t.Fatalf("%s: arena %s: %v", what, cmd.Name(), err)
	}
	if err := cmd.ValidateArgs(cmd.Flags().Args()); err != nil {
		t.Fatalf("%s: arena %s: %v", what, cmd.Name(), err)
	}
}

// deployment is what the test reads of a Kubernetes Deployment.
type deployment struct {
	Kind string `yaml:"kind"`
	Spec struct {
		Template struct {
			Spec struct {
				Containers []struct {
					Args            []string `yaml:"args"`
					SecurityContext struct {
						RunAsUser    *int `yaml:"runAsUser"`
						Capabilities struct {
							Add []string `yaml:"add"`
						} `yaml:"capabilities"`
						Seccomp struct {
							Type string `yaml:"type"`
						} `yaml:"seccompProfile"`
						AppArmor struct {
							Type string `yaml:"type"`
						} `yaml:"appArmorProfile"`
						ProcMount string `yaml:"procMount"`
					} `yaml:"securityContext"`
					VolumeMounts []struct {
						MountPath string `yaml:"mountPath"`
					} `yaml:"volumeMounts"`
				} `yaml:"containers"`
			} `yaml:"spec"`
		} `yaml:"template"`
	} `yaml:"spec"`
}

// The workers' Deployment runs a real `arena worker` command line, with what the sandbox needs
// in a container, and its credential files where its flags say.
func TestKubernetesWorkers(t *testing.T) {
	b, err := os.ReadFile("kubernetes/worker.yaml")
	if err != nil {
		t.Fatal(err)
	}
	var d deployment
	if err := yaml.Unmarshal(b, &d); err != nil {
		t.Fatal(err)
	}
	if d.Kind != "Deployment" || len(d.Spec.Template.Spec.Containers) != 1 {
		t.Fatalf("want a Deployment of one container, got %q with %d", d.Kind, len(d.Spec.Template.Spec.Containers))
	}
	c := d.Spec.Template.Spec.Containers[0]
	if len(c.Args) == 0 || c.Args[0] != "worker" {
		t.Fatalf("the container runs %v, want arena worker", c.Args)
	}
	checkArenaArgs(t, "the Deployment's args", c.Args)
	sc := c.SecurityContext
	if sc.RunAsUser == nil || *sc.RunAsUser != 0 || len(sc.Capabilities.Add) != 1 || sc.Capabilities.Add[0] != "SYS_ADMIN" ||
		sc.Seccomp.Type != "Unconfined" || sc.AppArmor.Type != "Unconfined" || sc.ProcMount != "Unmasked" {
		t.Errorf("securityContext %+v: the sandbox needs root with CAP_SYS_ADMIN, seccomp and AppArmor unconfined and an unmasked /proc", sc)
	}
	mounts := map[string]bool{}
	for _, m := range c.VolumeMounts {
		mounts[m.MountPath] = true
	}
	for _, a := range c.Args {
		for _, f := range []string{"--credentials=", "--nats-ca="} {
			if p, ok := strings.CutPrefix(a, f); ok && !mounts[filepath.Dir(p)] {
				t.Errorf("%s%s: no volume is mounted at %s", f, p, filepath.Dir(p))
			}
		}
	}
}
