#!/bin/sh
# test_review18.sh - issue 18 items 6-10, end to end:
#  * quote --vary JSON holds numbers, null for a side with no price, and
#    flags an end whose held layout does not fit; its CSV is plain
#    decimals (item 10);
#  * error messages on stderr filter terminal escapes (item 10);
#  * "[train] seq_len = 2048" on one line is an error naming the line.
# Prints "ok <what>" / "FAIL <what>".
. tests/shell/lib.sh

ok() { echo "ok $1"; }
fail() { echo "FAIL $1${2:+: $2}"; }
base="--model llama3-70b --accel h100-sxm --gpus 1024 --tokens 15T"

# --vary JSON: valid, numbers as numbers, the misfit end flagged.
# shellcheck disable=SC2086
if L quote $base --vary train.tokens=1T:15T --vary train.seq_len=2048:65536 \
    --format json >"$tmp/v.json" 2>"$tmp/err" && python3 - "$tmp/v.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
rows = {r['key']: r for r in d['vary']}
t = rows['train.tokens']
assert t['low']['value'] == 1e12 and t['high']['value'] == 15e12, t
assert t['low']['fits'] is True and t['high']['fits'] is True, t
s = rows['train.seq_len']
assert s['low']['value'] == 2048 and s['high']['fits'] is False, s
for r in d['vary']:
    for e in (r['low'], r['high']):
        for k in ('days', 'build_run_usd', 'cloud_run_usd', 'energy_mwh'):
            assert isinstance(e[k], float) and e[k] > 0, (k, e)
PY
then ok "--vary json: numbers, valid JSON, misfit end flagged"
else fail "--vary json" "$(head -c 300 "$tmp/v.json"; cat "$tmp/err")"; fi

# No cloud price: null on the cloud side, never 0.
# shellcheck disable=SC2086
if L quote $base --set cloud.usd_per_gpu_hour=0 --vary price=0:0 \
    --vary utilization=0.5:0.9 --format json >"$tmp/n.json" 2>"$tmp/err" &&
    python3 - "$tmp/n.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
assert d['base']['cloud_run_usd'] is None and d['base']['build_run_usd'] > 0, d['base']
for r in d['vary']:
    assert r['swing_usd_per_gpu_hour'] is None, r
    for e in (r['low'], r['high']):
        assert e['cloud_run_usd'] is None and e['margin_usd_per_gpu_hour'] is None, e
PY
then ok "--vary json: null, not 0, for a side with no price"
else fail "--vary null price" "$(head -c 300 "$tmp/n.json"; cat "$tmp/err")"; fi

# --vary CSV: plain decimals, empty cells for no price.
# shellcheck disable=SC2086
if L quote $base --vary train.tokens=1T:15T --vary price=1e-5:4 \
    --format csv >"$tmp/v.csv" 2>"$tmp/err" && ! grep -Eq '(^|,)[-+]?[0-9.]+e[-+]?[0-9]+(,|$)' "$tmp/v.csv" &&
    grep -q '^train.tokens,train.tokens,1000000000000,yes,' "$tmp/v.csv" &&
    grep -q '^price,cloud.usd_per_gpu_hour,0.00001,yes,' "$tmp/v.csv"; then
    ok "--vary csv: plain decimals"
else fail "--vary csv" "$(cat "$tmp/v.csv" "$tmp/err")"; fi

# stderr filters terminal escapes (ESC, BEL) as stdout does.
esc=$(printf 'x\033]0;pwned\007y')
L quote $base --set "model.$esc=1" >/dev/null 2>"$tmp/e1"
L "$esc" >/dev/null 2>"$tmp/e2"
L quote $base --vary "$esc=1:2" >/dev/null 2>"$tmp/e3"
if ! grep -q "$(printf '[\033\007]')" "$tmp/e1" "$tmp/e2" "$tmp/e3" &&
    grep -q '\^\[' "$tmp/e1" && grep -q '\^\[' "$tmp/e2" && grep -q '\^\[' "$tmp/e3"; then
    ok "stderr: terminal escapes shown as ^[, not sent"
else fail "stderr escapes" "$(cat -v "$tmp/e1" "$tmp/e2" "$tmp/e3")"; fi

# A key after the section on its line: exit 2 naming the line.
printf '[model]\npreset = llama3-8b\n[train] seq_len = 2048\n' >"$tmp/one.ini"
L quote "$tmp/one.ini" >"$tmp/out" 2>"$tmp/err"
rc=$?
if [ $rc = 2 ] && [ ! -s "$tmp/out" ] && [ "$(wc -l <"$tmp/err")" = 1 ] &&
    grep -q "one.ini:3: text after '\[section\]'" "$tmp/err"; then
    ok "ini: '[train] seq_len = 2048' on one line is an error"
else fail "ini one-line section" "rc=$rc $(cat "$tmp/err")"; fi

# Item 9: failures faster than a restart: time, energy and cost are null
# with the reason, and size counts such options as "never finishes".
# shellcheck disable=SC2086
if L quote $base --set reliability.node_mtbf_h=10 --format json \
    >"$tmp/never.json" 2>"$tmp/err" && python3 - "$tmp/never.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
assert d['reliability']['effective_train_days'] is None, d['reliability']
assert d['reliability']['goodput'] is None, d['reliability']
assert d['energy']['facility_mwh'] is None and d['energy']['tco2e'] is None
assert d['cost']['build']['run_usd'] is None and d['cost']['cloud']['run_usd'] is None
assert any(w.startswith('never finishes: failures every') for w in d['warnings']), d['warnings']
PY
then ok "a run that never finishes: null time and cost, with the reason"
else fail "never finishes (quote)" "$(cat "$tmp/err")"; fi
if L size --model llama3-70b --tokens 15T --deadline 60 \
    --set reliability.node_mtbf_h=30 --format json >"$tmp/sn.json" 2>"$tmp/err" &&
    python3 - "$tmp/sn.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
ex = {e['reason']: e for e in d['excluded']}
assert ex['never finishes']['options'] > 0 and ex['never finishes']['closest'] is None, ex
for p in d['frontier']:
    assert p['days'] > 0, p
PY
then ok "size counts the options that never finish"
else fail "never finishes (size)" "$(head -c 400 "$tmp/sn.json"; cat "$tmp/err")"; fi

# Item 6: the stack fits the accelerator.  With no software.stack a plan
# takes the accelerator's own (catalog default_on), an explicit stack that
# does not run on it is refused, and size uses each accelerator's own.
stacks_ok=1
for pair in h100-sxm:megatron-core mi300x:megatron-core tpu-v5p:maxtext \
    gaudi3:megatron-deepspeed; do
    acc=${pair%%:*} want=${pair#*:}
    got=$(L quote --model llama3-8b --accel "$acc" --gpus 64 --tokens 1T \
        --format json 2>"$tmp/err" | python3 -c \
        'import json,sys; print(json.load(sys.stdin)["plan"]["software"]["stack"])')
    [ "$got" = "$want" ] || { stacks_ok=0; echo "# $acc: $got, want $want"; }
done
got=$(L quote --model llama3-8b --accel tpu-v5p --gpus auto --set workload.kind=serve \
    --set serve.tokens_per_day=1e9 --format json 2>"$tmp/err" | python3 -c \
    'import json,sys; print(json.load(sys.stdin)["plan"]["software"]["stack"])')
[ "$got" = vllm ] || { stacks_ok=0; echo "# serving on tpu-v5p: $got"; }
if [ $stacks_ok = 1 ]; then ok "software.stack defaults to the accelerator's own"
else fail "default stack per accelerator"; fi

L quote --model llama3-8b --accel mi300x --gpus 64 --tokens 1T \
    --set software.stack=maxtext >"$tmp/out" 2>"$tmp/err"
rc=$?
if [ $rc = 2 ] && [ ! -s "$tmp/out" ] &&
    grep -q "^llmplan: software.stack: 'maxtext' does not run on mi300x (AMD); it runs on Google NVIDIA$" "$tmp/err"; then
    ok "an explicit stack that does not run on the accelerator is refused"
else fail "explicit stack refused" "rc=$rc $(cat "$tmp/err")"; fi

if L catalog list stacks --format csv >"$tmp/st.csv" 2>"$tmp/err" &&
    python3 - "$tmp/st.csv" <<'PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1], newline='')))
assert rows and all(r['runs_on'] and r['runs_on_source'] for r in rows), rows[0]
PY
then ok "every stack row says what it runs on, with a source"
else fail "stack runs_on" "$(cat "$tmp/err")"; fi

if L size --model llama3-70b --tokens 15T --deadline 120 --format json \
    >"$tmp/sz.json" 2>"$tmp/err" && python3 - "$tmp/sz.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
own = {'tpu': 'maxtext', 'gau': 'megatron-deepspeed', 'mi': 'megatron-core'}
pts = list(d['frontier']) + [e['closest'] for e in d['excluded'] if e['closest']]
seen = set()
for p in pts:
    for pre, st in own.items():
        if p['accelerator'].startswith(pre):
            assert p['stack'] == st, p
            seen.add(pre)
    if p['accelerator'].startswith(('h', 'b', 'gb', 'a1')):
        assert p['stack'] == 'megatron-core', p
assert 'tpu' in seen, [p['accelerator'] for p in pts]
PY
then ok "size uses each accelerator's own stack"
else fail "size stack per accelerator" "$(cat "$tmp/err")"; fi

# Item 8: the running costs left at 0 are listed as excluded in every
# output, and the finance CSV says where each finance input comes from.
# shellcheck disable=SC2086
if L quote data/plans/dgx-h100-node.ini --format json >"$tmp/f.json" 2>"$tmp/err" &&
    L quote data/plans/dgx-h100-node.ini --set finance.support_frac=0.2 \
        --format csv --schedule --output "$tmp/f.csv" 2>>"$tmp/err" &&
    L quote data/plans/dgx-h100-node.ini >"$tmp/f.txt" 2>>"$tmp/err" &&
    grep -q "excluded  *support, insurance, staff, software" "$tmp/f.txt" &&
    python3 - "$tmp/f.json" "$tmp/f.csv" <<'PY'
import csv, json, sys
d = json.load(open(sys.argv[1]))
assert d['cost']['build']['excluded'] == 'support, insurance, staff, software', d['cost']['build']
v = {(r[0], r[1]): r[3] for r in csv.reader(open(sys.argv[2], newline=''))}
assert v[('cost.build', 'excluded')] == 'insurance, staff, software', v[('cost.build', 'excluded')]
keys = ('depreciation_years cost_of_capital utilization maintenance_frac facility_years '
        'residual_frac spares_frac support_frac insurance_frac staff_usd_per_mw_year '
        'software_usd_per_gpu_year').split()
for k in keys:
    s = v[('sources', 'finance.%s.source' % k)]
    assert s, k
assert v[('sources', 'finance.support_frac.source')] == "the plan's value"
assert v[('sources', 'finance.staff_usd_per_mw_year.source')].startswith('excluded (0)')
assert 'Epoch' in v[('sources', 'finance.residual_frac.source')]
PY
then ok "excluded running costs listed; finance defaults carry their sources in the CSV"
else fail "finance sources and exclusions" "$(cat "$tmp/err")"; fi

# Item 10: catalog import models refuses what every command refuses.
L catalog export models "$tmp/models.csv" 2>"$tmp/err"
imp_ok=1
for bad in "llama3-8b:kv_heads:7:model.kv_heads" \
    "mixtral-8x7b:experts_active:9:model.experts_active"; do
    src=${bad%%:*} rest=${bad#*:} col=${rest%%:*} rest=${rest#*:}
    val=${rest%%:*} key=${rest#*:}
    python3 - "$tmp/models.csv" "$tmp/bad.csv" "$src" "$col" "$val" <<'PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1], newline='')))
r = dict(next(x for x in rows if x['id'] == sys.argv[3]))
r['id'] = 'bad-' + r['id']
r[sys.argv[4]] = sys.argv[5]
w = csv.DictWriter(open(sys.argv[2], 'w', newline=''), fieldnames=list(rows[0]))
w.writeheader()
w.writerow(r)
PY
    L catalog import models "$tmp/bad.csv" >"$tmp/out" 2>"$tmp/err"
    rc=$?
    if [ $rc != 2 ] || ! grep -q "$key" "$tmp/err" ||
        L catalog show models "bad-$src" >/dev/null 2>&1; then
        imp_ok=0
        echo "# $col=$val: rc=$rc $(cat "$tmp/err")"
    fi
done
if [ $imp_ok = 1 ]; then ok "catalog import models refuses a model every command refuses"
else fail "catalog import models validation"; fi

# Item 10: size only reads, so a read-only shared catalog will do; its
# CSV writes plain decimals.
mkdir -p "$tmp/ro"
L catalog list stacks >/dev/null 2>&1
cp "$DB" "$tmp/ro/shared.db"
chmod 444 "$tmp/ro/shared.db"
chmod 555 "$tmp/ro"
if "$BIN" --catalog "$tmp/ro/shared.db" size --model llama3-70b --tokens 15T \
    --deadline 60 --format csv >"$tmp/ro.csv" 2>"$tmp/err" &&
    [ "$(wc -l <"$tmp/ro.csv")" -gt 10 ] && ! grep -Eq '(^|,)[-+]?[0-9.]+e[-+]?[0-9]+(,|$)' "$tmp/ro.csv"; then
    ok "size on a read-only catalog; its CSV has plain decimals"
else fail "size read-only / plain decimals" "$(cat "$tmp/err"; grep -m2 '[0-9]e[-+]' "$tmp/ro.csv")"; fi
chmod 755 "$tmp/ro"
if L size --model llama3-70b --set workload.kind=serve --set serve.tokens_per_day=1e10 \
    --set serve.ttft_ms=1500 --set serve.tpot_ms=60 --format csv >"$tmp/sv.csv" 2>"$tmp/err" &&
    [ "$(wc -l <"$tmp/sv.csv")" -gt 10 ] && ! grep -Eq '(^|,)[-+]?[0-9.]+e[-+]?[0-9]+(,|$)' "$tmp/sv.csv"; then
    ok "size serving CSV: plain decimals"
else fail "size serving CSV decimals" "$(cat "$tmp/err"; grep -m2 '[0-9]e[-+]' "$tmp/sv.csv")"; fi

# Item 6 in size: systems whose accelerator the plan's stack does not run
# on are left out, counted and named, not dropped in silence.
if L size --model llama3-70b --tokens 15T --deadline 60 \
    --set software.stack=maxtext >"$tmp/out" 2>"$tmp/err" &&
    grep -q "^note: [0-9]* systems left out: software.stack: 'maxtext' does not run on" "$tmp/out" &&
    L size --model llama3-70b --tokens 15T --deadline 60 \
        --set software.stack=maxtext --format json | python3 -c '
import json, sys
s = json.load(sys.stdin)["search"]
assert s["systems_refused"] > 0 and "maxtext" in s["systems_refused_reason"], s
for p in []: pass
'; then
    ok "size says which systems the plan's stack cannot run on"
else fail "size refused systems" "$(cat "$tmp/out" "$tmp/err" | head -5)"; fi
