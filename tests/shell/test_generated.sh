#!/bin/sh
# test_generated.sh - the generated headers are not stale: each of
# src/plan/stack_errors.h and serve_errors.h records the SHA-256 of the
# data it was computed from (`make validate`, tests/validate_table.py);
# a change to those files without `make validate` fails here.
# Prints "ok ..." / "FAIL ..." / "SKIP ...".
set -u
. "$(dirname "$0")/lib.sh"
SHARED=${SHARED:-../shared}

for h in src/plan/stack_errors.h src/plan/serve_errors.h; do
    what="$h is current with the data it was generated from"
    line=$(sed -n 's/^ \* inputs: sha256 \([0-9a-f]*\) of \([^*]*\)\( \*\/\)\{0,1\}$/\1 \2/p' "$h")
    if [ -z "$line" ]; then
        fail "$what" "no inputs line: run make validate"
        continue
    fi
    want=${line%% *}
    files=$(echo "${line#* }" | sed "s#\.\./shared#$SHARED#g")
    absent=""
    for f in $files; do [ -f "$f" ] || absent="$absent $f"; done
    if [ -n "$absent" ]; then
        skip "$what" "missing$absent"
        continue
    fi
    # shellcheck disable=SC2086
    got=$(cat $files | sha256sum | cut -d' ' -f1)
    if [ "$got" = "$want" ]; then ok "$what"
    else fail "$what" "inputs changed since: run make validate"; fi
done
