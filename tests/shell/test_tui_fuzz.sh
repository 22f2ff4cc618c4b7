#!/bin/sh
# test_tui_fuzz.sh - random key scripts through the real views (script
# backend): every key, prompts fed odd text, resizes down to 1x1, clicks
# anywhere.  Deterministic (awk srand with fixed seeds), so a failure
# reproduces; under `make asan` it also catches memory errors and leaks.
# Each seed must end with exit 0 and nothing on stderr.
#
#   sh tests/shell/test_tui_fuzz.sh [FIRST_SEED [COUNT]]
set -u
. "$(dirname "$0")/lib.sh"
first=${1:-1}
count=${2:-24}

keys="q ? p c s g x t Tab BTab Up Down Left Right PgUp PgDn Home End Enter
Esc / a Delete F1 F2 F3 F4 F5 F6 F7 F8 F9 w o N y n i r > < Backspace C-u
1 0 . - Space text:auto text:-5 text:1e400 text:abc text:h100
text:9999999999999999999 text:hardware.gpus=8 text:\xc3\xa9 resize:30x8
resize:80x24 resize:200x60 resize:81x25 resize:1x1 click:38,0 click:5,5
click:50,10 click:0,23 click:10,3 click:70,12"
failed=0
s=$first
while [ "$s" -lt $((first + count)) ]; do
    d="$tmp/$s"
    mkdir -p "$d/home"
    echo "$keys" | awk -v seed="$s" '
        { for (i = 1; i <= NF; i++) k[++n] = $i }
        END {
            srand(seed)
            for (i = 0; i < 300; i++) {
                r = int(rand() * n) + 1
                if (k[r] == "q" && rand() < 0.95) continue
                print k[r]
            }
        }' >"$d/k"
    (cd "$d" && env -i LC_ALL=C TZ=UTC HOME="$d/home" PATH=/usr/bin:/bin \
        "$BIN" --catalog "$d/c.db" tui --ui-script "$d/k" --ui-size 80x24 \
        --ui-dump "$d/s" >"$d/out" 2>"$d/err" </dev/null)
    rc=$?
    if [ $rc -ne 0 ] || [ -s "$d/err" ] || [ ! -s "$d/s" ]; then
        echo "  exit $rc"
        head -30 "$d/err" | sed 's/^/  /'
        echo "FAIL tui fuzz seed $s (keys: $d/k)"
        failed=1
    else
        echo "ok tui fuzz seed $s"
        rm -rf "$d"
    fi
    s=$((s + 1))
done
[ $failed -eq 0 ]
