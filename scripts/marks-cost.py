#!/usr/bin/env python3
"""What OSC 133 marks cost a text flood (issue 43), end to end.

Writes three files of the same length (default 60 MB) of log lines, a shell's
prompt every 20 lines: with the prompt's OSC 133 marks (`marks`), with an OSC
of the same length tilework ignores in their place (`osc`: only the marks'
handling differs), and with spaces in their place (`text`: no escapes at
all). Starts a workspace (its own runtime, config and state directories; the
outer terminal a PTY drained by a thread) and `cat`s them in its pane,
interleaved (marks, osc, text, marks, …), ROUNDS times, each timed inside the
pane (`date` before and after). Prints each round and the ratios of the
medians (the target: marks / osc and marks / text ≤ 1.02).

    scripts/marks-cost.py [ROUNDS] [MB] [BINARY]   (default 7, 60, target/release/tilework)

Figures: docs/commands.md. The instruction counts beside it (noise-free):
scripts/marks-cost-instructions.sh.
"""
import os
import pty
import statistics
import subprocess
import sys
import tempfile
import threading
import time

rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 7
size = int(sys.argv[2]) if len(sys.argv) > 2 else 60
binary = os.path.abspath(sys.argv[3] if len(sys.argv) > 3 else "target/release/tilework")

home = tempfile.mkdtemp(prefix="tw-marks-cost-")
env = dict(os.environ)
for key, sub in [("XDG_RUNTIME_DIR", "run"), ("XDG_CONFIG_HOME", "config"), ("XDG_STATE_HOME", "state")]:
    env[key] = os.path.join(home, sub)
    os.makedirs(env[key], mode=0o700, exist_ok=True)
env.pop("TMUX", None)
env.pop("TILEWORK", None)
env["PS1"] = "$ "


def prompt(kind):
    """A prompt as bash with the integration prints it, after a command."""
    seqs = ["133;D;0", "133;A", "133;B", "133;C"]
    if kind == "osc":
        seqs = [s.replace("133;", "999;") for s in seqs]
    d, a, b, c = [f"\x1b]{s}\x07" for s in seqs]
    text = f"{d}{a}$ {b}make\r\n{c}"
    if kind == "text":
        text = "".join(" " if ch in "\x1b\x07" or not ch.isprintable() and ch not in "\r\n" else ch
                       for ch in text)
        # The same length, and no escape left.
        text = text.replace("]", " ")
    return text.encode()


files = {}
for kind in ("marks", "osc", "text"):
    path = os.path.join(home, f"flood-{kind}")
    chunks, total, line = [], 0, 0
    p = prompt(kind)
    while total < size * 1_000_000:
        piece = b""
        if line % 20 == 0:
            piece += p
        piece += f"{line:08} compiling crate number {line} of the workspace, ok\r\n".encode()
        chunks.append(piece)
        total += len(piece)
        line += 1
    with open(path, "wb") as f:
        f.write(b"".join(chunks))
    files[kind] = path
sizes = {os.path.getsize(p) for p in files.values()}
assert len(sizes) == 1, f"the files differ in length: {sizes}"

pid, fd = pty.fork()
if pid == 0:
    os.execve(binary, [binary, "--session", "marks", "--", "sh"], env)


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


def flood(kind, tag):
    out = os.path.join(home, f"took-{tag}")
    cli("send-keys", f"a=$(date +%s%N); cat {files[kind]}; b=$(date +%s%N); "
        f"echo $(( (b - a) / 1000 )) > {out}", "Enter")
    while not (os.path.exists(out) and open(out).read().strip()):
        time.sleep(0.02)
    return int(open(out).read()) / 1e6


took = {kind: [] for kind in files}
flood("text", "warm")
for i in range(rounds):
    for kind in files:
        took[kind].append(flood(kind, f"{kind}{i}"))
    print(f"round {i + 1}: " + ", ".join(f"{k} {v[-1]:.3f} s" for k, v in took.items()), flush=True)

# A sanity check: the marks were taken (those still in the history).
listed = cli("capture", "--commands", "--json")
commands = listed.stdout.count('"prompt_line"') if listed.returncode == 0 else listed.stderr.strip()
cli("kill", "marks")
med = {k: statistics.median(v) for k, v in took.items()}
print(f"\ncat of {sizes.pop() / 1e6:.0f} MB, a prompt every 20 lines, {rounds} rounds, medians: "
      + ", ".join(f"{k} {v:.3f} s" for k, v in med.items()))
print(f"marks / osc: {med['marks'] / med['osc']:.3f}x, marks / text: {med['marks'] / med['text']:.3f}x "
      f"({commands} commands held at the end)")
