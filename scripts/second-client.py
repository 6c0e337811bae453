#!/usr/bin/env python3
"""Attach a second terminal to a running workspace and keep it reading, for
measuring what a second client costs (issue 31).

    XDG_RUNTIME_DIR=/tmp/rt scripts/second-client.py --tilework target/release/tilework \
        --session bench --rows 62 --cols 106 &
    XDG_RUNTIME_DIR=/tmp/rt target/release/examples/bench-harness latency \
        --contender tilework --tilework target/release/tilework \
        --tilework-arg=--session=bench --keys 200

Waits for the workspace's socket (started by the harness), attaches in a PTY
of the given size, and reads everything the workspace draws there (counting
the bytes) until the workspace ends or this is interrupted. Each time the
workspace ends it waits for the next one of that name (the harness starts one
per run)."""

import argparse
import os
import pty
import select
import signal
import struct
import sys
import termios
import fcntl
import time


def socket_path(name):
    base = os.environ.get("XDG_RUNTIME_DIR") or f"/tmp/tilework-{os.getuid()}"
    return os.path.join(base, "tilework", name)


def attach_once(args):
    pid, fd = pty.fork()
    if pid == 0:
        os.execv(args.tilework, [args.tilework, "attach", args.session])
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", args.rows, args.cols, 0, 0))
    total = 0
    while True:
        ready, _, _ = select.select([fd], [], [], 1.0)
        if not ready:
            if os.waitpid(pid, os.WNOHANG)[0] == pid:
                break
            continue
        try:
            data = os.read(fd, 1 << 16)
        except OSError:
            break
        if not data:
            break
        total += len(data)
    try:
        os.waitpid(pid, 0)
    except ChildProcessError:
        pass
    return total


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tilework", required=True)
    parser.add_argument("--session", required=True)
    parser.add_argument("--rows", type=int, default=62)
    parser.add_argument("--cols", type=int, default=106)
    args = parser.parse_args()
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    path = socket_path(args.session)
    while True:
        while not os.path.exists(path):
            time.sleep(0.01)
        total = attach_once(args)
        print(f"second client read {total} bytes", file=sys.stderr)
        while os.path.exists(path):
            time.sleep(0.01)


if __name__ == "__main__":
    main()
