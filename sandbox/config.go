package sandbox

// initArg0 is the argv[0] with which the sandbox re-executes its own binary as the tiny init.
const initArg0 = "arena-sandbox-init"

// Descriptors the init inherits besides stdin, stdout and stderr.
const (
	configFD = 3 // the init reads one initConfig (JSON) from here, then EOF
	statusFD = 4 // the init writes initEvent lines (JSON) here
)

// bind is one read-only view: Src on the host appears at Dst inside.
type bind struct {
	Src, Dst string
	Dir      bool
	// FD is the descriptor on which the init inherits Src, opened by the host (O_PATH): the
	// init is unprivileged on the host and may not be able to walk to Src itself.
	FD int
}

// initConfig is everything the init needs; the host sends it after it has put the init into
// its cgroups, so nothing the init starts ever runs outside them.
type initConfig struct {
	Name string
	Path string
	Args []string
	Env  []string
	Dir  string

	WorkDir string
	// WorkAt is where the work dir appears inside (WorkDir itself without a mount namespace).
	WorkAt string
	// WorkExec: the work dir is not noexec (a build step).
	WorkExec bool
	WorkFD   int
	ReadOnly []bind
	RootDir  string // an empty host directory the new root is mounted on

	Limits Limits
	// DataBytes is RLIMIT_DATA, set only when no memory cgroup holds the tree (0 = none).
	DataBytes int64

	MountNS, PIDNS, UserNS, UTSNS bool
	// CgroupNS makes the init unshare a cgroup namespace once it is in its cgroups, so the
	// bot's /proc/self/cgroup shows "/" and no host path.
	CgroupNS bool
	// Network: the host's network is kept (a build step allowed to fetch); no Landlock TCP rule.
	Network bool
	// BotUID and BotGID are the ids the bot runs as, as the init sees them (-1 = keep).
	BotUID, BotGID int
	Seccomp        bool
	Landlock       int // Landlock ABI version to use; 0 = off
	Rlimits        bool

	// Pass lists the init's descriptors that the program inherits at 3, 4, ... (Spec.Files).
	Pass []int

	// Probe makes the init set everything up and report instead of starting a program.
	Probe bool
}

// initEvent is one line the init writes on statusFD.
type initEvent struct {
	Event string `json:"event"` // "started", "error", "exit", "probe"
	Step  string `json:"step,omitempty"`
	Error string `json:"error,omitempty"`
	Pid   int    `json:"pid,omitempty"`

	// Exit of the main process.
	Status   int   `json:"status,omitempty"`
	Signal   int   `json:"signal,omitempty"`
	UserUsec int64 `json:"user_usec,omitempty"`
	SysUsec  int64 `json:"sys_usec,omitempty"`
	MaxRSSKB int64 `json:"maxrss_kb,omitempty"`

	// Landlock ABI actually enforced (probe and started).
	Landlock int `json:"landlock,omitempty"`
}
