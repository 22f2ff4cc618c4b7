#!/bin/sh
# test_security.sh - security hygiene:
#   - SQL injection: names such as "x'); DROP TABLE plans;--" are free
#     text and read back verbatim; as ids and plan names they are refused;
#     nothing is dropped (prepared statements only);
#   - format strings: "%n%s%x" in names, values, paths and options is
#     printed as text, never interpreted; a call with a non-literal format
#     does not compile (-Wformat=2 -Werror and the format attributes);
#   - the binary is a PIE with full RELRO (BIND_NOW), built with
#     -fstack-protector-strong and -D_FORTIFY_SOURCE=2;
#   - the catalog is created 0600 in a 0700 directory, whatever the umask.
# Prints "ok <what>" / "FAIL <what>".
. "$(dirname "$0")/lib.sh"
ROOT=$(cd "$(dirname "$0")/../.." && pwd)

printf '[model]\npreset = llama3-8b\n[hardware]\naccelerator = h100-sxm\ngpus = 8\n' >"$tmp/p.ini"
L plan save victim "$tmp/p.ini" >/dev/null 2>&1

# ---- SQL injection ----------------------------------------------------------
INJ="x'); DROP TABLE plans;--"
INJ2='Robert"); DELETE FROM sites WHERE (1=1 OR "a"="a'
FMT='%n%n%s%s%x%p %999999999d'
hdr=$(L catalog export sites | head -n 1)
python3 - "$tmp/names.csv" "$hdr" "$INJ" "$INJ2" "$FMT" <<'PY'
import csv, sys
path, hdr, inj, inj2, fmt = sys.argv[1:]
cols = hdr.split(',')
rows = [('sec-a', inj), ('sec-b', inj2), ('sec-c', fmt),
        ('sec-d', 'tab\there, newline\nthere, quote " and comma ,')]
with open(path, 'w', newline='') as f:
    w = csv.writer(f, lineterminator='\n')
    w.writerow(cols)
    for rid, name in rows:
        r = dict.fromkeys(cols, '')
        r.update(id=rid, name=name, pue='1.2', usd_per_kwh='0.1',
                 kgco2_per_kwh='0.3', source=name, as_of='2025',
                 price_source=name, price_as_of='2025', notes=name)
        w.writerow([r[c] for c in cols])
PY
run L catalog import sites "$tmp/names.csv"
check "names with SQL and format strings import (exit 0)" test "$rc" -eq 0
check "the plans table is still there, with its plan" \
    sh -c "'$BIN' --catalog '$DB' plan show victim | grep -q llama3-8b"
check "the sites table is intact (the default rows are there)" \
    sh -c "'$BIN' --catalog '$DB' catalog show sites us-average >/dev/null"
L catalog show sites sec-a --format json >"$tmp/a.json" 2>&1
L catalog show sites sec-b --format json >"$tmp/b.json" 2>&1
L catalog show sites sec-c --format json >"$tmp/c.json" 2>&1
L catalog show sites sec-d --format json >"$tmp/d.json" 2>&1
verbatim() { # verbatim FILE TEXT: name, source and notes read back as TEXT
    python3 - "$1" "$2" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
row = d[0] if isinstance(d, list) else d
for k in ('name', 'source', 'notes'):
    assert row[k] == sys.argv[2], (k, row[k], sys.argv[2])
PY
}
check "an SQL-looking name reads back verbatim" verbatim "$tmp/a.json" "$INJ"
check "a second SQL-looking name reads back verbatim" verbatim "$tmp/b.json" "$INJ2"
check "a format-string name reads back verbatim" verbatim "$tmp/c.json" "$FMT"
check "tabs, newlines, quotes and commas read back verbatim" verbatim "$tmp/d.json" \
    "$(printf 'tab\there, newline\nthere, quote " and comma ,')"
L catalog export sites >"$tmp/e1.csv"
L catalog import sites "$tmp/e1.csv" >/dev/null 2>&1
L catalog export sites >"$tmp/e2.csv"
check "they survive export -> import -> export byte for byte" cmp -s "$tmp/e1.csv" "$tmp/e2.csv"
L catalog list sites >"$tmp/list.txt" 2>&1
check "the table listing prints the format string as text" grep -qF '%n%n%s%s' "$tmp/list.txt"

# as ids they are refused, and nothing is written
sed "s/^sec-a,/$(printf '%s' "$INJ" | sed 's/[&/\]/\\&/g'),/" "$tmp/names.csv" >"$tmp/badid.csv"
before=$(L catalog export sites | cksum)
run L catalog import sites "$tmp/badid.csv"
grep -qF "$INJ" "$tmp/badid.csv" || echo "FAIL the bad-id file does not hold the id"
check "an SQL-looking id is refused (exit 2, names the column)" \
    sh -c "test $rc -eq 2 && grep -q ':2: id: ' '$tmp/err'"
check "a refused import writes nothing" test "$(L catalog export sites | cksum)" = "$before"
run L plan save "$INJ" "$tmp/p.ini"
check "an SQL-looking plan name is refused with exit 2" test "$rc" -eq 2
run L plan show "$INJ"
check "plan show of an SQL-looking name: exit 2" test "$rc" -eq 2
run L plan delete "x' OR '1'='1"
check "plan delete with an OR 1=1 name: exit 2" test "$rc" -eq 2
run L catalog show sites "x' OR '1'='1"
check "catalog show with an OR 1=1 id: exit 2, nothing printed" \
    sh -c "test $rc -eq 2 && test ! -s '$tmp/out'"
run L catalog show accelerators "h100-sxm' --"
check "catalog show with a comment-tail id: exit 2" test "$rc" -eq 2
run L quote --model "llama3-8b' OR 1=1 --" --accel h100-sxm --gpus 8
check "an SQL-looking model id in a plan: exit 2" test "$rc" -eq 2
check "after all that, every plan and kind is still there" sh -c \
    "'$BIN' --catalog '$DB' plan list | grep -q '^victim ' &&
     for k in accelerators systems fabrics storage sites cloud models; do
         '$BIN' --catalog '$DB' catalog list \$k >/dev/null || exit 1; done"

# ---- format strings in input -------------------------------------------
run L quote --model llama3-8b --accel h100-sxm --gpus "$FMT"
check "a format string as a number: exit 2, printed as text" \
    sh -c "test $rc -eq 2 && grep -qF '%n%n%s%s' '$tmp/err'"
run L quote --model "$FMT" --accel h100-sxm --gpus 8
check "a format string as a catalog id: exit 2, printed as text" \
    sh -c "test $rc -eq 2 && grep -qF '%n%n%s' '$tmp/err'"
run L quote --set "model.$FMT=1" --accel h100-sxm --gpus 8
check "a format string as a key: exit 2" test "$rc" -eq 2
run L quote "$tmp/%n%s%x.ini"
check "a format string as a plan path: exit 2, printed as text" \
    sh -c "test $rc -eq 2 && grep -qF '%n%s%x.ini' '$tmp/err'"
printf '[model]\npreset = %s\n%s = 1\n' "$FMT" "$FMT" >"$tmp/fmt.ini"
run L quote "$tmp/fmt.ini"
check "format strings inside a plan file: exit 2" test "$rc" -eq 2
run "$BIN" --catalog "$tmp/%n%n%s/catalog.db" plan list
check "a format string in the catalog path works as a path" test "$rc" -eq 0
run "$BIN" "--$FMT"
check "a format string as an option: exit 2" test "$rc" -eq 2
run L catalog show "$FMT" x
check "a format string as a catalog kind: exit 2" test "$rc" -eq 2

# no printf-family call with a non-literal format compiles
cat >"$tmp/probe.c" <<'C'
#include "core/diag.h"
#include "util/strbuf.h"
#include "core/result.h"
#include <stdio.h>
int probe(struct diag *d, struct strbuf *sb, struct result *r, const char *user);
int probe(struct diag *d, struct strbuf *sb, struct result *r, const char *user)
{
    strbuf_addf(sb, user);
    result_warn(r, user);
    printf(user);
    return (int)diag_set(d, CP_ERR_USAGE, "x", user);
}
C
probe_errors=$(cc -std=c11 -Wformat=2 -Werror -I"$ROOT/src" -c "$tmp/probe.c" \
    -o "$tmp/probe.o" 2>&1 | grep -c 'format not a string literal')
check "non-literal formats do not compile (diag_set, strbuf_addf, result_warn, printf)" \
    test "$probe_errors" -ge 4
check "the build uses -Wformat=2 and -Werror" sh -c \
    "grep -q -- '-Wformat=2' '$ROOT/Makefile' && grep -q -- '-O2 -g \$(HARDEN) -Werror' '$ROOT/Makefile'"

# ---- hardening of the binary -------------------------------------------
if command -v readelf >/dev/null 2>&1; then
    check "PIE (ELF type DYN)" sh -c "readelf -h '$BIN' | grep -q 'Type:.*DYN'"
    check "full RELRO: GNU_RELRO segment" sh -c "readelf -lW '$BIN' | grep -q GNU_RELRO"
    check "full RELRO: BIND_NOW" sh -c "readelf -d '$BIN' | grep -Eq 'BIND_NOW|FLAGS_1.*NOW'"
    check "no executable stack" sh -c \
        "readelf -lW '$BIN' | grep GNU_STACK | grep -qv 'RWE'"
    if readelf --dyn-syms -W "$BIN" | grep -q '__asan_init\|__ubsan_handle'; then
        # make asan/ubsan: the sanitizers replace the fortified calls
        echo "ok stack protector and FORTIFY_SOURCE: not checked in a sanitizer build"
    else
        check "stack protector (__stack_chk_fail)" sh -c \
            "readelf --dyn-syms -W '$BIN' | grep -q __stack_chk_fail"
        check "FORTIFY_SOURCE (fortified *_chk calls)" sh -c \
            "readelf --dyn-syms -W '$BIN' | grep -Eq '__(snprintf|memcpy|fprintf|printf|vsnprintf)_chk'"
    fi
else
    echo "FAIL readelf is missing (binutils)"
fi

# ---- catalog file modes --------------------------------------------------
mode() { stat -c %a "$1"; }
(umask 000 && "$BIN" catalog list sites >/dev/null 2>&1)
check "default catalog under umask 000: file 0600" test "$(mode "$XDG_DATA_HOME/llmplan/catalog.db")" = 600
check "default catalog under umask 000: directory 0700" test "$(mode "$XDG_DATA_HOME/llmplan")" = 700
(umask 000 && "$BIN" plan save m "$tmp/p.ini" >/dev/null 2>&1)
ok=1
for f in "$XDG_DATA_HOME"/llmplan/*; do
    [ "$(mode "$f")" = 600 ] || { ok=0; echo "# $f is $(mode "$f")"; }
done
check "every file beside it (-wal, -shm) is 0600 too" test $ok -eq 1
(umask 000 && "$BIN" --catalog "$tmp/deep/er/catalog.db" plan list >/dev/null 2>&1)
check "--catalog in new directories: 0700 each, file 0600" sh -c \
    "test $(mode "$tmp/deep") = 700 && test $(mode "$tmp/deep/er") = 700 &&
     test $(mode "$tmp/deep/er/catalog.db") = 600"
