#!/usr/bin/env bash
# What tilework costs when nothing happens: four idle panes for SECONDS,
# after the first frames have settled. Counts frames (from --stats), bytes
# written to the terminal, and wake-ups (context switches summed over all
# of tilework's threads, from /proc/PID/task/*/status). The answer must be
# zero frames, zero bytes, no periodic wake-ups.
#
#   scripts/bench-idle.sh [SECONDS]      (default 10)
#
# Output is also saved in target/bench/results/.
set -euo pipefail

cd "$(dirname "$0")/.."
# shellcheck source=scripts/lib.sh
source scripts/lib.sh

seconds=${1:-10}
if ! [[ $seconds =~ ^[0-9]+([.][0-9]+)?$ ]]; then
    echo "usage: $0 [SECONDS]" >&2
    exit 2
fi

bench_build
mkdir -p "$BENCH_DIR/results"
out="$BENCH_DIR/results/idle-$(date -u +%Y%m%d-%H%M%S).md"

shells=("$BENCH_HARNESS" idle --seconds "$seconds" --workload shells --tilework "$BENCH_TILEWORK" --table)
profile=("$BENCH_HARNESS" idle --seconds "$seconds" --workload profile --tilework "$BENCH_TILEWORK" --table)
{
    bench_header "Idle: tilework with 4 idle panes for $seconds s" \
        "scripts/bench-idle.sh $seconds  (runs: ${shells[*]}; then --workload profile)"
    echo "### Four interactive shells (sh -i), side by side"
    echo
    "${shells[@]}"
    echo
    echo "### --profile idle (four sleep panes, 2x2)"
    echo
    "${profile[@]}"
    bench_footer
} | tee "$out"
printf "\n(saved in %s)\n" "$out"
