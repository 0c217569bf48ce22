"""Hostile: stops itself (SIGSTOP) in round 3, and again whenever something continues it."""
import os
import signal

from arena_sdk import dynamite

# The kernel's SIGHUP to an orphaned stopped group must not end it either.
signal.signal(signal.SIGHUP, signal.SIG_IGN)


class Stopper(dynamite.Bot):
    def move(self, state: dynamite.State) -> str:
        while state.round == 3:
            os.kill(os.getpid(), signal.SIGSTOP)
        return "P"
