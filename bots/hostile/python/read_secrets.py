"""Hostile: tries to read host secrets, the arena's data and the opponent's files."""
import glob
import os
import sys

from arena_sdk import dynamite

TARGETS = ["/root", "/etc/shadow", "/home", "/work/main/go.mod", "/run/arena-sandbox", "/proc/1/environ"]


class Secrets(dynamite.Bot):
    def move(self, state: dynamite.State) -> str:
        if state.round == 3:
            for path in TARGETS + glob.glob("/tmp/arena-bot-*"):
                try:
                    if os.path.isdir(path):
                        os.listdir(path)
                    else:
                        with open(path, "rb") as f:
                            f.read(1)
                    print(f"hostile secrets {path}: SUCCEEDED", file=sys.stderr, flush=True)
                except OSError as e:
                    print(f"hostile secrets {path}: blocked: {e}", file=sys.stderr, flush=True)
        return "P"
