#!/usr/bin/env bash
# Many panes: 32 panes each running `yes` and one quiet pane whose program
# echoes each key, all in an even grid (tmux: `select-layout tiled`);
# keystroke-to-echo latency in the quiet pane, the multiplexer's CPU and
# its peak memory (server plus client). Contenders are interleaved round by
# round; each row gives its p50 and p99 as a ratio of tmux's.
#
#   scripts/bench-many-panes.sh [KEYS] [ROUNDS] [PANES]   (default 60 keys, 2 rounds, 32 panes)
#
# Output is also saved in target/bench/results/.
set -euo pipefail

cd "$(dirname "$0")/.."
# shellcheck source=scripts/lib.sh
source scripts/lib.sh

keys=${1:-60}
rounds=${2:-2}
panes=${3:-32}
for n in "$keys" "$rounds" "$panes"; do
    if ! [[ $n =~ ^[0-9]+$ ]] || ((n < 1)); then
        echo "usage: $0 [KEYS] [ROUNDS] [PANES]" >&2
        exit 2
    fi
done

bench_build
contenders=$(bench_contenders)
mkdir -p "$BENCH_DIR/results"
out="$BENCH_DIR/results/many-panes-$(date -u +%Y%m%d-%H%M%S).md"

# A bare PTY holds one program: it has no panes to fill.
run=("$BENCH_HARNESS" latency --contender "${contenders#bare,}" --keys "$keys"
    --rounds "$rounds" --yes-panes "$panes" --tilework "$BENCH_TILEWORK"
    --tmux "$BENCH_TMUX" --table)
{
    bench_header "Key echo beside $panes panes of yes, $rounds interleaved rounds of $keys keys" \
        "scripts/bench-many-panes.sh $keys $rounds $panes  (runs: ${run[*]})"
    "${run[@]}"
    bench_footer
} | tee "$out"
printf "\n(saved in %s)\n" "$out"
