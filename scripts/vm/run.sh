#!/usr/bin/env bash
# Runs one shell command inside a fresh virtual machine booted with Debian's kernel and cgroup v2
# only, and returns its exit status; its stdout and stderr are the command's.
#
#   scripts/vm/run.sh [--rw DIR]... [--disk FILE]... [--cpus N] [--memory SIZE] [--append KERNEL_ARG]... -- 'COMMAND'
#
# The guest is virtme-ng's copy-on-write view of this machine: the host's / read-only (9p), with
# throw-away tmpfs layers over /etc /usr /var /tmp /home /opt /srv, its own /run, and no network.
# So every binary, toolchain and venv of the host is there at the same path; nothing the guest
# writes reaches the host except in a --rw DIR (shared read-write, at the same path). Each
# --disk FILE is a read-only virtio disk, /dev/vda, /dev/vdb... in the order given: a tar file
# there reads at about twice the speed of the same bytes over 9p under emulation. COMMAND
# runs as root in the current directory, with this shell's PATH (nothing else of the
# environment: pass variables in COMMAND). The kernel is the newest /boot/vmlinuz-* (or
# $ARENA_VM_KERNEL); it boots with cgroup_no_v1=all, so the guest has the unified hierarchy
# only, mounted at /sys/fs/cgroup, with the command in the root cgroup (a systemd host puts
# services in a leaf; see scripts/vm/leg.sh for the variants).
#
# Why virtme-ng rather than an initramfs of our own: it shares the host's filesystem instead of
# copying the arena, Go, Python, Node, Java and Rust into an image, loads the Debian kernel's own
# modules (9p, overlay) from /lib/modules in its initramfs, and carries the command's output and
# exit status over virtio serial ports. KVM is not used (TCG, emulated): it is not available on
# the CI machines. scripts/vm/install.sh installs what this needs.
set -euo pipefail

# plain PATH: vng joins folders and disks into a shell command unquoted, so only these characters.
plain() {
  case $1 in /*) ;; *) echo "vm/run.sh: $1: give an absolute path" >&2; exit 2 ;; esac
  case $1 in *[!A-Za-z0-9._/+-]*) echo "vm/run.sh: $1: a path of letters, digits and ._/+- only (virtme-ng passes it on unquoted)" >&2; exit 2 ;; esac
}
rw=() append=() disks=() cpus=2 memory=3G
while [ $# -gt 0 ]; do
  case $1 in
    --rw)
      plain "$2"
      [ -d "$2" ] || { echo "vm/run.sh: --rw $2: no such folder" >&2; exit 2; }
      rw+=(--rwdir "$2"); shift 2 ;;
    --disk)
      plain "$2"
      [ -r "$2" ] || { echo "vm/run.sh: --disk $2: no such readable file" >&2; exit 2; }
      disks+=(--qemu-opts="-drive file=$2,format=raw,if=virtio,readonly=on"); shift 2 ;;
    --cpus) cpus=$2; shift 2 ;;
    --memory) memory=$2; shift 2 ;;
    --append) append+=(--append "$2"); shift 2 ;;
    --) shift; break ;;
    *) echo "vm/run.sh: unknown option $1 (usage: run.sh [--rw DIR]... [--disk FILE]... [--cpus N] [--memory SIZE] [--append ARG]... -- 'COMMAND')" >&2; exit 2 ;;
  esac
done
if [ $# -ne 1 ]; then
  echo "vm/run.sh: give the command as one argument after --, e.g. run.sh -- 'uname -r'" >&2
  exit 2
fi

here=$(cd "$(dirname "$0")" && pwd)
. "$here/env.sh"

kernel=${ARENA_VM_KERNEL:-$(ls -1v /boot/vmlinuz-* 2>/dev/null | tail -n 1 || true)}
if [ -z "$kernel" ] || [ ! -r "$kernel" ]; then
  echo "vm/run.sh: no kernel in /boot (or ARENA_VM_KERNEL unreadable): run scripts/vm/install.sh" >&2
  exit 1
fi
for tool in qemu-system-x86_64 busybox vng; do
  if ! command -v "$tool" >/dev/null 2>&1; then
    echo "vm/run.sh: $tool is missing: run scripts/vm/install.sh" >&2
    exit 1
  fi
done

# tree PID: a line "pid cpu-seconds" for PID and every process under it (user and system time,
# with reaped children's), from /proc (a process may end while it is read).
tree() {
  { cat /proc/[0-9]*/stat 2>/dev/null || true; } | awk -v root="$1" -v tck="$(getconf CLK_TCK)" '
    { s = $0; sub(/.*\) /, "", s); split(s, f, " "); parent[$1] = f[2]; cpu[$1] = (f[12] + f[13] + f[14] + f[15]) / tck }
    END { for (q in cpu) { r = q; while (r != "" && r != root && r > 1) r = parent[r]
        if (r == root) print q, cpu[q] } }'
}
tree_cpu() { tree "$1" | awk '{ n += $2 } END { printf "%d", n }'; }
# tree_threads PID: the thread IDs of PID's tree.
tree_threads() {
  local p
  for p in $(tree "$1" | cut -d" " -f1); do ls "/proc/$p/task" 2>/dev/null || true; done
}
# tree_sched PID: "cpu wait" of the tree's live threads, in whole seconds: their time on a CPU
# and their time runnable but waiting for one (/proc/<tid>/schedstat).
tree_sched() {
  local t
  for t in $(tree_threads "$1"); do cat "/proc/$t/schedstat" 2>/dev/null || true; done |
    awk '{ c += $1; w += $2 } END { printf "%d %d\n", c / 1e9, w / 1e9 }'
}

# unstarve PID: run beside the VM when this runs niced. At nice 19 qemu has what the machine's
# other work leaves, which on a machine kept busy by others is nothing: beside four busy loops
# its boot had 28 CPU-seconds in 27 minutes, its threads runnable all along (CI25, 3 December),
# until the wall cap below stopped it. A VM that in 5 minutes ran under a twentieth of a CPU
# while its threads waited for one most of the time is put back at the normal priority (root
# may; others keep waiting, and are told so). In the test command's own runs on an idle machine
# the VM had about half a CPU on average, so this does not touch them.
unstarve() {
  local root=$1 window=${ARENA_VM_STARVED_WINDOW:-300} c0 w0 t0 c1 w1 span t
  [ "$(nice)" -gt 0 ] || return 0
  read -r c0 w0 < <(tree_sched "$root")
  t0=$SECONDS
  while kill -0 "$root" 2>/dev/null; do
    sleep 10
    span=$((SECONDS - t0))
    [ "$span" -ge "$window" ] || continue
    read -r c1 w1 < <(tree_sched "$root")
    if [ $(((c1 - c0) * 20)) -lt "$span" ] && [ $((w1 - w0)) -gt "$span" ]; then
      echo "vm/run.sh: the VM ran $((c1 - c0)) CPU-seconds in ${span} s, its threads waiting $((w1 - w0)) s for a CPU: the machine is busy with other work; back to the normal priority" >&2
      for t in $(tree_threads "$root"); do
        if ! renice -n 0 -p "$t" >/dev/null 2>&1; then
          echo "vm/run.sh: cannot raise the VM's priority here (not root): it waits for the machine" >&2
          return 0
        fi
      done
      return 0
    fi
    c0=$c1 w0=$w1 t0=$SECONDS
  done
}

# tsc=reliable: under TCG the kernel finds the emulated CPUs' TSCs "unsynchronized" and falls
# back to the HPET, which the vDSO cannot read: every clock read (the Go runtime makes many)
# becomes a system call and an emulated device access. qemu's TSC is one clock for all CPUs.
# -cpu qemu64: virtme-ng asks for qemu's "max" CPU, every feature of which TCG then emulates
# (AVX2 among them, which Go's runtime uses) and for which the kernel turns on costly Spectre
# mitigations: a boot and the same sandbox tests took 134 and 143 CPU-seconds of qemu with
# "max", 113 with "max" and mitigations=off, 99 and 99 with the plain 64-bit CPU (qemu 7.2,
# 3 December). What the leg checks (namespaces, cgroup v2, seccomp, Landlock) does not depend
# on the CPU model. The last -cpu given wins.
# vng keeps the terminal's stdin; give it none so a background or CI run cannot stall on it.
# qemu opens the guest's stdout and stderr as files (/proc/self/fd/1, truncating a regular file
# and writing from its start), so they go through pipes: output redirected to a file stays whole.
#
# A boot that never reaches the command is retried once: one CI run in about fifteen (3
# December) had no output from its guest after 20 minutes, on an idle machine, where a boot
# takes about a minute. The guest touches a file in a private shared folder before the command;
# the watch counts qemu's CPU time rather than the wall time, which a busy machine stretches
# without end (the VM leg runs at nice 19), with a wall cap for a guest that hangs idle.
boot_cpu=${ARENA_VM_BOOT_CPU:-600} boot_wall=${ARENA_VM_BOOT_WALL:-1800}
mark=$(mktemp -d "${TMPDIR:-/tmp}/arena-vm-up.XXXXXX")
trap 'rm -rf "$mark"' EXIT
plain "$mark"
for attempt in 1 2; do
  rm -f "$mark/up"
  # A niced VM that the machine starves is raised by unstarve (each boot has its own watch).
  set +e
  (vng --run "$kernel" --disable-kvm --cpus "$cpus" --memory "$memory" \
    --append cgroup_no_v1=all --append systemd.unified_cgroup_hierarchy=1 --append tsc=reliable \
    "${append[@]}" "${rw[@]}" --rwdir "$mark" "${disks[@]}" --qemu-opts="-cpu qemu64" \
    --exec "touch $(printf %q "$mark/up"); export PATH=$(printf %q "$PATH"); $1" </dev/null 2> >(cat >&2) | cat; s=$?; wait; exit $s) &
  vm=$!
  unstarve "$vm" &
  watch=$!
  set -e
  t0=$SECONDS booted=0 used=0
  while kill -0 "$vm" 2>/dev/null; do
    if [ -e "$mark/up" ]; then booted=1; break; fi
    used=$(tree_cpu "$vm")
    if [ "$used" -ge "$boot_cpu" ] || [ $((SECONDS - t0)) -ge "$boot_wall" ]; then
      echo "vm/run.sh: the guest did not reach the command after ${used} CPU-seconds of qemu and $((SECONDS - t0)) s (a boot takes about a minute): stopping it (attempt $attempt of 2)" >&2
      kill $(tree "$vm" | cut -d" " -f1) 2>/dev/null || true
      break
    fi
    sleep 2
  done
  set +e
  wait "$vm"
  status=$?
  kill "$watch" 2>/dev/null
  wait "$watch" 2>/dev/null
  set -e
  if [ "$booted" = 1 ] || [ -e "$mark/up" ]; then exit "$status"; fi
  echo "vm/run.sh: the guest ended without reaching the command (exit $status, qemu had ${used:-0} CPU-seconds, attempt $attempt of 2)" >&2
done
echo "vm/run.sh: the guest did not boot twice in a row" >&2
exit 1
