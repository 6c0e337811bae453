#!/usr/bin/env python3
"""Lists the functions of tilework's release binary that a start-up, a flood
and a few typed keys run, for the linker to place together (build.rs).

Why: the kernel maps a program's code 64 KiB at a time around each page it
touches (fault-around), and the few hundred functions a workspace runs are
spread over the whole 3.3 MB of code, so nearly all of it ends up resident:
~2.7 MB of the flood benchmark's peak RSS. Placed together they take ~0.8 MB.

    scripts/hot-functions.py [BINARY] [OUT]
    scripts/hot-functions.py --check [BINARY]   how much of the list BINARY still has
    scripts/hot-functions.py --add-faults [BINARY]   add what callgrind missed

`--add-faults` runs the same workload under `perf record -e page-faults`
(no valgrind: at full speed, so paths that only a real flood's timing takes,
such as a full channel or a contended lock, run too) and appends to the list
every function of the binary whose first instruction fetch faulted before
the typed keys' echo. Each such fault outside the listed block maps another
64 KiB of code; found in a binary linked with the list, they are exactly
what the list lacks. Rebuild and run it again until it adds nothing. It
also runs idle-panes' workload once under perf (100 tabs opened from the
command line at 200x60, with fresh config and state directories, until the
workspace is quiet): what a workspace of many idle panes runs.

BINARY defaults to target/release/tilework, OUT to scripts/hot-functions.txt.
Needs valgrind (callgrind), callgrind_control and nm. Runs the workspace in a
106x62 PTY under callgrind: start-up, `cat` of 12 MB of the benchmark file,
then a typed command and its echo, then TABS idle tabs opened with
`tilework run --tab` (each shown, then put away); dumps the server's counts and the
waiting client's, and keeps the names of the binary's own functions: the
client's own, then those both run, then the server's own (each part in the
binary's current order), so that each process runs one stretch of pages.
The C runtime's start (`_start`, `frame_dummy`, ...) goes first: both run it,
and callgrind's dump does not list it. Needs cc too (a
preloaded shim: see EXEC_SHIM). The waiting client is found by its command
line (`tilework --wait-attached`): BINARY must be named `tilework`.

The names are mangled with hashes that change with the Rust toolchain and
with dependency versions, and with the dependencies' features: a binary built
in one `cargo build` with examples or tests (which add the dev-dependencies'
features) has other hashes than `cargo build --release` alone gives, so list
from and measure a binary built alone. After a toolchain or dependency
change, run this again (a stale list links fine, it just stops helping:
check with the flood's RssFile).
"""

import os
import pty
import re
import select
import signal
import struct
import subprocess
import sys
import tempfile
import time
import fcntl
import termios

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FLOOD_BYTES = 12_000_000
# Idle tabs opened from the command line after the typed command: opening a
# pane, answering `tilework run` and putting hidden grids away is code the
# flood does not run, and 100 idle tabs kept ~4 MB of code resident.
TABS = 12
LIMIT_S = 600


def children_of(pid):
    """Pids whose parent is `pid` (from /proc)."""
    out = []
    for d in os.listdir("/proc"):
        if not d.isdigit():
            continue
        try:
            with open(f"/proc/{d}/stat") as f:
                ppid = int(f.read().rsplit(")", 1)[1].split()[1])
        except (OSError, IndexError, ValueError):
            continue
        if ppid == pid:
            out.append(int(d))
    return out


def kill_tree(pid):
    for child in children_of(pid):
        kill_tree(child)
    try:
        os.kill(pid, signal.SIGKILL)
    except ProcessLookupError:
        pass


def read_until(fd, marker, limit_s):
    """Reads the client's output until `marker` shows (frames redraw text, so
    it is looked for in a sliding tail)."""
    tail = b""
    deadline = time.time() + limit_s
    while time.time() < deadline:
        ready, _, _ = select.select([fd], [], [], 0.2)
        if ready:
            try:
                tail = (tail + os.read(fd, 1 << 20))[-8192:]
            except OSError:
                break
            if marker in tail:
                return
    sys.exit(f"timed out waiting for {marker!r}; the screen ended with {tail[-300:]!r}")


def type_command(fd, work):
    """Types a command into the pane's shell and waits until it has run and
    the frames after it are out. (Not by looking for its output on the
    screen: a frame draws only the cells that changed, so a word can arrive
    in pieces around what was already there.)"""
    done = f"{work}/typed"
    os.write(fd, f"echo typed-keys > {done}\r".encode())
    deadline = time.time() + 60
    while not os.path.exists(done):
        if time.time() > deadline:
            sys.exit("timed out waiting for the typed command to run")
        drain(fd, 0.1)
    while drain(fd, 0.3):
        pass


def open_tabs(binary, name, env, fd, tabs=TABS):
    """Opens `tabs` idle `sh` tabs from the command line, as a script would,
    and waits until the workspace has drawn them and gone quiet (their
    grids are put away 200 ms after they are hidden)."""
    for _ in range(tabs):
        subprocess.run([binary, "run", "--session", name, "--tab", "--", "sh"], env=env,
                       capture_output=True, check=True, timeout=LIMIT_S)
    while drain(fd, 2.0):
        pass


def drain(fd, wait_s):
    """Reads what the client wrote within `wait_s`; whether it wrote anything."""
    ready, _, _ = select.select([fd], [], [], wait_s)
    if not ready:
        return False
    try:
        return bool(os.read(fd, 1 << 20))
    except OSError:
        return False


def symbols(binary):
    """The binary's function symbols and their addresses."""
    nm = subprocess.run(["nm", "--defined-only", binary], capture_output=True, text=True, check=True).stdout
    address = {}
    for line in nm.splitlines():
        parts = line.split()
        if len(parts) == 3 and parts[1] in "tTwW":
            address.setdefault(parts[2], int(parts[0], 16))
    return address


def check(binary):
    with open(f"{ROOT}/scripts/hot-functions.txt") as f:
        listed = [line.strip() for line in f if line.strip()]
    have = symbols(binary)
    found = sum(1 for n in listed if n in have)
    print(f"{found} of {len(listed)} listed functions are in {binary}")
    if found * 10 < len(listed) * 9:
        print("the list is stale (another toolchain or dependencies): run scripts/hot-functions.py")
        sys.exit(1)


# valgrind (3.19) runs a program's exec of /proc/self/exe as its own tool,
# which cannot load there: the attaching client's fresh start
# (`session::small_wait`) would die. Preloaded into the traced processes,
# this turns that path into the binary's own.
EXEC_SHIM = r"""
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>
static const char *own(const char *path) {
    const char *real = getenv("HOT_FUNCTIONS_BINARY");
    return real && strcmp(path, "/proc/self/exe") == 0 ? real : path;
}
int execve(const char *path, char *const argv[], char *const envp[]) {
    int (*next)(const char *, char *const[], char *const[]) = dlsym(RTLD_NEXT, "execve");
    return next(own(path), argv, envp);
}
int execvp(const char *path, char *const argv[]) {
    int (*next)(const char *, char *const[]) = dlsym(RTLD_NEXT, "execvp");
    return next(own(path), argv);
}
"""


def exec_shim(work, binary):
    """Environment entries preloading EXEC_SHIM (built with cc in `work`)."""
    src, lib = f"{work}/exec-shim.c", f"{work}/exec-shim.so"
    with open(src, "w") as f:
        f.write(EXEC_SHIM)
    subprocess.run(["cc", "-shared", "-fPIC", "-O1", "-o", lib, src, "-ldl"], check=True)
    return {"LD_PRELOAD": lib, "HOT_FUNCTIONS_BINARY": binary}


def start_workload(binary, tool, prefix, env):
    """Starts the workspace under `tool(work dir)` (a command line ending
    before the binary) in a 106x62 PTY: a flood, then a typed command and
    its echo. `env(work dir)` is its environment. Returns (pid, fd, work
    dir, session name, server pid) once the echo is out; the caller ends
    the processes."""
    big = subprocess.run([f"{ROOT}/scripts/gen-bigfile.sh"], capture_output=True, text=True, check=True).stdout.strip()
    work = tempfile.mkdtemp(prefix=prefix)
    name = f"{prefix.strip('-').replace('-', '')}{os.getpid()}{int(time.time())}"
    pane = f"sleep 1; head -c {FLOOD_BYTES} {big}; echo FLOOD''DONE; exec sh"
    env = dict(env(work), PS1="$ ")
    pid, fd = pty.fork()
    if pid == 0:
        argv = [*tool(work), binary, "--session", name, "--", "sh", "-c", pane]
        os.execvpe(argv[0], argv, env)
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", 62, 106, 0, 0))
    try:
        read_until(fd, b"FLOODDONE", LIMIT_S)
        type_command(fd, work)
        open_tabs(binary, name, {k: v for k, v in env.items() if k != "LD_PRELOAD"}, fd)
        found = subprocess.run(["pgrep", "-f", f"serve-session --session {name}"], capture_output=True, text=True)
        server = int(found.stdout.split()[0])
    except BaseException:
        kill_tree(pid)
        raise
    return pid, fd, work, name, server


PERF_FAULTS = ["perf", "record", "-q", "-e", "page-faults", "-c", "1", "-d", "-k", "CLOCK_MONOTONIC"]
# "PID TIME: ADDR SYM (DSO) IP SYM (DSO)": an instruction fetch faults at its own address.
FAULT_LINE = re.compile(r"\s*(\d+)\s+([\d.]+):\s+([0-9a-f]+)\s+(\S+)\s+\((.*?)\)\s+([0-9a-f]+)\s")


def functions_faulted(data, binary, have, server, cutoff):
    """The functions of `binary` whose first instruction fetch faulted in
    process `server` before `cutoff` (CLOCK_MONOTONIC), in perf's `data`."""
    out = subprocess.run(["perf", "script", "-i", data, "--no-demangle", "-F", "pid,time,addr,ip,sym,dso"],
                         capture_output=True, text=True).stdout
    faulted = set()
    for line in out.splitlines():
        m = FAULT_LINE.match(line)
        if not m or int(m.group(1)) != server or float(m.group(2)) > cutoff:
            continue
        _, _, addr, sym, dso, ip = m.groups()
        # Rust's functions only: `_start` and `_init` are not in .text.
        if (addr == ip and os.path.realpath(dso) == os.path.realpath(binary) and sym in have
                and sym.startswith(("_ZN", "_R"))):
            faulted.add(sym)
    return faulted


def idle_tabs_faulting_functions(binary, have, tabs=99):
    """The functions whose code faulted in the workspace while a script
    opened `tabs` idle tabs beside its first pane at 200x60 (`scripts/idle-panes.py`'s workload,
    with its fresh config and state directories), until it went quiet."""
    work = tempfile.mkdtemp(prefix="tilework-idle-faults-")
    name = f"idlefaults{os.getpid()}"
    env = dict(os.environ, XDG_RUNTIME_DIR=f"{work}/run", XDG_STATE_HOME=f"{work}/state",
               XDG_CONFIG_HOME=f"{work}/config", SHELL="/bin/sh", TERM="xterm-256color")
    for d in ("run", "state", "config"):
        os.makedirs(f"{work}/{d}", mode=0o700, exist_ok=True)
    data = f"{work}/faults.data"
    pid, fd = pty.fork()
    if pid == 0:
        argv = [*PERF_FAULTS, "-o", data, "--", binary, "--session", name]
        os.execvpe(argv[0], argv, env)
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", 60, 200, 0, 0))
    try:
        deadline = time.time() + LIMIT_S
        while subprocess.run([binary, "list-panes", "--session", name], env=env,
                             capture_output=True).returncode != 0:
            if time.time() > deadline:
                sys.exit("the workspace for the idle tabs did not start")
            drain(fd, 0.1)
        open_tabs(binary, name, env, fd, tabs)
        cutoff = time.clock_gettime(time.CLOCK_MONOTONIC)
        found = subprocess.run(["pgrep", "-f", f"serve-session --session {name}"], capture_output=True, text=True)
        server = int(found.stdout.split()[0])
        subprocess.run([binary, "kill", name], env=env, capture_output=True)
        deadline = time.time() + 30
        while time.time() < deadline and os.waitpid(pid, os.WNOHANG) == (0, 0):
            drain(fd, 0.2)
    finally:
        kill_tree(pid)
    return functions_faulted(data, binary, have, server, cutoff)


def faulting_functions(binary, have):
    """One run of the workload under perf: the functions of `binary` whose
    first instruction fetch faulted in the server before the keys' echo."""
    # No XDG_RUNTIME_DIR, as in the benchmarks: the session's socket then
    # goes under the temporary directory, a path of its own.
    env = {k: v for k, v in os.environ.items() if k != "XDG_RUNTIME_DIR"}
    perf = lambda work: [*PERF_FAULTS, "-o", f"{work}/faults.data", "--"]  # noqa: E731
    pid, _, work, name, server = start_workload(binary, perf, "tilework-faults-", lambda _work: env)
    # Faults after this are the shutdown's.
    cutoff = time.clock_gettime(time.CLOCK_MONOTONIC)
    try:
        subprocess.run([binary, "kill", name], env=env, capture_output=True)
        deadline = time.time() + 30
        while time.time() < deadline and os.waitpid(pid, os.WNOHANG) == (0, 0):
            time.sleep(0.2)
    finally:
        kill_tree(pid)
    return functions_faulted(f"{work}/faults.data", binary, have, server, cutoff)


def add_faults(binary, runs=3):
    """Appends to the list the functions whose code faulted in real runs."""
    list_path = f"{ROOT}/scripts/hot-functions.txt"
    with open(list_path) as f:
        known = {line.strip() for line in f if line.strip()}
    have = symbols(binary)
    added = set()
    for _ in range(runs):
        added |= faulting_functions(binary, have) - known
    added |= idle_tabs_faulting_functions(binary, have) - known
    with open(list_path, "a") as f:
        for sym in sorted(added, key=have.get):
            f.write(sym + "\n")
    print(f"{len(added)} functions added to {list_path}")


def main():
    if len(sys.argv) > 1 and sys.argv[1] == "--check":
        check(os.path.abspath(sys.argv[2] if len(sys.argv) > 2 else f"{ROOT}/target/release/tilework"))
        return
    if len(sys.argv) > 1 and sys.argv[1] == "--add-faults":
        add_faults(os.path.abspath(sys.argv[2] if len(sys.argv) > 2 else f"{ROOT}/target/release/tilework"))
        return
    binary = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else f"{ROOT}/target/release/tilework")
    out_path = sys.argv[2] if len(sys.argv) > 2 else f"{ROOT}/scripts/hot-functions.txt"
    callgrind = lambda work: ["valgrind", "--tool=callgrind", "--demangle=no", "--trace-children=yes",  # noqa: E731
                              "--trace-children-skip=/bin/*,/usr/bin/*", f"--callgrind-out-file={work}/cg.%p.out"]
    # Its own XDG_RUNTIME_DIR: the session's socket in the work directory.
    pid, _, work, _, server = start_workload(
        binary, callgrind, "tilework-hot-",
        lambda work: dict(os.environ, XDG_RUNTIME_DIR=work, **exec_shim(work, binary)))
    # The attached client, run afresh: the one process of the binary left
    # in the PTY's session besides the workspace.
    found = subprocess.run(["pgrep", "-f", "--", "tilework --wait-attached"], capture_output=True, text=True)
    clients = [int(p) for p in found.stdout.split() if os.path.exists(f"{work}/cg.{p}.out")]
    try:
        server_ran = functions_run(server, work)
        client_ran = functions_run(clients[0], work) if clients else set()
    finally:
        kill_tree(server)
        kill_tree(pid)
    address = symbols(binary)
    # The waiting client's own functions first, then those both processes
    # run, then the workspace's own: what each process runs is then one
    # run of pages (the client's at the front, the workspace's after it).
    # Each part keeps the binary's current order.
    hot = [n for n in C_RUNTIME if n in address]
    for part in (client_ran - server_ran, client_ran & server_ran, server_ran - client_ran):
        hot += sorted((n for n in part if n in address and n not in C_RUNTIME), key=address.get)
    with open(out_path, "w") as f:
        f.write("\n".join(hot) + "\n")
    print(f"{len(hot)} functions written to {out_path} ({len(clients)} client dumps)")


# The C runtime's start-up code, which both processes run (`_start`, and
# crtbegin's functions: `frame_dummy` runs from `.init_array`): callgrind's
# dump does not list them, and left after the block each costs a window.
C_RUNTIME = ["_start", "frame_dummy", "register_tm_clones", "deregister_tm_clones", "__do_global_dtors_aux"]


def functions_run(pid, work):
    """The names of the functions process `pid` ran so far under callgrind."""
    subprocess.run(["callgrind_control", "-d", str(pid)], capture_output=True, check=True)
    dump = f"{work}/cg.{pid}.out.1"
    deadline = time.time() + 60
    while time.time() < deadline and not (os.path.exists(dump) and os.path.getsize(dump) > 0):
        time.sleep(0.5)
    time.sleep(1)
    with open(dump) as f:
        return {m.group(1).strip() for m in map(re.compile(r"c?fn=\(\d+\) (.*)").match, f) if m}


if __name__ == "__main__":
    main()
