#!/bin/sh
# test_scenarios.sh - issue 4's promises, end to end through ./llmplan:
#  * every seed plan in data/plans/ quotes (exit 0, finite JSON, fits);
#  * the hybrid pair compares;
#  * a price changed in the catalog (catalog import) changes the quote by
#    exactly that factor, and --explain lists it with source and as_of;
#  * facility = IT x PUE; a reserved term costs GPUs x term hours x rate
#    (issue 12: 1,024 x 8,760 h x $7.8656 = $70.56M), on-demand GPU-hours
#    / goodput x price;
#  * bad finance input exits 2 naming the key, with nothing on stdout.
# Prints "ok <what>" / "FAIL <what>".
set -u
. "$(dirname "$0")/lib.sh"
cat="$tmp/catalog.db"
run() { "$BIN" --catalog "$cat" "$@"; }

for plan in data/plans/*.ini; do
    name=$(basename "$plan" .ini)
    if run quote "$plan" --format json >"$tmp/q.json" 2>"$tmp/err" &&
        python3 - "$tmp/q.json" <<'PY'
import json, math, sys
d = json.load(open(sys.argv[1]))
def finite(x):
    if isinstance(x, dict): return all(finite(v) for v in x.values())
    if isinstance(x, list): return all(finite(v) for v in x)
    if isinstance(x, float): return math.isfinite(x)
    return True
assert finite(d), 'non-finite number'
assert d['memory']['fits'], 'does not fit'
if d['cost']['build']['run_usd'] is None:
    # a system that is not sold (systems.sale = rent): rent only
    assert 'not sold' in d['cost']['breakeven_reason'], 'no build side'
    assert d['cost']['cheaper'] == 'cloud' and d['cost']['cloud']['run_usd'] > 0
else:
    assert d['cost']['build']['run_usd'] > 0
if d['plan']['workload']['kind'] == 'serve':
    s = d['serve']
    assert s['fits'] and s['gpus'] > 0 and s['usd_per_mtok_build'] > 0
    if s['owned_gpus'] > 0:
        want = s['owned_gpus'] * 24 - s['owned_idle_gpu_hours_per_day'] + s['burst_gpu_hours_per_day']
        # the burst is rented in whole instances: each of the profile's
        # steps rounds up by less than one instance (issue 18)
        c = d['cost']['cloud']
        gpi = c['billed_gpus'] / c['instances']
        over = want - s['fleet_gpu_hours_per_day']
        assert -1e-9 * want <= over < 24 * gpi, 'hybrid hours do not add up'
        assert s['usd_per_day_hybrid'] > s['burst_usd_per_day'] > 0
else:
    assert d['time']['train_days'] > 0
PY
    then ok "seed plan $name quotes"; else fail "seed plan $name quotes" "$(cat "$tmp/err")"; fi
done

if run compare data/plans/hybrid-owned.ini data/plans/hybrid-burst.ini \
    --format csv >"$tmp/cmp.csv" 2>"$tmp/err" &&
    head -1 "$tmp/cmp.csv" | grep -q '^section,metric,unit,hybrid-owned,hybrid-burst'; then
    ok "hybrid owned vs burst compares"
else
    fail "hybrid owned vs burst compares" "$(cat "$tmp/err")"
fi

# All-owned, all-cloud and hybrid serving line up in one table.
if run compare data/plans/serve-llama70b.ini data/plans/hybrid-train-serve.ini \
    --format csv >"$tmp/cmp.csv" 2>"$tmp/err" &&
    grep -q '^serve,usd_per_day_build,' "$tmp/cmp.csv" &&
    grep -q '^serve,usd_per_day_cloud,' "$tmp/cmp.csv" &&
    grep -q '^serve,usd_per_day_hybrid,USD/day,0,[1-9]' "$tmp/cmp.csv" &&
    ! grep -q '^time,' "$tmp/cmp.csv"; then
    ok "all-owned, all-cloud and hybrid serving compare"
else
    fail "serving compare" "$(cat "$tmp/err")"
fi

# Identities the finance sheet relies on.
run quote data/plans/azure-nd-h100-v5.ini --format json >"$tmp/a.json" 2>/dev/null
if python3 - "$tmp/a.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
e, c, r, t = d['energy'], d['cost'], d['reliability'], d['time']
assert abs(e['facility_kw'] - e['it_kw'] * e['pue']) <= 1e-9 * e['facility_kw'], 'facility != IT x PUE'
assert d['plan']['cloud']['term'] == 'reserved_1y'
want = 1024 * 8760 * c['cloud']['usd_per_gpu_hour']
assert abs(c['cloud']['cash_usd'] - want) <= 1e-9 * want, 'reserved cash != GPUs x term hours x rate'
assert abs(want - 70.56e6) < 0.01e6, want
# issue 18: the run's cost is its share of the term at the utilization
share = t['gpu_hours'] / c['cloud']['goodput'] * c['cloud']['usd_per_used_gpu_hour']
assert abs(c['cloud']['run_usd'] - min(share, want)) <= 1e-9 * want, 'reserved run != share'
assert c['cloud']['run_usd'] <= c['cloud']['cash_usd']
PY
then ok "facility = IT x PUE; a 1-year reservation commits \$70.56M, the run its share"; else fail "finance identities"; fi
run quote data/plans/azure-nd-h100-v5.ini --set cloud.term=on_demand --format json >"$tmp/od.json" 2>/dev/null
if python3 - "$tmp/od.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
c, r, t = d['cost'], d['reliability'], d['time']
want = t['gpu_hours'] / r['goodput'] * c['cloud']['usd_per_gpu_hour']
assert abs(c['cloud']['run_usd'] - want) <= 1e-9 * want, 'cloud run != GPU-hours x price'
PY
then ok "on-demand cloud run = GPU-hours x price"; else fail "on-demand identity"; fi

# Issue 12, on equal footing: the reserved 3-year term at $1.93 is paid
# for idle hours too, so at utilization 0.9 a busy hour costs $2.14, and
# that is what the owned cluster's busy hour is compared with.
run quote data/plans/hybrid-owned.ini --format json >"$tmp/h.json" 2>/dev/null
if python3 - "$tmp/h.json" <<'PY'
import json, sys
c = json.load(open(sys.argv[1]))['cost']
b, cl = c['build'], c['cloud']
assert abs(cl['cash_usd'] - 512 * 26280 * 1.93) < 1, cl['cash_usd']
assert cl['run_usd'] < cl['cash_usd']
assert abs(cl['usd_per_used_gpu_hour'] - 1.93 / 0.9) < 1e-9
assert b['usd_per_gpu_hour'] < cl['usd_per_used_gpu_hour'], (b, cl)
assert c['cheaper'] == 'build'
PY
then ok "hybrid: reserved and owned compared at the same utilization"; else fail "hybrid equal footing"; fi

# Missing prices: no verdict, empty cells, null in JSON, a warning.
run quote --model llama3-8b --accel trainium2 --gpus 64 --tokens 1T --format json >"$tmp/t.json" 2>/dev/null
run quote --model llama3-8b --accel trainium2 --gpus 64 --tokens 1T --format csv >"$tmp/t.csv" 2>/dev/null
if python3 - "$tmp/t.json" "$tmp/t.csv" <<'PY'
import csv, json, sys
d = json.load(open(sys.argv[1]))
c = d['cost']
assert c['cheaper'] is None and c['breakeven_months'] is None
assert c['build']['usd_per_gpu_hour'] is None and c['build']['capex_usd'] is None
assert c['breakeven_reason']
assert any('has no price' in w for w in d['warnings'])
rows = {(r[0], r[1]): r[3] for r in csv.reader(open(sys.argv[2])) if len(r) > 3}
assert rows[('cost', 'cheaper')] == '' and rows[('cost', 'breakeven_months')] == ''
assert rows[('cost.build', 'capex_nodes_usd')] == ''
PY
then ok "a missing price is a warning and an empty cell"; else fail "missing price"; fi

# "Never" is null with its reason, not a horizon.
run quote data/plans/hybrid-owned.ini --set finance.depreciation_years=3 --set cloud.term=on_demand --set cloud.usd_per_gpu_hour=1.2 --format json >"$tmp/n.json" 2>/dev/null
if python3 - "$tmp/n.json" <<'PY'
import json, sys
c = json.load(open(sys.argv[1]))['cost']
assert c['breakeven_months'] is None and c['breakeven_utilization'] is None, c
assert 'utilization' in c['breakeven_reason'] and c['cheaper'] == 'cloud'
PY
then ok "no payback is null with a reason"; else fail "never"; fi

# A negotiated price imported into the catalog changes the quote.
run catalog export cloud "$tmp/cloud.csv" 2>/dev/null
python3 - "$tmp/cloud.csv" "$tmp/cloud2.csv" <<'PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1], newline='')))
out = [r for r in rows if r['id'] == 'azure-nd96isr-h100-v5' and r['term'] == 'reserved_1y']
for r in out:
    r['usd_per_gpu_hour'] = repr(float(r['usd_per_gpu_hour']) / 2)
    r['source'] = 'negotiated quote (test)'
    r['as_of'] = '2026-11-01'
w = csv.DictWriter(open(sys.argv[2], 'w', newline=''), fieldnames=list(rows[0].keys()))
w.writeheader(); w.writerows(out)
PY
if run catalog import cloud "$tmp/cloud2.csv" >/dev/null 2>"$tmp/err" &&
    run quote data/plans/azure-nd-h100-v5.ini --format json >"$tmp/b.json" &&
    python3 - "$tmp/a.json" "$tmp/b.json" <<'PY'
import json, sys
a, b = (json.load(open(p))['cost']['cloud'] for p in sys.argv[1:3])
assert abs(b['usd_per_gpu_hour'] - a['usd_per_gpu_hour'] / 2) < 1e-9
assert abs(b['run_usd'] - a['run_usd'] / 2) <= 1e-9 * a['run_usd']
PY
then ok "an imported price halves the cloud run cost"; else fail "imported price changes the quote" "$(cat "$tmp/err")"; fi
if run quote data/plans/azure-nd-h100-v5.ini --explain 2>/dev/null |
    grep -q 'negotiated quote (test) (as of 2026-11-01)'; then
    ok "--explain lists the price with its source and as_of"
else
    fail "--explain lists the price with its source and as_of"
fi

for bad in finance.utilization=0 finance.utilization=1.5 \
    finance.depreciation_years=0 finance.cost_of_capital=-0.1 \
    site.usd_per_kwh=-1 cloud.usd_per_gpu_hour=-2 site.pue=0.5; do
    key=${bad%%=*}
    run quote data/plans/dgx-h100-node.ini --set "$bad" >"$tmp/out" 2>"$tmp/err"
    rc=$?
    if [ $rc -eq 2 ] && grep -q "$key" "$tmp/err" && [ ! -s "$tmp/out" ] &&
        [ "$(wc -l <"$tmp/err")" -eq 1 ]; then
        ok "bad finance input $bad: exit 2 naming the key"
    else
        fail "bad finance input $bad" "rc=$rc $(cat "$tmp/err")"
    fi
done

# DeepSeek-V3 (2024): 2.788M H800 GPU-hours at an assumed $2/GPU-hour is
# $5.576M, when the GPU-hours are given instead of modelled.
if run quote --model deepseek-v3 --accel h800-sxm --gpus 2048 --tokens 14.8T \
    --set train.gpu_hours=2.788M --set cloud.usd_per_gpu_hour=2 \
    --set train.global_batch=15360 --format json >"$tmp/ds.json" 2>"$tmp/err" &&
    python3 - "$tmp/ds.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
assert abs(d['cost']['cloud']['run_usd'] - 5.576e6) < 1e-3, d['cost']['cloud']
assert abs(d['reliability']['effective_train_days'] * 24 * 2048 - 2.788e6) < 1e-3
PY
then ok "DeepSeek-V3: 2.788M GPU-hours at \$2 is \$5.576M"; else fail "DeepSeek-V3 arithmetic" "$(cat "$tmp/err")"; fi

# An offer states how many GPUs it can supply: the default (cheapest)
# offer passes over one too small for the job, and naming it warns.
# (issue 18: a published capacity carries its capacity_source)
printf 'id,term,provider,instance,accel_id,gpus_per_instance,region,usd_per_gpu_hour,source,as_of,capacity_gpus,capacity_source\ntiny-h100,on_demand,Tiny,t8,h100-sxm,8,x,0.5,test row,2026,64,test quota\n' >"$tmp/tiny.csv"
if run catalog import cloud "$tmp/tiny.csv" >/dev/null 2>"$tmp/err" &&
    run quote --model llama3-8b --accel h100-sxm --gpus 16 --tokens 1T --format json >"$tmp/c16.json" 2>/dev/null &&
    run quote --model llama3-8b --accel h100-sxm --gpus 1024 --tokens 1T --format json >"$tmp/c1k.json" 2>/dev/null &&
    run quote --model llama3-8b --accel h100-sxm --gpus 1024 --tokens 1T --cloud tiny-h100 --format json >"$tmp/cn.json" 2>/dev/null &&
    python3 - "$tmp/c16.json" "$tmp/c1k.json" "$tmp/cn.json" <<'PY'
import json, sys
a, b, c = (json.load(open(p)) for p in sys.argv[1:4])
assert a['cost']['cloud']['offer'] == 'tiny-h100', a['cost']['cloud']['offer']
assert b['cost']['cloud']['offer'] != 'tiny-h100', b['cost']['cloud']['offer']
assert any('supplies at most 64 GPUs' in w for w in c['warnings']), c['warnings']
assert c['cost']['cloud']['capacity_gpus'] == 64, c['cost']['cloud']
PY
then ok "the default offer can supply the job; a too-small offer warns"
else fail "offer capacity" "$(cat "$tmp/err")"; fi

# The README's public-figure table, within 25% (issue 12).
# (a fresh catalog: the one above holds an imported negotiated price)
"$BIN" --catalog "$tmp/fresh.db" quote data/plans/azure-nd-h100-v5.ini --format json >"$tmp/az.json" 2>/dev/null
"$BIN" --catalog "$tmp/fresh.db" quote data/plans/meta-rsc.ini --format json >"$tmp/rsc.json" 2>/dev/null
if python3 - "$tmp/az.json" "$tmp/rsc.json" <<'PY'
import json, sys
az, rsc = (json.load(open(p)) for p in sys.argv[1:3])
def near(x, want, what):
    assert abs(x - want) <= 0.25 * want, (what, x, want)
b = az['cost']['build']
near(az['cost']['cloud']['commitment_usd'], 70.56e6, 'Azure 1-year reservation')
near(az['energy']['nameplate_it_kw'], 128 * 10.2, 'ND H100 v5 node power')
share = b['capex_network_usd'] / (b['capex_nodes_usd'] + b['capex_network_usd'])
assert 0.07 <= share <= 0.15, ('network share of IT CapEx', share)
b = rsc['cost']['build']
near(b['capex_nodes_usd'], 2000 * 199e3, 'RSC: 2,000 DGX A100 at launch price')
near(rsc['network']['nodes'] * (8 * 400 + 3300) / 1000, 13000, 'RSC: DGX A100 nameplate')
near(rsc['storage']['provisioned_tb'], 231000, 'RSC storage 231 PB')
near(b['capex_storage_usd'], 231000 * 300, 'RSC storage priced per TB')
PY
then ok "seed plans within 25% of the README's public figures"
else fail "public figures"; fi
