#!/usr/bin/env bash
# Soak test (issue 5), not run in CI: tilework with 4 flooding panes and
# periodic resizes for MINUTES (default 10), inside a private tmux server as
# the outer terminal. Samples tilework's RSS, thread count and open fds
# every SOAK_INTERVAL seconds and prints start / end / max of each.
#
#   scripts/soak.sh            # 10 minutes
#   scripts/soak.sh 3          # 3 minutes
#
# Environment:
#   TILEWORK_BIN    binary to run (default: target/release/tilework, built
#                   with `cargo build --release` when missing)
#   SOAK_INTERVAL   seconds between samples (default 10)
#   SOAK_RESIZE     seconds between resizes of the outer terminal (default 5)
#
# What to look for: RSS rises while the four 8 MiB scrollback rings fill
# (the first minute or so), then stays flat; threads and fds do not grow at
# all. The script exits 1 if tilework dies during the run.
set -euo pipefail

minutes=${1:-10}
interval=${SOAK_INTERVAL:-10}
resize_every=${SOAK_RESIZE:-5}
root=$(cd "$(dirname "$0")/.." && pwd)
bin=${TILEWORK_BIN:-$root/target/release/tilework}

command -v tmux >/dev/null || { echo "soak: tmux is needed (apt-get install -y tmux)" >&2; exit 2; }
if [ ! -x "$bin" ]; then
    echo "soak: building $bin" >&2
    cargo build --release --manifest-path "$root/Cargo.toml" >&2
fi

work=$(mktemp -d)
sock="tilework-soak-$$"
tmux_() { tmux -L "$sock" -f /dev/null "$@"; }
cleanup() {
    # Killing the server hangs up on tilework, which ends its panes.
    tmux_ kill-server 2>/dev/null || true
    rm -f "${TMUX_TMPDIR:-/tmp}/tmux-$(id -u)/$sock"
    rm -rf "$work"
}
trap cleanup EXIT INT TERM

# Four different floods: plain lines, numbers, colours with wide
# characters, and long wrapping lines.
cat >"$work/soak.toml" <<'EOF'
[[tab]]
name = "soak"

[tab.layout]
split = "down"

[[tab.layout.panes]]
split = "right"
panes = [
    { title = "yes", command = "exec yes tilework-soak-flood" },
    { title = "seq", command = "while :; do seq 1 1000000; done" },
]

[[tab.layout.panes]]
split = "right"
panes = [
    { title = "colour", command = "exec yes \"$(printf '\\033[1;3%sm彩色 colour\\033[m \\033[4munder\\033[m' 1)\"" },
    { title = "wide", command = "exec yes \"$(printf '%0300d' 7)\"" },
]
EOF

tmux_ new-session -d -s soak -x 200 -y 50 \
    "exec '$bin' --profile '$work/soak.toml' --log '$work/tilework.log'"
pid=$(tmux_ list-panes -t soak -F '#{pane_pid}')
# The pane's shell execs tilework; wait until it has.
for _ in $(seq 50); do
    [ "$(cat "/proc/$pid/comm" 2>/dev/null)" = "tilework" ] && break
    sleep 0.1
done
[ "$(cat "/proc/$pid/comm" 2>/dev/null)" = "tilework" ] || { echo "soak: tilework did not start" >&2; exit 1; }
# That is the client in the terminal; the workspace is its child process
# (sessions: the workspace outlives its terminal). Measure the workspace.
for _ in $(seq 50); do
    child=$(pgrep -P "$pid" -x "$(cat "/proc/$pid/comm")" | head -n 1)
    [ -n "$child" ] && break
    sleep 0.1
done
[ -n "$child" ] || { echo "soak: the workspace process did not start" >&2; exit 1; }
pid=$child

rss() { awk '/^VmRSS:/ {print $2}' "/proc/$pid/status"; }
threads() { awk '/^Threads:/ {print $2}' "/proc/$pid/status"; }
fds() { find "/proc/$pid/fd" -mindepth 1 -maxdepth 1 | wc -l; }

sizes=("200 50" "120 40" "80 24" "40 10" "1 1" "160 45" "100 30")
end=$(( $(date +%s) + minutes * 60 ))
next_sample=$(date +%s)
next_resize=$(( next_sample + resize_every ))
resizes=0
samples=()
printf '%8s %10s %8s %6s\n' "t(s)" "rss(KiB)" "threads" "fds"
start=$(date +%s)
while :; do
    now=$(date +%s)
    if [ ! -d "/proc/$pid" ]; then
        echo "soak: tilework died after $((now - start)) s" >&2
        exit 1
    fi
    if [ "$now" -ge "$next_resize" ]; then
        read -r w h <<<"${sizes[$((resizes % ${#sizes[@]}))]}"
        tmux_ resize-window -t soak -x "$w" -y "$h" 2>/dev/null || true
        resizes=$((resizes + 1))
        next_resize=$((now + resize_every))
    fi
    if [ "$now" -ge "$next_sample" ]; then
        sample=("$((now - start))" "$(rss)" "$(threads)" "$(fds)")
        samples+=("${sample[*]}")
        printf '%8s %10s %8s %6s\n' "${sample[@]}"
        next_sample=$((next_sample + interval))
        [ "$now" -ge "$end" ] && break
    fi
    sleep 0.5
done

# Back to a normal size, then summarise.
tmux_ resize-window -t soak -x 200 -y 50 2>/dev/null || true
printf '%s\n' "${samples[@]}" | awk -v resizes="$resizes" -v minutes="$minutes" '
    NR == 1 { r0 = $2; t0 = $3; f0 = $4; rmax = $2; tmax = $3; fmax = $4 }
    # The rings fill during the first minute: RSS from then on should be flat.
    $1 >= 60 && r1 == "" { r1 = $2; t1 = $3; f1 = $4 }
    { r = $2; t = $3; f = $4
      if (r > rmax) rmax = r; if (t > tmax) tmax = t; if (f > fmax) fmax = f }
    END {
      printf "\nsoak: %d min, %d samples, %d resizes\n", minutes, NR, resizes
      if (r1 == "") { r1 = r; t1 = t; f1 = f }
      printf "%-8s %10s %10s %10s %10s\n", "", "start", "at 1 min", "end", "max"
      printf "%-8s %10d %10d %10d %10d   (KiB)\n", "rss", r0, r1, r, rmax
      printf "%-8s %10d %10d %10d %10d\n", "threads", t0, t1, t, tmax
      printf "%-8s %10d %10d %10d %10d\n", "fds", f0, f1, f, fmax
    }'
