#!/bin/sh
# replay.sh - `make check`'s corpus stage: every tests/fuzz/corpus/<t>/
# through $BUILD/tests/fuzz/replay-<t> (the target with a plain main(),
# built with the tree's compiler and flags, sanitizers included under
# `make asan`).  One line per target: "ok <t>: N inputs" or "FAIL <t>: ...".
# Runs in a scratch directory with HOME and XDG_* there (the TUI target
# may save files where its prompts point).  REPLAY_RUNNER is put before
# each driver, and REPLAY_LIMIT=n replays the seed-* and regress-* inputs
# plus only n of the ones fuzzing found (`make valgrind` sets both).
set -u
RUNNER=${REPLAY_RUNNER:-}
LIMIT=${REPLAY_LIMIT:-}
BUILD=${BUILD:-build/debug}
root=$(pwd)
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
for src in tests/fuzz/fuzz_*.c; do
    [ -f "$src" ] || continue
    t=$(basename "$src" .c)
    t=${t#fuzz_}
    bin="$root/$BUILD/tests/fuzz/replay-$t"
    dir="$root/tests/fuzz/corpus/$t"
    if [ ! -x "$bin" ]; then
        echo "FAIL $t: $bin is not built (make check builds it)"
        continue
    fi
    if [ ! -d "$dir" ] || [ -z "$(ls -A "$dir" 2>/dev/null)" ]; then
        echo "FAIL $t: no seed corpus in tests/fuzz/corpus/$t/"
        continue
    fi
    mkdir -p "$scratch/$t"
    if [ -n "$LIMIT" ]; then
        # names without blanks: seed-*, regress-* and libFuzzer's hashes
        inputs=$( (ls "$dir" | grep -E '^(seed|regress)-';
                   ls "$dir" | grep -vE '^(seed|regress)-' | head -n "$LIMIT") |
                  sed "s|^|$dir/|")
    else
        inputs=$dir
    fi
    # shellcheck disable=SC2086
    out=$(cd "$scratch/$t" && HOME="$scratch/$t" XDG_DATA_HOME="$scratch/$t" \
        XDG_CONFIG_HOME="$scratch/$t" LLMPLAN_CATALOG= REPLAY_VERBOSE=1 \
        timeout 600 $RUNNER "$bin" $inputs 2>"$scratch/$t.err")
    rc=$?
    if [ $rc -eq 0 ]; then
        echo "ok $t: $out"
    else
        echo "FAIL $t: exit $rc; last input and error:"
        grep -v '^input: ' "$scratch/$t.err" | tail -n 20
        grep '^input: ' "$scratch/$t.err" | tail -n 1
    fi
done
