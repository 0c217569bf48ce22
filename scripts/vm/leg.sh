#!/usr/bin/env bash
# The CI leg in a real VM (issue 24): boots Debian's kernel with cgroup v2 only under qemu
# (scripts/vm/run.sh) and runs scripts/vm/guest.sh inside: `arena sandbox check` with every
# layer it requires, the core hostile cases, one match per game, a tournament killed and resumed,
# and the two variants (the arena in a container's cgroup; an unprivileged user with a
# delegated subtree). Installs what it needs (scripts/vm/install.sh); needs root (a private
# mount namespace for the files store, and the sandbox's own needs) and $ARENA_PYTHON (the
# SDK's interpreter, from scripts/venv.sh). Prints the leg's duration; the guest's reports are
# in $ARENA_VM_OUT (default a temporary folder, removed) as root.txt, container.txt, user.txt.
set -euo pipefail
cd "$(dirname "$0")/../.."

if [ "${1:-}" != --in-namespace ]; then
  : "${ARENA_PYTHON:?vm/leg.sh needs ARENA_PYTHON: source scripts/venv.sh first}"
  case $ARENA_PYTHON in /*) ;; *) ARENA_PYTHON=$(command -v "$ARENA_PYTHON") ;; esac
  export ARENA_PYTHON
  scripts/vm/install.sh
  t0=$SECONDS
  work=$(mktemp -d /tmp/arena-vm-leg.XXXXXX)
  trap 'rm -rf "$work"' EXIT
  out=${ARENA_VM_OUT:-$work/out}
  mkdir -p "$work/bin" "$out"
  # Built on the host: compiling under emulation would take most of the leg.
  # The test command's own arena, when it built one from this checkout (ARENA_TEST_ARENA).
  if [ -n "${ARENA_TEST_ARENA:-}" ]; then cp "$ARENA_TEST_ARENA" "$work/bin/arena"; else go build -o "$work/bin/arena" ./arena/cmd/arena; fi
  for pkg in sandbox arena/hostile; do
    go test -c -vet=off -o "$work/bin/$(basename $pkg).test" ./$pkg # vet: its own lane
  done
  # Two house bots as programs, for the unprivileged user of the delegated variant, who can
  # read neither root's Python nor root's build caches. Static, since a program bot's sandbox
  # shows it no shared libraries: linked so from the packages vet compiled (with cgo), about 1
  # CPU-second each, where CGO_ENABLED=0 compiled every dependency again (21 CPU-seconds). The
  # linker's note that getaddrinfo would need glibc's libraries at run time does not apply:
  # the bots resolve no names (go-plugin speaks over a Unix socket).
  for b in beatlast scissors; do
    if ! msg=$(go build -ldflags='-linkmode external -extldflags -static' -o "$work/bin/bots/$b" ./bots/dynamite/cmd/$b 2>&1); then
      echo "$msg" >&2
      exit 1
    fi
  done
  chmod -R go+rX "$work"
  echo "vm/leg.sh: binaries built in $((SECONDS - t0))s"
  # A private mount namespace: the files store the host fills below is this leg's own, and it
  # is the one the guest mounts.
  status=0
  unshare -m --propagation private "$0" --in-namespace "$work/bin" "$out" || status=$?
  echo "vm/leg.sh: the VM leg took $((SECONDS - t0))s in all (exit $status)"
  exit $status
fi

bin=$2 out=$3
. scripts/cpu.sh # children_cpu
mkdir -p /run/arena-sandbox
mount -t tmpfs -o mode=0755 arena-vm-leg /run/arena-sandbox
arena=$bin/arena
work=$(dirname "$bin")
# The binaries and the files store go into the guest as two tar files on read-only disks
# (/dev/vda, /dev/vdb), which the guest unpacks into its memory: twice the speed of copying the
# same files over the 9p share under emulation, and the 9p share has no page cache (every exec
# of a binary there would cross it again). The VM boots while the host fills the files store
# below (a boot is a minute or more of the leg's wall time, and in CI the host's builds wait for
# the Go kit's warm-up): the files disk is a sparse file of fixed size, whose first sector says
# "arena-files ready SIZE" once the store's tar is written from its second MiB on (scripts/vm/guest.sh
# waits for it). qemu reads the file through the host's page cache, so it sees these writes.
tar -cf "$work/bin.tar" -C "$bin" .
disk=$work/files.disk
disk_mib=4096
truncate -s "${disk_mib}M" "$disk"
children_cpu cpu0
# The emulated VM takes every CPU it is given, and the test command's other lanes hold tests
# whose bots answer within 0.7-1 s of wall time: beside it at equal priority both seats of a
# match timed out in the same step (a stalled host). At nice 19 it has what the others leave;
# its own bounds stretch by a slack of 20 in the guest. Only the VM: the builds and the host's
# matches below, at nice 19 too until 3 December, took 400 s of a 945 s run (CI10) waiting.
t_vm=$SECONDS
nice -n 19 scripts/vm/run.sh --disk "$work/bin.tar" --disk "$disk" --rw "$out" -- \
  "export ARENA_PYTHON=$(printf %q "$ARENA_PYTHON"); echo \"guest up after \$(cut -d' ' -f1 /proc/uptime)s\"; scripts/vm/guest.sh /dev/vda /dev/vdb $(printf %q "$out")" &
vm=$!
# say_disk TEXT: the files disk's first sector.
say_disk() { printf '%s\n' "$1" | dd of="$disk" bs=512 count=1 conv=notrunc,sync status=none; }
fill_failed() { trap - EXIT; say_disk "arena-files failed"; wait "$vm" || true; exit 1; }
# Any other way out before the store is handed over (set -e) ends the guest too, not leaves it waiting.
trap fill_failed EXIT

# The Go bots the guest plays are built here, into the files store the guest then shares
# (their Go builds in the emulated guest would take minutes each): the house bots of every
# game's match, the tournament's and the hostile tests' house bots, the CPU clock test's bots.
# The first build warms the Go compiler cache for the arena's kit (minutes on a cold machine,
# more on a loaded one): the build time limit is raised for it.
t0=$SECONDS
long=(--build-time 1h --build-cpu-seconds 7200)
while read -r game house params; do
  "$arena" play "$game" $params "${long[@]}" "$house" "examples/go/$game" >/dev/null || fill_failed
done < <(grep -v '^#' scripts/vm/games.txt)
"$arena" play dynamite --target 3 bots/dynamite/cmd/paper bots/dynamite/cmd/scissors >/dev/null || fill_failed
# The spinner loses by its CPU budget; only its build matters here.
"$arena" play dynamite --rounds 3 bots/bench/cmd/spin bots/dynamite/cmd/scissors >/dev/null || true
# The hostile Go bots: the guest's cases run here first, which builds them (and checks them
# on this machine's kernel before the emulated one).
. scripts/vm/cases.sh
(cd arena/hostile && "$bin/hostile.test" -test.count=1 -test.timeout=15m -test.run "$HOSTILE_TESTS") >/dev/null || {
  echo "vm/leg.sh: the hostile cases fail on the host already" >&2
  (cd arena/hostile && "$bin/hostile.test" -test.count=1 -test.timeout=15m -test.run "$HOSTILE_TESTS" -test.v) | tail -50 >&2
  fill_failed
}
tar -cf "$work/files.tar" -C /run/arena-sandbox/files . || fill_failed
size=$(stat -c %s "$work/files.tar")
if [ "$size" -gt $(((disk_mib - 1) << 20)) ]; then
  echo "vm/leg.sh: the files store's tar is $size bytes, more than the guest's files disk holds ($disk_mib MiB less 1): raise disk_mib" >&2
  fill_failed
fi
dd if="$work/files.tar" of="$disk" bs=1M seek=1 conv=notrunc status=none || fill_failed
say_disk "arena-files ready $size"
trap - EXIT
children_cpu cpu_host
echo "vm/leg.sh: the guest's Go bots built and played on the host in $((SECONDS - t0))s, the files store handed to the VM"

status=0
wait "$vm" || status=$?
# The CPU time qemu had (its two emulated CPUs and its own thread): on a machine busy with other
# work the wall time says more about the neighbours than about the leg.
children_cpu cpu1
echo "vm/leg.sh: the VM (boot and checks) took $((SECONDS - t_vm))s (exit $status) and $((cpu1 - cpu_host)) CPU-seconds; the host's builds and matches beside its boot $((cpu_host - cpu0))"
exit $status
