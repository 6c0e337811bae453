#!/usr/bin/env bash
# Issue 10's REP flood through the real binaries: `x ESC[65535b` 20,000
# times (175 KiB; each REP asks for 65,535 copies of the `x`).
#
# 1. `flood`: `cat` of the file in a 104x59 pane, timed inside the pane
#    (plus the tail: how long the multiplexer kept drawing after `cat`
#    ended), tilework vs tmux vs a bare PTY, RUNS runs each.
# 2. `latency --flood`: key echo latency in one pane while the pane beside
#    it writes the file over and over, KEYS keys.
#
#   scripts/bench-rep.sh [RUNS] [KEYS]      (default 3 and 200)
#
# Set BENCH_TILEWORK_BEFORE=PATH to add a row for another tilework binary
# (e.g. one built before rep_bound.rs) to both tables' runs: it is run as a
# second `tilework` contender after the first.
# Output is also saved in target/bench/results/.
set -euo pipefail

cd "$(dirname "$0")/.."
# shellcheck source=scripts/lib.sh
source scripts/lib.sh

runs=${1:-3}
keys=${2:-200}
if ! [[ $runs =~ ^[0-9]+$ && $keys =~ ^[0-9]+$ ]] || ((runs < 1 || keys < 1)); then
    echo "usage: $0 [RUNS] [KEYS]" >&2
    exit 2
fi

bench_build
mkdir -p "$BENCH_DIR/results"
file="$BENCH_DIR/rep-flood.bin"
# 20,000 times `x ESC[65535b` (printf reuses its format for each argument;
# not `yes | head`, whose SIGPIPE would fail the pipeline under pipefail).
# shellcheck disable=SC2046 # one argument per repeat
printf 'x\033[65535b%.0s' $(seq 20000) >"$file.tmp"
mv -f "$file.tmp" "$file"
contenders=$(bench_contenders)
out="$BENCH_DIR/results/rep-$(date -u +%Y%m%d-%H%M%S).md"

flood() { # TILEWORK CONTENDERS
    "$BENCH_HARNESS" flood --file "$file" --runs "$runs" --contender "$2" \
        --tilework "$1" --tmux "$BENCH_TMUX" --table
}
latency() { # TILEWORK CONTENDERS
    "$BENCH_HARNESS" latency --keys "$keys" --contender "$2" --flood --file "$file" \
        --tilework "$1" --tmux "$BENCH_TMUX" --table
}
{
    bench_header "REP flood: x ESC[65535b x 20,000 ($(stat -c %s "$file") bytes)" \
        "scripts/bench-rep.sh $runs $keys"
    echo "### cat of the file in a 104x59 pane"
    echo
    flood "$BENCH_TILEWORK" "$contenders"
    if [[ -n ${BENCH_TILEWORK_BEFORE:-} ]]; then
        echo
        echo "tilework before ($BENCH_TILEWORK_BEFORE):"
        echo
        flood "$BENCH_TILEWORK_BEFORE" tilework
    fi
    echo
    echo "### Key echo while the pane beside writes the file over and over"
    echo
    latency "$BENCH_TILEWORK" "${contenders#bare,}"
    if [[ -n ${BENCH_TILEWORK_BEFORE:-} ]]; then
        echo
        echo "tilework before ($BENCH_TILEWORK_BEFORE):"
        echo
        latency "$BENCH_TILEWORK_BEFORE" tilework
    fi
    bench_footer
} | tee "$out"
printf "\n(saved in %s)\n" "$out"
