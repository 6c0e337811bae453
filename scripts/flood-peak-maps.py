#!/usr/bin/env python3
"""Where the flood's peak RSS is, mapping by mapping: `scripts/flood-memory.py`'s
flood (120 MB `cat` in a 106x62 terminal), with both of tilework's processes'
/proc/PID/smaps sampled every 0.1 s and kept at the moment their summed RSS
peaked (muxbench's peak: VmRSS summed, sampled).

    scripts/flood-peak-maps.py [--runs N] [--tilework BIN] [--file BIGFILE] [-- TILEWORK-ARGS]

TILEWORK-ARGS go before the pane's command (e.g. `--no-save`).

Prints, per process, the peak's KiB by kind of mapping: the binary's
segments (read-only data, code, relocated read-only data, data), libc,
ld.so, the heap, other anonymous memory (thread stacks, glibc's arenas,
the history ring's big blocks), the stack; and the summed total.
"""

import argparse
import importlib.util
import os
import shutil
import sys
import tempfile
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
_spec = importlib.util.spec_from_file_location("flood_memory", os.path.join(HERE, "flood-memory.py"))
flood_memory = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(flood_memory)


def kind(perms, path, binary):
    if path and os.path.realpath(path) == binary:
        return {"r--p": "bin r--", "r-xp": "bin code", "rw-p": "bin rw"}.get(perms, "bin " + perms)
    if path.startswith("/") and "libc.so" in path:
        return "libc"
    if path.startswith("/") and "ld-linux" in path:
        return "ld.so"
    if path.startswith("/"):
        return "other files"
    if path == "[heap]":
        return "heap"
    if path == "[stack]":
        return "stack"
    if path.startswith("["):
        return "vdso etc."
    return "anon"


def smaps(pid, binary):
    """{kind: Rss KiB} of process `pid`, and its total."""
    out = {}
    current = None
    with open(f"/proc/{pid}/smaps") as f:
        for line in f:
            first = line.split(maxsplit=5)
            if "-" in first[0] and len(first) >= 5 and not first[0].endswith(":"):
                path = first[5].strip() if len(first) > 5 else ""
                current = kind(first[1], path, binary)
            elif first[0] == "Rss:":
                out[current] = out.get(current, 0) + int(first[1])
    return out


class Sampler(threading.Thread):
    """Samples the processes of `exe` under `home` until stopped."""

    def __init__(self, exe, home, client):
        super().__init__(daemon=True)
        self.exe, self.home, self.client = exe, home, client
        self.peak = (0, {})
        self.stop = threading.Event()

    def run(self):
        binary = os.path.realpath(self.exe)
        while not self.stop.is_set():
            seen = {}
            try:
                for pid in flood_memory.processes_of(self.exe, self.home):
                    role = "client" if pid == self.client else "workspace"
                    seen[role] = smaps(pid, binary)
            except OSError:
                pass
            total = sum(sum(m.values()) for m in seen.values())
            if total > self.peak[0]:
                self.peak = (total, seen)
            time.sleep(0.1)


def measure(exe, big, extra):
    home = tempfile.mkdtemp(prefix="tilework-maps-")
    env = dict(os.environ, TERM="xterm-256color", HOME=home, XDG_CONFIG_HOME=home,
               XDG_STATE_HOME=home, XDG_RUNTIME_DIR=home)
    inner = f"cat {big}; printf 'FLOOD''DONE\\n'; sleep 60"
    argv = [exe, *extra, "--", "sh", "-c", inner]
    # The client's pid is the one pty.fork returns; the sampler learns it
    # from the process whose parent is this script.
    sampler = Sampler(exe, home, None)
    sampler.client = None

    def find_client():
        while sampler.client is None and not sampler.stop.is_set():
            for pid in flood_memory.processes_of(exe, home):
                try:
                    ppid = int(open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()[1])
                except OSError:
                    continue
                if ppid == os.getpid():
                    sampler.client = pid
            time.sleep(0.01)

    finder = threading.Thread(target=find_client, daemon=True)
    finder.start()
    sampler.start()
    client, fd = flood_memory.run_flood(argv, env)
    sampler.stop.set()
    sampler.join()
    for pid in flood_memory.processes_of(exe, home):
        try:
            os.kill(pid, 9)
        except OSError:
            pass
    os.close(fd)
    try:
        os.waitpid(client, 0)
    except OSError:
        pass
    shutil.rmtree(home, ignore_errors=True)
    return sampler.peak


KINDS = ["bin r--", "bin code", "bin rw", "libc", "ld.so", "other files", "heap", "anon",
         "stack", "vdso etc."]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--runs", type=int, default=1)
    ap.add_argument("--tilework", default="target/release/tilework")
    ap.add_argument("--file", default="target/bench/bigfile.txt")
    ap.add_argument("extra", nargs="*", help="tilework's options")
    args = ap.parse_args()
    big = os.path.abspath(args.file)
    exe = os.path.abspath(args.tilework)
    # Without the file the pane's `cat` fails at once and the "peak" is an
    # idle workspace's: say so rather than print it.
    if not os.path.isfile(big):
        sys.exit(f"flood-peak-maps: no flood file at {big}: make it with scripts/gen-bigfile.sh")
    for run in range(args.runs):
        total, seen = measure(exe, big, args.extra)
        print(f"run {run + 1}: peak {total} KiB summed")
        for role in ("workspace", "client"):
            m = seen.get(role, {})
            parts = "  ".join(f"{k} {m[k]}" for k in KINDS if m.get(k))
            print(f"  {role:9s} {sum(m.values()):6d}: {parts}")


if __name__ == "__main__":
    main()
