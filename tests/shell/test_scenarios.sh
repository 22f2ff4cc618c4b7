#!/bin/sh
# test_scenarios.sh - issue 4's promises, end to end through ./llmplan:
#  * every seed plan in data/plans/ quotes (exit 0, finite JSON, fits);
#  * the hybrid pair compares;
#  * a price changed in the catalog (catalog import) changes the quote by
#    exactly that factor, and --explain lists it with source and as_of;
#  * facility = IT x PUE; cloud run cost = GPU-hours / goodput x price;
#  * bad finance input exits 2 naming the key, with nothing on stdout.
# Prints "ok <what>" / "FAIL <what>".
set -u
BIN=${BIN:-./llmplan}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export HOME="$tmp" XDG_DATA_HOME="$tmp/data" LC_ALL=C
cat="$tmp/catalog.db"
run() { "$BIN" --catalog "$cat" "$@"; }
ok() { echo "ok $1"; }
fail() { echo "FAIL $1${2:+: $2}"; }

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
assert d['cost']['build']['run_usd'] > 0
if d['plan']['workload']['kind'] == 'serve':
    s = d['serve']
    assert s['fits'] and s['gpus'] > 0 and s['usd_per_mtok_build'] > 0
    if s['owned_gpus'] > 0:
        want = s['owned_gpus'] * 24 - s['owned_idle_gpu_hours_per_day'] + s['burst_gpu_hours_per_day']
        assert abs(s['fleet_gpu_hours_per_day'] - want) <= 1e-9 * want, 'hybrid hours do not add up'
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
    grep -q '^serve,usd_per_day_hybrid,USD,0,[1-9]' "$tmp/cmp.csv" &&
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
pue = d['plan']['site']['pue']
assert abs(e['facility_kw'] - e['it_kw'] * pue) <= 1e-9 * e['facility_kw'], 'facility != IT x PUE'
want = t['gpu_hours'] / r['goodput'] * c['cloud']['usd_per_gpu_hour']
assert abs(c['cloud']['run_usd'] - want) <= 1e-9 * want, 'cloud run != GPU-hours x price'
PY
then ok "facility = IT x PUE; cloud run = GPU-hours x price"; else fail "finance identities"; fi

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
