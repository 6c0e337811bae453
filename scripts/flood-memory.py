#!/usr/bin/env python3
"""Where a flood's memory goes: each process of tilework (the client that
relays frames, the workspace) and of tmux (client, server), with its peak
RSS split into private memory (RssAnon) and mapped files (RssFile: code and
libc, shared between a client and its server), and its CPU.

    scripts/flood-memory.py [--runs N] [--tilework BIN] [--file BIGFILE] [--no-tmux]

Each run `cat`s the benchmark file (scripts/gen-bigfile.sh) in a 106x62
terminal and reads /proc once the flood is over, before anything exits.
muxbench sums VmRSS over a multiplexer's processes: the "sum" column. Why
the parts matter: summed RSS counts the file pages a client shares with its
server twice, for tmux too, while RssAnon is memory the process alone holds.
"""

import argparse
import os
import pty
import re
import select
import shutil
import struct
import subprocess
import sys
import tempfile
import time

import fcntl
import termios

SIZE = (62, 106)
DONE = b"FLOOD" + b"DONE"


def run_flood(argv, env):
    """Runs `argv` in a PTY until the flood's end marker has been shown and
    output has settled; returns the pid of the process started."""
    pid, fd = pty.fork()
    if pid == 0:
        os.execvpe(argv[0], argv, env)
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", SIZE[0], SIZE[1], 0, 0))
    tail = b""
    deadline = time.monotonic() + 180
    done_at = None
    while time.monotonic() < deadline:
        ready, _, _ = select.select([fd], [], [], 0.05)
        if ready:
            try:
                data = os.read(fd, 65536)
            except OSError:
                break
            tail = (tail + data)[-4096:]
            if done_at is None and DONE in tail:
                done_at = time.monotonic()
        # The marker can arrive split by a frame's cursor moves; a quiet
        # half second after it means the flood is over on screen.
        if done_at is not None and not ready and time.monotonic() - done_at > 0.5:
            return pid, fd
    raise SystemExit(f"flood did not finish: {argv[0]}")


def processes_of(exe, home):
    """This script's processes running `exe`: other sessions of the same
    program on the machine have another HOME."""
    real = os.path.realpath(exe)
    mark = f"HOME={home}".encode()
    pids = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            if os.path.realpath(f"/proc/{entry}/exe") != real:
                continue
            if mark in open(f"/proc/{entry}/environ", "rb").read().split(b"\0"):
                pids.append(int(entry))
        except OSError:
            pass
    return sorted(pids)


def status_kb(pid, key):
    text = open(f"/proc/{pid}/status").read()
    found = re.search(rf"^{key}:\s+(\d+) kB", text, re.M)
    return int(found.group(1)) if found else 0


def cpu_seconds(pid):
    stat = open(f"/proc/{pid}/stat").read()
    fields = stat[stat.rindex(")") + 2 :].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def describe(pid, client_pid):
    role = "client" if pid == client_pid else "server"
    return {
        "role": role,
        "hwm": status_kb(pid, "VmHWM"),
        "anon": status_kb(pid, "RssAnon"),
        "file": status_kb(pid, "RssFile"),
        "cpu": cpu_seconds(pid),
    }


def measure(name, argv, exe, env):
    client, fd = run_flood(argv, env)
    pids = processes_of(exe, env["HOME"])
    rows = [describe(p, client) for p in pids]
    for pid in pids:
        try:
            os.kill(pid, 9)
        except OSError:
            pass
    os.close(fd)
    try:
        os.kill(client, 9)
        os.waitpid(client, 0)
    except OSError:
        pass
    return name, rows


def print_run(name, rows):
    total = sum(r["hwm"] for r in rows)
    for r in rows:
        print(
            f"  {name:9s} {r['role']:6s} peak {r['hwm'] / 1024:5.1f} MiB"
            f"  private {r['anon'] / 1024:4.1f}  files {r['file'] / 1024:4.1f}"
            f"  CPU {r['cpu']:5.2f} s"
        )
    print(f"  {name:9s} sum    peak {total / 1024:5.1f} MiB")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--runs", type=int, default=1)
    ap.add_argument("--tilework", default="target/release/tilework")
    ap.add_argument("--file", default="target/bench/bigfile.txt")
    ap.add_argument("--no-tmux", action="store_true")
    args = ap.parse_args()
    big = os.path.abspath(args.file)
    if not os.path.exists(big):
        sys.exit(f"{big} is missing: run scripts/gen-bigfile.sh")
    inner = f"cat {big}; printf 'FLOOD''DONE\\n'; sleep 60"
    home = tempfile.mkdtemp(prefix="tilework-mem-")
    env = dict(os.environ, TERM="xterm-256color", HOME=home, XDG_CONFIG_HOME=home,
               XDG_STATE_HOME=home, XDG_RUNTIME_DIR=home)
    tilework = os.path.abspath(args.tilework)
    tmux = shutil.which("tmux")

    for run in range(args.runs):
        print(f"run {run + 1}/{args.runs}")
        print_run(*measure("tilework", [tilework, "--", "sh", "-c", inner], tilework, env))
        if tmux and not args.no_tmux:
            argv = [tmux, "-L", f"flood-memory-{os.getpid()}", "-f", "/dev/null",
                    "new-session", "sh", "-c", inner]
            print_run(*measure("tmux", argv, tmux, env))
    shutil.rmtree(home, ignore_errors=True)


if __name__ == "__main__":
    main()
