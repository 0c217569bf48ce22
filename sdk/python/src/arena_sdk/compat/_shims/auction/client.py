"""The auction contest's ``client`` module (arena_sdk seed-compatibility shim).

``Client(name, (host, port))`` talks to the arena seat running this script instead of a socket.
"""

from arena_sdk.compat.auction import Client

__all__ = ["Client"]
