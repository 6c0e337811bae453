#!/usr/bin/env bash
# What a `tmux` command from inside a pane costs, against a
# `tilework list-panes` call (issue 42: at most 2x). Both run as a pane's
# program would (its $TMUX, $TMUX_PANE, $TILEWORK), against one detached
# workspace in a runtime directory of their own, interleaved in rounds.
#
#   scripts/tmux-cost.sh [BINARY] [ROUNDS] [CALLS-PER-ROUND]
#
# BINARY defaults to target/release/tilework (cargo build --release).
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=$(realpath "${1:-target/release/tilework}")
ROUNDS=${2:-5}
CALLS=${3:-100}
home=$(mktemp -d)
trap 'XDG_RUNTIME_DIR=$home/run "$BIN" tmux kill-server >/dev/null 2>&1 || true; rm -rf "$home"' EXIT
export XDG_RUNTIME_DIR=$home/run XDG_STATE_HOME=$home/state XDG_CONFIG_HOME=$home/config
mkdir -p "$XDG_RUNTIME_DIR"; chmod 700 "$XDG_RUNTIME_DIR"
unset TMUX TMUX_PANE TILEWORK
"$BIN" tmux new-session -d -s cost -x 120 -y 40
"$BIN" tmux split-window -t cost -h
# What the pane's own programs see.
eval "$("$BIN" tmux display-message -p -t cost 'export TMUX_PANE=#{pane_id}')"
socket=$XDG_RUNTIME_DIR/tilework/cost
pid=$("$BIN" ls | awk '$1 == "cost" {print $NF}')
export TMUX="$socket,$pid,1" TILEWORK=$pid
ln -sf "$BIN" "$home/tmux"

per_call() { # COMMAND...: milliseconds per call over $CALLS calls
    local start end
    start=$(date +%s%N)
    for ((i = 0; i < CALLS; i++)); do "$@" > /dev/null; done
    end=$(date +%s%N)
    echo $(( (end - start) / CALLS / 1000 ))
}

echo "binary: $BIN; $ROUNDS rounds of $CALLS calls each; microseconds per call"
printf '%-6s %12s %14s %14s %8s %8s\n' round list-panes "tmux display" "tmux lsp -F" ratio1 ratio2
for ((r = 1; r <= ROUNDS; r++)); do
    lp=$(per_call "$BIN" list-panes)
    dm=$(per_call "$home/tmux" display-message -p '#{pane_id} #{pane_current_command}')
    ls=$(per_call "$home/tmux" list-panes -F '#{pane_id} #{pane_width}x#{pane_height} #{pane_current_path}')
    printf '%-6s %12s %14s %14s %8s %8s\n' "$r" "$lp" "$dm" "$ls" \
        "$(awk "BEGIN{printf \"%.2f\", $dm/$lp}")" "$(awk "BEGIN{printf \"%.2f\", $ls/$lp}")"
done
