"""Hostile: fork bomb in round 3 (each child forks on, forever)."""
import os
import sys
import time

from arena_sdk import dynamite


class ForkBomb(dynamite.Bot):
    def move(self, state: dynamite.State) -> str:
        if state.round == 3:
            while True:
                try:
                    os.fork()
                except OSError as e:
                    print(f"hostile forkbomb: blocked: {e}", file=sys.stderr, flush=True)
                    time.sleep(3600)
        return "P"
