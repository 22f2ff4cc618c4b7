#!/bin/sh
# run.sh - `make fuzz-run FUZZ=name SECS=n`: run one libFuzzer target
# (built by make into build/fuzz/fuzz_<name>) for SECS seconds over its
# seed corpus, with its dictionary.  New inputs go to
# build/fuzz-corpus/<name>/, crashes to build/fuzz-artifacts/, and the
# log (with libFuzzer's final stats) to build/fuzz-logs/<name>.log; the
# summary line "fuzz <name>: N runs in S s, ..." is appended to
# build/fuzz-logs/summary.txt.
set -u
: "${FUZZ:?FUZZ=name}"
SECS=${SECS:-60}
root=$(pwd)
bin="$root/build/fuzz/fuzz_$FUZZ"
seeds="$root/tests/fuzz/corpus/$FUZZ"
work="$root/build/fuzz-corpus/$FUZZ"
arts="$root/build/fuzz-artifacts"
logs="$root/build/fuzz-logs"
scratch="$root/build/fuzz-scratch/$FUZZ"
mkdir -p "$work" "$arts" "$logs" "$scratch" "$seeds"
dict=""
[ -f "$root/tests/fuzz/$FUZZ.dict" ] && dict="-dict=$root/tests/fuzz/$FUZZ.dict"
log="$logs/$FUZZ.log"
t0=$(date +%s)
(
    cd "$scratch" &&
    HOME="$scratch" XDG_DATA_HOME="$scratch" XDG_CONFIG_HOME="$scratch" \
    LLMPLAN_CATALOG= ASAN_OPTIONS=detect_leaks=1 \
    "$bin" -max_total_time="$SECS" -timeout=30 -rss_limit_mb=2048 \
        -print_final_stats=1 -artifact_prefix="$arts/$FUZZ-" $dict \
        "$work" "$seeds"
) >"$log" 2>&1
rc=$?
secs=$(($(date +%s) - t0))
runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
[ -n "$runs" ] || runs=$(grep -o '^#[0-9]*' "$log" | tail -n 1 | tr -d '#')
cov=$(grep -o 'cov: [0-9]*' "$log" | tail -n 1)
line="fuzz $FUZZ: ${runs:-?} runs in $secs s, $cov, exit $rc, $(date -u +%FT%TZ)"
echo "$line" | tee -a "$logs/summary.txt"
if [ $rc -ne 0 ]; then
    grep -E 'ERROR|SUMMARY|check failed|Test unit written' "$log" | head -n 20
    exit 1
fi
