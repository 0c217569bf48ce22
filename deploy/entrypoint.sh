#!/bin/sh
# The image's entrypoint: makes the container's cgroup filesystem writable when the runtime
# mounted it read-only but gave the means to remount it (CAP_SYS_ADMIN, no AppArmor mount rule
# against it), then runs arena with the container's arguments. The arena itself moves the
# container's processes into a leaf cgroup and enables the controllers its sandboxes use (a
# cgroup v2 cgroup holding processes cannot give controllers to children); `arena sandbox
# check` reports what is still missing and the flag that gives it.
set -eu
cg=/sys/fs/cgroup
if grep -qs "^[^ ]* $cg cgroup2 ro[ ,]" /proc/self/mounts; then
  if ! mount -o remount,rw "$cg" 2>/dev/null; then
    echo "arena-entrypoint: $cg is read-only and cannot be remounted (run with --cgroupns=private --cap-add SYS_ADMIN --security-opt apparmor=unconfined, or --privileged): bots get no memory, process or CPU cgroup limits and no CPU clock" >&2
  fi
fi
exec arena "$@"
