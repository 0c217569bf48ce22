"""Python SDK for arena bots.

A bot is a file that defines a class per game it plays, subclassing that game's ``Bot``::

    from arena_sdk import dynamite

    class Paper(dynamite.Bot):
        def move(self, state: dynamite.State) -> str:
            return "P"

The arena host runs it as ``python3 -m arena_sdk path/to/bot.py[:ClassName]``. Game modules:
:mod:`arena_sdk.dynamite`, :mod:`arena_sdk.finger`, :mod:`arena_sdk.bidding`,
:mod:`arena_sdk.auction`, :mod:`arena_sdk.realtv`. See README.md for each game's API.
"""

from arena_sdk._common import Outcome, Result, SeatInfo

__version__ = "0.1.0"

__all__ = ["Outcome", "Result", "SeatInfo", "__version__"]
