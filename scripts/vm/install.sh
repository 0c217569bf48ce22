#!/usr/bin/env bash
# Installs what scripts/vm/run.sh needs on a Debian or Ubuntu machine, and nothing when it is
# all there: qemu (qemu-system-x86), a Debian kernel in /boot (linux-image-amd64), a static
# busybox for virtme-ng's initramfs (busybox-static), and virtme-ng from PyPI into the arena's
# virtual environment (scripts/vm/env.sh says which). Exits non-zero, naming what is missing,
# when it cannot install: under CI a missing tool fails the VM leg, it never skips it.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/env.sh"

need=()
command -v qemu-system-x86_64 >/dev/null 2>&1 || need+=(qemu-system-x86)
command -v busybox >/dev/null 2>&1 || need+=(busybox-static)
if [ -z "${ARENA_VM_KERNEL:-}" ] && ! ls /boot/vmlinuz-* >/dev/null 2>&1; then need+=(linux-image-amd64); fi
if [ ${#need[@]} -gt 0 ]; then
  if ! command -v apt-get >/dev/null 2>&1; then
    echo "vm/install.sh: missing ${need[*]} and no apt-get to install them: install qemu-system-x86_64, busybox and a kernel in /boot (or set ARENA_VM_KERNEL)" >&2
    exit 1
  fi
  sudo=
  if [ "$(id -u)" != 0 ]; then
    if command -v sudo >/dev/null 2>&1; then sudo="sudo -n"; else
      echo "vm/install.sh: installing ${need[*]} needs root: run 'apt-get install ${need[*]}' as root" >&2
      exit 1
    fi
  fi
  echo "vm/install.sh: installing ${need[*]} (apt-get)" >&2
  export DEBIAN_FRONTEND=noninteractive
  $sudo apt-get update -qq >&2
  $sudo apt-get install -y -qq --no-install-recommends "${need[@]}" >&2
fi
# Debian's kernel images are readable by root only; qemu reads the kernel as the caller.
kernel=${ARENA_VM_KERNEL:-$(ls -1v /boot/vmlinuz-* | tail -n 1)}
if [ ! -r "$kernel" ]; then
  echo "vm/install.sh: $kernel is not readable by $(id -un): run as root, or copy it and set ARENA_VM_KERNEL" >&2
  exit 1
fi

if ! command -v vng >/dev/null 2>&1; then
  if [ ! -x "$ARENA_VM_VENV/bin/python" ]; then
    python3 -m venv "$ARENA_VM_VENV" || {
      echo "vm/install.sh: cannot make a virtual environment in $ARENA_VM_VENV: install python3-venv" >&2
      exit 1
    }
  fi
  echo "vm/install.sh: installing virtme-ng into $ARENA_VM_VENV (pip)" >&2
  "$ARENA_VM_VENV/bin/python" -m pip install --quiet --disable-pip-version-check 'virtme-ng==1.42'
  PATH=$ARENA_VM_VENV/bin:$PATH
fi
command -v vng >/dev/null 2>&1 || { echo "vm/install.sh: pip installed virtme-ng but vng is not in $ARENA_VM_VENV/bin" >&2; exit 1; }
