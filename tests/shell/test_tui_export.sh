#!/bin/sh
# test_tui_export.sh - the TUI's export goes through the CLI's exporters:
# the default plan exported from the plan view (CSV and JSON) is byte for
# byte what `llmplan quote` prints for the same plan; the comparison and
# the layouts export one column per plan / one row per layout.  The search
# view runs the pipeline of `llmplan search`: its JSON export equals the
# CLI's (elapsed time aside), and says when the search stopped early.  Prints
# "ok <what>" / "FAIL <what>".
set -u
. "$(dirname "$0")/lib.sh"

run() {
    (cd "$tmp" && env -i LC_ALL=C TZ=UTC HOME="$tmp/home" PATH=/usr/bin:/bin \
        "$BIN" --catalog "$tmp/c.db" "$@")
}

cat >"$tmp/k" <<'EOK'
x
C-u
text:plan.csv
Enter
x
C-u
text:plan.json
Enter
c
x
C-u
text:compare.csv
Enter
s
x
C-u
text:layouts.csv
Enter
x
C-u
text:layouts.json
Enter
EOK
if ! run tui --ui-script "$tmp/k" --ui-dump "$tmp/s" >"$tmp/out" 2>&1; then
    sed 's/^/  /' "$tmp/out"
    echo "FAIL tui export session"
    exit 1
fi
plan="--model llama3-70b --accel h100-sxm --gpus 1024 --tokens 15T"
# shellcheck disable=SC2086
run quote $plan --format csv >"$tmp/quote.csv"
# shellcheck disable=SC2086
run quote $plan --format json >"$tmp/quote.json"
for f in csv json; do
    if [ -s "$tmp/plan.$f" ] && cmp -s "$tmp/quote.$f" "$tmp/plan.$f"; then
        echo "ok tui export $f equals quote --format $f"
    else
        diff -u "$tmp/quote.$f" "$tmp/plan.$f" 2>&1 | head -20 | sed 's/^/  /'
        echo "FAIL tui export $f equals quote --format $f"
    fi
done
if head -n 1 "$tmp/compare.csv" 2>/dev/null |
    grep -q '^section,metric,unit,plan,hardware.accelerator=h200-sxm,'; then
    echo "ok tui export of the comparison"
else
    echo "FAIL tui export of the comparison: $(head -n 1 "$tmp/compare.csv" 2>&1)"
fi
n=$(wc -l <"$tmp/layouts.csv" 2>/dev/null || echo 0)
if [ "$n" -gt 2 ]; then
    echo "ok tui export of the layouts ($n lines)"
else
    echo "FAIL tui export of the layouts ($n lines)"
fi

# one search pipeline (issue 14, item 6): the TUI's layouts are the CLI's
# shellcheck disable=SC2086
run search $plan --top 50 --format json >"$tmp/search.json"
for f in search layouts; do
    grep -v '"elapsed_s"' "$tmp/$f.json" >"$tmp/$f.cmp" 2>/dev/null
done
if [ -s "$tmp/layouts.cmp" ] && cmp -s "$tmp/search.cmp" "$tmp/layouts.cmp"; then
    echo "ok tui search export equals search --format json"
else
    diff -u "$tmp/search.cmp" "$tmp/layouts.cmp" 2>&1 | head -20 | sed 's/^/  /'
    echo "FAIL tui search export equals search --format json"
fi

# a search that hits the work cap says so in the TUI's export too
cat >"$tmp/big.ini" <<'EOP'
[model]
preset = llama3-70b
layers = 83160
heads = 55440
kv_heads = 55440
hidden = 55440
experts = 720
experts_active = 2
[hardware]
accelerator = gb200
gpus = 665280
[train]
tokens = 15T
seq_len = 32768
global_batch = 665280
EOP
cat >"$tmp/k2" <<'EOK'
s
x
C-u
text:big.json
Enter
EOK
if run tui "$tmp/big.ini" --ui-script "$tmp/k2" --ui-dump "$tmp/s2" \
    >"$tmp/out2" 2>&1 &&
    grep -q '"stopped_early": true' "$tmp/big.json" 2>/dev/null; then
    echo "ok tui search export: stopped_early true when the search stopped early"
else
    sed 's/^/  /' "$tmp/out2"
    grep stopped "$tmp/big.json" 2>&1 | sed 's/^/  /'
    echo "FAIL tui search export: stopped_early true when the search stopped early"
fi
