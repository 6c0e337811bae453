#!/usr/bin/env bash
# Shared by scripts/bench-*.sh: build, locate tools, print the report header.
# Source it after `cd`-ing to the repository root.
#
# Environment:
#   BENCH_NO_BUILD=1   use the binaries already in target/bench/bin
#   TMUX_BIN=PATH      the tmux to compare with (default: tmux on PATH)

# Where the benchmark keeps its binaries, input file and results.
BENCH_DIR=target/bench
BENCH_BIN="$BENCH_DIR/bin"
BENCH_TILEWORK="$PWD/$BENCH_BIN/tilework"
BENCH_HARNESS="$PWD/$BENCH_BIN/bench-harness"
BENCH_TMUX=${TMUX_BIN:-tmux}
export BENCH_DIR BENCH_BIN BENCH_TILEWORK BENCH_HARNESS BENCH_TMUX

# Builds tilework and the harness in release and copies them aside, so a
# rebuild in target/release during a long run cannot swap the binary under us.
bench_build() {
    if [[ ${BENCH_NO_BUILD:-0} != 1 ]]; then
        echo "building tilework and the harness (release)…" >&2
        # Two builds, not one: built beside an example, the binary's
        # dependencies get the dev-dependencies' features too, so their
        # symbols get other hashes and the linker's hot-function order
        # (build.rs) no longer applies. Alone it is `cargo run --release`'s.
        if ! cargo build --release --quiet --bin tilework >&2 ||
            ! cargo build --release --quiet --example bench-harness >&2; then
            echo "build failed; BENCH_NO_BUILD=1 reuses the binaries in $BENCH_BIN" >&2
            exit 1
        fi
        mkdir -p "$BENCH_BIN"
        cp -f target/release/tilework "$BENCH_TILEWORK.new"
        cp -f target/release/examples/bench-harness "$BENCH_HARNESS.new"
        mv -f "$BENCH_TILEWORK.new" "$BENCH_TILEWORK"
        mv -f "$BENCH_HARNESS.new" "$BENCH_HARNESS"
    fi
    if [[ ! -x $BENCH_TILEWORK || ! -x $BENCH_HARNESS ]]; then
        echo "missing $BENCH_TILEWORK or $BENCH_HARNESS: run without BENCH_NO_BUILD=1" >&2
        exit 1
    fi
}

# Whether tmux is there; says how to get it when it is not.
bench_have_tmux() {
    if command -v "$BENCH_TMUX" >/dev/null 2>&1 && "$BENCH_TMUX" -V >/dev/null 2>&1; then
        return 0
    fi
    cat >&2 <<EOF
tmux not found ('$BENCH_TMUX'): the tmux column is skipped. Install it with
  Debian/Ubuntu: sudo apt-get install tmux
  Fedora:        sudo dnf install tmux
  Arch:          sudo pacman -S tmux
  macOS:         brew install tmux
or point TMUX_BIN at a tmux binary.
EOF
    return 1
}

# "bare,tilework,tmux", without tmux when it is missing.
bench_contenders() {
    if bench_have_tmux; then
        echo "bare,tilework,tmux"
    else
        echo "bare,tilework"
    fi
}

bench_load() {
    # "load average: 0.61, 0.82, 0.49" → "0.61, 0.82, 0.49"
    uptime | sed 's/.*load average: //'
}

# The report header: what ran, where, when.
bench_header() {
    local title=$1
    shift
    local tmux_version="(not installed)"
    if command -v "$BENCH_TMUX" >/dev/null 2>&1; then
        tmux_version=$("$BENCH_TMUX" -V 2>/dev/null || echo "(broken)")
    fi
    local cpu
    cpu=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo 2>/dev/null | head -n 1)
    echo "## $title"
    echo
    echo "- date: $(date -u '+%Y-%m-%d %H:%M:%S UTC')"
    echo "- machine: $(nproc) CPUs${cpu:+ ($cpu)}, Linux $(uname -r)"
    echo "- load average (1, 5, 15 min) before: $(bench_load)"
    echo "- tilework: $("$BENCH_TILEWORK" --version 2>/dev/null || echo '?'); $tmux_version"
    echo "- command: $*"
    echo
}

bench_footer() {
    echo
    echo "- load average (1, 5, 15 min) after: $(bench_load)"
}
