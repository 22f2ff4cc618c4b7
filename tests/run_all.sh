#!/bin/sh
# run_all.sh - every test stage of `make check`, then one closing line
# "N passed, N failed" (CI reads it; Check's own "Checks: N, Failures: N,
# Errors: N" lines are printed above it).
#
#   BUILD=build/debug [ONLY=unit|golden|shell|corpus] [GOLDEN_UPDATE=1] sh tests/run_all.sh
#
# Stages:
#   unit    Check runners $BUILD/tests/unit-core and unit-app
#   golden  tests/golden/cli/<name>.args -> .out/.err/.rc (tests/golden/run.sh)
#   shell   tests/shell/test_*.sh: each prints "ok <what>" / "FAIL <what>"
#   corpus  fuzz corpora replayed through the plain driver (tests/fuzz/replay.sh)
#
# A stage's lines are "ok WHAT", "FAIL WHAT" or "SKIP WHAT: WHY" (a check
# that could not run, counted apart so it never reads as a pass).  A runner
# or script a stage needs that is missing is a failure, not a silent pass.
set -u
BUILD=${BUILD:-build/debug}
ONLY=${ONLY:-}
export BUILD
passed=0
failed=0
skipped=0
log=$(mktemp)
trap 'rm -f "$log"' EXIT

want() { [ -z "$ONLY" ] || [ "$ONLY" = "$1" ]; }

# count_lines FILE: add the ok/FAIL lines of a stage's output to the totals.
count_lines() {
    p=$(grep -c '^ok ' "$1" || true)
    f=$(grep -c '^FAIL' "$1" || true)
    s=$(grep -c '^SKIP' "$1" || true)
    passed=$((passed + p))
    failed=$((failed + f))
    skipped=$((skipped + s))
}

# missing WHAT: a stage's runner or script is not there.
missing() {
    echo "FAIL $1 is missing"
    failed=$((failed + 1))
}

if want unit; then
    for runner in "$BUILD/tests/unit-core" "$BUILD/tests/unit-app"; do
        if [ ! -x "$runner" ]; then missing "$runner"; continue; fi
        "$runner" >"$log" 2>&1
        rc=$?
        cat "$log"
        line=$(grep -E '^[0-9]+%: Checks: [0-9]+' "$log" | tail -n 1)
        if [ -n "$line" ]; then
            n=$(echo "$line" | sed 's/.*Checks: \([0-9]*\).*/\1/')
            fl=$(echo "$line" | sed 's/.*Failures: \([0-9]*\).*/\1/')
            er=$(echo "$line" | sed 's/.*Errors: \([0-9]*\).*/\1/')
            passed=$((passed + n - fl - er))
            failed=$((failed + fl + er))
        else
            echo "FAIL $runner printed no Check summary (exit $rc)"
            failed=$((failed + 1))
        fi
    done
fi

if want golden && [ ! -f tests/golden/run.sh ]; then
    missing tests/golden/run.sh
elif want golden; then
    sh tests/golden/run.sh >"$log" 2>&1
    cat "$log"
    count_lines "$log"
fi

if want shell; then
    n=0
    for t in tests/shell/test_*.sh; do
        [ -f "$t" ] || continue
        n=$((n + 1))
        sh "$t" >"$log" 2>&1
        rc=$?
        cat "$log"
        count_lines "$log"
        if [ $rc -ne 0 ] && ! grep -q '^FAIL' "$log"; then
            echo "FAIL $t exited $rc"
            failed=$((failed + 1))
        fi
    done
    [ "$n" -gt 0 ] || missing "tests/shell/test_*.sh"
fi

if want corpus && [ ! -f tests/fuzz/replay.sh ]; then
    missing tests/fuzz/replay.sh
elif want corpus; then
    sh tests/fuzz/replay.sh >"$log" 2>&1
    cat "$log"
    count_lines "$log"
fi

# skips on their own line: the last line is the contract's "N passed, N failed"
echo "$skipped skipped (a check that could not run here, with its reason above)"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
