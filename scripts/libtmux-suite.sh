#!/usr/bin/env bash
# libtmux's own test suite (from its sdist) against real tmux and against
# tilework's `tmux` (issue 42): prints both pass counts and the ratio, and
# exits 1 when tilework passes fewer than 80 % of the tests tmux passes.
#
#   scripts/libtmux-suite.sh [--tilework-only] [PYTEST ARGS...]
#
# Needs: python3 with pytest, gp-libs, pytest-mock (pinned below), tmux
# (the reference), and a built tilework (target/debug, or $TILEWORK).
# Writes the run's logs and the failing tests to $OUT (default
# target/libtmux-suite/).
set -euo pipefail
cd "$(dirname "$0")/.."
LIBTMUX_VERSION=0.62.0
OUT=${OUT:-$PWD/target/libtmux-suite}
TILEWORK=${TILEWORK:-$PWD/target/debug/tilework}
# The runs unset $TILEWORK (a pane's variable of that name would steer
# tilework's own commands): the binary is kept under another name.
tilework_bin=$TILEWORK
mkdir -p "$OUT"
only_tilework=0
if [ "${1:-}" = "--tilework-only" ]; then only_tilework=1; shift; fi

src="$OUT/libtmux-$LIBTMUX_VERSION"
if [ ! -d "$src" ]; then
    (cd "$OUT" && pip download -q --no-binary :all: --no-deps "libtmux==$LIBTMUX_VERSION" \
        && tar xzf "libtmux-$LIBTMUX_VERSION.tar.gz")
    # Its .python-version names a Python this machine may not have.
    rm -f "$src/.python-version"
fi

run() { # NAME PATH-PREFIX
    local name=$1 prefix=$2
    shift 2
    local log="$OUT/$name.log"
    (
        cd "$src"
        export PATH="$prefix$PATH"
        # Each run its own sockets and state: nothing of the user's.
        local home; home=$(mktemp -d)
        export XDG_RUNTIME_DIR="$home/run" XDG_STATE_HOME="$home/state" XDG_CONFIG_HOME="$home/config" TMUX_TMPDIR="$home/tmux"
        mkdir -p "$XDG_RUNTIME_DIR" "$TMUX_TMPDIR"; chmod 700 "$XDG_RUNTIME_DIR"
        unset TMUX TMUX_PANE TILEWORK
        COLUMNS=250 timeout 1500 python3 -m pytest -o addopts="" -p no:cacheprovider -q -rA \
            --timeout=60 tests "$@" > "$log" 2>&1 || true
        # What the suite left running (a server a test started and never
        # killed, as the reap probe's): ended before its directory goes,
        # else it would run on with no socket anyone can reach.
        for sock in "$XDG_RUNTIME_DIR"/tilework/*; do
            if [ -S "$sock" ]; then "$tilework_bin" kill "$(basename "$sock")" > /dev/null 2>&1 || true; fi
        done
        for sock in "$TMUX_TMPDIR"/tmux-*/*; do
            if [ -S "$sock" ]; then tmux -S "$sock" kill-server > /dev/null 2>&1 || true; fi
        done
        rm -rf "$home"
    )
    grep -c '^PASSED' "$log" || true
}

bin="$OUT/bin"
mkdir -p "$bin"
ln -sf "$tilework_bin" "$bin/tmux"

if [ $only_tilework -eq 0 ]; then
    tmux_passed=$(run tmux "" "$@")
else
    tmux_passed=$(grep -c '^PASSED' "$OUT/tmux.log" || echo 0)
fi
tile_passed=$(run tilework "$bin:" "$@")
grep '^PASSED' "$OUT/tmux.log" | sort > "$OUT/tmux.passed" || true
grep '^PASSED' "$OUT/tilework.log" | sort > "$OUT/tilework.passed" || true
comm -23 "$OUT/tmux.passed" "$OUT/tilework.passed" | sed 's/^PASSED //' > "$OUT/missing.txt"
echo "libtmux $LIBTMUX_VERSION tests passed: tmux $(tmux -V | cut -d' ' -f2): $tmux_passed, tilework: $tile_passed"
echo "failing under tilework (passing under tmux): $(wc -l < "$OUT/missing.txt") (list: $OUT/missing.txt)"
python3 - "$tmux_passed" "$tile_passed" <<'PY'
import sys
t, w = int(sys.argv[1]), int(sys.argv[2])
ratio = w / t if t else 0
print(f"ratio: {ratio:.1%} (target 80%)")
sys.exit(0 if ratio >= 0.8 else 1)
PY
