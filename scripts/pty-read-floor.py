#!/usr/bin/env python3
"""What reading a flood off a PTY costs, with nothing else done with it: the
floor under any multiplexer's CPU in the flood benchmark.

A program writes FILE to a PTY (as `cat` does in a pane: the terminal in its
default, cooked mode, so each `\\n` leaves as `\\r\\n`), and this process reads
the PTY's other side in 64 KiB reads and throws the bytes away. Prints, per
run, the reads, the bytes they brought on average, the wall time and this
process's user and system CPU (the reader's share only: the writer's and the
kernel worker's are not counted, as muxbench counts only the multiplexer's).

    scripts/pty-read-floor.py [--runs N] [--raw] [FILE]

FILE defaults to target/bench/bigfile.txt (scripts/gen-bigfile.sh). `--raw`
puts the terminal in raw mode first (no `\\r` added). The reader is Python:
its own work per read is a few microseconds, the `user` column.
"""

import argparse
import os
import pty
import resource
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def one_run(path, raw):
    before = resource.getrusage(resource.RUSAGE_SELF)
    pid, fd = pty.fork()
    if pid == 0:
        mode = "raw -echo" if raw else "-echo"
        os.execv("/bin/sh", ["sh", "-c", f'stty {mode}; exec cat "$0"', path])
    reads = total = 0
    start = time.monotonic()
    while True:
        try:
            got = os.read(fd, 65536)
        except OSError:  # EIO: the writer's side closed
            break
        if not got:
            break
        reads += 1
        total += len(got)
    wall = time.monotonic() - start
    os.waitpid(pid, 0)
    os.close(fd)
    after = resource.getrusage(resource.RUSAGE_SELF)
    return {
        "bytes": total,
        "reads": reads,
        "wall": wall,
        "user": after.ru_utime - before.ru_utime,
        "sys": after.ru_stime - before.ru_stime,
    }


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--raw", action="store_true")
    ap.add_argument("file", nargs="?", default=os.path.join(ROOT, "target/bench/bigfile.txt"))
    args = ap.parse_args()
    if not os.path.isfile(args.file):
        sys.exit(f"pty-read-floor: no file at {args.file}: make it with scripts/gen-bigfile.sh")
    for run in range(args.runs):
        r = one_run(args.file, args.raw)
        print(
            f"run {run + 1}: {r['bytes'] / 1e6:.1f} MB in {r['reads']} reads "
            f"({r['bytes'] / max(r['reads'], 1):.0f} B each), {r['wall']:.2f} s, "
            f"reader CPU {r['user'] + r['sys']:.2f} s (user {r['user']:.2f}, sys {r['sys']:.2f})"
        )


if __name__ == "__main__":
    main()
