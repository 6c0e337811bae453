#!/usr/bin/env python3
"""Which of a running tilework's code pages are resident, as runs of pages,
each named by the function it starts in.

    scripts/code-pages.py PID [BINARY]

Why: the flood's peak RSS moves by about 0.2 MiB between runs of the same
binary, and most of that is code. The kernel maps a file's pages 64 KiB
around every page touched (fault-around), so one function run outside the
block `build.rs` links together (`scripts/hot-functions.txt`) costs a 64 KiB
window. This shows those windows: a run outside the first one names where
to look, and `scripts/hot-functions.py --add-faults` lists what faulted.

BINARY defaults to the process's own executable. Reads /proc/PID/maps and
/proc/PID/pagemap (the present bit needs no privilege) and the binary's
symbols (nm) and program headers (readelf).
"""

import bisect
import os
import struct
import subprocess
import sys


def code_mapping(pid, binary):
    """(start, end, file offset) of the binary's executable mapping."""
    real = os.path.realpath(binary)
    with open(f"/proc/{pid}/maps") as f:
        for line in f:
            parts = line.split()
            if len(parts) > 5 and parts[1] == "r-xp" and os.path.realpath(parts[5]) == real:
                lo, hi = (int(x, 16) for x in parts[0].split("-"))
                return lo, hi, int(parts[2], 16)
    sys.exit(f"{binary} has no executable mapping in process {pid}")


def resident(pid, lo, hi):
    """Addresses of the resident pages in [lo, hi)."""
    out = []
    with open(f"/proc/{pid}/pagemap", "rb") as pagemap:
        for page in range(lo, hi, 4096):
            pagemap.seek(page // 4096 * 8)
            (entry,) = struct.unpack("<Q", pagemap.read(8))
            if entry >> 63:
                out.append(page)
    return out


def functions(binary):
    """Sorted (address, name) of the binary's functions."""
    nm = subprocess.run(["nm", "-n", "--defined-only", "-C", binary], capture_output=True, text=True, check=True)
    out = []
    for line in nm.stdout.splitlines():
        parts = line.split(maxsplit=2)
        if len(parts) == 3 and parts[1] in "tT":
            out.append((int(parts[0], 16), parts[2]))
    return out


def code_segment(binary):
    """(file offset, virtual address) of the executable LOAD segment."""
    headers = subprocess.run(["readelf", "-lW", binary], capture_output=True, text=True, check=True).stdout
    for line in headers.splitlines():
        parts = line.split()
        # LOAD offset vaddr paddr filesz memsz FLAGS... align
        if parts and parts[0] == "LOAD" and "E" in "".join(parts[6:-1]):
            return int(parts[1], 16), int(parts[2], 16)
    sys.exit(f"no executable LOAD segment in {binary}")


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    pid = int(sys.argv[1])
    binary = sys.argv[2] if len(sys.argv) > 2 else os.readlink(f"/proc/{pid}/exe")
    lo, hi, offset = code_mapping(pid, binary)
    seg_offset, seg_vaddr = code_segment(binary)
    pages = resident(pid, lo, hi)
    symbols = functions(binary)
    addresses = [a for a, _ in symbols]
    runs = []
    for page in pages:
        if runs and runs[-1][1] == page:
            runs[-1][1] = page + 4096
        else:
            runs.append([page, page + 4096])
    print(f"{len(pages)} of {(hi - lo) // 4096} code pages resident ({len(pages) * 4} KiB)")
    for start, end in runs:
        vaddr = start - lo + offset - seg_offset + seg_vaddr
        i = bisect.bisect_right(addresses, vaddr) - 1
        name = symbols[i][1] if i >= 0 else "(before the first function)"
        print(f"  +{(start - lo) // 1024:6d} KiB {(end - start) // 1024:5d} KiB  {name[:100]}")


if __name__ == "__main__":
    main()
