#!/usr/bin/env bash
# What OSC 133 marks cost a flood (issue 43), in instructions: runs
# examples/marks-cost.rs (40 MB of log lines fed to a pane, a prompt's marks
# every 20 lines, or the same bytes with an OSC tilework ignores) under
# cachegrind, both ways, and prints the instructions of each and their
# ratio. Instruction counts do not depend on the machine's load; the
# wall-clock figure beside it: scripts/marks-cost.py.
#
#   scripts/marks-cost-instructions.sh [MB] [release|dev]   (default 40, release)
set -euo pipefail
cd "$(dirname "$0")/.."
mb=${1:-40}
profile=${2:-release}
cargo build --profile "$profile" --example marks-cost
dir=$([[ $profile == dev ]] && echo debug || echo "$profile")
bin=target/$dir/examples/marks-cost
out=$(mktemp -d)
count() {
    valgrind --tool=cachegrind --cache-sim=no --cachegrind-out-file="$out/$1.out" \
        "$bin" "--$1" --mb "$mb" >/dev/null 2>"$out/$1.log"
    grep -o 'I *refs: *[0-9,]*' "$out/$1.log" | tr -dc '0-9'
}
marks=$(count marks)
plain=$(count plain)
echo "instructions: marks $marks, plain (OSC 999) $plain"
python3 -c "print(f'marks / plain: {$marks / $plain:.4f}x')"
rm -rf "$out"
