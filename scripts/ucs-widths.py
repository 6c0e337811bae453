#!/usr/bin/env python3
"""ucs-detect's width tests run inside a multiplexer, in a PTY this script
drives (40x120), for each category; prints one summary line per target.

    pip install ucs-detect
    scripts/ucs-widths.py tilework=target/debug/tilework tmux=tmux

A target named `tmux...` is started as `tmux -f /dev/null -L ucswidths
new-session CMD`, any other as `BINARY -- CMD` (tilework, with its own
runtime, state and config directories). ucs-detect prints each sequence
and asks the cursor position (CPR): the answer is the multiplexer's own
grid, so this measures the widths the multiplexer gives, against Python's
`wcwidth.wcswidth`.
"""
import fcntl
import json
import os
import pty
import select
import signal
import struct
import subprocess
import sys
import tempfile
import termios
import time

CATEGORIES = {"zwj": "emoji_zwj_results", "vs16": "emoji_vs16_results",
              "vs15": "emoji_vs15_results", "ri": "ri_results"}
# A plain terminal's answers to what a multiplexer asks when it starts.
ANSWERS = [(b"\x1b[c", b"\x1b[?62;22c"), (b"\x1b[0c", b"\x1b[?62;22c"),
           (b"\x1b[>c", b"\x1b[>0;10;1c")]


def drive(argv, env, result, timeout=900):
    pid, fd = pty.fork()
    if pid == 0:
        os.environ.update(env)
        os.execvp(argv[0], argv)
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", 40, 120, 0, 0))
    deadline = time.time() + timeout
    while time.time() < deadline:
        if os.path.exists(result) and os.path.getsize(result) > 0:
            time.sleep(1)
            break
        ready, _, _ = select.select([fd], [], [], 0.5)
        if fd in ready:
            try:
                data = os.read(fd, 65536)
            except OSError:
                break
            for question, answer in ANSWERS:
                if question in data:
                    os.write(fd, answer)
    try:
        os.kill(pid, signal.SIGTERM)
        os.waitpid(pid, 0)
    except (ProcessLookupError, ChildProcessError):
        pass
    os.close(fd)


def run(name, binary, category, work):
    result = os.path.join(work, f"{name}-{category}.json")
    cmd = (f"ucs-detect --test-only {category} --no-terminal-test --no-languages-test "
           f"--save-json {result} --set-software-name {name} --set-software-version - "
           f"--probe-silently --no-final-summary > /dev/null; sleep 100")
    home = tempfile.mkdtemp(dir=work)
    env = {"TERM": "xterm-256color"}
    for sub in ("run", "state", "config"):
        os.mkdir(os.path.join(home, sub), 0o700)
    env.update(XDG_RUNTIME_DIR=f"{home}/run", XDG_STATE_HOME=f"{home}/state",
               XDG_CONFIG_HOME=f"{home}/config")
    if name.startswith("tmux"):
        drive([binary, "-f", "/dev/null", "-L", "ucswidths", "new-session", "sh", "-c", cmd],
              env, result)
        subprocess.run([binary, "-L", "ucswidths", "kill-server"], stderr=subprocess.DEVNULL,
                       check=False)
    else:
        drive([binary, "--", "sh", "-c", cmd], env, result)
    try:
        with open(result) as f:
            results = json.load(f)["test_results"][CATEGORIES[category]]
    except (OSError, ValueError, KeyError):
        return f"{category}: no result"
    if not results:
        return f"{category}: no result"
    counts = next(iter(results.values()))
    ok = counts["n_total"] - counts["n_errors"]
    return f"{category} {ok}/{counts['n_total']} ({counts['pct_success']:.1f} %)"


def main():
    work = tempfile.mkdtemp(prefix="ucs-widths-")
    for target in sys.argv[1:]:
        name, _, binary = target.partition("=")
        line = [run(name, binary, category, work) for category in CATEGORIES]
        print(f"{name}: " + " | ".join(line), flush=True)


if __name__ == "__main__":
    main()
