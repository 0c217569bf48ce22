"""The ``bidbot`` client library of the bidding contest (arena_sdk seed-compatibility shim)."""
