#!/bin/sh
# test_size_columns.sh - `size --format csv` and `--format json` are one
# column table (export_size.c): every CSV column of a frontier option is
# the same value as the JSON key of that name (the layout's and the
# replica's keys nested), for training and serving fleets, aggregated and
# disaggregated; the header has no duplicate.
set -u
. "$(dirname "$0")/lib.sh"

# same_cells NAME ARGS...: the CSV and JSON of one size run agree.
same_cells() {
    name=$1
    shift
    if ! L size "$@" --format csv >"$tmp/s.csv" 2>"$tmp/err" ||
        ! L size "$@" --format json >"$tmp/s.json" 2>>"$tmp/err"; then
        fail "$name" "$(head -c 200 "$tmp/err")"
        return
    fi
    check "$name" python3 - "$tmp/s.csv" "$tmp/s.json" <<'PY'
import csv, json, sys
rows = list(csv.DictReader(open(sys.argv[1], newline='')))
hdr = open(sys.argv[1]).readline().strip().split(',')
doc = json.load(open(sys.argv[2]))
front = doc['frontier']
assert len(hdr) == len(set(hdr)), hdr
assert front and len([r for r in rows if r['rank']]) == len(front)
NEST = {'prefill_': ('replica', 'prefill'), 'decode_': ('replica', 'decode')}

def flat(p):
    out = {}
    for k, v in p.items():
        if k in ('layout', 'replica'):
            for k2, v2 in v.items():
                if isinstance(v2, dict):
                    for k3, v3 in v2.items():
                        out[k2 + '_' + k3] = v3
                else:
                    out[k2] = v2
        else:
            out[k] = v
    return out

def cell(v):
    if v is None:
        return ''
    if isinstance(v, bool):
        return 'yes' if v else 'no'
    return v

bad = []
for r, p in zip(rows, front):
    f = flat(p)
    for k in hdr:
        if k in ('rank', 'status'):
            continue
        assert k in f or r[k] == '', (k, r[k])
        v = cell(f.get(k))
        if isinstance(v, float) or isinstance(v, int):
            ok = r[k] != '' and abs(float(r[k]) - v) <= 1e-9 * max(1, abs(v))
        else:
            ok = r[k] == v
        if not ok:
            bad.append((r['rank'], k, r[k], v))
assert not bad, bad[:5]
PY
}

same_cells "size columns: training CSV = JSON" --model llama3-8b \
    --set train.tokens=1e12 --deadline 30 --accel dgx-h100,tpu-v6e-pod
same_cells "size columns: serving CSV = JSON" --model llama3-70b \
    --set workload.kind=serve --set serve.tokens_per_day=3e10 \
    --set serve.ttft_ms=1000 --set serve.tpot_ms=40 --accel gb200-nvl72
# a serving fleet's gpus are what it buys, as training's: whole racks
# (units x GPUs) owned or whole instances rented, not the replicas' GPUs
check "size columns: serving gpus = whole units x GPUs" \
    python3 - "$tmp/s.csv" <<'PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1], newline='')))
whole = [r for r in rows if r['buy'] in ('own', 'rent')]
assert whole and any(r['unit_gpus'] == '72' for r in whole)
for r in whole:
    assert int(r['gpus']) == int(r['units']) * int(r['unit_gpus']), r
    assert r['buy'] == 'rent' or int(r['owned_gpus']) == int(r['gpus']), r
for r in rows:
    if r['buy'] == 'hybrid':
        assert int(r['owned_gpus']) % int(r['unit_gpus']) == 0, r
        assert int(r['gpus']) > int(r['owned_gpus']), r
PY
same_cells "size columns: disaggregated pools CSV = JSON" \
    --model deepseek-v3 --accel h100-sxm --set workload.kind=serve \
    --set software.stack=sglang --set serve.weights=fp8 \
    --set serve.input_tokens=2000 --set serve.output_tokens=500 \
    --set serve.requests_per_s=200 --set serve.ttft_ms=3000 \
    --set serve.tpot_ms=50 --set serve.disaggregated=yes
# ... and its rows name each pool's own parallelism, not the replica's
# tp1 pp1 (the pools' GPUs add up to the fleet's)
check "size columns: pools' own tp, ep and attention DP in the CSV" \
    python3 - "$tmp/s.csv" <<'PY'
import csv, sys
rows = [r for r in csv.DictReader(open(sys.argv[1], newline='')) if r['rank']]
pooled = [r for r in rows if r['prefill_gpus']]
assert pooled and all(r['tp'] and r['pp'] for r in rows if r not in pooled)
for r in pooled:
    assert r['tp'] == r['pp'] == r['ep'] == '', r
    for pool in ('prefill', 'decode'):
        g, tp, ep, adp = (int(r['%s_%s' % (pool, k)]) for k in ('gpus', 'tp', 'ep', 'attention_dp'))
        assert ep > 1 and tp >= 1 and adp >= 1 and g % ep == 0, r
    assert int(r['prefill_gpus']) + int(r['decode_gpus']) <= int(r['gpus']), r
PY
