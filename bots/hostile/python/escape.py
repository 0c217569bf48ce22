"""Hostile: a child in its own session that outlives the bot, which exits in round 3."""
import os
import sys
import time

from arena_sdk import dynamite


class Escape(dynamite.Bot):
    def move(self, state: dynamite.State) -> str:
        if state.round == 3:
            if os.fork() == 0:
                os.setsid()
                if os.fork() == 0:
                    time.sleep(3600)
                os._exit(0)
            print("hostile setsid: leaving a child behind", file=sys.stderr, flush=True)
            os._exit(0)
        return "P"
