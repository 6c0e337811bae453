#!/usr/bin/env bash
# Generates the flood benchmark's input: log-like lines, deterministic (the
# same bytes on every run and machine), ~60 bytes a line on average, every
# 37th line wider than 104 columns (so the pane has to wrap).
#
#   scripts/gen-bigfile.sh [OUT] [LINES]
#
# Defaults: target/bench/bigfile.txt, 2000000 lines (~124 MB); a relative
# OUT is relative to the repository root. Prints the path. Skips the work
# when OUT already holds exactly what would be written (checked through a
# small OUT.meta written next to it). Takes ~6 s with mawk.
set -euo pipefail

cd "$(dirname "$0")/.."

out=${1:-target/bench/bigfile.txt}
lines=${2:-2000000}

if ! [[ $lines =~ ^[0-9]+$ ]] || ((lines < 1)); then
    echo "gen-bigfile: LINES must be a positive integer, got '$lines'" >&2
    exit 2
fi

# Bump when the generator below changes, so old files are regenerated.
format=1
meta="$out.meta"

size_of() {
    stat -c %s "$1" 2>/dev/null || echo 0
}

if [[ -f $out && -f $meta ]]; then
    read -r m_format m_lines m_bytes <"$meta" || true
    if [[ ${m_format:-} == "$format" && ${m_lines:-} == "$lines" && ${m_bytes:-} == "$(size_of "$out")" ]]; then
        echo "$out"
        exit 0
    fi
fi

mkdir -p "$(dirname "$out")"
tmp="$out.tmp.$$"
trap 'rm -f "$tmp"' EXIT

# Park-Miller LCG (x * 16807 mod 2^31-1): products stay below 2^53, so any
# awk (mawk, gawk, busybox) computes exactly the same sequence.
LC_ALL=C awk -v n="$lines" '
function rnd(m) { seed = (seed * 16807) % 2147483647; return seed % m }
BEGIN {
    seed = 20240601
    nl = split("INFO INFO INFO INFO DEBUG DEBUG WARN ERROR TRACE", lvl, " ")
    nc = split("http db cache auth sched worker gc net fs rpc", comp, " ")
    nw = split("request served user session token query rows cache miss hit " \
               "retry timeout connect closed opened flush write read sync " \
               "commit rollback queue job done start stop ok failed slow " \
               "backend frontend upstream shard lease heartbeat", word, " ")
    t = 8 * 3600 * 1000
    for (i = 1; i <= n; i++) {
        t += rnd(97)
        s = int(t / 1000)
        line = sprintf("%02d:%02d:%02d.%03d %-5s %s:", int(s / 3600) % 24, int(s / 60) % 60, \
                       s % 60, t % 1000, lvl[1 + rnd(nl)], comp[1 + rnd(nc)])
        k = 2 + rnd(4)
        for (j = 0; j < k; j++) line = line " " word[1 + rnd(nw)]
        line = line " id=" rnd(100000)
        if (i % 37 == 0) {
            # A long line: key=value pairs until well past 104 columns.
            while (length(line) < 110 + rnd(60))
                line = line " " word[1 + rnd(nw)] "=" rnd(1000000)
        } else if (rnd(3) == 0) {
            line = line " took=" rnd(2000) "ms"
        }
        print line
    }
}' >"$tmp"

mv "$tmp" "$out"
trap - EXIT
echo "$format $lines $(size_of "$out")" >"$meta"
echo "$out"
