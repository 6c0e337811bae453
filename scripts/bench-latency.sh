#!/usr/bin/env bash
# Keystroke-to-echo latency: the harness (the outer terminal) writes a key
# to its PTY and times until the echoed glyph comes back out, KEYS times
# with a random 10-20 ms pause; bare PTY vs tilework vs tmux. The key is
# echoed by a program in the pane (raw tty, `bench-harness echo-probe`), so
# it must be scheduled to answer, as an editor or a shell's line editor is:
# the harder case, and muxbench's. (`--echo kernel` on the harness measures
# the kernel's own echo instead: only the multiplexer's path.) Then again
# while a second pane, side by side with the (focused) echo pane, floods
# continuously — with the MB/s that flood pane itself managed to write, so a
# multiplexer cannot win latency by starving it.
#
# Contenders are interleaved round by round (A B C A B C …, ROUNDS rounds
# of KEYS keys each) so drift on a shared machine hits all of them alike,
# and each row gives its p50 and p99 as a ratio of tmux's from the same run.
#
#   scripts/bench-latency.sh [KEYS] [ROUNDS]      (default 100 keys, 3 rounds)
#
# Output is also saved in target/bench/results/.
set -euo pipefail

cd "$(dirname "$0")/.."
# shellcheck source=scripts/lib.sh
source scripts/lib.sh

keys=${1:-100}
rounds=${2:-3}
if ! [[ $keys =~ ^[0-9]+$ && $rounds =~ ^[0-9]+$ ]] || ((keys < 1 || rounds < 1)); then
    echo "usage: $0 [KEYS] [ROUNDS]" >&2
    exit 2
fi

bench_build
file=$(scripts/gen-bigfile.sh)
contenders=$(bench_contenders)
mkdir -p "$BENCH_DIR/results"
out="$BENCH_DIR/results/latency-$(date -u +%Y%m%d-%H%M%S).md"

common=(--keys "$keys" --rounds "$rounds" --tilework "$BENCH_TILEWORK" --tmux "$BENCH_TMUX" --table)
idle=("$BENCH_HARNESS" latency --contender "$contenders" "${common[@]}")
# A bare PTY holds one program: there is no second pane to flood.
flood=("$BENCH_HARNESS" latency --contender "${contenders#bare,}" "${common[@]}" --flood --file "$file")
{
    bench_header "Key echo latency, $rounds interleaved rounds of $keys keys" \
        "scripts/bench-latency.sh $keys $rounds  (runs: ${idle[*]}; then ${flood[*]})"
    echo "### Idle (one pane: a program echoing each key on a raw tty)"
    echo
    "${idle[@]}"
    echo
    echo "### While a second pane floods (while :; do cat $(basename "$file"); done)"
    echo
    "${flood[@]}"
    bench_footer
} | tee "$out"
printf "\n(saved in %s)\n" "$out"
