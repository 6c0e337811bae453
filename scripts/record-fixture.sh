#!/usr/bin/env bash
# Records the exact bytes a program writes to a terminal, once, so benches and
# tests can replay real output instead of made-up input.
#
#   scripts/record-fixture.sh NAME CMD [ARGS...]
#
# Runs CMD on a fresh pseudo-terminal of 59 rows x 104 columns (the pane size
# of the flood benchmark; override with ROWS=.. COLS=..), TERM=xterm-256color,
# a UTF-8 locale, and stores everything it printed in
# benches/fixtures/NAME.bin. The PTY's own output processing (\n -> \r\n)
# applies, as in a real pane. Nothing is typed into the program: give it
# arguments that make it finish by itself (`top -d 0.2 -n 10`, or
# `vim -c ... -c 'qa!' FILE`). Terminal queries (cursor position, device
# attributes) are not answered, so programs that wait for answers time out
# the way they would on a dumb terminal. Output over MAX_BYTES (default
# 1 MiB) is cut, and the recording stops after TIMEOUT seconds (default 20).
#
# Examples (the fixtures in benches/fixtures were made with these):
#   scripts/record-fixture.sh ls-color ls -la --color=always /usr/bin
#   scripts/record-fixture.sh top top -d 0.2 -n 10
#   scripts/record-fixture.sh vim-scroll vim -N -u NONE -i NONE -n \
#       -c 'syntax on' -c 'set number' \
#       -c 'for i in range(30) | exe "normal! \<C-f>" | redraw | endfor' \
#       -c 'qa!' src/workspace/layout.rs
set -euo pipefail

if [[ $# -lt 2 ]]; then
    echo "usage: $0 NAME CMD [ARGS...]" >&2
    exit 2
fi
name=$1
shift
here=$(cd "$(dirname "$0")/.." && pwd)
out_dir="$here/benches/fixtures"
mkdir -p "$out_dir"
out="$out_dir/$name.bin"

ROWS=${ROWS:-59} COLS=${COLS:-104} MAX_BYTES=${MAX_BYTES:-1048576} TIMEOUT=${TIMEOUT:-20} \
    python3 - "$out" "$@" <<'PY'
import fcntl, os, pty, select, signal, struct, sys, termios, time

out_path, argv = sys.argv[1], sys.argv[2:]
rows, cols = int(os.environ["ROWS"]), int(os.environ["COLS"])
max_bytes, timeout = int(os.environ["MAX_BYTES"]), float(os.environ["TIMEOUT"])

pid, fd = pty.fork()
if pid == 0:
    # Child: the size must be set before the program looks at it.
    fcntl.ioctl(0, termios.TIOCSWINSZ, struct.pack("HHHH", rows, cols, 0, 0))
    env = dict(os.environ)
    env.update(TERM="xterm-256color", COLUMNS=str(cols), LINES=str(rows))
    env.setdefault("LANG", "C.UTF-8")
    for v in ("TMUX", "TILEWORK", "STY"):
        env.pop(v, None)
    try:
        os.execvpe(argv[0], argv, env)
    except OSError as e:
        sys.stderr.write(f"record-fixture: cannot run {argv[0]}: {e}\n")
        os._exit(127)

data = bytearray()
deadline = time.monotonic() + timeout
while time.monotonic() < deadline and len(data) < max_bytes:
    ready, _, _ = select.select([fd], [], [], 0.2)
    if not ready:
        # Still running but quiet: keep waiting until the deadline.
        done, _ = os.waitpid(pid, os.WNOHANG)
        if done:
            break
        continue
    try:
        chunk = os.read(fd, 65536)
    except OSError:  # EIO: the program exited and the slave side closed.
        break
    if not chunk:
        break
    data += chunk

try:
    os.kill(pid, signal.SIGKILL)
except ProcessLookupError:
    pass
try:
    os.waitpid(pid, 0)
except ChildProcessError:
    pass

data = bytes(data[:max_bytes])
with open(out_path, "wb") as f:
    f.write(data)
print(f"{out_path}: {len(data)} bytes from `{' '.join(argv)}` at {cols}x{rows}")
PY
