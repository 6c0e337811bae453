#!/usr/bin/env python3
"""Time `tilework attach` of a saved workspace (issue 32): 4 shells with 8 MiB
of history each, killed as a crash would (SIGKILL, the runtime directory
emptied), then attached again and again, timed from starting `tilework attach`
to the first moment every pane's last line is on screen.

    scripts/attach-saved.py --tilework target/release/tilework --runs 7

Everything lives in a scratch directory (XDG_RUNTIME_DIR, XDG_STATE_HOME and
XDG_CONFIG_HOME point there; the default config, so `scrollback` is 8 MiB).
The workspace is made once: four panes tiled in a 200x60 terminal, each
`cat`ting 8 MiB of log-like lines and then echoing `LAST-pN`; once the saved
files stop changing it is SIGKILLed and its saved directory copied aside.
Each run puts that copy back, attaches in a new 200x60 PTY (which answers the
device attributes query, as a terminal does), reads what is drawn until all
four `LAST-pN` appear, then SIGKILLs the workspace again.
Prints each run's milliseconds, then the median, and the load average."""

import argparse
import fcntl
import json
import os
import pty
import random
import select
import shutil
import signal
import statistics
import struct
import subprocess
import tempfile
import termios
import time

NAME = "attachbench"
ROWS, COLS = 60, 200
PANES = 4
HISTORY = 8 << 20


def env_for(scratch):
    env = dict(os.environ)
    for var in ("TILEWORK", "TMUX"):
        env.pop(var, None)
    for var, sub in (
        ("XDG_RUNTIME_DIR", "run"),
        ("XDG_STATE_HOME", "state"),
        ("XDG_CONFIG_HOME", "config"),
    ):
        path = os.path.join(scratch, sub)
        os.makedirs(path, mode=0o700, exist_ok=True)
        env[var] = path
    env["SHELL"] = "/bin/sh"
    env["PS1"] = "$ "
    return env


def history_file(path, pane):
    """About `HISTORY` bytes of log-like lines (LZ4 packs them ~2x)."""
    rng = random.Random(pane)
    words = ["GET", "POST", "/api/v1/items", "/static/app.js", "200", "404",
             "served", "cache", "miss", "hit", "user", "session", "ms", "ok",
             "worker", "queue", "retry", "timeout", "db", "query"]
    with open(path, "w") as f:
        written, n = 0, 0
        while written < HISTORY:
            line = "%08d p%d %s\n" % (n, pane, " ".join(rng.choice(words) for _ in range(8)))
            f.write(line)
            written += len(line)
            n += 1


class Terminal:
    """A program in a PTY of ROWS x COLS whose output is read and kept."""

    def __init__(self, argv, env):
        self.pid, self.fd = pty.fork()
        if self.pid == 0:
            os.execve(argv[0], argv, env)
        fcntl.ioctl(self.fd, termios.TIOCSWINSZ, struct.pack("HHHH", ROWS, COLS, 0, 0))
        self.seen = bytearray()

    def read(self, timeout):
        ready, _, _ = select.select([self.fd], [], [], timeout)
        if ready:
            try:
                data = os.read(self.fd, 1 << 16)
            except OSError:
                data = b""
            # Answer the primary device attributes query as every terminal
            # does: tilework's start-up questions end with it, and a
            # terminal that answers nothing costs their 250 ms timeout.
            if b"\x1b[c" in data:
                os.write(self.fd, b"\x1b[?62;22c")
            self.seen += data
            return data
        return None

    def wait_for(self, needles, timeout=120.0):
        """Reads until every needle was drawn; returns when that was."""
        deadline = time.monotonic() + timeout
        missing = set(needles)
        while missing:
            if time.monotonic() > deadline:
                raise SystemExit(f"timed out waiting for {sorted(missing)}; last drawn: {bytes(self.seen[-600:])!r}")
            if self.read(0.5) == b"":
                raise SystemExit(f"the terminal closed before {sorted(missing)} showed")
            missing = {n for n in missing if n not in self.seen}
        return time.monotonic()

    def drain_until_exit(self):
        while True:
            data = self.read(0.2)
            if data == b"":
                break
            if data is None and os.waitpid(self.pid, os.WNOHANG)[0] == self.pid:
                return
        try:
            os.waitpid(self.pid, 0)
        except ChildProcessError:
            pass


def tw(args, env, binary):
    out = subprocess.run([binary, *args], env=env, capture_output=True, text=True, check=True)
    return out.stdout


def workspace_pid(env, binary):
    panes = json.loads(tw(["list-panes", "--json", "--session", NAME], env, binary))
    pid = panes[0]["pid"]
    with open(f"/proc/{pid}/stat") as f:
        return int(f.read().rsplit(")", 1)[1].split()[1])


def crash(env, binary, term):
    """SIGKILLs the workspace and empties the runtime directory."""
    os.kill(workspace_pid(env, binary), signal.SIGKILL)
    term.drain_until_exit()
    runtime = os.path.join(env["XDG_RUNTIME_DIR"], "tilework")
    for entry in os.listdir(runtime):
        os.remove(os.path.join(runtime, entry))


def saved_dir(env):
    return os.path.join(env["XDG_STATE_HOME"], "tilework", "saved", NAME)


def wait_saved_still(env):
    """Until every pane's tail is saved and the files stop changing for 1 s."""
    last, still_since = None, time.monotonic()
    while True:
        time.sleep(0.1)
        try:
            names = os.listdir(saved_dir(env))
            state = sorted((n, os.path.getsize(os.path.join(saved_dir(env), n))) for n in names)
        except FileNotFoundError:
            continue
        if state != last:
            last, still_since = state, time.monotonic()
        tails = sum(n.endswith(".tail") for n, _ in state)
        if tails == PANES and time.monotonic() - still_since > 1.0:
            return sum(size for _, size in state)


def make_saved(env, binary, scratch):
    files = []
    for p in range(1, PANES + 1):
        path = os.path.join(scratch, f"history-{p}.txt")
        history_file(path, p)
        files.append(path)
    term = Terminal([binary, "--session", NAME], env)
    while subprocess.run([binary, "list-panes", "--session", NAME], env=env,
                         capture_output=True).returncode != 0:
        term.read(0.1)
    for _ in range(PANES - 1):
        tw(["action", "--session", NAME, "split-right"], env, binary)
    tw(["action", "--session", NAME, "layout-tiled"], env, binary)
    panes = json.loads(tw(["list-panes", "--json", "--session", NAME], env, binary))
    assert len(panes) == PANES, panes
    for p, (pane, path) in enumerate(zip(panes, files), start=1):
        # `$((p))`: the typed line must not show the marker itself.
        line = f"cat {path}; echo LAST-p$(({p}))"
        tw(["send-keys", "--session", NAME, "--pane", str(pane["id"]), "-l", line], env, binary)
        tw(["send-keys", "--session", NAME, "--pane", str(pane["id"]), "Enter"], env, binary)
    for p, pane in enumerate(panes, start=1):
        while f"LAST-p{p}" not in tw(["capture", "--session", NAME, "--pane", str(pane["id"])], env, binary):
            term.read(0.2)
    disk = wait_saved_still(env)
    crash(env, binary, term)
    kept = os.path.join(scratch, "saved-copy")
    shutil.copytree(saved_dir(env), kept)
    return kept, disk


def attach_once(env, binary, kept):
    shutil.rmtree(saved_dir(env))
    shutil.copytree(kept, saved_dir(env))
    started = time.monotonic()
    term = Terminal([binary, "attach", NAME], env)
    shown = term.wait_for([f"LAST-p{p}".encode() for p in range(1, PANES + 1)])
    ms = (shown - started) * 1000
    crash(env, binary, term)
    return ms


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tilework", default="target/release/tilework")
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--log", action="store_true",
                        help="print the log's lines on reading and reopening the saved workspace")
    args = parser.parse_args()
    binary = os.path.abspath(args.tilework)
    with tempfile.TemporaryDirectory(prefix="attach-saved-") as scratch:
        env = env_for(scratch)
        kept, disk = make_saved(env, binary, scratch)
        print(f"saved: {PANES} panes x {HISTORY >> 20} MiB of output, {disk / 2**20:.1f} MiB on disk")
        times = []
        for run in range(1, args.runs + 1):
            ms = attach_once(env, binary, kept)
            times.append(ms)
            print(f"run {run}: {ms:.0f} ms")
        load = os.getloadavg()
        if args.log:
            with open(os.path.join(env["XDG_STATE_HOME"], "tilework", "tilework.log")) as f:
                print("".join(l for l in f if "saved workspace" in l))
        print(f"median {statistics.median(times):.0f} ms over {len(times)} runs "
              f"(min {min(times):.0f}, max {max(times):.0f}); "
              f"load average {load[0]:.1f} {load[1]:.1f} {load[2]:.1f}")


if __name__ == "__main__":
    main()
