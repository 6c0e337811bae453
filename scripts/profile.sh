#!/usr/bin/env bash
# Records a CPU profile of tilework running a workspace profile.
#
#   scripts/profile.sh [PROFILE] [SECONDS]     (defaults: flood 10)
#
# Builds with `--profile profiling` (release + debug info), runs tilework
# inside a detached tmux session (so it has a real terminal) with
# `--exit-after SECONDS`, and records it with samply, writing
# target/samply/PROFILE-DATE.json.gz (open it with `samply load FILE`).
#
# Without samply, it asks before `cargo install samply` (which compiles for
# several minutes). When the answer is no, or there is no terminal to ask
# on, it records with the installed `perf` instead, writing
# target/samply/PROFILE-DATE.perf.data (open it with `perf report -i FILE`).

# Reads y/n from the terminal on stdin; no terminal counts as no, so a script
# or CI never starts a long install by itself.
ask() {
    local answer
    [ -t 0 ] || return 1
    read -r -p "$1 [y/N] " answer || return 1
    [[ $answer == [yY]* ]]
}

# Prints the recorder to use, samply or perf, installing samply if the user
# agrees; fails when there is neither.
choose_profiler() {
    if command -v samply >/dev/null 2>&1; then
        echo samply
        return 0
    fi
    if ask "samply is not installed. Install it now with 'cargo install --locked samply' (compiles for several minutes)?" >&2; then
        cargo install --locked samply >&2 || return 1
        echo samply
        return 0
    fi
    if command -v perf >/dev/null 2>&1; then
        echo "samply not installed: recording with perf instead." >&2
        echo perf
        return 0
    fi
    cat >&2 <<MSG
Neither samply nor perf is installed. Install one of them:
    cargo install --locked samply
    apt-get install -y linux-perf      (Debian; Ubuntu: linux-tools-generic)
MSG
    return 1
}

main() {
    set -euo pipefail
    cd "$(dirname "${BASH_SOURCE[0]}")/.."

    profile="${1:-flood}"
    seconds="${2:-10}"
    out_dir="target/samply"
    stamp="$(date +%Y%m%d-%H%M%S)"
    mkdir -p "$out_dir"

    if ! command -v tmux >/dev/null 2>&1; then
        echo "tmux is needed to give tilework a terminal: apt-get install -y tmux" >&2
        exit 1
    fi
    recorder="$(choose_profiler)"
    if [ "$recorder" = samply ]; then
        out="$out_dir/$profile-$stamp.json.gz"
    else
        out="$out_dir/$profile-$stamp.perf.data"
    fi
    if [ "$profile" = "flood" ] && [ ! -r target/bench/bigfile.txt ]; then
        scripts/gen-bigfile.sh target/bench/bigfile.txt
    fi

    paranoid="$(cat /proc/sys/kernel/perf_event_paranoid 2>/dev/null || echo 2)"
    if [ "$paranoid" -gt 1 ]; then
        cat >&2 <<MSG
The kernel forbids perf events for unprivileged users (perf_event_paranoid=$paranoid).
Allow them with:
    echo 1 | sudo tee /proc/sys/kernel/perf_event_paranoid
MSG
        if [ "$(id -u)" -ne 0 ]; then exit 1; fi
        echo "Running as root: continuing." >&2
    fi

    cargo build --profile profiling --bin tilework
    bin="$PWD/target/profiling/tilework"

    session="tilework-profile-$$"
    done_file="$(mktemp)"
    rm -f "$done_file"
    export -f record
    export out out_dir bin profile seconds recorder
    # Only stderr goes to the log: tilework draws on stdout, the pane's terminal.
    tmux new-session -d -s "$session" -x 160 -y 50 \
        "bash -c 'record 2> $out_dir/record.log; echo \$? > $done_file'"
    echo "Recording $profile for ${seconds}s with $recorder in tmux session $session..." >&2
    while [ ! -s "$done_file" ]; do sleep 1; done
    status="$(cat "$done_file")"
    rm -f "$done_file"
    tmux kill-session -t "$session" 2>/dev/null || true
    if [ "$status" -ne 0 ] || [ ! -s "$out" ]; then
        echo "recording failed (status $status); see $out_dir/record.log" >&2
        cat "$out_dir/record.log" >&2 || true
        exit 1
    fi
    echo "Profile written to $out"
    if [ "$recorder" = samply ]; then
        echo "Open it with:  samply load $out"
    else
        echo "Open it with:  perf report -i $out"
    fi
}

# Runs inside the tmux session, with the variables main exports.
record() {
    if [ "$recorder" = perf ]; then
        perf record -F 999 --call-graph dwarf -o "$out" -- \
            "$bin" --profile "$profile" --exit-after "$seconds"
        return
    fi
    # samply may fail on VMs without a hardware PMU; perf + import is the fallback.
    if samply record --save-only -o "$out" -- "$bin" --profile "$profile" --exit-after "$seconds"; then
        return 0
    fi
    echo "samply record failed; trying perf record + samply import" >&2
    perf record -F 999 --call-graph dwarf -o "$out_dir/perf.data" -- \
        "$bin" --profile "$profile" --exit-after "$seconds" &&
        samply import "$out_dir/perf.data" --save-only -o "$out"
}

# Sourced (by tests), it only defines the functions above.
if [[ ${BASH_SOURCE[0]} == "$0" ]]; then
    main "$@"
fi
