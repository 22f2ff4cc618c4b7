#!/bin/sh
# test_serve_pools.sh - issue 22 item 2, end to end:
#  * DeepSeek-V3 with a 4-node EP 32 prefill pool and an 18-node EP 144
#    decode pool (data/plans/serve-deepseek-v3-pd.ini) quotes (make bench times it):
#    176 GPUs in two pools, finite JSON, Little's law over both pools;
#  * size on a disaggregated MoE plan chooses wide-EP pools (its frontier
#    names each pool's EP and GPUs; the GPUs add up);
#  * a pool measured alone (serve.pool) and the pools' bad keys: exit 2
#    naming the key.
# Prints "ok <what>" / "FAIL <what>".
set -u
. "$(dirname "$0")/lib.sh"
cat="$tmp/catalog.db"
run() { "$BIN" --catalog "$cat" "$@"; }
plan=data/plans/serve-deepseek-v3-pd.ini

run catalog list stacks >/dev/null 2>&1 # the catalog exists
if run quote "$plan" --format json >"$tmp/q.json" 2>"$tmp/err" &&
    python3 - "$tmp/q.json" <<'PY'
import json, math, sys
d = json.load(open(sys.argv[1]))
s = d['serve']
assert all(math.isfinite(v) for v in s.values() if isinstance(v, float))
assert s['fits'], s['reason']
assert s['prefill_gpus'] == 32 and s['decode_gpus'] == 144 and s['gpus'] == 176, s
assert 0 < s['utilization'] <= 1
# closed loop: 2000 users = rate x (mean TTFT + decode); the mean TTFT lies
# between the prefill alone and the reported percentile
d_s = (500 - 1) * s['decode_step_ms'] / 1e3
lo = s['requests_per_s'] * (s['prefill_ms'] / 1e3 + d_s)
hi = s['requests_per_s'] * (s['ttft_ms'] / 1e3 + d_s)
assert lo < 2000 <= hi * (1 + 1e-6), (lo, hi)
assert abs(s['output_tokens_per_s'] - 500 * s['requests_per_s']) < 1e-6 * s['output_tokens_per_s']
PY
then
    ok "DeepSeek-V3 EP32 prefill + EP144 decode pools quote"
else
    fail "DeepSeek-V3 pools" "$(head -c 300 "$tmp/err")"
fi

if run size --model deepseek-v3 --accel h100-sxm --set workload.kind=serve \
    --set software.stack=sglang --set serve.weights=fp8 \
    --set serve.input_tokens=2000 --set serve.output_tokens=500 \
    --set serve.requests_per_s=200 --set serve.ttft_ms=3000 \
    --set serve.tpot_ms=50 --set serve.disaggregated=yes --format json \
    >"$tmp/sz.json" 2>"$tmp/err" && python3 - "$tmp/sz.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
f = d['frontier']
pools = [p for p in f if 'prefill' in p['replica']]
assert pools, [p['replica'] for p in f]
for p in pools:
    pf, dc = p['replica']['prefill'], p['replica']['decode']
    assert pf['gpus'] + dc['gpus'] == p['fleet_gpus'] <= p['gpus'], p
    assert pf['gpus'] % pf['ep'] == 0 and dc['gpus'] % dc['ep'] == 0, p
    assert pf['ep'] % 8 == 0 and dc['ep'] % 8 == 0, p  # whole nodes
    assert p['ttft_ms'] <= 3000 * (1 + 1e-9) and p['tpot_ms'] <= 50 * (1 + 1e-9), p
# the cheapest fleet is a pair of wide-EP pools
assert 'prefill' in f[0]['replica'], f[0]
PY
then
    ok "size chooses wide-EP prefill and decode pools"
else
    fail "size pools" "$(head -c 300 "$tmp/err")"
fi

# serve.disaggregated=auto: the pools compete with aggregated replicas and
# win here; the point's plan says yes and carries the pools' keys
if run size --model deepseek-v3 --accel h100-sxm --set workload.kind=serve \
    --set software.stack=sglang --set serve.weights=fp8 \
    --set serve.input_tokens=2000 --set serve.output_tokens=500 \
    --set serve.requests_per_s=200 --set serve.ttft_ms=3000 \
    --set serve.tpot_ms=50 --set serve.disaggregated=auto --format json \
    >"$tmp/sa.json" 2>"$tmp/err" && python3 - "$tmp/sa.json" "$tmp/sz.json" <<'PY'
import json, sys
a = json.load(open(sys.argv[1]))['frontier'][0]
y = json.load(open(sys.argv[2]))['frontier'][0]
assert 'prefill' in a['replica'], a
assert a['gpus'] == y['gpus'] and abs(a['usd_per_day'] - y['usd_per_day']) < 1e-6 * y['usd_per_day'], (a, y)
PY
then
    ok "size with serve.disaggregated=auto chooses the same pools"
else
    fail "size pools auto" "$(head -c 300 "$tmp/err")"
fi

# bad keys: exit 2, one line naming the key, nothing on stdout
for c in "serve.prefill.ep=32:serve.disaggregated=no:serve.prefill.gpus" \
         "serve.decode.ep=512:serve.decode.attention_dp=512:serve.decode.ep" \
         "serve.decode.gpus=100:serve.decode.attention_dp=144:serve.decode.gpus" \
         "serve.pool=both:serve.attention_dp=0:serve.attention_dp"; do
    a=${c%%:*}; r=${c#*:}; b=${r%%:*}; key=${r#*:}
    run quote "$plan" --set "$a" --set "$b" >"$tmp/out" 2>"$tmp/err"
    rc=$?
    if [ "$rc" -eq 2 ] && [ ! -s "$tmp/out" ] && [ "$(wc -l <"$tmp/err")" -eq 1 ] &&
        grep -q "^llmplan: $key: " "$tmp/err"; then
        ok "bad pool key $a $b: exit 2 naming $key"
    else
        fail "bad pool key $a $b" "$(cat "$tmp/err")"
    fi
done

# a pool measured alone: the decode pool of the plan, offline
if run quote "$plan" --set serve.disaggregated=no --set serve.prefill.gpus=0 \
    --set serve.prefill.ep=0 --set serve.prefill.attention_dp=0 \
    --set serve.decode.gpus=0 --set serve.decode.ep=0 \
    --set serve.decode.attention_dp=0 --set serve.pool=decode \
    --set hardware.gpus=144 --set parallel.ep=144 --set serve.attention_dp=144 \
    --set serve.mode=offline --format json >"$tmp/d.json" 2>"$tmp/err" &&
    python3 - "$tmp/d.json" <<'PY'
import json, sys
s = json.load(open(sys.argv[1]))['serve']
assert s['fits'] and s['gpus'] == 144 and s['decode_gpus'] == 144, s
assert abs(s['output_tokens_per_s'] - s['batch'] / (s['decode_step_ms'] / 1e3)) < 1e-6 * s['output_tokens_per_s']
PY
then
    ok "serve.pool=decode measures the decode pool alone"
else
    fail "serve.pool=decode" "$(head -c 300 "$tmp/err")"
fi
