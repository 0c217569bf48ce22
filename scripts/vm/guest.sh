#!/usr/bin/env bash
# The VM leg's part inside the guest (scripts/vm/leg.sh boots the VM and runs this as root in
# the checkout): the sandbox report with every layer it requires, the core hostile cases, one
# match per game, a tournament killed and resumed, then the two container and laptop variants.
# Every check runs even when one before it failed; the exit status is the number of failures
# (capped), and each check prints its time. Usage: guest.sh BIN_TAR FILES_TAR OUT
#   BIN_TAR: a tar of the host-built arena and test binaries (a disk of scripts/vm/run.sh);
#   FILES_TAR: a tar of the files store the host filled, or a disk the host fills while the
#   guest boots (scripts/vm/leg.sh): its first sector says "arena-files ready SIZE" once the
#   tar of SIZE bytes is written from its second MiB on, or "arena-files failed";
#   OUT: a folder shared with the host.
set -uo pipefail
bin_tar=$1 files_tar=$2 out=$3

# Both are unpacked into the guest's memory: the binaries into /tmp (a tmpfs), the store into a
# tmpfs of its own at the files store's place (a files store must be a tmpfs of its own, which
# the build layers check).
t0=$SECONDS
bin=/tmp/arena-vm-bin
mkdir -p "$bin" && tar -xf "$bin_tar" -C "$bin" && chmod 755 "$bin" || exit 101
[ -x "$bin/arena" ] || { echo "guest.sh: no arena binary in $bin_tar" >&2; exit 101; }
files=/run/arena-sandbox/files
mkdir -p -m 0755 /run/arena-sandbox && mkdir -p "$files" && mount -t tmpfs -o mode=0700 arena-vm-files "$files" || exit 102
if [ -b "$files_tar" ]; then
  # The host fills this disk while the guest boots. Its first sector is read past the page
  # cache (iflag=direct): the kernel read it at boot, when it was still zeros.
  waited=$SECONDS
  while :; do
    mark=$(dd if="$files_tar" bs=512 count=1 iflag=direct status=none | tr -d '\0')
    case $mark in
      "arena-files ready "*) break ;;
      "arena-files failed"*) echo "guest.sh: the host could not fill the files store (its log says why)" >&2; exit 102 ;;
    esac
    if [ $((SECONDS - waited)) -ge 3600 ]; then echo "guest.sh: no files store from the host within an hour" >&2; exit 102; fi
    sleep 1
  done
  blockdev --flushbufs "$files_tar" || exit 102
  size=${mark#arena-files ready }
  echo "the host's files store arrived $((SECONDS - waited))s after the guest was ready for it"
  t0=$SECONDS
  # Whole MiB up to the tar's end; tar reads through the zeros after its end (-i), so that no
  # side of the pipe stops early (pipefail would take dd's SIGPIPE for a failure).
  dd if="$files_tar" bs=1M skip=1 count=$(((size + 1048575) >> 20)) status=none | tar -xif - -C "$files" || exit 102
else
  tar -xf "$files_tar" -C "$files" || exit 102
fi
echo "binaries and files store ($(du -sm "$files" | cut -f1) MiB) unpacked into the guest's memory in $((SECONDS - t0))s"
export ARENA_REQUIRE_SANDBOX=1 PATH="$bin:$PATH"
# Under emulation a Python bot takes over a minute to start and handshake (grpc, protobuf and a
# TLS key, all emulated): the tests' time bounds are stretched (internal/slack's factor).
export ARENA_TEST_SLACK=${ARENA_TEST_SLACK:-20}
: "${ARENA_PYTHON:?guest.sh needs ARENA_PYTHON, the interpreter with the SDK}"
failed=()

# The core hostile cases: SANDBOX_TESTS and HOSTILE_TESTS (the host built their bots).
. scripts/vm/cases.sh
# Emulation is slow: a bot's start and handshake take seconds to minutes. Moves get generous
# time too: what the leg checks is the sandbox, not speed (the CPU clock test checks the clock).
slow=(--start-timeout 10m --start-deadline 2m --deadline 1m --end-deadline 1m)

# The layers each variant must have, by the names `arena sandbox check` prints. As root every
# layer is required, in the root cgroup and in a container's cgroup alike.
sandbox_layers=(
  "clean environment" "private work dir" "filesystem view" "user namespace" "distinct uid"
  "pid namespace" "mount namespace" "network namespace" "ipc namespace" "uts namespace"
  "cgroup namespace" "cgroup memory" "cgroup pids" "cgroup cpu" "cgroup kill" "rlimits"
  "seccomp" "landlock" "parent-death signal" "subreaper and group kill"
)
build_layers=("build: private compiler cache" "build: files store" "build: no network" "build: Go toolchain")
root_layers=("${sandbox_layers[@]}" "${build_layers[@]}")
# An unprivileged user with a delegated cgroup subtree: no private work dir and no distinct
# uid (both need root on the host), but every cgroup layer (limits, CPU clock, group kill) and
# every namespace. The build layers are not asked for: that user builds nothing here (its
# match is between two host-built programs).
user_layers=(
  "clean environment" "filesystem view" "user namespace" "pid namespace" "mount namespace"
  "network namespace" "ipc namespace" "uts namespace" "cgroup namespace" "cgroup memory"
  "cgroup pids" "cgroup cpu" "cgroup kill" "rlimits" "seccomp" "landlock" "parent-death signal"
  "subreaper and group kill"
)

# check NAME COMMAND...: runs COMMAND, prints its output and time, records a failure.
check() {
  local name=$1 t0=$SECONDS; shift
  printf '\n--- %s\n' "$name"
  if "$@"; then
    printf -- '--- ok: %s (%ds)\n' "$name" $((SECONDS - t0))
  else
    printf -- '--- FAILED: %s (%ds)\n' "$name" $((SECONDS - t0))
    failed+=("$name")
  fi
}

# layers FILE LAYER...: the report in FILE shows every LAYER active.
layers() {
  local file=$1 bad=0 l; shift
  cat "$file"
  for l in "$@"; do
    if ! grep -qE "^  yes  ${l}( |\$)" "$file"; then
      echo "required layer not active: $l" >&2
      bad=1
    fi
  done
  return $bad
}


# --- the root cgroup, as root ----------------------------------------------------------------
echo "kernel $(uname -r), $(nproc) CPUs; cgroup: $(cat /proc/self/cgroup); $(grep -o 'landlock' /sys/kernel/security/lsm)"
root() {
  arena sandbox check >"$out/root.txt" 2>&1
  layers "$out/root.txt" "${root_layers[@]}"
}
check "root: arena sandbox check" root

# The core hostile cases, by the tests that already exist for them (each asserts the fault).
check "sandbox: fork bomb, memory bomb, hang, escape, network, CPU limit, total kill" \
  bash -c "cd sandbox && '$bin/sandbox.test' -test.count=1 -test.timeout=15m -test.run '$SANDBOX_TESTS'"
check "hostile Go bots, whole matches: fork bomb, memory bomb, hang, setsid escape, secrets, network" \
  bash -c "cd arena/hostile && '$bin/hostile.test' -test.count=1 -test.timeout=15m -test.run '$HOSTILE_TESTS'"

# A CPU spinner on the CPU clock: charged its CPU time, over budget in round 3 (the fair
# clock's own test, arena/fairness, needs Python bots and a hog: it runs on the host).
spinner() {
  local f=$out/spinner.txt
  arena play dynamite --rounds 10 --clock-mode cpu --deadline 1s --start-timeout 10m --start-deadline 2m \
    bots/bench/cmd/spin bots/dynamite/cmd/scissors >"$f" 2>&1
  local rc=$?
  cat "$f"
  [ $rc -eq 0 ] && grep -q 'cpu clock' "$f" && grep -q 'round 3: timeout' "$f" && grep -q 'timeout (CPU budget)' "$f"
}
check "CPU spinner stopped by its CPU time (CPU clock)" spinner

# One match per game: a house Go bot against the Go example, on the CPU clock. (Python bots
# are left to the tests: under emulation the arena's 30 s probe of the interpreter runs out.)
match() {
  local game=$1 house=$2 params=$3 f=$out/match-$1.txt
  arena play "$game" $params "${slow[@]}" "$house" "examples/go/$game" >"$f" 2>&1
  local rc=$?
  cat "$f"
  [ $rc -eq 0 ] && grep -q 'cpu clock' "$f"
}
while read -r game house params; do
  check "match: $game" match "$game" "$house" "$params"
done < <(grep -v '^#' scripts/vm/games.txt)

# A tournament killed (SIGKILL) after its first finished match, then resumed: every match is
# done exactly once. Two bots, seats swapped: two matches, one before the kill, one after.
tournament() {
  # The store in a tmpfs of the guest's own: SQLite's locks fail on the 9p share (disk I/O
  # error), and the queue's JetStream reserves its streams' caps (about 22 GiB) out of the free
  # space of the store's folder (a tmpfs's size is only a cap, not memory taken).
  local dir=/tmp/arena-vm-tournament
  mkdir -p $dir && { mountpoint -q $dir || mount -t tmpfs -o size=64g arena-vm-tournament $dir; } || return 1
  local db=$dir/arena-vm-leg.db log=$out/tournament.txt
  rm -f "$db"*
  # The kill lands between the first match's end and the second's, by a poll every 0.05 s: each
  # match is 1000 points (beatlast takes every round from paper), over a second even when the
  # guest is fast (40 points took 1.5 s on a slow guest; 200 took 0.25 s on a fast one, and a
  # poll every 0.2 s saw both matches done: CI, 3 December).
  arena tournament dynamite --store "$db" --name vm --seed 7 --jobs 1 --target 1000 --rounds 5000 \
    "${slow[@]}" --plain bots/dynamite/cmd/beatlast bots/dynamite/cmd/paper >"$log" 2>&1 &
  local pid=$! i
  for ((i = 0; i < 36000; i++)); do
    grep -q '^\[done' "$log" && break
    kill -0 $pid 2>/dev/null || break
    sleep 0.05
  done
  cat "$log"
  if ! kill -9 $pid 2>/dev/null; then echo "the tournament ended before it could be killed" >&2; return 1; fi
  wait $pid
  echo "killed after $(grep -c '^\[done' "$log") finished match(es)"
  # The resume plays only the match left, and the store then holds both, each once.
  arena tournament --resume vm --store "$db" --plain "${slow[@]}" >"$out/resume.txt" 2>&1
  local rc=$?
  cat "$out/resume.txt"
  [ $rc -eq 0 ] || return 1
  grep -q '^played 1 matches' "$out/resume.txt" || { echo "the resume did not play exactly the one match left" >&2; return 1; }
  arena show "$db" vm --matches >"$out/matches.txt" 2>&1 || { cat "$out/matches.txt"; return 1; }
  cat "$out/matches.txt"
  grep -q '2/2 matches done' "$out/matches.txt" &&
    [ "$(grep -E '^  dynamite-r[0-9]+-[0-9]+-[0-9]+ ' "$out/matches.txt" | awk '{print $1}' | sort -u | wc -l)" -eq 2 ]
}
check "tournament killed and resumed" tournament

# --- a container's situation: the arena in a non-root cgroup that holds its processes ---------
# As Docker and Kubernetes start it: the cgroup is the root of a private cgroup namespace and
# is mounted read-only; the image's entrypoint (deploy/entrypoint.sh) remounts it writable and
# the arena moves its processes into a leaf before enabling controllers.
container() {
  echo "+memory +pids +cpu" >/sys/fs/cgroup/cgroup.subtree_control || return 1
  mkdir -p /sys/fs/cgroup/container || return 1
  # A subshell moved into the container's cgroup, then a cgroup and mount namespace of its own.
  (
    echo $BASHPID >/sys/fs/cgroup/container/cgroup.procs
    exec unshare --cgroup --mount --propagation private bash -c '
      umount /sys/fs/cgroup && mount -t cgroup2 -o ro,nosuid,nodev,noexec cgroup2 /sys/fs/cgroup || exit 1
      echo "cgroup inside: $(cat /proc/self/cgroup), mounted $(grep " /sys/fs/cgroup " /proc/self/mounts)"
      deploy/entrypoint.sh sandbox check >"$0/container.txt" 2>&1
      deploy/entrypoint.sh play dynamite --target 10 '"${slow[*]}"' \
        bots/dynamite/cmd/scissors bots/dynamite/cmd/beatlast' "$out"
  ) || return 1
  layers "$out/container.txt" "${root_layers[@]}"
}
check "container: arena sandbox check and a match in a private cgroup namespace" container

# --- a laptop: an unprivileged user with a delegated subtree (systemd's Delegate=yes) --------
delegated() {
  local uid=4242 home=/tmp/arena-user d=/sys/fs/cgroup/user-delegated
  grep -q "^arena-user:" /etc/passwd || echo "arena-user:x:$uid:$uid::$home:/bin/sh" >>/etc/passwd
  grep -q "^arena-user:" /etc/group || echo "arena-user:x:$uid:" >>/etc/group
  mkdir -p "$home" && chown $uid:$uid "$home"
  echo "+memory +pids +cpu" >/sys/fs/cgroup/cgroup.subtree_control || return 1
  mkdir -p $d || return 1
  # What systemd does for Delegate=yes: the cgroup and its three delegation files are the user's.
  chown $uid:$uid $d $d/cgroup.procs $d/cgroup.threads $d/cgroup.subtree_control || return 1
  (
    echo $BASHPID >$d/cgroup.procs
    # The user cannot write into OUT (the host's folder): the report goes through root's shell.
    exec setpriv --reuid $uid --regid $uid --clear-groups env HOME=$home ARENA_PYTHON="$ARENA_PYTHON" PATH="$PATH" \
      arena sandbox check >"$out/user.txt" 2>&1
  ) || return 1
  (
    echo $BASHPID >$d/cgroup.procs
    exec setpriv --reuid $uid --regid $uid --clear-groups env HOME=$home ARENA_PYTHON="$ARENA_PYTHON" PATH="$PATH" \
      arena play dynamite --target 10 "${slow[@]}" "$bin/bots/beatlast" "$bin/bots/scissors"
  ) || return 1
  layers "$out/user.txt" "${user_layers[@]}"
}
check "unprivileged user with a delegated cgroup: arena sandbox check and a match" delegated

printf '\n%d check(s) failed%s\n' ${#failed[@]} "$( ((${#failed[@]})) && printf ': %s;' "${failed[@]}")"
exit $((${#failed[@]} > 100 ? 100 : ${#failed[@]}))
