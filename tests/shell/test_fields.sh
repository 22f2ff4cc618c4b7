#!/bin/sh
# test_fields.sh - a field needs one row (core/fields.h): the fuzz
# dictionaries and the man page's "Plan keys" block are generated from the
# table (`llmplan fields --dict NAME`, `llmplan fields --man`), and every
# field is in --help.  FIELDS_UPDATE=1 (make golden-update) rewrites the
# generated files instead of comparing them.
# Prints "ok ..." / "FAIL ...".
set -u
. "$(dirname "$0")/lib.sh"
MAN=llmplan.1
BEGIN='^\.\\" begin plan keys'
END='^\.\\" end plan keys'

for dict in set plan_ini; do
    what="tests/fuzz/$dict.dict is 'llmplan fields --dict $dict'"
    run "$BIN" fields --dict "$dict"
    if [ "$rc" -ne 0 ]; then
        fail "$what" "exit $rc: $(cat "$tmp/err")"
    elif [ "${FIELDS_UPDATE:-}" = 1 ]; then
        cp "$tmp/out" "tests/fuzz/$dict.dict" && ok "$what (written)"
    elif cmp -s "$tmp/out" "tests/fuzz/$dict.dict"; then
        ok "$what"
    else
        fail "$what" "stale: run make golden-update"
    fi
done

what="$MAN's plan keys block is 'llmplan fields --man'"
run "$BIN" fields --man
if [ "$rc" -ne 0 ] || ! grep -q "$BEGIN" "$MAN" || ! grep -q "$END" "$MAN"; then
    fail "$what" "exit $rc or no begin/end plan keys lines in $MAN"
elif [ "${FIELDS_UPDATE:-}" = 1 ]; then
    awk -v gen="$tmp/out" '
        /^\.\\" end plan keys/ { skip = 0 }
        !skip { print }
        /^\.\\" begin plan keys/ {
            while ((getline l < gen) > 0) print l
            skip = 1
        }
    ' "$MAN" >"$tmp/man" && cat "$tmp/man" >"$MAN" && ok "$what (written)"
else
    sed -n "/$BEGIN/,/$END/p" "$MAN" | sed '1d;$d' >"$tmp/block"
    if cmp -s "$tmp/out" "$tmp/block"; then ok "$what"
    else fail "$what" "stale: run make golden-update"; fi
fi

run "$BIN" fields --dict nope
check "fields --dict nope: exit 2 naming --dict" \
    test "$rc" -eq 2 -a ! -s "$tmp/out"
check "fields --dict nope: the message names --dict" \
    grep -q -- "--dict" "$tmp/err"

run "$BIN" fields
cut -f1 "$tmp/out" >"$tmp/names"
check "fields lists a row per field" \
    test "$rc" -eq 0 -a "$(wc -l <"$tmp/names")" -ge 100
"$BIN" --help >"$tmp/help"
check "fields is not in --help" sh -c "! grep -q '^  fields ' '$tmp/help'"
missing=""
while read -r name; do
    grep -q "^  $name = " "$tmp/help" || missing="$missing $name"
done <"$tmp/names"
if [ -z "$missing" ]; then ok "every field in --help"
else fail "every field in --help" "missing:$missing"; fi
