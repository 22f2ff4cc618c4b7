#!/bin/sh
# test_serve.sh - issue 11's promises for serving, end to end:
#  * the issue's quote sizes and prices the fleet (make bench times it), with every
#    JSON key of README "Serving", finite;
#  * --explain defines every latency (TTFT with queueing, TPOT);
#  * a serving search over layouts, batch and replicas (its wall time is make bench's);
#  * CSV carries the serve rows and no training-only rows;
#  * bad serving input: a result with the reason, or exit 2 naming the key.
# Prints "ok <what>" / "FAIL <what>".
set -u
. "$(dirname "$0")/lib.sh"
cat="$tmp/catalog.db"
run() { "$BIN" --catalog "$cat" "$@"; }
issue="--model llama3.3-70b --accel h100-sxm --set workload.kind=serve
 --set serve.tokens_per_day=2e10 --set serve.peak_to_avg=2
 --set serve.ttft_ms=1000 --set serve.tpot_ms=50 --set hardware.gpus=auto"

run catalog list stacks >/dev/null 2>&1 # the catalog exists before timing
# shellcheck disable=SC2086
if run quote $issue --format json >"$tmp/q.json" 2>"$tmp/err" &&
    python3 - "$tmp/q.json" <<'PY'
import json, math, sys
d = json.load(open(sys.argv[1]))
s = d['serve']
need = ('kv_bytes_per_token kv_gib weights_gib max_batch batch prefill_ms ttft_ms '
        'tpot_ms e2e_s output_tokens_per_s output_tokens_per_s_per_gpu input_tokens_per_s '
        'requests_per_s replicas gpus prefill_gpus decode_gpus utilization '
        'usd_per_mtok_build usd_per_mtok_cloud wh_per_mtok burst_gpu_hours_per_day '
        'owned_idle_gpu_hours_per_day').split()
missing = [k for k in need if k not in s]
assert not missing, 'missing %s' % missing
assert all(math.isfinite(s[k]) for k in need if isinstance(s[k], float))
assert s['fits'] and s['gpus'] >= 1 and s['gpus'] == d['plan']['hardware']['gpus']
assert s['ttft_ms'] <= 1000 and s['tpot_ms'] <= 50
assert s['usd_per_mtok_build'] > 0 and s['usd_per_mtok_cloud'] > 0
assert 'time' not in d and 'reliability' not in d and 'train' not in d['plan']
PY
then ok "the issue's serving quote sizes and prices the fleet"
else fail "the issue's serving quote" "$(cat "$tmp/err")"; fi

# shellcheck disable=SC2086
run quote $issue --explain >"$tmp/x.txt" 2>&1
if grep -A1 '^  ttft_ms .* ms$' "$tmp/x.txt" | grep -q '= time to first token = queueing + prefill' &&
    grep -A1 '^  tpot_ms .* ms$' "$tmp/x.txt" | grep -q '= mean time between output tokens of one request after the first'; then
    ok "--explain defines TTFT and TPOT"
else
    fail "--explain defines TTFT and TPOT"
fi

# shellcheck disable=SC2086
if run search $issue --set serve.weights=fp8 --objective cost --top 20 \
    --format json >"$tmp/s.json" 2>"$tmp/err" &&
    python3 - "$tmp/s.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
r = d['results']
assert len(r) > 3 and all(x['serve']['fits'] for x in r)
assert len({(x['layout']['tp'], x['plan']['serve']['max_batch']) for x in r}) > 3
cost = [x['serve']['usd_per_day_build'] / x['serve']['output_tokens_per_s'] for x in r]
assert cost == sorted(cost), 'not cheapest first'
PY
then ok "serving search over layouts and batch, cheapest first"
else fail "serving search" "$(cat "$tmp/err")"; fi

if run quote data/plans/hybrid-train-serve.ini --format csv >"$tmp/q.csv" 2>"$tmp/err" &&
    grep -q '^serve,burst_gpu_hours_per_day,' "$tmp/q.csv" &&
    grep -q '^plan.serve,owned_gpus,[a-z]*,256' "$tmp/q.csv" &&
    ! grep -q '^time,' "$tmp/q.csv" && ! grep -q '^plan.train,' "$tmp/q.csv"; then
    ok "serving CSV: serve rows, no training rows"
else
    fail "serving CSV" "$(cat "$tmp/err")"
fi

# Bad input: a result with the reason (exit 0), never a NaN.
for case in "serve.input_tokens=2000000 --tp 2:never fits" \
    "serve.tpot_ms=1:no batch meets serve.tpot_ms" \
    "serve.ttft_ms=5:no batch meets serve.ttft_ms"; do
    set_=${case%%:*}
    why=${case#*:}
    # shellcheck disable=SC2086
    if run quote $issue --set $set_ --format json >"$tmp/b.json" 2>"$tmp/err" &&
        python3 - "$tmp/b.json" "$why" <<'PY'
import json, math, sys
d = json.load(open(sys.argv[1]))
def finite(x):
    if isinstance(x, dict): return all(finite(v) for v in x.values())
    if isinstance(x, list): return all(finite(v) for v in x)
    if isinstance(x, float): return math.isfinite(x)
    return True
assert finite(d) and not d['serve']['fits']
assert any(sys.argv[2] in w for w in d['warnings']), d['warnings']
PY
    then ok "bad serving input $set_: a result with the reason"
    else fail "bad serving input $set_" "$(cat "$tmp/err")"; fi
done
# shellcheck disable=SC2086
if ! run quote $issue --set serve.tokens_per_day=0 >"$tmp/out" 2>"$tmp/err" &&
    [ ! -s "$tmp/out" ] && grep -q '^llmplan: serve.tokens_per_day: no demand' "$tmp/err"; then
    ok "zero demand: exit 2 naming serve.tokens_per_day"
else
    fail "zero demand" "$(cat "$tmp/err")"
fi

# Issue 18: the verdict prices the fleet at the busy fraction of its own
# daily profile, so it agrees with the day's costs; and owning the whole
# fleet costs the same whatever owned base a hybrid names.
: >"$tmp/days"
for n in 0 4 8 100; do
    run quote data/plans/serve-llama70b.ini --set serve.owned_gpus=$n \
        --format json >"$tmp/s$n.json" 2>"$tmp/err" || echo "exit $n" >>"$tmp/days"
done
if python3 - "$tmp" <<'PY' && [ ! -s "$tmp/days" ]
import json, sys
d = {n: json.load(open('%s/s%d.json' % (sys.argv[1], n))) for n in (0, 4, 8, 100)}
s0, c0 = d[0]['serve'], d[0]['cost']
busy = s0['fleet_gpu_hours_per_day'] / (s0['gpus'] * 24)
assert 0.4 < busy < 0.6, busy
assert c0['cheaper'] == ('build' if s0['usd_per_day_build'] < s0['usd_per_day_cloud'] else 'cloud'), (c0['cheaper'], s0)
days = {n: d[n]['serve']['usd_per_day_build'] for n in d}
assert max(days.values()) - min(days.values()) <= 1e-9 * days[0], days
PY
then ok "serving verdict agrees with the day's costs; all-owned cost ignores owned_gpus"
else fail "serving verdict and owned cost" "$(cat "$tmp/days" "$tmp/err")"; fi

# Issue 18: the hybrid's schedule carries the cloud burst bill, a year of
# the daily burst, in the build and the cloud cash alike.
if run quote data/plans/hybrid-train-serve.ini --format csv --schedule \
        --output "$tmp/h.csv" 2>"$tmp/err" && python3 - "$tmp/h.csv" <<'PY'
import csv, sys
v = {(r[0], r[1]): r[3] for r in csv.reader(open(sys.argv[1], newline=''))}
day = float(v[('serve', 'burst_usd_per_day')])
year = float(v[('schedule.year_1', 'burst_usd')])
assert day > 0 and abs(year - 365 * day) <= 1e-6 * year, (day, year)
y1 = {k[1]: float(x) for k, x in v.items() if k[0] == 'schedule.year_1' and x}
assert abs(y1['build_cash_usd'] - (y1['energy_usd'] + y1['other_opex_usd'] + year)) <= 1e-6 * year
assert y1['cloud_cash_usd'] >= year
PY
then ok "hybrid schedule carries the burst bill"
else fail "hybrid burst in the schedule" "$(cat "$tmp/err")"; fi
