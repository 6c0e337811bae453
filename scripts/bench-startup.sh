#!/usr/bin/env bash
# Start-up to a visible prompt: from starting the contender in a fresh
# outer terminal until its pane's shell prompt arrives on that terminal;
# tmux starts a new server each time, tilework has no config or state.
# Contenders are interleaved round by round; the table gives each median as
# a ratio of tmux's from the same run.
#
#   scripts/bench-startup.sh [ROUNDS]      (default 7)
#
# Output is also saved in target/bench/results/.
set -euo pipefail

cd "$(dirname "$0")/.."
# shellcheck source=scripts/lib.sh
source scripts/lib.sh

rounds=${1:-7}
if ! [[ $rounds =~ ^[0-9]+$ ]] || ((rounds < 1)); then
    echo "usage: $0 [ROUNDS]" >&2
    exit 2
fi

bench_build
contenders=$(bench_contenders)
mkdir -p "$BENCH_DIR/results"
out="$BENCH_DIR/results/startup-$(date -u +%Y%m%d-%H%M%S).md"

run=("$BENCH_HARNESS" startup --contender "$contenders" --rounds "$rounds"
    --tilework "$BENCH_TILEWORK" --tmux "$BENCH_TMUX" --table)
{
    bench_header "Start-up to a visible prompt, $rounds interleaved rounds" \
        "scripts/bench-startup.sh $rounds  (runs: ${run[*]})"
    "${run[@]}"
    bench_footer
} | tee "$out"
printf "\n(saved in %s)\n" "$out"
