"""Hostile: tries outbound TCP and UDP."""
import socket
import sys

from arena_sdk import dynamite


class Network(dynamite.Bot):
    def move(self, state: dynamite.State) -> str:
        if state.round == 3:
            for host, port in [("127.0.0.1", 22), ("1.1.1.1", 443)]:
                try:
                    socket.create_connection((host, port), timeout=0.3).close()
                    print(f"hostile network tcp {host}: SUCCEEDED", file=sys.stderr, flush=True)
                except OSError as e:
                    print(f"hostile network tcp {host}: blocked: {e}", file=sys.stderr, flush=True)
            try:
                s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
                s.sendto(b"leak", ("1.1.1.1", 53))
                print("hostile network udp: SUCCEEDED", file=sys.stderr, flush=True)
            except OSError as e:
                print(f"hostile network udp: blocked: {e}", file=sys.stderr, flush=True)
        return "P"
