#!/usr/bin/env bash
# The seed benchmark side by side: `cat` of a 2,000,000-line (~120 MB) file
# in a 104x59 pane of tilework, of tmux (-f /dev/null-like: only
# `status off`) and on a bare PTY, interleaved (bare, tilework, tmux, bare,
# …), RUNS runs each. The outer terminal is the harness
# (examples/bench-harness.rs), draining its PTY as fast as it can; the time
# is taken inside the pane (`date` before and after `cat`).
#
#   scripts/bench-flood.sh [RUNS]        (default 5)
#
# Prints one JSON line per run, then a Markdown table: median/min/max
# seconds, the ratio of medians to bare and to tmux, the multiplexer's own
# CPU seconds (utime+stime of tilework / the tmux server, `cat` excluded)
# and its peak RSS (VmHWM, in MiB), plus the tail: how long after `cat`
# ended the last byte reached the outer terminal (what was still queued in
# the multiplexer). Output is also saved in target/bench/results/.
set -euo pipefail

cd "$(dirname "$0")/.."
# shellcheck source=scripts/lib.sh
source scripts/lib.sh

runs=${1:-5}
if ! [[ $runs =~ ^[0-9]+$ ]] || ((runs < 1)); then
    echo "usage: $0 [RUNS]" >&2
    exit 2
fi

bench_build
file=$(scripts/gen-bigfile.sh)
contenders=$(bench_contenders)
mkdir -p "$BENCH_DIR/results"
out="$BENCH_DIR/results/flood-$(date -u +%Y%m%d-%H%M%S).md"

cmd=("$BENCH_HARNESS" flood --file "$file" --runs "$runs" --contender "$contenders"
    --tilework "$BENCH_TILEWORK" --tmux "$BENCH_TMUX" --table)
{
    bench_header "Flood: cat $(wc -l <"$file") lines ($(($(stat -c %s "$file") / 1000000)) MB) in a 104x59 pane" \
        "scripts/bench-flood.sh $runs  (runs: ${cmd[*]})"
    "${cmd[@]}"
    bench_footer
} | tee "$out"
printf "\n(saved in %s)\n" "$out"
