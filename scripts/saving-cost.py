#!/usr/bin/env python3
"""What saving costs the flood benchmark (issue 32): floods with saving on
(the defaults) and off (`persist_history = false`), interleaved, each through
`bench-harness flood --runs 1`, while the workspace process's threads are
sampled from /proc every 20 ms for the saver thread's own CPU time and the
bytes it hands to write(2).

    scripts/saving-cost.py --tilework target/release/tilework --pairs 10

(the harness from `cargo build --release --example bench-harness`, the file
from scripts/gen-bigfile.sh; `--harness` and `--file` point elsewhere)

Prints one line per run, then the medians: the workspace process's CPU
seconds and the flood's seconds (as the harness measures them), the saver
thread's CPU seconds and MB written. On a shared machine the process's CPU
varies by more than saving costs; the saver thread's CPU is the part that
saving adds (the loop's side is a few compares per turn and a copy of each
changed tail at most once a second)."""

import argparse
import json
import os
import statistics
import subprocess
import tempfile
import time

TICK = os.sysconf("SC_CLK_TCK")


def threads_of(comm):
    """{tid: (thread name, utime ticks, stime ticks, bytes written)} of every
    process named `comm`."""
    found = {}
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            with open(f"/proc/{pid}/comm") as f:
                if f.read().strip() != comm:
                    continue
            for tid in os.listdir(f"/proc/{pid}/task"):
                with open(f"/proc/{pid}/task/{tid}/stat") as f:
                    stat = f.read()
                name = stat[stat.index("(") + 1:stat.rindex(")")]
                fields = stat.rsplit(")", 1)[1].split()
                written = 0
                with open(f"/proc/{pid}/task/{tid}/io") as f:
                    for line in f:
                        if line.startswith("wchar:"):
                            written = int(line.split()[1])
                found[tid] = (name, int(fields[11]), int(fields[12]), written)
        except OSError:
            continue
    return found


def one_flood(args, config):
    comm = os.path.basename(args.tilework)[:15]
    harness = subprocess.Popen(
        [args.harness, "flood", "--contender", "tilework", "--tilework", args.tilework,
         f"--tilework-arg=--config={config}", "--file", args.file, "--runs", "1"],
        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    saver = {}
    # Every thread's user and system ticks as last seen, for --threads.
    seen = {}
    while harness.poll() is None:
        for tid, (name, user, system, written) in threads_of(comm).items():
            seen[tid] = (name, user, system)
            if name == "saver":
                saver[tid] = (user + system, written)
        time.sleep(0.02)
    lines = [l for l in harness.stdout.read().splitlines() if l.startswith("{")]
    if not lines:
        raise SystemExit("the harness printed no result")
    result = json.loads(lines[0])
    by_name = {}
    for name, user, system in seen.values():
        u, s = by_name.get(name, (0, 0))
        by_name[name] = (u + user, s + system)
    return {
        "threads": by_name,
        "cpu": result["mux_cpu_s"],
        "user": result["mux_user_s"],
        "sys": result["mux_sys_s"],
        "seconds": result["seconds"],
        "saver_cpu": sum(t for t, _ in saver.values()) / TICK,
        "saver_mb": sum(w for _, w in saver.values()) / 1e6,
    }


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tilework", default="target/release/tilework")
    parser.add_argument("--harness", default="target/release/examples/bench-harness")
    parser.add_argument("--file", default="target/bench/bigfile.txt")
    parser.add_argument("--pairs", type=int, default=10)
    parser.add_argument("--threads", action="store_true",
                        help="also print each thread's user and system seconds")
    args = parser.parse_args()
    args.tilework = os.path.abspath(args.tilework)
    runs = {"on": [], "off": []}
    with tempfile.TemporaryDirectory(prefix="saving-cost-") as scratch:
        configs = {}
        for mode, text in (("on", ""), ("off", "persist_history = false\n")):
            configs[mode] = os.path.join(scratch, f"{mode}.toml")
            with open(configs[mode], "w") as f:
                f.write(text)
        for pair in range(1, args.pairs + 1):
            for mode in ("on", "off"):
                r = one_flood(args, configs[mode])
                runs[mode].append(r)
                print(f"{pair} saving {mode:<3} cpu {r['cpu']:.2f} s  flood {r['seconds']:.2f} s  "
                      f"saver {r['saver_cpu']:.2f} s, {r['saver_mb']:.1f} MB written  "
                      f"user {r['user']:.2f} s sys {r['sys']:.2f} s  "
                      f"load {os.getloadavg()[0]:.1f}", flush=True)
                if args.threads:
                    print("    " + ", ".join(
                        f"{name} {u / TICK:.2f}+{s / TICK:.2f}"
                        for name, (u, s) in sorted(r["threads"].items())), flush=True)
    med = {m: {k: statistics.median(r[k] for r in runs[m]) for k in runs[m][0] if k != "threads"}
           for m in runs}
    on, off = med["on"], med["off"]
    print(f"medians over {args.pairs} pairs: cpu on {on['cpu']:.2f} s, off {off['cpu']:.2f} s "
          f"({on['cpu'] / off['cpu'] - 1:+.0%}); flood on {on['seconds']:.2f} s, "
          f"off {off['seconds']:.2f} s ({on['seconds'] / off['seconds'] - 1:+.0%}); "
          f"saver thread {on['saver_cpu']:.2f} s CPU "
          f"({on['saver_cpu'] / off['cpu']:.0%} of the CPU with saving off), "
          f"{on['saver_mb']:.1f} MB written")


if __name__ == "__main__":
    main()
