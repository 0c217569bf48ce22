"""Entry point: ``python3 -m arena_sdk path/to/bot.py[:ClassName]`` (see arena_sdk._runner)."""

from arena_sdk._runner import main

if __name__ == "__main__":
    main()
