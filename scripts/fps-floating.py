#!/usr/bin/env python3
"""Frame times with and without a floating pane open (issue 17).

Runs a release tilework in a PTY (this script drains it, as a fast
terminal would) with `--stats`, a tiled pane scrolling all the time
(`seq 1 200` every 20 ms), once with nothing over it and once with a
focused floating shell over it, interleaved (A B A B ...), RUNS runs each
of SECS seconds. Prints per-run frame counts and render-time percentiles
(the stats' `dur_us`: building and writing one frame), then the medians
and the ratio B/A, which is what to compare on a shared, noisy machine.

    scripts/fps-floating.py [TILEWORK] [RUNS] [SECS]
    (default: target/release/tilework 3 6)
"""

import json
import os
import pty
import select
import statistics
import sys
import tempfile
import time

ROWS, COLS = 50, 160
WORKLOAD = "while :; do seq 1 200; sleep 0.02; done"


def profile(floating: bool) -> str:
    text = f'[[tab]]\nlayout = {{ command = "{WORKLOAD}" }}\n'
    if floating:
        text += "floating = [{ focus = true }]\n"
    return text


def run(binary: str, floating: bool, secs: float, workdir: str) -> list[int]:
    prof = os.path.join(workdir, "float.toml" if floating else "plain.toml")
    with open(prof, "w") as f:
        f.write(profile(floating))
    stats = os.path.join(workdir, "stats.jsonl")
    if os.path.exists(stats):
        os.remove(stats)
    pid, fd = pty.fork()
    if pid == 0:
        os.environ.update(
            TERM="xterm-256color",
            SHELL="/bin/sh",
            PS1="$ ",
            HOME=workdir,
            XDG_CONFIG_HOME=os.path.join(workdir, "config"),
            XDG_STATE_HOME=os.path.join(workdir, "state"),
        )
        os.execv(
            binary,
            [binary, "--profile", prof, "--stats", stats, "--exit-after", str(secs)],
        )
    import fcntl
    import struct
    import termios

    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", ROWS, COLS, 0, 0))
    deadline = time.monotonic() + secs + 20
    while time.monotonic() < deadline:
        r, _, _ = select.select([fd], [], [], 0.5)
        if r:
            try:
                if not os.read(fd, 1 << 16):
                    break
            except OSError:
                break
    os.waitpid(pid, 0)
    os.close(fd)
    with open(stats) as f:
        frames = [json.loads(line) for line in f if line.strip()]
    # The first second is start-up (profile, shells): left out.
    return [fr["dur_us"] for fr in frames if fr["t"] >= 1.0]


def pct(xs: list[int], p: float) -> int:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(len(xs) * p))] if xs else 0


def main() -> None:
    binary = sys.argv[1] if len(sys.argv) > 1 else "target/release/tilework"
    runs = int(sys.argv[2]) if len(sys.argv) > 2 else 3
    secs = float(sys.argv[3]) if len(sys.argv) > 3 else 6.0
    print(f"load before: {os.getloadavg()}")
    results: dict[bool, list[dict]] = {False: [], True: []}
    with tempfile.TemporaryDirectory() as workdir:
        for i in range(runs):
            for floating in (False, True):
                durs = run(binary, floating, secs, workdir)
                row = {
                    "floating": floating,
                    "frames": len(durs),
                    "p50_us": pct(durs, 0.5),
                    "p95_us": pct(durs, 0.95),
                    "max_us": max(durs, default=0),
                }
                results[floating].append(row)
                print(json.dumps(row))
    print(f"load after: {os.getloadavg()}")
    print("\n| | frames/run | p50 µs | p95 µs |\n|---|---|---|---|")
    med = {}
    for floating in (False, True):
        rows = results[floating]
        med[floating] = {
            k: statistics.median(r[k] for r in rows) for k in ("frames", "p50_us", "p95_us")
        }
        name = "floating shell over it" if floating else "no floating pane"
        m = med[floating]
        print(f"| {name} | {m['frames']:.0f} | {m['p50_us']:.0f} | {m['p95_us']:.0f} |")
    ratio = {k: med[True][k] / med[False][k] if med[False][k] else float("nan") for k in med[True]}
    print(
        f"| ratio floating / none | {ratio['frames']:.2f} | {ratio['p50_us']:.2f} | {ratio['p95_us']:.2f} |"
    )


if __name__ == "__main__":
    main()
