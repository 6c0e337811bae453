#!/usr/bin/env bash
# Records a samply profile of tilework running a workspace profile.
#
#   scripts/profile.sh [PROFILE] [SECONDS]     (defaults: flood 10)
#
# Builds with `--profile profiling` (release + debug info), runs tilework
# inside a detached tmux session (so it has a real terminal) with
# `--exit-after SECONDS`, and writes target/samply/PROFILE-DATE.json.gz.
# Open it with `samply load FILE`.
set -euo pipefail
cd "$(dirname "$0")/.."

profile="${1:-flood}"
seconds="${2:-10}"
out_dir="target/samply"
stamp="$(date +%Y%m%d-%H%M%S)"
out="$out_dir/$profile-$stamp.json.gz"
mkdir -p "$out_dir"

if ! command -v tmux >/dev/null 2>&1; then
    echo "tmux is needed to give tilework a terminal: apt-get install -y tmux" >&2
    exit 1
fi
if ! command -v samply >/dev/null 2>&1; then
    echo "samply not found: installing it with cargo (takes a few minutes)..." >&2
    cargo install --locked samply
fi
if [ "$profile" = "flood" ] && [ ! -r target/bench/bigfile.txt ]; then
    scripts/gen-bigfile.sh target/bench/bigfile.txt
fi

paranoid="$(cat /proc/sys/kernel/perf_event_paranoid 2>/dev/null || echo 2)"
if [ "$paranoid" -gt 1 ]; then
    cat >&2 <<MSG
The kernel forbids perf events for unprivileged users (perf_event_paranoid=$paranoid).
Allow them with:
    echo 1 | sudo tee /proc/sys/kernel/perf_event_paranoid
MSG
    if [ "$(id -u)" -ne 0 ]; then exit 1; fi
    echo "Running as root: continuing." >&2
fi

cargo build --profile profiling --bin tilework
bin="$PWD/target/profiling/tilework"

session="tilework-profile-$$"
done_file="$(mktemp)"
rm -f "$done_file"
record() {
    # samply may fail on VMs without a hardware PMU; perf + import is the fallback.
    if samply record --save-only -o "$out" -- "$bin" --profile "$profile" --exit-after "$seconds"; then
        return 0
    fi
    echo "samply record failed; trying perf record + samply import" >&2
    perf record -F 999 --call-graph dwarf -o "$out_dir/perf.data" -- \
        "$bin" --profile "$profile" --exit-after "$seconds" &&
        samply import "$out_dir/perf.data" --save-only -o "$out"
}
export -f record
export out out_dir bin profile seconds
tmux new-session -d -s "$session" -x 160 -y 50 \
    "bash -c 'record > $out_dir/record.log 2>&1; echo \$? > $done_file'"
echo "Recording $profile for ${seconds}s in tmux session $session..." >&2
while [ ! -s "$done_file" ]; do sleep 1; done
status="$(cat "$done_file")"
rm -f "$done_file"
tmux kill-session -t "$session" 2>/dev/null || true
if [ "$status" -ne 0 ] || [ ! -s "$out" ]; then
    echo "recording failed (status $status); see $out_dir/record.log" >&2
    cat "$out_dir/record.log" >&2 || true
    exit 1
fi
echo "Profile written to $out"
echo "Open it with:  samply load $out"
