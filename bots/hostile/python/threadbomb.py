"""Hostile: starts threads without end in round 3."""
import sys
import threading
import time

from arena_sdk import dynamite


class ThreadBomb(dynamite.Bot):
    def move(self, state: dynamite.State) -> str:
        if state.round == 3:
            while True:
                try:
                    threading.Thread(target=time.sleep, args=(3600,), daemon=True).start()
                except RuntimeError as e:
                    print(f"hostile threadbomb: blocked: {e}", file=sys.stderr, flush=True)
                    time.sleep(3600)
        return "P"
