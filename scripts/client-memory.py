#!/usr/bin/env python3
"""Memory of the process left in the user's terminal: the client that only
waits while the workspace (tmux: the server) draws.

Each run starts the multiplexer in a pseudo-terminal of 120x40 that answers
the start-up queries as a terminal would (device attributes, OSC 10/11),
waits for the pane's prompt and for things to settle, then reads the
client's VmRSS, RssAnon, RssFile and thread count from /proc/PID/status.
For tilework it measures both the client of `tilework` (which started the
workspace) and one of `tilework attach NAME` (a second terminal on it). For
tmux the client of `tmux new-session`. Runs are interleaved; the table gives
medians. Several tilework binaries may be given (e.g. before and after).

    scripts/client-memory.py [--runs 5] [--tmux tmux] BINARY [BINARY...]
"""

import argparse
import fcntl
import os
import pty
import select
import shutil
import signal
import statistics
import struct
import subprocess
import tempfile
import termios
import time

PROMPT = b"cm-up> "
ANSWERS = [
    (b"\x1b[c", b"\x1b[?62;22c"),
    (b"\x1b]11;?", b"\x1b]11;rgb:0000/0000/0000\x1b\\"),
    (b"\x1b]10;?", b"\x1b]10;rgb:ffff/ffff/ffff\x1b\\"),
]
FIELDS = ("VmRSS", "RssAnon", "RssFile", "Threads")


def start(argv, env, cols=120, rows=40):
    pid, fd = pty.fork()
    if pid == 0:
        os.execvpe(argv[0], argv, env)
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", rows, cols, 0, 0))
    return pid, fd


def pump(fd, until, needle=None):
    """Drains and answers the terminal until `until` (a time), or until
    `needle` was seen; returns whether it was."""
    seen = b""
    while time.time() < until:
        r, _, _ = select.select([fd], [], [], 0.05)
        if not r:
            continue
        try:
            data = os.read(fd, 65536)
        except OSError:
            return False
        for query, answer in ANSWERS:
            if query in data:
                os.write(fd, answer)
        seen = (seen + data)[-4096:]
        if needle is not None and needle in seen:
            return True
    return needle is None


def status(pid):
    out = {}
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            key, _, value = line.partition(":")
            if key in FIELDS:
                out[key] = int(value.split()[0])
    return out


def settle(fd, pid):
    """Drains for a second more, then reads the client's status."""
    pump(fd, time.time() + 1.0)
    return status(pid)


def tilework_run(binary, tmp):
    env = dict(os.environ)
    for var in ("TMUX", "TILEWORK", "TILEWORK_LOG"):
        env.pop(var, None)
    run = os.path.join(tmp, "run")
    os.makedirs(run, mode=0o700, exist_ok=True)
    for sub in ("state", "config"):
        os.makedirs(os.path.join(tmp, sub), exist_ok=True)
    env.update(
        XDG_RUNTIME_DIR=run,
        XDG_STATE_HOME=os.path.join(tmp, "state"),
        XDG_CONFIG_HOME=os.path.join(tmp, "config"),
        HOME=tmp,
        TERM="xterm-256color",
        PS1=PROMPT.decode(),
    )
    shell = f"PS1='{PROMPT.decode()}' exec /bin/sh -i"
    first, fd1 = start([binary, "--session", "cm", "-c", shell], env)
    results = {}
    try:
        if not pump(fd1, time.time() + 20, PROMPT):
            raise RuntimeError(f"{binary}: no prompt")
        results["tilework"] = settle(fd1, first)
        second, fd2 = start([binary, "attach", "cm"], env)
        try:
            if not pump(fd2, time.time() + 20, PROMPT):
                raise RuntimeError(f"{binary} attach: no prompt")
            results["tilework attach"] = settle(fd2, second)
        finally:
            os.kill(second, signal.SIGTERM)
            pump(fd2, time.time() + 0.5)
            os.waitpid(second, 0)
    finally:
        subprocess.run([binary, "kill", "cm"], env=env, capture_output=True, timeout=30)
        pump(fd1, time.time() + 0.5)
        try:
            os.kill(first, signal.SIGKILL)
        except ProcessLookupError:
            pass
        os.waitpid(first, 0)
    return results


def tmux_run(tmux, tmp):
    env = dict(os.environ, TMUX_TMPDIR=tmp, TERM="xterm-256color")
    env.pop("TMUX", None)
    shell = f"PS1='{PROMPT.decode()}' exec /bin/sh -i"
    argv = [tmux, "-L", "cm", "-f", "/dev/null", "new-session", shell, ";", "set", "-g", "status", "off"]
    pid, fd = start(argv, env)
    try:
        if not pump(fd, time.time() + 20, PROMPT):
            raise RuntimeError("tmux: no prompt")
        return {"tmux": settle(fd, pid)}
    finally:
        subprocess.run([tmux, "-L", "cm", "kill-server"], env=env, capture_output=True, timeout=30)
        pump(fd, time.time() + 0.5)
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        os.waitpid(pid, 0)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("binaries", nargs="+")
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--tmux", default="tmux")
    a = ap.parse_args()
    have_tmux = shutil.which(a.tmux) is not None
    samples = {}
    for _ in range(a.runs):
        for binary in a.binaries:
            with tempfile.TemporaryDirectory(prefix="tw-cm-") as tmp:
                for what, st in tilework_run(os.path.abspath(binary), tmp).items():
                    samples.setdefault(f"{what} ({binary})", []).append(st)
        if have_tmux:
            with tempfile.TemporaryDirectory(prefix="tw-cm-") as tmp:
                for what, st in tmux_run(a.tmux, tmp).items():
                    samples.setdefault(what, []).append(st)
    print(f"| client | runs | {' | '.join(f + (' kB' if f != 'Threads' else '') for f in FIELDS)} |")
    print("|---|---:|" + "---:|" * len(FIELDS))
    for what, runs in samples.items():
        medians = [statistics.median(r[f] for r in runs) for f in FIELDS]
        print(f"| {what} | {len(runs)} | " + " | ".join(f"{m:.0f}" for m in medians) + " |")


if __name__ == "__main__":
    main()
