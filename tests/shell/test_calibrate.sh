#!/bin/sh
# test_calibrate.sh - issue 19: `llmplan calibrate RUNS.csv`.
#  * held out: the MosaicML llm-foundry runs of tests/data/training_cases.csv
#    (without their stack, as a planner whose framework has no row would
#    have them) split in two halves; calibrating torchtitan's row on one
#    half lowers the error on the other half;
#  * the new row: written through the catalog (source names the file and
#    the date, as_of today), usable by quote, --dry-run writes nothing,
#    the JSON report has before/after/leave-one-out;
#  * a built-in row is replaced only when --as names it;
#  * errors, one line naming the field, exit 2, nothing on stdout: too few
#    runs (names the knobs), unknown stack, serving stack, several stacks,
#    missing file, missing column, unknown metric, a bad setting (names the
#    run and the key).
# Prints "ok <what>" / "FAIL <what>".
. "$(dirname "$0")/lib.sh"
export SOURCE_DATE_EPOCH=1764547200 # 2025-12-01
fails() { # fails CODE PATTERN: exit code, one stderr line, empty stdout
    test "$rc" -eq "$1" -a ! -s "$tmp/out" &&
        test "$(wc -l <"$tmp/err")" -eq 1 && grep -q "$2" "$tmp/err"
}
jget() { # jget FILE EXPR: a value of a JSON report
    python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print($2)" "$1"
}
CASES=tests/data/training_cases.csv
[ -f "$CASES" ] || CASES=$(dirname "$0")/../data/training_cases.csv
head -1 "$CASES" >"$tmp/h1.csv"
head -1 "$CASES" >"$tmp/h2.csv"
grep 'software.stack=llm-foundry' "$CASES" |
    sed 's/ software\.stack=llm-foundry//' |
    awk -v a="$tmp/h1.csv" -v b="$tmp/h2.csv" \
        '{ if (NR % 2) print >> a; else print >> b }'

# ---- held out: half of one public source ------------------------------------
run L calibrate "$tmp/h1.csv" --stack torchtitan --as mpt-fsdp --format json
cp "$tmp/out" "$tmp/fit.json"
check "calibrate on half the MosaicML runs: exit 0, row written" \
    test "$rc" -eq 0 -a "$(jget "$tmp/fit.json" "d['written']")" = True
check "the fit lowers the error on the runs it saw" \
    test "$(jget "$tmp/fit.json" "d['mape_after'] < d['mape_before']")" = True
check "the report has a leave-one-out estimate per run" test \
    "$(jget "$tmp/fit.json" "d['mape_loo'] > 0 and all(c['error_loo'] is not None for c in d['cases'])")" = True
run L calibrate "$tmp/h2.csv" --stack torchtitan --dry-run --no-loo --format json
before=$(jget "$tmp/out" "d['mape_before']")
run L calibrate "$tmp/h2.csv" --stack mpt-fsdp --dry-run --no-loo --format json
after=$(jget "$tmp/out" "d['mape_before']")
echo "  other half: MAPE $before (torchtitan) -> $after (calibrated)"
check "calibrating on one half lowers the error on the other half" \
    python3 -c "import sys; sys.exit(not $after < $before)"

# ---- many runs, runs without a layout -----------------------------------------
grep -e '^id,' -e 'software.stack=llm-foundry' "$CASES" >"$tmp/all20.csv"
run L calibrate "$tmp/all20.csv" --dry-run --format json
check "20 runs: the estimate is 10-fold, every run held out once" test \
    "$(jget "$tmp/out" "d['runs'] == 20 and d['loo_folds'] == 10 and all(c['error_loo'] is not None for c in d['cases'])")" = True
sed -E '2,6s/ parallel\.[a-z_]+=[^ ,]*//g' "$tmp/h1.csv" >"$tmp/nolayout.csv"
start=$(date +%s)
run L calibrate "$tmp/nolayout.csv" --stack torchtitan --dry-run --format json
took=$(($(date +%s) - start))
check "runs without a layout: searched once, held for the fit (${took}s)" test \
    "$rc" -eq 0 -a "$(jget "$tmp/out" "d['layouts_searched']")" = 5

# ---- the new row ------------------------------------------------------------
run L catalog show stacks mpt-fsdp --format json
check "new row: source names the file and date, as_of today" python3 -c "
import json, sys
r = json.load(open('$tmp/out'))
r = r[0] if isinstance(r, list) else r
assert r['source'].startswith('llmplan calibrate: ') and 'h1.csv' in r['source'], r
assert '2025-12-01' in r['source'] and r['as_of'] == '2025-12-01', r
assert r['kind'] == 'train'
"
check "new row: the fitted knobs as the report wrote them" python3 -c "
import json
r = json.load(open('$tmp/out'))
r = r[0] if isinstance(r, list) else r
f = json.load(open('$tmp/fit.json'))
for k in f['knobs']:
    x = r[k['name']]
    x = k['default'] if x is None or x == '' else float(x)  # empty: default
    assert abs(x - k['written']) < 1e-9, (k, r[k['name']])
"
run L quote --model llama3-8b --accel h100-sxm --gpus 8 --tokens 1T \
    --set software.stack=mpt-fsdp --format json
check "quote uses the calibrated stack" test "$rc" -eq 0
run L calibrate "$tmp/h1.csv" --stack torchtitan --as dry-row --dry-run
check "--dry-run reports and writes nothing" sh -c \
    "test $rc -eq 0 && grep -q 'MAPE before' '$tmp/out' &&
     ! '$BIN' --catalog '$DB' catalog show stacks dry-row >/dev/null 2>&1"
run L calibrate "$tmp/h1.csv" --stack torchtitan --no-loo
check "table report: knobs, runs, MAPE, default id" sh -c \
    "test $rc -eq 0 && grep -q '^gemm_eff' '$tmp/out' &&
     grep -q 'MPT-7b-H100' '$tmp/out' &&
     grep -q \"wrote stack 'torchtitan-calibrated'\" '$tmp/out'"
run L calibrate "$tmp/h1.csv" --stack torchtitan --no-loo
check "the default id is replaced by a new calibration" test "$rc" -eq 0

# ---- built-in rows ----------------------------------------------------------
sed 's/^torchtitan,/deepspeed-calibrated,/' data/stacks.csv 2>/dev/null |
    grep -e '^id,' -e '^deepspeed-calibrated,' >"$tmp/own.csv"
L catalog import stacks "$tmp/own.csv" >/dev/null 2>&1
run L calibrate "$tmp/h1.csv" --stack deepspeed --no-loo
check "a row calibrate did not write is not replaced by default" \
    fails 2 "deepspeed-calibrated.*--as"
run L calibrate "$tmp/h1.csv" --stack deepspeed --as deepspeed-calibrated --no-loo
check "--as names it: replaced" test "$rc" -eq 0

# ---- errors -----------------------------------------------------------------
head -2 "$tmp/h1.csv" >"$tmp/one.csv"
run L calibrate "$tmp/one.csv" --stack torchtitan
check "too few runs: refused, naming the knobs" \
    fails 2 "1 run for [0-9] knobs.*gemm_eff.*attn_eff"
run L calibrate "$tmp/h1.csv" --stack no-such-stack
check "unknown stack: refused" fails 2 "^llmplan: --stack: unknown stack 'no-such-stack'"
run L calibrate "$tmp/h1.csv" --stack vllm
check "serving stack: refused" fails 2 "vllm.*serving engine"
run L calibrate "$CASES"
check "runs of several stacks without --stack: refused" \
    fails 2 "several stacks.*--stack"
run L calibrate "$tmp/none.csv"
check "missing file: refused" fails 2 "none.csv: cannot read"
head -1 "$tmp/h1.csv" >"$tmp/header.csv"
run L calibrate "$tmp/header.csv"
check "a header without runs: refused" fails 2 "header.csv: no runs"
printf 'id,metric,expected\nx,mfu,0.5\n' >"$tmp/nosets.csv"
run L calibrate "$tmp/nosets.csv"
check "missing column: refused, naming it" fails 2 "nosets.csv: no 'sets' column"
sed '2s/,mfu,/,speed,/' "$tmp/h1.csv" >"$tmp/metric.csv"
run L calibrate "$tmp/metric.csv" --stack torchtitan
check "unknown metric: refused, naming line and column" \
    fails 2 "metric.csv:2: metric: unknown metric 'speed'"
sed '3s/parallel.dp=[0-9]*/parallel.dp=7/' "$tmp/h1.csv" >"$tmp/layout.csv"
run L calibrate "$tmp/layout.csv" --stack torchtitan
check "a run the model refuses: refused, naming the run and the key" \
    fails 2 "^llmplan: MPT-[^:]*: [a-z_.]*: "
sed '2s/model.layers=/model.layerz=/' "$tmp/h1.csv" >"$tmp/key.csv"
run L calibrate "$tmp/key.csv" --stack torchtitan
check "unknown key: refused, naming the run and the key" \
    fails 2 "key.csv:2: MPT-[^:]*: model.layerz: "
run L calibrate "$tmp/h1.csv" --stack torchtitan --as out-row --no-loo \
    --output "$tmp/no/such/dir/report.txt"
check "an --output that cannot be written: refused, no row written" sh -c \
    "test $rc -eq 1 && ! '$BIN' --catalog '$DB' catalog show stacks out-row >/dev/null 2>&1"
run L calibrate
check "no file: usage error" fails 2 "calibrate.*RUNS.csv"
run L calibrate "$tmp/h1.csv" --bogus
check "unknown option: usage error" fails 2 "bogus: unknown option"
run L calibrate --help
check "calibrate --help exits 0 and documents the options" sh -c \
    "test $rc -eq 0 && grep -q -- '--as NEW_ID' '$tmp/out' &&
     grep -q -- '--dry-run' '$tmp/out'"
