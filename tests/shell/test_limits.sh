#!/bin/sh
# test_limits.sh - absurd but valid plans: 10^15 parameters, 10^7 GPUs, a
# sequence of 10^7 tokens, 1 GPU for 1T parameters, a search space of
# billions of layouts.  Each gives a result (exit 0, every JSON number
# finite, "does not fit" said when it does not) or a clear one-line error
# (exit 2), and finishes within a hang guard (60 s; a wall-clock target belongs to make bench); the layout search stops at
# its work cap and says so (a warning, and "stopped_early" in search
# --format json).  Prints "ok <what>" / "FAIL <what>".
set -u
HANG=${LLMPLAN_HANG_S:-60}
. "$(dirname "$0")/lib.sh"
DB="$tmp/catalog.db"
"$BIN" --catalog "$DB" catalog list sites >/dev/null 2>&1


# json_ok FILE FITS: every number finite (NaN/Infinity refused), memory
# parts sum to the total, and when FITS is "no" a "does not fit" warning
json_ok() {
    python3 - "$1" "$2" <<'PY'
import json, math, sys
def refuse(x):
    raise ValueError('non-finite number ' + x)
d = json.load(open(sys.argv[1]), parse_constant=refuse)
items = d['results'] if 'results' in d else [d]
def walk(x):
    if isinstance(x, dict):
        for v in x.values(): walk(v)
    elif isinstance(x, list):
        for v in x: walk(v)
    elif isinstance(x, float):
        assert math.isfinite(x), x
for it in items:
    walk(it)
    m = it['memory']
    parts = sum(m[k] for k in ('weights_gib', 'gradients_gib', 'optimizer_gib',
                               'activations_gib', 'overhead_gib'))
    assert abs(parts - m['total_gib']) <= 1e-6 * max(1.0, m['total_gib']), (parts, m)
    if sys.argv[2] == 'no':
        assert m['fits'] is False
        assert any('does not fit' in w for w in it['warnings']), it['warnings']
PY
}

# quote NAME FITS ARGS...: exit 0 without hanging, JSON sane
quote() {
    name=$1
    fits=$2
    shift 2
    timeout "$HANG" "$BIN" --catalog "$DB" quote "$@" --format json \
        >"$tmp/q.json" 2>"$tmp/q.err"
    rc=$?
    check "$name: exit 0 without hanging" test $rc -eq 0
    [ $rc -eq 0 ] || { head -c 300 "$tmp/q.err"; return; }
    check "$name: finite numbers, parts sum to total${fits:+, fits=$fits}" \
        json_ok "$tmp/q.json" "$fits"
}

# refused NAME ARGS...: exit 2 without hanging, one clear stderr line, no stdout
refused() {
    name=$1
    shift
    timeout "$HANG" "$BIN" --catalog "$DB" "$@" >"$tmp/r.out" 2>"$tmp/r.err"
    rc=$?
    check "$name: exit 2 with one clear line" sh -c \
        "test $rc -eq 2 && test ! -s '$tmp/r.out' && test \$(wc -l <'$tmp/r.err') -eq 1 && grep -q '^llmplan: [a-z-]' '$tmp/r.err'"
}

quote "10^15 parameters on 1024 H100" no --model llama3-70b \
    --set model.params=1e15 --accel h100-sxm --gpus 1024 --tokens 15T
quote "10^7 GPUs" "" --model llama3-70b --accel h100-sxm --gpus 1e7 \
    --batch 1e7 --tokens 15T
quote "sequence 10^7" "" --model llama3-70b --accel h100-sxm --gpus 1024 \
    --seq-len 1e7 --tokens 15T
quote "1 GPU for 1T parameters" no --model megatron-1t --accel h100-sxm \
    --gpus 1 --tokens 1T
quote "1 GPU for 10^15 parameters, no preset" no --set model.params=1e15 \
    --accel h100-sxm --gpus 1 --tokens 1T
quote "all at once: 10^15 params, 10^7 GPUs, seq 10^7, 10^15 tokens" no \
    --model llama3-70b --set model.params=1e15 --accel b200 --gpus 1e7 \
    --batch 1e7 --seq-len 1e7 --tokens 1e15
quote "the same with a fixed layout" no --model llama3-70b \
    --set model.params=1e15 --accel b200 --gpus 1e7 --batch 1e7 \
    --seq-len 1e7 --tokens 1e15 --tp 1 --pp 1 --dp 1e7 --microbatch 1
quote "MoE on 10^7 GPUs, seq 10^7 (search capped)" "" --model deepseek-v3 \
    --accel b200 --gpus 1e7 --batch 1e7 --seq-len 1e7 --tokens 1e15
quote "largest counts the schema takes" "" --model llama3-8b --accel h100-sxm \
    --gpus 1e7 --batch 1e7 --tokens 1e15 --set train.seq_len=1e7 \
    --set finance.depreciation_years=30 --set reliability.node_mtbf_h=1e7
quote "tiny everything" "" --model llama3-8b --accel h100-sxm --gpus 1 \
    --batch 1 --tokens 1 --seq-len 1

# a search space of billions of layouts: 83160 layers (128 divisors), 720
# experts, 665280 GPUs
big="--model llama3-70b --set model.layers=83160 --set model.heads=55440
    --set model.kv_heads=55440 --set model.hidden=55440 --accel gb200
    --gpus 665280 --tokens 15T --set train.seq_len=32768
    --set train.global_batch=665280 --set model.experts=720
    --set model.experts_active=2"
# shellcheck disable=SC2086
timeout "$HANG" "$BIN" --catalog "$DB" search $big --top 3 --format json \
    >"$tmp/s.json" 2>"$tmp/s.err"
rc=$?
check "huge search space: search exits 0 without hanging" test $rc -eq 0
check "huge search space: search.stopped_early is true" python3 -c "
import json, sys
d = json.load(open(sys.argv[1]))
assert d['search']['stopped_early'] is True
assert any('stopped early' in w for w in d['results'][0]['warnings'])
" "$tmp/s.json"
check "huge search space: JSON numbers finite" json_ok "$tmp/s.json" ""
# shellcheck disable=SC2086
timeout "$HANG" "$BIN" --catalog "$DB" quote $big --format json >"$tmp/q.json" 2>"$tmp/q.err"
check "huge search space: quote exits 0 without hanging and warns of the cap" \
    sh -c "test $? -eq 0 && grep -q 'stopped early' '$tmp/q.json'"
# shellcheck disable=SC2086
timeout "$HANG" "$BIN" --catalog "$DB" search $big --top 3 >"$tmp/s.txt" 2>&1
check "huge search space: the table says it stopped early" grep -q 'stopped early' "$tmp/s.txt"
timeout "$HANG" "$BIN" --catalog "$DB" search --model llama3-8b --accel h100-sxm \
    --gpus 64 --tokens 1T --format json >"$tmp/s.json" 2>&1
check "an ordinary search is not stopped early" python3 -c "
import json, sys
assert json.load(open(sys.argv[1]))['search']['stopped_early'] is False
" "$tmp/s.json"

# out of range or impossible: clear errors, never a hang
refused "10^16 parameters" quote --model llama3-70b --set model.params=1e16 \
    --accel h100-sxm --gpus 8
refused "10^300 GPUs" quote --model llama3-70b --accel h100-sxm --gpus 1e300
refused "2^64 tokens" quote --model llama3-70b --accel h100-sxm --gpus 8 \
    --tokens 18446744073709551616
refused "a count with 400 digits" quote --model llama3-70b --accel h100-sxm \
    --gpus "$(python3 -c 'print("9" * 400)')"
refused "10^7 GPUs with a batch of 1024" quote --model llama3-70b \
    --accel h100-sxm --gpus 1e7 --tokens 15T
refused "negative GPUs" quote --model llama3-70b --accel h100-sxm --gpus -8
refused "0 GPUs" quote --model llama3-70b --accel h100-sxm --gpus 0
refused "tp beyond the heads" quote --model llama3-8b --accel h100-sxm \
    --gpus 8 --tp 1e7

# a big import: 200000 rows validate (duplicate keys by sorting, not by
# comparing every pair) and land without hanging; a duplicate among them is
# found and named by its line
hdr=$(head -n 1 "$(dirname "$0")/../../data/sites.csv")
awk -v h="$hdr" 'BEGIN { print h; for (i = 1; i <= 200000; i++)
    printf "big-%d,Big %d,1.2,0.1,0.3,30,140,0,1e7,test,2025,test,2025,C,,,,,\n", i, i }' \
    >"$tmp/big.csv"
timeout "$HANG" "$BIN" --catalog "$DB" catalog import sites "$tmp/big.csv" >/dev/null 2>"$tmp/i.err"
check "200000-row import without hanging" test $? -eq 0
check "all 200000 rows are there" \
    test "$("$BIN" --catalog "$DB" catalog list sites --format csv | grep -c '^big-')" -eq 200000
{ cat "$tmp/big.csv"; echo "big-7,Again,1.2,0.1,0.3,30,140,0,1e7,test,2025,test,2025,C,,,,,"; } >"$tmp/dup.csv"
timeout "$HANG" "$BIN" --catalog "$DB" catalog import sites "$tmp/dup.csv" >/dev/null 2>"$tmp/i.err"
check "a duplicate key among 200001 rows: exit 2 without hanging, naming its line" \
    sh -c "test $? -eq 2 && grep -q ':200002: id: duplicate key .big-7.' '$tmp/i.err'"

# endless input files (/dev/zero) are refused, not read forever
for args in "quote /dev/zero" "catalog import sites /dev/zero" \
    "plan save z /dev/zero" "--theme /dev/zero tui --ui-script /dev/null" \
    "tui --check-theme /dev/zero" "tui --check-keys /dev/zero" \
    "tui --ui-script /dev/zero"; do
    # shellcheck disable=SC2086
    timeout "$HANG" "$BIN" --catalog "$DB" $args >/dev/null 2>"$tmp/z.err"
    rc=$?
    check "llmplan $args: refused (exit 1 or 2) without hanging, with a message" \
        sh -c "test $rc -eq 2 -o $rc -eq 1 && grep -q 'cannot read' '$tmp/z.err'"
done

# Issue 14, item 5: a count over a preset is one model, never two (MFU was
# 1.72 for llama3-8b with model.params=30e9); a count that contradicts an
# explicit shape is refused naming model.params; an MoE preset cannot be
# resized by a count.
"$BIN" --catalog "$DB" quote --model llama3-8b --set model.params=30e9 \
    --accel h100-sxm --gpus 64 --tokens 1T --format json >"$tmp/p.json" 2>"$tmp/p.err"
check "model.params over a preset derives the shape: MFU and HFU within 1, and a note" \
    python3 - "$tmp/p.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
t = d['time']
assert 0 < t['mfu'] <= 1 and t['hfu'] <= 1, t
assert abs(d['model']['params'] - 30e9) < 1e6
assert any('replaces the shape' in w for w in d['warnings']), d['warnings']
PY
"$BIN" --catalog "$DB" quote --model llama3-8b --set model.params=30e9 \
    --set model.hidden=4096 --accel h100-sxm --gpus 64 --tokens 1T >"$tmp/p.out" 2>"$tmp/p.err"
rc=$?
check "model.params that contradicts the shape: exit 2 naming model.params" \
    sh -c "test $rc -eq 2 && grep -q 'model.params' '$tmp/p.err' && test ! -s '$tmp/p.out'"
"$BIN" --catalog "$DB" quote --model deepseek-v3 --set model.params=100G \
    --accel h100-sxm --gpus 64 --tokens 1T >"$tmp/p.out" 2>"$tmp/p.err"
rc=$?
check "model.params over an MoE preset: exit 2 naming model.params" \
    sh -c "test $rc -eq 2 && grep -q 'model.params' '$tmp/p.err'"
