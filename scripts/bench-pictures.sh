#!/usr/bin/env bash
# Key echo beside a pane that shows a 1 MB sixel picture every second
# (issue 34's cost line: echo within 2x of idle). The picture is random
# noise, 500x460 pixels (50x23 cells at the assumed 10x20), made by
# img2sixel: the worst case for the decoder and the encoder (no runs).
# The harness answers DA1 with sixel, so tilework decodes each picture,
# anchors it, encodes it again and draws it to the harness every second.
# Idle and picture runs alternate, ROUNDS times each.
#
#   scripts/bench-pictures.sh [KEYS] [ROUNDS]   (default 100 keys, 3 rounds)
#
# Needs img2sixel (Debian: libsixel-bin).
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
command -v img2sixel >/dev/null || { echo "needs img2sixel (libsixel-bin)" >&2; exit 1; }

bench_build
mkdir -p "$BENCH_DIR"
picture="$BENCH_DIR/noise-500x460.six"
if [[ ! -s $picture ]]; then
    ppm="$BENCH_DIR/noise-500x460.ppm"
    { printf 'P6\n500 460\n255\n'; head -c $((500 * 460 * 3)) /dev/urandom; } >"$ppm"
    img2sixel "$ppm" >"$picture"
fi
echo "picture: $(stat -c %s "$picture") bytes, written once a second" >&2

common=(latency --contender tilework --tilework "$BENCH_TILEWORK" --keys "$keys" --rounds 1)
for ((i = 1; i <= rounds; i++)); do
    echo "idle:    $("$BENCH_HARNESS" "${common[@]}" | tail -1)"
    echo "picture: $("$BENCH_HARNESS" "${common[@]}" --flood --file "$picture" --flood-every-ms 1000 | tail -1)"
done
