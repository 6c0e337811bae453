#!/usr/bin/env python3
"""Instructions a text flood costs, binary against binary, with cachegrind.

Wall-clock figures on a shared 2-core machine move by 10 % from run to run;
instruction counts move by well under 1 %. Each run is `cat` of an 8 MB text
file in one 104x59 pane (the terminal is script(1) at 106x61), under
`valgrind --tool=cachegrind --cache-sim=no --trace-children=yes`, with
`persist_history = false`. A run's total (client + workspace) follows the
frames it drew, so it is compared at equal frame work: the Ir of ratatui's
`BufferDiff::next` is the regressor, and each binary's runs are fitted to
`total = a + b * diff`; the others are reported as their distance from the
first binary's line.

    scripts/flood-instructions.py --runs 4 BASE_BINARY OTHER_BINARY...

The attaching client normally runs its own binary again through
`/proc/self/exe` (`session::small_wait`), which valgrind 3.19 cannot follow
("mmap(0x58000000) failed in UME"): every run is made with
`TILEWORK_WAIT_IN_PLACE=1`, which has the client wait where it is (its
fallback when that exec fails). A binary without that switch counts 0 and
is refused.

Runs are interleaved (base, other, base, other, ...). Needs valgrind and
cg_annotate; binaries with symbols (release builds are not stripped).
"""
import argparse
import os
import pathlib
import re
import shlex
import subprocess
import tempfile

LINE = "line {n} of the flood, with some words to wrap and a number {n:08}\n"


def flood_file(directory):
    path = pathlib.Path(directory) / "flood.txt"
    with open(path, "w") as out:
        size, n = 0, 0
        while size < 8_000_000:
            line = LINE.format(n=n)
            out.write(line)
            size += len(line)
            n += 1
    return path


def one_run(binary, flood, work):
    run = pathlib.Path(tempfile.mkdtemp(dir=work))
    for sub in ("run", "state", "config"):
        (run / sub).mkdir(mode=0o700)
    config = run / "config.toml"
    config.write_text("persist_history = false\n")
    env = dict(os.environ, XDG_RUNTIME_DIR=str(run / "run"), XDG_STATE_HOME=str(run / "state"),
               XDG_CONFIG_HOME=str(run / "config"), HOME=str(run), TILEWORK_WAIT_IN_PLACE="1")
    valgrind = ("valgrind --tool=cachegrind --cache-sim=no --trace-children=yes "
                "--trace-children-skip='*/sh,*/cat,*/stty,*/bash' "
                f"--cachegrind-out-file={run}/cg.%p")
    inner = (f"stty rows 61 cols 106; {valgrind} {shlex.quote(str(binary))} "
             f"--config {config} -- cat {flood}")
    subprocess.run(["script", "-qfc", inner, "/dev/null"], env=env, stdin=subprocess.DEVNULL,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False, timeout=1800)
    total, diff = 0, 0
    for out in run.glob("cg.*"):
        summary = re.search(r"^summary:\s+(\d+)", out.read_text(errors="replace"), re.M)
        total += int(summary.group(1)) if summary else 0
        annotated = subprocess.run(["cg_annotate", str(out)], capture_output=True, text=True).stdout
        for line in annotated.splitlines():
            if "BufferDiff" in line and "::next" in line:
                diff += int(line.split()[0].replace(",", ""))
                break
    subprocess.run(["rm", "-rf", str(run)], check=False)
    if total == 0 or diff == 0:
        raise SystemExit(f"{binary}: nothing counted (valgrind failed, or the binary has no "
                         "TILEWORK_WAIT_IN_PLACE)")
    return total, diff


def fit(points):
    n = len(points)
    mx = sum(d for _, d in points) / n
    my = sum(t for t, _ in points) / n
    var = sum((d - mx) ** 2 for _, d in points)
    b = sum((d - mx) * (t - my) for t, d in points) / var if var else 0.0
    return my - b * mx, b


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--runs", type=int, default=4)
    ap.add_argument("binaries", nargs="+")
    args = ap.parse_args()
    work = tempfile.mkdtemp(prefix="flood-instructions-")
    flood = flood_file(work)
    results = {b: [] for b in args.binaries}
    for r in range(args.runs):
        for binary in args.binaries:
            total, diff = one_run(binary, flood, work)
            results[binary].append((total, diff))
            print(f"run {r + 1} {binary}: total {total:,} Ir, BufferDiff::next {diff:,} Ir", flush=True)
    base = args.binaries[0]
    a, b = fit(results[base])
    print(f"\n{base}: total = {a / 1e6:.1f} M + {b:.2f} x diff")
    for binary in args.binaries:
        offs = [100.0 * (t - (a + b * d)) / (a + b * d) for t, d in results[binary]]
        print(f"{binary}: {min(offs):+.2f} % to {max(offs):+.2f} % off the base line "
              f"(mean {sum(offs) / len(offs):+.2f} %)")
    subprocess.run(["rm", "-rf", work], check=False)


if __name__ == "__main__":
    main()
