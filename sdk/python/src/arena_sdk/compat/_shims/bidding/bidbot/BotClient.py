"""bidbot.BotClient (arena_sdk seed-compatibility shim).

``connect(host, port, username, bot)`` hands the bot to the arena seat that is running this
script's ``main()`` and blocks until that seat's games end. host and port are ignored.
"""

from arena_sdk.compat import bidding as _bridge


def connect(host, port, username, bot):
    _bridge.connect(host, port, username, bot)
