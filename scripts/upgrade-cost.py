#!/usr/bin/env python3
"""What an upgrade costs (issue 48): a workspace of PANES panes, each with
MIB MiB of log lines in its history (a shell after `cat`), attached to a
terminal this script plays (a PTY), is handed over RUNS times with
`tilework upgrade --force` (the same binary: a release build ignores the
test switch that plays another version). For each handoff:

- `cli`: the whole `tilework upgrade` command, as a user waits for it
  (starting the new process, reading the config, the handoff, the reply);
- `handoff`: the old process's side, from the request to the new one's
  `up` (its log: "handed the workspace over in …"): holding the panes,
  writing the state, sending it, the new process reading it and building
  the workspace;
- `open`: the new process building the workspace (its log);
- key echo right after: KEYS keys typed into the focused shell at 20 ms
  pauses, each timed from its write to the terminal until its echo comes
  back out, the first of them sent as soon as `tilework upgrade` returned;
  against the same before the first handoff.

    cargo build --release --bin tilework
    scripts/upgrade-cost.py --tilework target/release/tilework [--runs 5]
"""

import argparse
import os
import pty
import re
import select
import statistics
import subprocess
import tempfile
import threading
import time


def log_lines(path, mib):
    """A file of `mib` MiB of varied log lines (compresses like real logs)."""
    line_no = 0
    with open(path, "w") as f:
        written = 0
        while written < mib << 20:
            line_no += 1
            line = (
                f"2026-12-06T12:{line_no // 60 % 60:02}:{line_no % 60:02}Z INFO "
                f"request id={line_no * 7919 % 1000003} path=/api/v1/items/{line_no % 977} "
                f"took={line_no * 31 % 997}ms status={200 + line_no % 3}\n"
            )
            f.write(line)
            written += len(line)


class Terminal:
    """The terminal tilework is attached to: its output drained on a thread."""

    def __init__(self, argv, env, rows=50, cols=200):
        self.pid, self.fd = pty.fork()
        if self.pid == 0:
            os.execve(argv[0], argv, env)
        import fcntl
        import struct
        import termios

        fcntl.ioctl(self.fd, termios.TIOCSWINSZ, struct.pack("HHHH", rows, cols, 0, 0))
        self.lock = threading.Lock()
        self.seen = bytearray()
        self.total = 0
        threading.Thread(target=self._drain, daemon=True).start()

    def _drain(self):
        while True:
            try:
                chunk = os.read(self.fd, 65536)
            except OSError:
                return
            if not chunk:
                return
            with self.lock:
                self.total += len(chunk)
                self.seen += chunk
                del self.seen[:-4096]

    def echo_ms(self, key=b"x"):
        """Types `key`, returns ms until it comes back out."""
        with self.lock:
            self.seen.clear()
        start = time.perf_counter()
        os.write(self.fd, key)
        while True:
            with self.lock:
                if key in self.seen:
                    return (time.perf_counter() - start) * 1000
            if time.perf_counter() - start > 5:
                return float("nan")
            time.sleep(0.0002)

    def echoes(self, keys):
        times = []
        for _ in range(keys):
            times.append(self.echo_ms())
            time.sleep(0.02)
            os.write(self.fd, b"\x7f")
            time.sleep(0.02)
        return times


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--tilework", default="target/release/tilework")
    ap.add_argument("--panes", type=int, default=4)
    ap.add_argument("--mib", type=int, default=8)
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--keys", type=int, default=20)
    args = ap.parse_args()
    exe = os.path.abspath(args.tilework)
    with tempfile.TemporaryDirectory(prefix="upgrade-cost-") as tmp:
        env = {
            "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
            "TERM": "xterm-256color",
            "HOME": tmp,
            "SHELL": "/bin/sh",
            "PS1": "$ ",
            "ENV": "",
            "XDG_RUNTIME_DIR": os.path.join(tmp, "run"),
            "XDG_STATE_HOME": os.path.join(tmp, "state"),
            "XDG_CONFIG_HOME": os.path.join(tmp, "config"),
        }
        os.makedirs(env["XDG_RUNTIME_DIR"], mode=0o700)
        data = os.path.join(tmp, "log.txt")
        # A little more than the ring keeps: every pane's history full.
        log_lines(data, args.mib + 1)
        argv = [exe, "--session", "up"]
        for _ in range(args.panes):
            argv += ["-c", f"cat {data}; exec sh"]
        term = Terminal(argv, env)

        def cli(*words):
            return subprocess.run([exe, *words], env=env, capture_output=True, text=True)

        deadline = time.time() + 120
        while True:
            screens = [cli("--session", "up", "capture", "--pane", str(p)).stdout for p in range(1, args.panes + 1)]
            # Each pane's shell prompt (`capture` trims the trailing blank).
            if all(any(line.strip() == "$" for line in s.splitlines()) for s in screens):
                break
            if time.time() > deadline:
                raise SystemExit("the panes did not finish printing")
            time.sleep(0.5)
        time.sleep(1)
        log = os.path.join(env["XDG_STATE_HOME"], "tilework", "tilework.log")
        before = term.echoes(args.keys)
        print(f"{args.panes} panes x {args.mib} MiB of history; key echo before: "
              f"p50 {statistics.median(before):.2f} ms, max {max(before):.2f} ms")
        print("run  cli_ms  handoff_ms  open_ms  first_echo_ms  echo_p50_ms  echo_max_ms  state_MB")
        rows = []
        for run in range(1, args.runs + 1):
            start = time.perf_counter()
            done = cli("upgrade", "--force", "up")
            cli_ms = (time.perf_counter() - start) * 1000
            if done.returncode != 0:
                raise SystemExit(f"upgrade failed: {done.stderr}")
            after = term.echoes(args.keys)
            text = open(log, errors="replace").read()
            handoff = re.findall(r"handed the workspace over in ([\d.]+)(ms|µs|s); exiting panes=\d+ bytes=(\d+)", text)
            opened = re.findall(r"opened the workspace taken over in ([\d.]+)(ms|µs|s)", text)

            def ms(value, unit):
                return float(value) * {"ms": 1, "µs": 0.001, "s": 1000}[unit]

            handoff_ms = ms(*handoff[-1][:2]) if handoff else float("nan")
            state_mb = int(handoff[-1][2]) / 1e6 if handoff else float("nan")
            open_ms = ms(*opened[-1]) if opened else float("nan")
            rows.append((cli_ms, handoff_ms, open_ms, after[0], statistics.median(after), max(after)))
            print(f"{run:>3}  {cli_ms:6.0f}  {handoff_ms:10.1f}  {open_ms:7.1f}  {after[0]:13.2f}  "
                  f"{statistics.median(after):11.2f}  {max(after):11.2f}  {state_mb:8.1f}")
        med = [statistics.median(col) for col in zip(*rows)]
        print(f"med  {med[0]:6.0f}  {med[1]:10.1f}  {med[2]:7.1f}  {med[3]:13.2f}  {med[4]:11.2f}  {med[5]:11.2f}")
        os.write(term.fd, b"\x02Q")
        time.sleep(0.5)
        cli("kill", "up")


if __name__ == "__main__":
    main()
