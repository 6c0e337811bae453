#!/usr/bin/env python3
"""A remote pane's flood against the same flood in a workspace on that
host attached directly (issue 47 §2's cost: at least 0.8x the speed).

    scripts/remote-pane-flood.py --tilework target/release/tilework \
        --rounds 4 --lines 200000

Starts an sshd of its own on 127.0.0.1 (as scripts/remote-echo.py does,
whose helpers it uses), then:
- "remote pane": a local workspace in a PTY, with a remote pane opened by
  `tilework run --host localhost` (the relay, ssh with its shared
  connection, `tilework proxy`, the `remote-panes` workspace there);
- "direct": a workspace on the same host attached directly in a PTY of
  its own, sized so its pane is the remote pane's size.
In rounds that alternate the order, types `seq 1 LINES; echo DONE-N` in
each and times from the Enter to `DONE-N` on the outer terminal. Prints
each round's times and their speed ratio (direct time / remote time), then
the median ratio."""

import argparse
import importlib.util
import json
import os
import select
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
spec = importlib.util.spec_from_file_location("remote_echo", os.path.join(HERE, "remote-echo.py"))
echo = importlib.util.module_from_spec(spec)
spec.loader.exec_module(echo)

ROWS, COLS = 40, 120


def wait_for(fd, needle, timeout=60.0):
    """Reads the terminal until `needle` arrives; keeps only a tail, so a
    flood's megabytes are not searched again and again."""
    deadline = time.monotonic() + timeout
    tail = b""
    while True:
        left = deadline - time.monotonic()
        if left <= 0:
            raise TimeoutError(f"no {needle!r}; got {tail[-300:]!r}")
        ready, _, _ = select.select([fd], [], [], left)
        if not ready:
            continue
        data = os.read(fd, 1 << 16)
        if not data:
            raise EOFError(f"terminal closed waiting for {needle!r}")
        if b"\x1b[c" in data:
            os.write(fd, b"\x1b[?1;2c")
        tail = tail[-len(needle):] + data
        if needle in tail:
            return


def flood(fd, lines, marker):
    """The marker comes out as letters (`tr 0-9 a-j`): the typed line holds
    digits only, and no cell of a frame of numbers holds a letter, so the
    frame that draws it draws it whole (a frame sends only changed cells)."""
    start = time.perf_counter()
    os.write(fd, f"seq 1 {lines}; echo DONE-$(echo {marker} | tr 0-9 a-j)\r".encode())
    word = "".join(chr(ord("a") + int(d)) for d in str(marker))
    wait_for(fd, f"DONE-{word}".encode())
    return time.perf_counter() - start


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tilework", required=True, help="tilework, both sides")
    parser.add_argument("--rounds", type=int, default=4)
    parser.add_argument("--lines", type=int, default=200000)
    args = parser.parse_args()
    tw = os.path.abspath(args.tilework)
    tmp = tempfile.mkdtemp(prefix="tw-flood-")
    os.makedirs(f"{tmp}/run", mode=0o700)
    os.makedirs(f"{tmp}/config", exist_ok=True)
    sshd = echo.make_sshd(tmp)
    env = dict(os.environ, XDG_RUNTIME_DIR=f"{tmp}/run", XDG_STATE_HOME=f"{tmp}/state",
               XDG_CONFIG_HOME=f"{tmp}/config", TERM="xterm-256color", SHELL="/bin/sh",
               PS1="$ ", ENV="")
    env.pop("TMUX", None)
    with open(f"{tmp}/remote.toml", "w") as f:
        f.write(f'[remote]\nssh_command = "ssh -F {tmp}/ssh_config"\ntilework = "{tw}"\n')
    pids = []
    try:
        here_pid, here = echo.spawn([tw, "--config", f"{tmp}/remote.toml", "--session", "here"],
                                    env, ROWS, COLS)
        pids.append(here_pid)
        wait_for(here, b"\x1b]2;here")
        out = subprocess.run([tw, "--config", f"{tmp}/remote.toml", "--session", "here", "run",
                              "--host", "localhost", "--", "/bin/sh"],
                             env=env, capture_output=True, text=True, check=True)
        pane = out.stdout.strip()
        os.write(here, b"echo READY-$((1+1))\r")
        wait_for(here, b"READY-2")
        panes = json.loads(subprocess.run([tw, "--session", "here", "list-panes", "--json"],
                                          env=env, capture_output=True, check=True).stdout)
        size = next(p for p in panes if str(p["id"]) == pane)
        rows, cols = size["rows"], size["cols"]
        direct_pid, direct = echo.spawn([tw, "--session", "direct"], env, rows + 1, cols)
        pids.append(direct_pid)
        wait_for(direct, b"\x1b]2;direct")
        ways = {"remote pane": here, "direct": direct}
        ratios = []
        marker = 100
        print(f"panes {cols}x{rows}, {args.lines} lines per flood", flush=True)
        for r in range(args.rounds):
            order = list(ways) if r % 2 == 0 else list(reversed(list(ways)))
            times = {}
            for way in order:
                marker += 10
                times[way] = flood(ways[way], args.lines, marker)
            ratio = times["direct"] / times["remote pane"]
            ratios.append(ratio)
            print(f"round {r + 1}: direct {times['direct']:.3f} s, remote pane "
                  f"{times['remote pane']:.3f} s, speed ratio {ratio:.3f}", flush=True)
        print(f"median speed ratio {statistics.median(ratios):.3f} (min {min(ratios):.3f}) "
              f"over {args.rounds} rounds")
    finally:
        for name in ("here", "direct", "remote-panes"):
            subprocess.run([tw, "kill", name], env=env, capture_output=True)
        for pid in pids:
            try:
                os.waitpid(pid, 0)
            except ChildProcessError:
                pass
        for child in echo.descendants(sshd.pid):
            try:
                with open(f"/proc/{child}/comm") as f:
                    if f.read().strip() == "sshd":
                        os.kill(child, signal.SIGKILL)
            except (OSError, ProcessLookupError):
                pass
        sshd.send_signal(signal.SIGTERM)
        sshd.wait()
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
