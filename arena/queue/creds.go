package queue

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"syscall"
	"time"

	"github.com/nats-io/nkeys"
)

// The registry is a file beside the embedded server's own files (the store's NATS folder),
// not a table of the store: it holds only names and public keys (no secret: a worker's seed
// is given to it once and kept nowhere here), the server re-reads it when it changes, and
// `arena worker add` works while a server runs without writing into its database.
const registryFile = "workers.json"

// LocalWorker names results played by a coordinator's own in-process workers: no
// credential, never quarantined, never audited (the coordinator trusts its own process).
const LocalWorker = "local"

// ErrNoWorker means a worker name is not in the registry.
var ErrNoWorker = errors.New("no such worker")

// workerName is what a worker may be called: a NATS subject token and a file name.
var workerName = regexp.MustCompile(`^[a-z0-9][a-z0-9_-]{0,31}$`)

// CheckWorkerName refuses a name that cannot name a worker.
func CheckWorkerName(name string) error {
	if !workerName.MatchString(name) || name == LocalWorker {
		return fmt.Errorf("worker name %q: use 1 to 32 lower-case letters, digits, - or _ (starting with a letter or digit), not %q", name, LocalWorker)
	}
	return nil
}

// Credential is one worker's entry: its public user nkey and whether it may connect.
type Credential struct {
	Name  string    `json:"name"`
	Key   string    `json:"key"`
	Added time.Time `json:"added"`
	// Disabled says why the worker may not connect ("" while it may): quarantined by a
	// coordinator whose audit it failed, or disabled by hand.
	Disabled string `json:"disabled,omitempty"`
}

// Registry is the list of workers allowed on an embedded server, kept in dir.
type Registry struct{ dir string }

// OpenRegistry is the registry in the server folder dir (created when first written).
func OpenRegistry(dir string) *Registry { return &Registry{dir: dir} }

func (r *Registry) path() string { return filepath.Join(r.dir, registryFile) }

// List reads the registry (empty when there is none yet), sorted by name.
func (r *Registry) List() ([]Credential, error) {
	b, err := os.ReadFile(r.path())
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("worker registry: %w", err)
	}
	var cs []Credential
	if err := json.Unmarshal(b, &cs); err != nil {
		return nil, fmt.Errorf("worker registry %s is damaged (%v): fix or remove it, then add the workers again", r.path(), err)
	}
	sort.Slice(cs, func(i, j int) bool { return cs[i].Name < cs[j].Name })
	return cs, nil
}

// change applies f to the registry under its lock and writes it back atomically.
func (r *Registry) change(f func([]Credential) ([]Credential, error)) error {
	if err := os.MkdirAll(r.dir, 0o700); err != nil {
		return err
	}
	lf, err := os.OpenFile(filepath.Join(r.dir, registryFile+".lock"), os.O_CREATE|os.O_RDWR, 0o600)
	if err != nil {
		return err
	}
	defer lf.Close()
	if err := syscall.Flock(int(lf.Fd()), syscall.LOCK_EX); err != nil {
		return err
	}
	cs, err := r.List()
	if err != nil {
		return err
	}
	if cs, err = f(cs); err != nil {
		return err
	}
	b, err := json.MarshalIndent(cs, "", "  ")
	if err != nil {
		return err
	}
	return writeAtomic(r.path(), append(b, '\n'), 0o600)
}

// Add registers a new worker and returns its secret (the credentials file's content, to be
// handed to the worker and kept nowhere else).
func (r *Registry) Add(name string) (secret []byte, err error) {
	if err := CheckWorkerName(name); err != nil {
		return nil, err
	}
	kp, err := nkeys.CreateUser()
	if err != nil {
		return nil, err
	}
	pub, _ := kp.PublicKey()
	seed, _ := kp.Seed()
	err = r.change(func(cs []Credential) ([]Credential, error) {
		for _, c := range cs {
			if c.Name == name {
				return nil, fmt.Errorf("a worker %q is registered already: revoke it first (arena worker revoke %s) to give it a new credential", name, name)
			}
		}
		return append(cs, Credential{Name: name, Key: pub, Added: time.Now().UTC()}), nil
	})
	if err != nil {
		return nil, err
	}
	return json.MarshalIndent(WorkerSecret{Worker: name, Seed: string(seed)}, "", "  ")
}

// Revoke removes a worker: its credential no longer opens the server (a running server
// disconnects it within a second).
func (r *Registry) Revoke(name string) error {
	return r.change(func(cs []Credential) ([]Credential, error) {
		for i, c := range cs {
			if c.Name == name {
				return append(cs[:i], cs[i+1:]...), nil
			}
		}
		return nil, fmt.Errorf("%w %q (arena worker list shows them)", ErrNoWorker, name)
	})
}

// Disable keeps a worker's entry but refuses its connections, saying why; Enable undoes it.
func (r *Registry) Disable(name, why string) error { return r.set(name, "disabled: "+why) }

// Enable lets a disabled (quarantined) worker connect again.
func (r *Registry) Enable(name string) error { return r.set(name, "") }

func (r *Registry) set(name, disabled string) error {
	return r.change(func(cs []Credential) ([]Credential, error) {
		for i := range cs {
			if cs[i].Name == name {
				cs[i].Disabled = disabled
				return cs, nil
			}
		}
		return nil, fmt.Errorf("%w %q (arena worker list shows them)", ErrNoWorker, name)
	})
}

// WorkerSecret is a worker's credentials file: its name and its nkey seed.
type WorkerSecret struct {
	Worker string `json:"worker"`
	Seed   string `json:"seed"`
}

// ParseSecret reads a credentials file's content.
func ParseSecret(b []byte) (WorkerSecret, error) {
	var s WorkerSecret
	if err := json.Unmarshal(b, &s); err != nil {
		return s, fmt.Errorf("not an arena worker credential (arena worker add NAME makes one): %v", err)
	}
	if err := CheckWorkerName(s.Worker); err != nil {
		return s, err
	}
	if _, err := nkeys.FromSeed([]byte(s.Seed)); err != nil || !strings.HasPrefix(s.Seed, "SU") {
		return s, errors.New("the credential's seed is not a NATS user seed (arena worker add NAME makes one)")
	}
	return s, nil
}

// Path is the registry file.
func (r *Registry) Path() string { return r.path() }
