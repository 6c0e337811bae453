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


def role(pid):
    """A tilework process named by what it runs as: its subcommand, or the
    workspace it serves."""
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as f:
            args = f.read().decode(errors="replace").split("\0")[1:]
    except OSError:
        return "tilework"
    words = [a for a in args if a and not a.startswith("-") and "/" not in a]
    return "tilework " + " ".join(words[:2]) if words else "tilework"


def cpu_by_process():
    """CPU seconds each process on the machine has used, and its name, by
    pid: the difference around a flood says which stages it cost. (A
    kernel worker's name changes with its work, so the pid is the key.)"""
    tick = os.sysconf("SC_CLK_TCK")
    seen = {}
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        try:
            with open(f"/proc/{pid}/stat") as f:
                stat = f.read()
        except OSError:
            continue
        name = stat[stat.index("(") + 1:stat.rindex(")")]
        if name == "tilework":
            name = role(pid)
        fields = stat[stat.rindex(")") + 2:].split()
        seen[pid] = (name, (int(fields[11]) + int(fields[12])) / tick)
        # Children that ended (the `seq` of a flood): counted under
        # their parent, whose own entry they are not part of.
        seen[f"{pid}c"] = (f"{name}'s children", (int(fields[13]) + int(fields[14])) / tick)
    return seen


def cpu_spent(before, after):
    """CPU seconds by process name between two `cpu_by_process` readings
    (names joined: `kworker/u8:3` and `kworker/u8:5` are one stage)."""
    spent = {}
    for pid, (name, secs) in after.items():
        name = name.split("/")[0] if name.startswith("kworker") else name
        spent[name] = spent.get(name, 0.0) + secs - before.get(pid, ("", 0.0))[1]
    return {k: v for k, v in spent.items() if v > 0}


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tilework", required=True, help="tilework, both sides")
    parser.add_argument("--rounds", type=int, default=4)
    parser.add_argument("--lines", type=int, default=200000)
    parser.add_argument("--cpu", action="store_true",
                        help="also print the CPU seconds each process spent, per way, summed")
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
        cpu = {way: {} for way in ways}
        marker = 100
        print(f"panes {cols}x{rows}, {args.lines} lines per flood", flush=True)
        for r in range(args.rounds):
            order = list(ways) if r % 2 == 0 else list(reversed(list(ways)))
            times = {}
            for way in order:
                marker += 10
                before = cpu_by_process() if args.cpu else {}
                times[way] = flood(ways[way], args.lines, marker)
                if args.cpu:
                    for name, secs in cpu_spent(before, cpu_by_process()).items():
                        cpu[way][name] = cpu[way].get(name, 0.0) + secs
            ratio = times["direct"] / times["remote pane"]
            ratios.append(ratio)
            print(f"round {r + 1}: direct {times['direct']:.3f} s, remote pane "
                  f"{times['remote pane']:.3f} s, speed ratio {ratio:.3f}", flush=True)
        print(f"median speed ratio {statistics.median(ratios):.3f} (min {min(ratios):.3f}) "
              f"over {args.rounds} rounds")
        for way, spent in cpu.items():
            if spent:
                top = sorted(spent.items(), key=lambda kv: -kv[1])
                total = sum(spent.values())
                print(f"CPU s over all {way} floods: {total:.2f} in all; " + ", ".join(
                    f"{name} {secs:.2f}" for name, secs in top if secs >= 0.01))
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
