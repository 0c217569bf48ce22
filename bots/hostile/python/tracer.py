"""Hostile: tries to ptrace the process above it (forbidden system call)."""
import ctypes
import sys

from arena_sdk import dynamite


class Tracer(dynamite.Bot):
    def move(self, state: dynamite.State) -> str:
        if state.round == 3:
            libc = ctypes.CDLL(None, use_errno=True)
            r = libc.ptrace(16, 1, None, None)  # PTRACE_ATTACH to pid 1
            print(f"hostile tracer: blocked: {r} errno {ctypes.get_errno()}", file=sys.stderr, flush=True)
        return "P"
