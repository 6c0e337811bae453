#!/usr/bin/env python3
"""Key echo through `tilework attach localhost:NAME` against plain
`ssh -t localhost tilework attach NAME` (issue 47's cost: at most 1.2x).

    scripts/remote-echo.py --tilework target/debug/tilework \
        --remote-tilework target/release/tilework --rounds 6 --keys 150

Starts an sshd of its own on 127.0.0.1 (keys and config in a temp dir, as
tests/remote.rs does; needs openssh-server and root, or a user sshd may run
as), a workspace whose pane echoes each key as `<k>` in raw mode (python3),
detached; then, in rounds that alternate the order, attaches each way in a
PTY of its own, types --keys keys one at a time and times each from the
write to its echo `k>` arriving on the terminal. Prints each round's median
per way and their ratio, then the median of the ratios. The pane writes
each key three times over the same three cells (the top left corner): all
three change from one key to the next, so the frame that shows them draws
them side by side (a renderer draws only the cells that changed; an echo
that scrolls or repeats what was there would not show as a run). Both ways reach the
same remote tilework (--remote-tilework): the local `tilework` only waits
while ssh carries the keys, so it may be a debug build."""

import argparse
import fcntl
import os
import pty
import select
import shutil
import signal
import socket
import statistics
import struct
import subprocess
import sys
import tempfile
import termios
import time

ECHO_PANE = (
    "import os,tty\n"
    "tty.setraw(0)\n"
    "while True:\n"
    "    c = os.read(0, 1)\n"
    "    os.write(1, b'\\x1b[H' + c * 3)\n"
)


def descendants(pid):
    """The processes under `pid`, from /proc."""
    parents = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as f:
                    parents[int(entry)] = int(f.read().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                pass
    found, todo = [], [pid]
    while todo:
        p = todo.pop()
        kids = [c for c, pp in parents.items() if pp == p]
        found.extend(kids)
        todo.extend(kids)
    return found


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def make_sshd(tmp):
    for key in ("host_key", "user_key"):
        subprocess.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", f"{tmp}/{key}"], check=True)
    shutil.copy(f"{tmp}/user_key.pub", f"{tmp}/authorized_keys")
    with open(f"{tmp}/sshd_config", "w") as f:
        f.write(
            f"HostKey {tmp}/host_key\nAuthorizedKeysFile {tmp}/authorized_keys\n"
            f"PidFile {tmp}/sshd.pid\nStrictModes no\nUsePAM no\nPasswordAuthentication no\n"
            "AcceptEnv XDG_RUNTIME_DIR XDG_STATE_HOME XDG_CONFIG_HOME SHLVL\n"
        )
    os.makedirs("/run/sshd", exist_ok=True)
    port = free_port()
    sshd = subprocess.Popen(
        [shutil.which("sshd") or "/usr/sbin/sshd", "-D", "-f", f"{tmp}/sshd_config", "-p", str(port),
         "-o", "ListenAddress=127.0.0.1", "-E", f"{tmp}/sshd.log"],
        stdin=subprocess.DEVNULL)
    for _ in range(500):
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            break
        except OSError:
            time.sleep(0.01)
    user = subprocess.run(["id", "-un"], capture_output=True, text=True).stdout.strip()
    with open(f"{tmp}/ssh_config", "w") as f:
        f.write(
            f"Host localhost\nHostName 127.0.0.1\nPort {port}\nUser {user}\n"
            f"IdentityFile {tmp}/user_key\nIdentitiesOnly yes\nUserKnownHostsFile {tmp}/known_hosts\n"
            "StrictHostKeyChecking accept-new\nBatchMode yes\nLogLevel ERROR\n"
            f"SetEnv XDG_RUNTIME_DIR={tmp}/run XDG_STATE_HOME={tmp}/state XDG_CONFIG_HOME={tmp}/config SHLVL=1\n"
        )
    return sshd


def spawn(argv, env, rows=40, cols=120):
    pid, fd = pty.fork()
    if pid == 0:
        os.execvpe(argv[0], argv, env)
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", rows, cols, 0, 0))
    return pid, fd


def read_until(fd, needle, seen, timeout=20.0):
    """Reads until `needle` is in what came since `seen` was emptied; answers
    the terminal queries tilework asks on attach (device attributes)."""
    deadline = time.monotonic() + timeout
    while needle not in seen:
        left = deadline - time.monotonic()
        if left <= 0:
            raise TimeoutError(f"no {needle!r}; got {bytes(seen[-300:])!r}")
        ready, _, _ = select.select([fd], [], [], left)
        if not ready:
            continue
        data = os.read(fd, 1 << 16)
        if not data:
            raise EOFError(f"terminal closed waiting for {needle!r}")
        if b"\x1b[c" in data:
            os.write(fd, b"\x1b[?1;2c")
        seen.extend(data)


def first_echo(fd, seen):
    """Types `0` until the pane echoes it: the first keys may come before
    the pane's program has its terminal in raw mode."""
    for _ in range(30):
        os.write(fd, b"0")
        try:
            read_until(fd, b"000", seen, timeout=1.0)
            return
        except TimeoutError:
            continue
    raise TimeoutError(f"no echo; got {bytes(seen[-300:])!r}")


def one_way(argv, env, keys):
    pid, fd = spawn(argv, env)
    seen = bytearray()
    try:
        # Attached and drawn: the workspace answers a first key.
        first_echo(fd, seen)
        times = []
        letters = b"abcdefgijkoprsvwxyz"
        for i in range(keys):
            k = letters[i % len(letters):i % len(letters) + 1]
            seen.clear()
            start = time.perf_counter()
            os.write(fd, k)
            read_until(fd, k * 3, seen)
            times.append(time.perf_counter() - start)
            time.sleep(0.01)
        os.write(fd, b"\x02d")
        try:
            read_until(fd, b"detached", bytearray(), timeout=10)
        except (EOFError, OSError):
            pass
    finally:
        try:
            os.waitpid(pid, 0)
        except ChildProcessError:
            pass
        os.close(fd)
    return times


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tilework", required=True, help="the local tilework (this branch)")
    parser.add_argument("--remote-tilework", help="the tilework ssh runs (default: --tilework)")
    parser.add_argument("--rounds", type=int, default=6)
    parser.add_argument("--keys", type=int, default=150)
    args = parser.parse_args()
    local = os.path.abspath(args.tilework)
    remote = os.path.abspath(args.remote_tilework or args.tilework)
    tmp = tempfile.mkdtemp(prefix="tw-echo-")
    os.makedirs(f"{tmp}/run", mode=0o700)
    os.makedirs(f"{tmp}/config", exist_ok=True)
    sshd = make_sshd(tmp)
    env = dict(os.environ, XDG_RUNTIME_DIR=f"{tmp}/run", XDG_STATE_HOME=f"{tmp}/state",
               XDG_CONFIG_HOME=f"{tmp}/config", TERM="xterm-256color", SHELL="/bin/sh")
    env.pop("TMUX", None)
    with open(f"{tmp}/remote.toml", "w") as f:
        f.write(f'[remote]\nssh_command = "ssh -F {tmp}/ssh_config"\ntilework = "{remote}"\n')
    # The workspace, started and detached.
    pid, fd = spawn([remote, "--session", "echo", "--", "python3", "-c", ECHO_PANE], env)
    seen = bytearray()
    first_echo(fd, seen)
    os.write(fd, b"\x02d")
    os.waitpid(pid, 0)
    os.close(fd)
    ways = {
        "ssh -t": ["ssh", "-F", f"{tmp}/ssh_config", "-t", "localhost", f"{remote} attach echo"],
        "attach localhost:": [local, "--config", f"{tmp}/remote.toml", "attach", "localhost:echo"],
    }
    ratios = []
    try:
        for r in range(args.rounds):
            order = list(ways) if r % 2 == 0 else list(reversed(list(ways)))
            medians = {}
            for way in order:
                medians[way] = statistics.median(one_way(ways[way], env, args.keys)) * 1e3
            ratio = medians["attach localhost:"] / medians["ssh -t"]
            ratios.append(ratio)
            print(f"round {r + 1}: ssh -t {medians['ssh -t']:.3f} ms, attach localhost: "
                  f"{medians['attach localhost:']:.3f} ms, ratio {ratio:.3f}", flush=True)
        print(f"median ratio {statistics.median(ratios):.3f} (max {max(ratios):.3f}) "
              f"over {args.rounds} rounds of {args.keys} keys")
    finally:
        subprocess.run([remote, "kill", "echo"], env=env, capture_output=True)
        # The server and its connections (the shared connection's master
        # then ends too).
        for child in descendants(sshd.pid):
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
