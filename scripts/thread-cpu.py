#!/usr/bin/env python3
"""CPU time and sleeps of each thread of every process running BINARY, while
a benchmark runs: which thread a flood's CPU goes to, and how often each one
slept.

    scripts/thread-cpu.py BINARY &      # samples until interrupted
    python3 muxbench.py ... --mux-exe BINARY ...
    kill -INT %1                        # prints one line per process

Every 50 ms it reads `/proc/PID/task/TID/stat` (user + system time) and
`status` (voluntary context switches: how often the thread went to sleep)
of every thread of every process whose executable is BINARY, and keeps the
last reading of each (threads that ended keep theirs, up to 50 ms short).
On SIGINT or SIGTERM it prints, per process with more than 0.05 s of CPU,
the total and each thread's seconds and sleeps, the PTY readers summed
(`pty-read-PID` threads). The process named after the binary with the most
CPU is the workspace: its `tilework` thread is the render loop.
muxbench's "mux CPU s" is the same time summed over the client and the
workspace, from their whole-process counters.
"""
import collections
import os
import signal
import sys
import time


def sample(exe, seen):
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        try:
            if os.readlink(f"/proc/{pid}/exe") != exe:
                continue
            for tid in os.listdir(f"/proc/{pid}/task"):
                with open(f"/proc/{pid}/task/{tid}/stat") as f:
                    stat = f.read()
                comm = stat[stat.index("(") + 1:stat.rindex(")")]
                fields = stat[stat.rindex(")") + 2:].split()
                ticks = int(fields[11]) + int(fields[12])
                sleeps = 0
                with open(f"/proc/{pid}/task/{tid}/status") as f:
                    for line in f:
                        if line.startswith("voluntary_ctxt_switches"):
                            sleeps = int(line.split()[1])
                seen[(int(pid), int(tid))] = (comm, ticks, sleeps)
        except OSError:
            pass  # gone meanwhile


def report(seen):
    tick = os.sysconf("SC_CLK_TCK")
    per = collections.defaultdict(lambda: collections.defaultdict(lambda: [0, 0]))
    for (pid, _tid), (comm, ticks, sleeps) in seen.items():
        name = "pty-read" if comm.startswith("pty-read") else comm
        per[pid][name][0] += ticks
        per[pid][name][1] += sleeps
    for pid in sorted(per):
        total = sum(t for t, _ in per[pid].values())
        if total / tick < 0.05:
            continue
        threads = sorted(per[pid].items(), key=lambda kv: -kv[1][0])
        print(f"pid {pid}: {total / tick:.2f} s  " + "  ".join(
            f"{name}={t / tick:.2f}s/{s} sleeps" for name, (t, s) in threads if t > 0))


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    exe = os.path.realpath(sys.argv[1])
    stop = []
    for sig in (signal.SIGINT, signal.SIGTERM):
        signal.signal(sig, lambda *_: stop.append(True))
    seen = {}
    while not stop:
        sample(exe, seen)
        time.sleep(0.05)
    report(seen)


if __name__ == "__main__":
    main()
