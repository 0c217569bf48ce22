"""The bench's Python anchor: a minimal stdio referee's bot (see ../main.go).

It reads one line per move from the pipe IN and answers one line on the pipe OUT,
unbuffered, with nothing in between.
"""
import os
import sys
import time


def open_when_there(path):
    """Opens the pipe, which the host makes once the sandbox is up."""
    deadline = time.monotonic() + 10
    while True:
        try:
            return open(path, "rb")
        except FileNotFoundError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.001)


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: peer.py IN OUT (the pipes the host writes one line per move to and reads the answers from)")
    inp = open_when_there(sys.argv[1])  # IN appears last, so OUT is there once IN is
    out = open(sys.argv[2], "wb", buffering=0)
    for _ in inp:
        out.write(b"R\n")


if __name__ == "__main__":
    main()
