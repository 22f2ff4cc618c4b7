#!/bin/sh
# test_calibrate_fit.sh - issue 19: one fitter.  `make validate` fits the
# stacks with `llmplan calibrate --all-stacks` / `--loso` (driven by
# tests/calibration/fit_stacks.py), the fitter `llmplan calibrate` runs on
# a user's runs:
#  * its metrics are validate.py's: on every training case the prediction
#    before the fit equals the metric ../shared/acceptance/validate.py
#    reads from `quote --format json` (skipped without ../shared);
#  * --all-stacks fits every stack the cases name on its own runs: knobs
#    within their bounds, the fit never worse than the row, the Megatron
#    stacks' selective_keep defined (1), moe_imbalance only with 3+
#    dropless MoE runs;
#  * --loso: one row per case, each error the prediction's, a stack with
#    runs from one source only predicted by the typical stack's knobs;
#  * fit_stacks.py --write rewrites exactly the fitted columns with the
#    knobs calibrate reports; fit_stacks.py --loso writes calibrate's rows;
#  * usage errors: --loso with --all-stacks, --stack or --as; a serving
#    engine's runs and a header without runs are refused.
# Prints "ok <what>" / "FAIL <what>" / "SKIP <what>".
. "$(dirname "$0")/lib.sh"
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
CASES=$ROOT/tests/data/training_cases.csv
SHARED=${SHARED:-$ROOT/../shared}

run L calibrate "$CASES" --all-stacks --format json
cp "$tmp/out" "$tmp/all.json"
check "--all-stacks: exit 0, every case in one stack" python3 -c "
import json, csv, sys
d = json.load(open('$tmp/all.json'))
n = sum(1 for _ in csv.DictReader(open('$CASES')))
assert $rc == 0 and d['runs'] == n == sum(s['runs'] for s in d['stacks']), d['runs']
ids = [c['id'] for s in d['stacks'] for c in s['cases']]
assert len(set(ids)) == n
"

if [ -f "$SHARED/acceptance/validate.py" ]; then
    python3 "$SHARED/acceptance/validate.py" --bin "$BIN" --cases "$CASES" \
        --csv "$tmp/v.csv" >/dev/null 2>&1
    check "the fitter's metric is validate.py's on every training case" \
        python3 -c "
import json, csv
d = json.load(open('$tmp/all.json'))
c = {x['id']: x['predicted_before'] for s in d['stacks'] for x in s['cases']}
rows = list(csv.DictReader(open('$tmp/v.csv')))
assert len(rows) == len(c), (len(rows), len(c))
bad = [(r['id'], r['predicted'], c[r['id']]) for r in rows
       if r['predicted'] == '' or c[r['id']] is None
       or abs(float(r['predicted']) - c[r['id']]) > 1e-9 * abs(c[r['id']])]
assert not bad, bad[:5]
"
else
    skip "the fitter's metric is validate.py's" "no $SHARED/acceptance/validate.py"
fi

check "--all-stacks: knobs within bounds, the fit never worse than the row" \
    python3 -c "
import json
d = json.load(open('$tmp/all.json'))
b = {'gemm_eff': (0.5, 1), 'attn_eff': (0.5, 1), 'fp8_eff': (0.5, 1)}
for s in d['stacks']:
    assert s['mape_fit'] <= s['mape_before'] + 1e-12, s['stack']
    for k in s['knobs']:
        lo, hi = b.get(k['name'], (-1e9, 1e9))
        assert lo <= k['fitted'] <= hi, (s['stack'], k)
        if k['why'] != 'fitted' and k['why'] != 'the stack\'s by definition':
            assert k['fitted'] == k['start'] and not k['store'], (s['stack'], k)
"
check "--all-stacks: selective_keep of the Megatron stacks is defined (1)" \
    python3 -c "
import json
d = json.load(open('$tmp/all.json'))
for s in d['stacks']:
    k = next(k for k in s['knobs'] if k['name'] == 'selective_keep')
    if s['stack'] in ('megatron-core', 'megatron-lm'):
        assert k['why'].endswith('by definition') and k['written'] == 1, k
    else:
        assert not k['why'].endswith('by definition'), (s['stack'], k)
"
check "--all-stacks: moe_imbalance only with 3+ dropless MoE runs" python3 -c "
import json, csv
d = json.load(open('$tmp/all.json'))
moe = {}
for c in csv.DictReader(open('$CASES')):
    kv = dict(x.split('=', 1) for x in c['sets'].split())
    m = (int(kv.get('model.experts', '0')) > 1 and float(kv.get('train.moe_capacity', '0')) <= 0
         and kv.get('software.moe_force_balance', 'stack') != 'yes')
    moe[kv['software.stack']] = moe.get(kv['software.stack'], 0) + m
for s in d['stacks']:
    k = next(k for k in s['knobs'] if k['name'] == 'moe_imbalance')
    assert (k['why'] == 'fewer than 3 dropless MoE runs') == (moe[s['stack']] < 3), (s['stack'], moe[s['stack']], k)
"

run L calibrate "$CASES" --loso --format json
cp "$tmp/out" "$tmp/loso.json"
check "--loso: one row per case, each error the prediction's" python3 -c "
import json, csv
d = json.load(open('$tmp/loso.json'))
cases = {c['id']: c for c in csv.DictReader(open('$CASES'))}
assert $rc == 0 and len(d['cases']) == len(cases) == d['runs']
assert len({c['id'] for c in d['cases']}) == len(cases)
for c in d['cases']:
    want = float(cases[c['id']]['expected'])
    assert c['source'] == cases[c['id']]['source'].split(';')[0].strip()
    e = 1.0 if c['predicted'] is None else (c['predicted'] - want) / want
    assert abs(e - c['error']) < 1e-12, c
mape = sum(abs(c['error']) for c in d['cases']) / len(d['cases'])
assert abs(mape - d['mape']) < 1e-12
"
check "--loso: a stack with fewer than 3 runs from other sources takes the typical stack" \
    python3 -c "
import json
d = json.load(open('$tmp/loso.json'))
runs = {}
for c in d['cases']:
    runs.setdefault(c['stack'], []).append(c['source'])
for c in d['cases']:
    others = sum(s != c['source'] for s in runs[c['stack']])
    assert c['fallback'] == (c['fitted'] == 0), c
    if others < 3:
        assert c['fallback'], c
assert any(c['fallback'] for c in d['cases'])
assert any(c['fitted'] > 0 for c in d['cases'])
"
run L calibrate "$CASES" --loso
check "--loso table: its last line is the summary of the JSON" python3 -c "
import json
d = json.load(open('$tmp/loso.json'))
last = open('$tmp/out').read().splitlines()[-1]
want = 'leave-one-source-out: %d cases, MAPE %.1f%%, worst %.1f%%' % (
    d['runs'], 100 * d['mape'], 100 * d['worst'])
assert last == want, (last, want)
"

# ---- the driver -------------------------------------------------------------
cp "$ROOT/data/stacks.csv" "$tmp/stacks.csv"
python3 "$ROOT/tests/calibration/fit_stacks.py" --bin "$BIN" --cases "$CASES" \
    --stacks "$tmp/stacks.csv" --write >"$tmp/fit.txt" 2>&1
check "fit_stacks.py --write: the fitted columns are calibrate's knobs" \
    python3 -c "
import json, csv
d = json.load(open('$tmp/all.json'))
old = {r['id']: r for r in csv.DictReader(open('$ROOT/data/stacks.csv'))}
new = {r['id']: r for r in csv.DictReader(open('$tmp/stacks.csv'))}
assert list(old) == list(new)
fitted = {(s['stack'], k['name']): k for s in d['stacks'] for k in s['knobs'] if k['store']}
for sid, r in new.items():
    for col, x in r.items():
        k = fitted.get((sid, col))
        if k:
            assert x == '%.3g' % k['fitted'] and float(x) == k['written'], (sid, col, x, k)
        else:
            assert x == old[sid][col], (sid, col, x, old[sid][col])
"
python3 "$ROOT/tests/calibration/fit_stacks.py" --bin "$BIN" --cases "$CASES" \
    --loso "$tmp/loso.csv" >"$tmp/loso.txt" 2>&1
check "fit_stacks.py --loso: calibrate --loso's rows and summary" python3 -c "
import json, csv
d = json.load(open('$tmp/loso.json'))
rows = list(csv.DictReader(open('$tmp/loso.csv')))
assert [r['id'] for r in rows] == [c['id'] for c in d['cases']]
for r, c in zip(rows, d['cases']):
    assert abs(float(r['error']) - c['error']) < 1e-6 and r['stack'] == c['stack']
    assert r['fallback'] == ('yes' if c['fallback'] else 'no')
assert open('$tmp/loso.txt').read().splitlines()[-1].startswith('leave-one-source-out: %d cases' % len(rows))
"

# ---- usage ------------------------------------------------------------------
fails() { # fails PATTERN: exit 2, one stderr line, empty stdout
    test "$rc" -eq 2 -a ! -s "$tmp/out" &&
        test "$(wc -l <"$tmp/err")" -eq 1 && grep -q "$1" "$tmp/err"
}
run L calibrate "$CASES" --loso --all-stacks
check "--loso with --all-stacks: usage error" fails "^llmplan: --loso: "
run L calibrate "$CASES" --all-stacks --stack torchtitan
check "--all-stacks with --stack: usage error" fails "^llmplan: --stack: "
run L calibrate "$CASES" --loso --as x
check "--loso with --as: usage error" fails "^llmplan: --as: "
head -2 "$CASES" | sed 's/software\.stack=[a-z-]*/software.stack=vllm/' >"$tmp/serve.csv"
run L calibrate "$tmp/serve.csv" --all-stacks
check "--all-stacks on a serving engine's runs: refused" \
    fails "^llmplan: software.stack: 'vllm' is a serving engine"
head -1 "$CASES" >"$tmp/header.csv"
run L calibrate "$tmp/header.csv" --loso
check "--loso on a header only: refused" fails "header.csv: no runs"
