#!/usr/bin/env python3
"""What a subscriber costs a flood (issue 43): the time of `seq 1 LINES` in a
pane, measured inside the pane, alone and with `tilework subscribe --events
output` reading every event, ROUNDS interleaved pairs. Prints each pair and
the ratio of medians (with / without; the target is ≤ 1 / 0.9 = 1.11).

    scripts/subscribe-cost.py [ROUNDS] [LINES] [BINARY]
    (default 5, 2000000, target/release/tilework)
"""
import os
import pty
import statistics
import subprocess
import sys
import tempfile
import threading
import time

rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 5
lines = int(sys.argv[2]) if len(sys.argv) > 2 else 2_000_000
binary = os.path.abspath(sys.argv[3] if len(sys.argv) > 3 else "target/release/tilework")

home = tempfile.mkdtemp(prefix="tw-subscribe-cost-")
env = dict(os.environ)
for key, sub in [("XDG_RUNTIME_DIR", "run"), ("XDG_CONFIG_HOME", "config"), ("XDG_STATE_HOME", "state")]:
    env[key] = os.path.join(home, sub)
    os.makedirs(env[key], mode=0o700, exist_ok=True)
env.pop("TMUX", None)
env.pop("TILEWORK", None)
env["PS1"] = "$ "

pid, fd = pty.fork()
if pid == 0:
    os.execve(binary, [binary, "--session", "cost", "--", "sh"], env)


def drain():
    while True:
        try:
            if not os.read(fd, 65536):
                return
        except OSError:
            return


threading.Thread(target=drain, daemon=True).start()


def cli(*args):
    return subprocess.run([binary, *args], env=env, capture_output=True, text=True)


deadline = time.time() + 20
while cli("list-panes").returncode != 0:
    if time.time() > deadline:
        sys.exit("the workspace did not start")
    time.sleep(0.05)


def flood(tag):
    out = os.path.join(home, f"took-{tag}")
    cli("send-keys", f"a=$(date +%s%N); seq 1 {lines}; b=$(date +%s%N); echo $(( (b - a) / 1000 )) > {out}", "Enter")
    while not (os.path.exists(out) and open(out).read().strip()):
        time.sleep(0.02)
    return int(open(out).read()) / 1e6


alone, followed = [], []
for i in range(rounds):
    alone.append(flood(f"a{i}"))
    sub = subprocess.Popen([binary, "subscribe", "--events", "output"], env=env, stdout=subprocess.PIPE)
    got = [0]

    def read():
        for line in sub.stdout:
            got[0] += len(line)

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    time.sleep(0.2)
    followed.append(flood(f"f{i}"))
    sub.kill()
    sub.wait()
    print(f"pair {i + 1}: alone {alone[-1]:.2f} s, with a subscriber {followed[-1]:.2f} s "
          f"({got[0] / 1e6:.1f} MB of events read)", flush=True)

cli("kill", "cost")
ratio = statistics.median(followed) / statistics.median(alone)
print(f"\nseq 1 {lines}: median alone {statistics.median(alone):.2f} s, with a subscriber "
      f"{statistics.median(followed):.2f} s: {ratio:.2f}x (speed {1 / ratio:.2f}x)")
