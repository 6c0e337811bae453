#!/usr/bin/env python3
"""How soon `tilework wait --prompt` returns after a command ends (issue 43).

Starts a workspace (its own runtime, config and state directories) whose pane
runs bash with the shipped integration (`tilework shell-integration bash`),
then ROUNDS times: starts `tilework wait --prompt`, waits until the workspace's
log says the wait is on, releases a command in the pane that writes the time
(CLOCK_REALTIME, ns) as its last act, and takes the time the wait returns. The
latency is the return time minus the command's end: the shell's prompt hook,
tilework's loop and the client together.

    scripts/wait-latency.py [ROUNDS] [BINARY]   (default 30, target/release/tilework)

Prints each round and the median, p90 and max in ms. Figures: docs/commands.md.
"""
import os
import pty
import statistics
import subprocess
import sys
import tempfile
import time

rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 30
binary = os.path.abspath(sys.argv[2] if len(sys.argv) > 2 else "target/release/tilework")

home = tempfile.mkdtemp(prefix="tw-wait-latency-")
env = dict(os.environ)
for key, sub in [("XDG_RUNTIME_DIR", "run"), ("XDG_CONFIG_HOME", "config"), ("XDG_STATE_HOME", "state")]:
    env[key] = os.path.join(home, sub)
    os.makedirs(env[key], mode=0o700, exist_ok=True)
env.pop("TMUX", None)
env.pop("TILEWORK", None)
rc = os.path.join(home, "bashrc")
with open(rc, "w") as f:
    f.write(f"PS1='$ '\neval \"$('{binary}' shell-integration bash)\"\n")

# The workspace needs a terminal: a PTY nobody draws, drained by a thread.
pid, fd = pty.fork()
if pid == 0:
    os.execve(binary, [binary, "--session", "lat", "--", "bash", "--noprofile", "--rcfile", rc, "-i"], env)

import threading


def drain():
    while True:
        try:
            if not os.read(fd, 65536):
                return
        except OSError:
            return


threading.Thread(target=drain, daemon=True).start()
log = os.path.join(env["XDG_STATE_HOME"], "tilework", "tilework.log")


def cli(*args, **kw):
    return subprocess.run([binary, *args], env=env, capture_output=True, text=True, **kw)


deadline = time.time() + 20
while cli("list-panes").returncode != 0:
    if time.time() > deadline:
        sys.exit("the workspace did not start")
    time.sleep(0.05)
time.sleep(0.5)

latencies = []
for i in range(rounds):
    flag = os.path.join(home, f"go-{i}")
    stamp = os.path.join(home, f"end-{i}")
    cli("send-keys", f"while [ ! -e {flag} ]; do sleep 0.01; done; date +%s%N > {stamp}", "Enter")
    before = open(log).read().count("a script waits") if os.path.exists(log) else 0
    waiter = subprocess.Popen([binary, "wait", "--prompt", "--timeout", "30"], env=env, stdout=subprocess.PIPE)
    while (open(log).read().count("a script waits") if os.path.exists(log) else 0) <= before:
        time.sleep(0.005)
    open(flag, "w").close()
    waiter.wait()
    returned = time.time_ns()
    end = int(open(stamp).read().strip())
    ms = (returned - end) / 1e6
    latencies.append(ms)
    print(f"round {i + 1}: {ms:.1f} ms (status {waiter.returncode})", flush=True)

cli("kill", "lat")
latencies.sort()
p90 = latencies[min(len(latencies) - 1, int(len(latencies) * 0.9))]
print(f"\nwait --prompt after a command's end, {rounds} rounds: median {statistics.median(latencies):.1f} ms, "
      f"p90 {p90:.1f} ms, max {latencies[-1]:.1f} ms")
