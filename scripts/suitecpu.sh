#!/usr/bin/env bash
# Where the Go tests' CPU goes, per package: CPU-seconds do not move with the machine's load,
# wall times do, so this is what to compare before and after a change to the suite.
#
#   bash scripts/suitecpu.sh [go test flags and packages]   (default: the Go lane's packages)
#
# Each test binary runs under /usr/bin/time (go test -exec): its user+sys CPU, with every child
# it waited for, and so with every sandboxed bot and build (each sandbox's init reaps its
# processes, and the test binary reaps the init). Their share is read from the sandbox's
# cgroups and shown apart ("sandbox", part of "CPU s"; "host" is the rest, the test binary and
# its unsandboxed children, such as Chromium): each arena process has a directory there
# (arena-sandbox/<owner>), whose usage counts every sandboxed process under it, also after that
# process's own directory is gone; it is sampled every second and the largest value kept (the
# last second of a package can be missed). A directory is charged to the test binary it
# descends from. The go command's own CPU (compiling, linking, vet) is the total less the test
# binaries'. Run it as root, in a private files store like the tests (see the README).
set -euo pipefail
cd "$(dirname "$0")/.."
[ "$(id -u)" = 0 ] || { echo "suitecpu.sh: run it as root, as the sandboxed tests need" >&2; exit 1; }
[ -x /usr/bin/time ] || { echo "suitecpu.sh: needs /usr/bin/time (apt-get install time)" >&2; exit 1; }

out=$(mktemp -d "${TMPDIR:-/tmp}/arena-suitecpu.XXXXXX")
cat >"$out/exec.sh" <<EOF
#!/bin/bash
# The test binary's parent is this process (exec'd into time): the poller charges sandbox
# directories to the package through it.
echo "\$\$ \$PWD" >>"$out/pids"
exec /usr/bin/time -a -o "$out/times" -f "\$PWD %e %U %S" "\$@"
EOF
chmod +x "$out/exec.sh"
: >"$out/pids"

# The sandbox's per-owner cgroup directories with their CPU usage in nanoseconds (v1 cpuacct
# or v2 cpu.stat), one "dir usage" a line.
usages() {
  local d u
  for d in /sys/fs/cgroup/cpuacct/arena-sandbox/*/ /sys/fs/cgroup/arena-sandbox/*/ /sys/fs/cgroup/*/arena-sandbox/*/; do
    [ -d "$d" ] || continue
    if [ -f "$d/cpuacct.usage" ]; then
      u=$(cat "$d/cpuacct.usage" 2>/dev/null) || continue
    elif [ -f "$d/cpu.stat" ]; then
      u=$(awk '$1 == "usage_usec" {print $2 * 1000}' "$d/cpu.stat" 2>/dev/null) || continue
    else
      continue
    fi
    echo "$d ${u:-0}"
  done
}

# pkgof PID: the package of the test binary PID descends from (empty: none of ours).
pkgof() {
  local pid=$1 n=0 line
  while [ "$pid" -gt 1 ] && [ $n -lt 30 ]; do
    line=$(grep -m1 "^$pid " "$out/pids" || true)
    if [ -n "$line" ]; then echo "${line#* }"; return; fi
    pid=$(awk '{print $4}' "/proc/$pid/stat" 2>/dev/null) || return 0
    n=$((n + 1))
  done
}

poll() {
  declare -A most pkg
  local d u o
  while [ ! -f "$out/stop" ]; do
    while read -r d u; do
      o=$(basename "$d")
      if [ -z "${pkg[$o]+x}" ]; then pkg[$o]=$(pkgof "${o%%.*}"); fi
      [ -n "${pkg[$o]}" ] || continue
      if [ "$u" -gt "${most[$o]:-0}" ]; then most[$o]=$u; fi
    done < <(usages)
    for o in "${!most[@]}"; do echo "${pkg[$o]} ${most[$o]}"; done >"$out/sandbox.tmp"
    mv "$out/sandbox.tmp" "$out/sandbox"
    sleep 1
  done
}
poll &
poller=$!

if [ $# = 0 ]; then
  set -- -count=1 -timeout 60m -ldflags=-w $(go list ./... | grep -v '/arena/fairness$')
fi
rc=0
/usr/bin/time -o "$out/total" -f "%e %U %S" go test -json -exec "$out/exec.sh" "$@" >"$out/json" || rc=$?
touch "$out/stop"
wait "$poller" || true

root=$PWD
awk -v root="$root/" '
  FNR == 1 { f++ }
  f == 1 { sub(root, "", $1); host[$1] += $3 + $4; wall[$1] += $2; seen[$1] = 1 }
  f == 2 { sub(root, "", $1); sb[$1] += $2 / 1e9; seen[$1] = 1 }
  f == 3 { tw = $1; tc = $2 + $3 }
  END {
    printf "%-34s %8s %9s %9s %9s\n", "package", "wall s", "host CPU", "sandbox", "CPU s"
    for (p in seen) {
      # The cgroups are sampled each second: the last second of a sandbox can be missed.
      own = host[p] - sb[p]; if (own < 0) own = 0
      c = host[p]; hs += own; ss += sb[p]; ts += c
      printf "%-34s %8.1f %9.1f %9.1f %9.1f\n", (p == "" ? "." : p), wall[p], own, sb[p], c | "sort -k5 -n -r"
    }
    close("sort -k5 -n -r")
    printf "test binaries %.1f CPU-s (host %.1f, sandbox %.1f); go command (compile, link, vet) %.1f; total %.1f CPU-s in %.0f s\n", ts, hs, ss, tc - ts, tc, tw
  }' "$out/times" "$out/sandbox" "$out/total"
echo "the slowest tests (go test -json elapsed, wall seconds):"
python3 - "$out/json" <<'EOF'
import json, sys
tests = []
for line in open(sys.argv[1]):
    try:
        e = json.loads(line)
    except ValueError:
        continue
    if e.get("Action") in ("pass", "fail") and "/" not in e.get("Test", "/"):
        tests.append((e["Elapsed"], e["Package"].split("/arena/", 1)[-1], e["Test"], e["Action"]))
for t in sorted(tests, reverse=True)[:15]:
    print("  %7.1f  %s %s (%s)" % t)
EOF
echo "raw data: $out"
exit $rc
