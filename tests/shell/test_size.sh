#!/bin/sh
# test_size.sh - issue 13: `llmplan size`, what to buy.
#  * JSON: the frontier is sorted by the objective, no point on it is
#    dominated by another, every range holds its figure, the layouts are
#    whole (tp*pp*dp*cp = gpus);
#  * a plan file works as the input (its hardware keys are the search's);
#  * constraints nothing meets: exit 0, "nearest" names the option;
#  * a point of the frontier quoted back gives the same time and cost;
#  * a serving plan on the whole catalog: the frontier meets the targets,
#    is sorted by cost a day and non-dominated, its ranges hold;
#  * quote --vary mfu: days fall as the efficiency rises, MFU stays <= 1.
# Prints "ok <what>" / "FAIL <what>".
set -u
. "$(dirname "$0")/lib.sh"
cat="$tmp/catalog.db"
run() { "$BIN" --catalog "$cat" "$@"; }

if run size --model llama3-8b --tokens 300G --accel h100-sxm,mi300x,gb200 \
    --gpus-max 1024 --objective cost --format json --output "$tmp/s.json" &&
    python3 - "$tmp/s.json" >"$tmp/q.args" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
f = d['frontier']
assert len(f) >= 2, f
costs = [p['cost_usd'] for p in f]
assert costs == sorted(costs), costs
key = lambda p: (p['days'], p['cost_usd'], p['energy_mwh'], p['cash_usd'])
for a in f:
    for b in f:
        ka, kb = key(a), key(b)
        assert not (all(x <= y for x, y in zip(kb, ka)) and kb != ka), (a, b)
    for k, lo, hi in (('days', 'days_low', 'days_high'),
                      ('cost_usd', 'cost_usd_low', 'cost_usd_high'),
                      ('energy_mwh', 'energy_mwh_low', 'energy_mwh_high')):
        assert a[lo] <= a[k] <= a[hi], a
    l = a['layout']
    assert l['tp'] * l['pp'] * l['dp'] * l['cp'] == a['gpus'], a
    assert l['full_search'], a
    assert a['status'] == 'meets the constraints'
p = f[0]
l = p['layout']
args = ['--accel', p['accelerator'], '--set', 'hardware.system=' + p['system'],
        '--gpus', str(p['gpus']), '--tp', str(l['tp']), '--pp', str(l['pp']),
        '--dp', str(l['dp']), '--cp', str(l['cp']), '--microbatch', str(l['microbatch']),
        '--set', 'parallel.interleave=%d' % l['interleave'], '--zero', str(l['zero']),
        '--recompute', l['recompute'],
        '--set', 'parallel.sequence_parallel=' + ('yes' if l['sequence_parallel'] else 'no')]
if p['buy'] == 'rent':
    args += ['--cloud', p['offer'], '--term', p['term']]
print('\n'.join(args))
print(repr((p['buy'], p['days'], p['cost_usd'], p['cash_usd'])), file=open(sys.argv[1] + '.want', 'w'))
PY
then
    ok "size json: frontier sorted, non-dominated, ranges hold, layouts whole"
else
    fail "size json"
fi

# The first point quoted back: the same days and cost.
set --
while IFS= read -r a; do set -- "$@" "$a"; done <"$tmp/q.args"
if run quote --model llama3-8b --tokens 300G "$@" --format json >"$tmp/q.json" &&
    python3 - "$tmp/q.json" "$tmp/s.json.want" <<'PY'
import json, sys
q = json.load(open(sys.argv[1]))
buy, days, cost, cash = eval(open(sys.argv[2]).read())
if buy == 'own':
    got_d = q['reliability']['effective_train_days']
    got_c = q['cost']['build']['run_usd']
    got_k = q['cost']['build']['cash_usd']
else:
    c = q['cost']['cloud']
    got_d = q['time']['train_days'] / c['goodput']
    got_c = c['run_usd']
    got_k = c['cash_usd']
assert abs(got_k - cash) <= 1e-6 * cash, (got_k, cash)
assert abs(got_d - days) <= 1e-6 * days, (got_d, days)
assert abs(got_c - cost) <= 1e-6 * cost, (got_c, cost)
PY
then
    ok "size: the best point quoted back gives the same days, run cost and cash"
else
    fail "size: quote back"
fi

cat >"$tmp/p.ini" <<'INI'
[model]
preset = llama3-8b
[train]
tokens = 200G
[hardware]
accelerator = v100-32gb
gpus = 4
INI
if run size "$tmp/p.ini" --accel a100-80gb --gpus-max 256 --format csv \
    >"$tmp/p.csv" && grep -q '^1,frontier,a100-80gb,' "$tmp/p.csv" &&
    ! grep -q v100 "$tmp/p.csv"; then
    ok "size: a plan file is the input; its hardware is the search's"
else
    fail "size: plan file"
fi

run size --model llama3-70b --tokens 15T --accel h100-sxm --gpus-max 2048 \
    --deadline 30 --format json >"$tmp/n.json"
rc=$?
if [ $rc -eq 0 ] && python3 - "$tmp/n.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
assert d['frontier'] == [], d['frontier']
n = d['nearest']
assert n['accelerator'] == 'h100-sxm' and n['status'] == 'too slow', n
assert n['gpus'] == 2048, n
PY
then
    ok "size: nothing meets the deadline: exit 0, the nearest option named"
else
    fail "size: nothing meets" "rc=$rc"
fi

# The TUI's Size view (b) runs the same pipeline: its CSV export (x) is
# byte for byte the CLI's answer for the default plan and the view's
# starting limits (cost first, 90 days).
mkdir -p "$tmp/home2"
printf 'b\nx\nC-u\ntext:%s/tui-size.csv\nEnter\n' "$tmp" >"$tmp/k"
if (cd "$tmp" && env -i LC_ALL=C TZ=UTC HOME="$tmp/home2" PATH=/usr/bin:/bin \
    "$BIN" --catalog "$tmp/c2.db" tui --ui-script "$tmp/k" \
    --ui-dump "$tmp/screen" >"$tmp/out" 2>&1) &&
    "$BIN" --catalog "$tmp/c2.db" size --model llama3-70b --tokens 15T \
        --deadline 90 --objective cost --format csv >"$tmp/cli-size.csv" &&
    cmp -s "$tmp/tui-size.csv" "$tmp/cli-size.csv"; then
    ok "size: the TUI's Size view exports the CLI's answer byte for byte"
else
    fail "size: TUI export" "$(head -c 300 "$tmp/out")"
fi

# Serving (issue 13 item 2): the whole default catalog.
if run size --model llama3-70b --set workload.kind=serve \
    --set serve.tokens_per_day=1e10 --set serve.peak_to_avg=2 \
    --set serve.ttft_ms=1500 --set serve.tpot_ms=60 --format json \
    >"$tmp/sv.json" && python3 - "$tmp/sv.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
assert d['workload'] == 'serve'
f = d['frontier']
assert len(f) >= 3, f
assert d['search']['systems'] >= 10, d['search']
costs = [p['usd_per_day'] for p in f]
assert costs == sorted(costs), costs
key = lambda p: (p['e2e_s'], p['usd_per_day'], p['wh_per_mtok'], p['cash_usd'])
buys = set()
for a in f:
    assert a['ttft_ms'] <= 1500 * (1 + 1e-9) and a['tpot_ms'] <= 60 * (1 + 1e-9), a
    assert a['usd_per_day_low'] <= a['usd_per_day'] <= a['usd_per_day_high'], a
    assert a['wh_per_mtok_low'] <= a['wh_per_mtok'] <= a['wh_per_mtok_high'], a
    assert a['status'] == 'meets the constraints'
    buys.add(a['buy'])
    for b in f:
        ka, kb = key(a), key(b)
        assert not (all(x <= y for x, y in zip(kb, ka)) and kb != ka), (a, b)
assert 'hybrid' in buys or 'rent' in buys, buys
PY
then
    ok "size serving: the catalog's frontier meets the targets, sorted, non-dominated"
else
    fail "size serving json"
fi

if run quote --model llama3-70b --accel h100-sxm --gpus 1024 --tokens 1T \
    --tp 8 --pp 4 --dp 32 --microbatch 1 --vary mfu=0.5:1.5 \
    --vary mfu=1:10 --format json >"$tmp/v.json" &&
    run quote --model llama3-70b --accel h100-sxm --gpus 1024 --tokens 1T \
        --tp 8 --pp 4 --dp 32 --microbatch 1 \
        --set software.efficiency_scale=10 --format json >"$tmp/v10.json" &&
    python3 - "$tmp/v.json" "$tmp/v10.json" <<'PY'
import json, sys
v = json.load(open(sys.argv[1]))
rows = v['vary']
assert all(r['key'] == 'mfu' for r in rows), rows
for r in rows:
    assert r['low']['days'] > r['high']['days'], r
    assert r['low']['energy_mwh'] > r['high']['energy_mwh'], r
    assert r['low']['build_run_usd'] > r['high']['build_run_usd'], r
q = json.load(open(sys.argv[2]))
assert 0 < q['time']['mfu'] <= 1, q['time']['mfu']
PY
then
    ok "quote --vary mfu: days fall as the efficiency rises; MFU <= 1 at 10x"
else
    fail "quote --vary mfu"
fi
