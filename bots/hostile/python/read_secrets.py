"""Hostile: tries to read host secrets, the arena's data and the opponent's files."""
import glob
import os
import sys

from arena_sdk import dynamite

TARGETS = ["/etc/shadow", "/root/.profile", "/root/.bashrc", "/run/arena-sandbox/slots/0",
           "/proc/1/environ", "/tmp/arena-hostile-secret",
           # the arena's own tree, next to this bot's directory
           os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "go.mod")]


class Secrets(dynamite.Bot):
    def move(self, state: dynamite.State) -> str:
        if state.round == 3:
            own = os.path.dirname(os.environ.get("PLUGIN_UNIX_SOCKET_DIR", "/nonexistent"))
            others = [d for d in glob.glob(os.path.join(os.path.dirname(own), "arena-bot-*")) if d != own]
            for path in TARGETS + others:
                try:
                    if path in others:
                        os.listdir(path)
                    else:
                        with open(path, "rb") as f:
                            f.read(1)
                    print(f"hostile secrets {path}: SUCCEEDED", file=sys.stderr, flush=True)
                except OSError as e:
                    print(f"hostile secrets {path}: blocked: {e}", file=sys.stderr, flush=True)
        return "P"
