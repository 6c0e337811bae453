#!/usr/bin/env python3
"""Memory of many idle shell panes: tilework's tabs against tmux's windows.

Each multiplexer runs attached in a pseudo-terminal of COLSxROWS (drained,
never rendered), opens N idle `sh` panes one per tab/window from its own
command line, waits for the memory to settle, and reports RSS and PSS summed
over the multiplexer's own processes (client and server; the shells are not
counted). Runs are interleaved: tilework, tmux, tilework, tmux, ...

    scripts/idle-panes.py [--panes 100] [--size 200x60] [--runs 3]
        [--tilework target/release/tilework] [--tmux tmux]
"""

import argparse
import os
import pty
import select
import shutil
import signal
import subprocess
import sys
import tempfile
import termios
import struct
import fcntl
import threading
import time


def spawn_in_pty(argv, env, cols, rows):
    pid, fd = pty.fork()
    if pid == 0:
        os.execvpe(argv[0], argv, env)
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", rows, cols, 0, 0))
    os.kill(pid, signal.SIGWINCH)
    stop = threading.Event()

    def drain():
        while not stop.is_set():
            r, _, _ = select.select([fd], [], [], 0.1)
            if r:
                try:
                    if not os.read(fd, 65536):
                        return
                except OSError:
                    return

    t = threading.Thread(target=drain, daemon=True)
    t.start()
    return pid, fd, stop


def procs_of(exe_name, tag):
    """Pids whose executable is exe_name and whose environment carries tag."""
    out = []
    for p in os.listdir("/proc"):
        if not p.isdigit():
            continue
        try:
            exe = os.readlink(f"/proc/{p}/exe")
            if os.path.basename(exe).split(" ")[0] != exe_name:
                continue
            with open(f"/proc/{p}/environ", "rb") as f:
                if tag.encode() not in f.read():
                    continue
            out.append(int(p))
        except OSError:
            continue
    return out


def memory(pids):
    rss = pss = 0
    for p in pids:
        try:
            with open(f"/proc/{p}/smaps_rollup") as f:
                for line in f:
                    if line.startswith("Rss:"):
                        rss += int(line.split()[1])
                    elif line.startswith("Pss:"):
                        pss += int(line.split()[1])
        except OSError:
            pass
    return rss, pss


def wait_for(cond, timeout=30.0):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if cond():
            return True
        time.sleep(0.05)
    return False


def settle(pids, rounds=6):
    """RSS once it has not grown for a few samples."""
    last = None
    for _ in range(60):
        now = memory(pids)
        if last is not None and now[0] <= last[0]:
            rounds -= 1
            if rounds == 0:
                return now
        last = now
        time.sleep(0.25)
    return last


def run_tilework(exe, panes, cols, rows, work):
    tag = f"IDLEPANES_{os.getpid()}_{time.monotonic_ns()}"
    env = dict(os.environ, XDG_RUNTIME_DIR=f"{work}/run", XDG_STATE_HOME=f"{work}/state",
               XDG_CONFIG_HOME=f"{work}/config", SHELL="/bin/sh", TERM="xterm-256color",
               IDLEPANES_TAG=tag)
    env.pop("TILEWORK", None)
    env.pop("TMUX", None)
    for d in ("run", "state", "config"):
        os.makedirs(f"{work}/{d}", mode=0o700, exist_ok=True)
    pid, fd, stop = spawn_in_pty([exe, "--session", "idle"], env, cols, rows)
    cli = lambda *a: subprocess.run([exe, *a, "--session", "idle"], env=env,
                                    capture_output=True, text=True)
    if not wait_for(lambda: cli("list-panes").returncode == 0):
        raise SystemExit("tilework did not start")
    for _ in range(panes - 1):
        r = subprocess.run([exe, "run", "--session", "idle", "--tab", "--", "sh"], env=env,
                           capture_output=True, text=True)
        if r.returncode != 0:
            raise SystemExit(f"tilework run failed: {r.stderr}")
    name = os.path.basename(exe)
    pids = procs_of(name, tag)
    mem = settle(pids)
    subprocess.run([exe, "kill", "idle"], env=env, capture_output=True)
    stop.set()
    os.waitpid(pid, 0)
    os.close(fd)
    return mem, len(pids)


def run_tmux(exe, panes, cols, rows, work, history=None):
    tag = f"IDLEPANES_{os.getpid()}_{time.monotonic_ns()}"
    sock = f"{work}/tmux.sock"
    env = dict(os.environ, SHELL="/bin/sh", TERM="xterm-256color", IDLEPANES_TAG=tag)
    env.pop("TMUX", None)
    base = [exe, "-u", "-S", sock, "-f", "/dev/null"]
    pid, fd, stop = spawn_in_pty(base + ["new-session", "sh", ";", "set", "-g", "status", "off"]
                                 + ([";", "set", "-g", "history-limit", str(history)] if history else []),
                                 env, cols, rows)
    if not wait_for(lambda: subprocess.run(base + ["has-session"], env=env,
                                           capture_output=True).returncode == 0):
        raise SystemExit("tmux did not start")
    for _ in range(panes - 1):
        subprocess.run(base + ["new-window", "sh"], env=env, check=True)
    pids = procs_of(os.path.basename(shutil.which(exe) or exe), tag)
    mem = settle(pids)
    subprocess.run(base + ["kill-server"], env=env, capture_output=True)
    stop.set()
    os.waitpid(pid, 0)
    os.close(fd)
    return mem, len(pids)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--panes", type=int, default=100)
    ap.add_argument("--size", default="200x60")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--tilework", default="target/release/tilework")
    ap.add_argument("--tmux", default="tmux")
    args = ap.parse_args()
    cols, rows = (int(x) for x in args.size.split("x"))
    exe = os.path.abspath(args.tilework)
    print(f"{args.panes} idle sh panes at {cols}x{rows}, {args.runs} interleaved runs; "
          "KiB summed over the multiplexer's processes")
    print(f"{'run':>3} {'peer':<9} {'procs':>5} {'RSS':>9} {'PSS':>9}")
    for i in range(args.runs):
        for peer in ("tilework", "tmux"):
            with tempfile.TemporaryDirectory(prefix="idle-panes-") as work:
                if peer == "tilework":
                    (rss, pss), n = run_tilework(exe, args.panes, cols, rows, work)
                else:
                    (rss, pss), n = run_tmux(args.tmux, args.panes, cols, rows, work)
            print(f"{i + 1:>3} {peer:<9} {n:>5} {rss:>9} {pss:>9}", flush=True)


if __name__ == "__main__":
    sys.exit(main())
