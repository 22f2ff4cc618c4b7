#!/bin/sh
# test_serve_pool_outputs.sh - a pool measured alone (serve.pool) reports
# what the pool does: the decode pool takes no prompts (their KV arrives
# from the prefill pool), so its input tokens/s and the per-input-token
# prices are null in JSON, empty in CSV and "-" in the table, while its
# output tokens are there; the prefill pool has its input tokens/s.
set -u
. "$(dirname "$0")/lib.sh"

plan=data/plans/serve-deepseek-v3-pd.ini
alone="--set serve.disaggregated=no --set serve.prefill.gpus=0
    --set serve.prefill.ep=0 --set serve.prefill.attention_dp=0
    --set serve.decode.gpus=0 --set serve.decode.ep=0
    --set serve.decode.attention_dp=0 --set hardware.gpus=144
    --set parallel.ep=144 --set serve.attention_dp=144
    --set serve.mode=offline"

# shellcheck disable=SC2086
if L quote "$plan" $alone --set serve.pool=decode --format json \
    >"$tmp/d.json" 2>"$tmp/err" &&
    L quote "$plan" $alone --set serve.pool=prefill --format json \
        >"$tmp/p.json" 2>>"$tmp/err"; then
    check "serve.pool=decode: no input tokens/s, output tokens/s" \
        python3 - "$tmp/d.json" "$tmp/p.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))['serve']
p = json.load(open(sys.argv[2]))['serve']
assert d['fits'] and d['output_tokens_per_s'] > 0, d
for k in ('input_tokens_per_s', 'usd_per_mtok_input_build', 'usd_per_mtok_input_cloud'):
    assert d[k] is None, (k, d[k])
assert p['fits'] and p['input_tokens_per_s'] > 0, p
PY
else
    fail "serve.pool=decode quotes" "$(head -c 200 "$tmp/err")"
fi

# shellcheck disable=SC2086
run L quote "$plan" $alone --set serve.pool=decode --format csv
check "serve.pool=decode: empty input tokens/s cell in CSV" \
    grep -qx 'serve,input_tokens_per_s,tok/s,' "$tmp/out"
# shellcheck disable=SC2086
run L quote "$plan" $alone --set serve.pool=decode
check "serve.pool=decode: input tokens/s '-' in the table" \
    grep -qE '^ +input_tokens_per_s +- +tok/s$' "$tmp/out"

# The prefill pool alone generates no token after the first: its TPOT,
# the decode step and the end-to-end time are unknown, null in JSON, empty
# in CSV and "-" in the table (not 0, which reads as infinitely fast),
# while its TTFT is there.
if [ -s "$tmp/p.json" ]; then
    check "serve.pool=prefill: TPOT, decode step and e2e null in JSON" \
        python3 - "$tmp/p.json" <<'PY'
import json, sys
p = json.load(open(sys.argv[1]))['serve']
for k in ('tpot_ms', 'tpot_p50_ms', 'tpot_p90_ms', 'tpot_p99_ms',
          'decode_step_ms', 'e2e_s'):
    assert p[k] is None, (k, p[k])
assert p['ttft_ms'] > 0 and p['ttft_p99_ms'] >= p['ttft_p50_ms'] > 0, p
PY
fi
# shellcheck disable=SC2086
run L quote "$plan" $alone --set serve.pool=prefill --format csv
check "serve.pool=prefill: empty TPOT cell in CSV" \
    grep -qx 'serve,tpot_ms,ms,' "$tmp/out"
# shellcheck disable=SC2086
run L quote "$plan" $alone --set serve.pool=prefill
check "serve.pool=prefill: TPOT '-' in the table" \
    grep -qE '^ +tpot_ms +- +ms$' "$tmp/out"
check "serve.pool=prefill: TTFT a number in the table" \
    grep -qE '^ +ttft_ms +[0-9.]+[kM]? +ms$' "$tmp/out"
