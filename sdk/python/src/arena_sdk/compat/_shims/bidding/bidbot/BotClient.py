"""bidbot.BotClient (arena_sdk seed-compatibility shim).

``connect(host, port, username, bot)`` hands the bot to the arena seat that is running this
script's ``main()`` and blocks until that seat's games end. host and port are ignored.
"""

from typing import Any

from arena_sdk.compat import bidding as _bridge


def connect(host: Any, port: Any, username: str, bot: Any) -> None:
    _bridge.connect(host, port, username, bot)
