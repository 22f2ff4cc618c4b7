#!/bin/sh
# test_catalog.sh - `llmplan catalog` end to end: first-use creation
# (0700/0600, fast), list/show in every format, import validation and
# all-or-nothing imports, export -> import -> export byte-identical,
# reset, exit codes, nothing on stdout on failure, and refusing files that
# are not catalogs.  Prints "ok <what>" / "FAIL <what>".
. "$(dirname "$0")/lib.sh"
fails() { # fails CODE: exit code, one stderr line, empty stdout
    test "$rc" -eq "$1" -a ! -s "$tmp/out" &&
        test "$(wc -l <"$tmp/err")" -eq 1 && grep -q '^llmplan: ' "$tmp/err"
}
mode() { stat -c %a "$1"; }

# ---- first use -----------------------------------------------------------
# (how fast is make bench's "first use"; a timed check here fails on a busy machine)
run L catalog list accelerators
check "first use creates and lists the catalog" test "$rc" -eq 0 -a -s "$tmp/out"
check "catalog file is 0600" test "$(mode "$DB")" = 600
check "catalog directory is 0700" test "$(mode "$tmp/cat")" = 700
check "no temporary left beside the catalog" \
    test "$(ls "$tmp/cat" | grep -vc '^catalog.db')" -eq 0
run "$BIN" catalog list models
check "default location is \$XDG_DATA_HOME/llmplan/catalog.db" \
    test "$rc" -eq 0 -a -f "$tmp/xdg/llmplan/catalog.db"
LLMPLAN_CATALOG="$tmp/env.db" "$BIN" catalog list sites >/dev/null 2>&1
check "\$LLMPLAN_CATALOG is honoured" test -f "$tmp/env.db"

# ---- list and show -------------------------------------------------------
for kind in accelerators systems fabrics storage sites cloud models; do
    run L catalog list $kind --format csv
    check "list $kind csv has id, source, as_of" sh -c \
        "test $rc -eq 0 && head -1 '$tmp/out' | grep -q '^id,' &&
         head -1 '$tmp/out' | grep -q ',source,as_of,'"
    run L catalog list $kind --format json
    check "list $kind json is an array" sh -c "test $rc -eq 0 &&
        python3 -c 'import json,sys; d=json.load(open(\"$tmp/out\"));
assert isinstance(d, list) and d and all(r[\"source\"] for r in d)'"
done
run L catalog show accelerators h100-sxm --format json
check "show json has typed values" python3 -c "
import json; d = json.load(open('$tmp/out'))
assert d['bf16_tflops'] == 989 and d['hbm_gib'] == 80 and d['id'] == 'h100-sxm'"
run L catalog show systems dgx-h100
check "show table prints every column" sh -c \
    "test $rc -eq 0 && grep -q '^node_mtbf_h *6336$' '$tmp/out'"
run L catalog show cloud azure-nd96isr-h100-v5 --format csv
check "show cloud lists every term" test "$(grep -c azure-nd96isr "$tmp/out")" -ge 3
run L catalog list models --output "$tmp/models.txt"
check "--output writes the file, nothing to stdout" \
    test "$rc" -eq 0 -a -s "$tmp/models.txt" -a ! -s "$tmp/out"

# ---- errors and exit codes -----------------------------------------------
run L catalog list gpus
check "unknown kind exits 2" fails 2
run L catalog show accelerators no-such-gpu
check "unknown id exits 2" fails 2
run L catalog list accelerators --format yaml
check "bad --format exits 2" fails 2
run L catalog frobnicate
check "unknown subcommand exits 2" fails 2
run L catalog list accelerators --output "$tmp/nodir/x.csv"
check "unwritable --output exits 1" fails 1

# ---- import ------------------------------------------------------------
cat >"$tmp/prices.csv" <<'CSV'
id,term,provider,instance,accel_id,gpus_per_instance,usd_per_gpu_hour,source,as_of
acme-8x-h100,on_demand,Acme,8x H100,h100-sxm,8,2.10,quote from Acme,2026-10
acme-8x-h100,reserved_1y,Acme,8x H100,h100-sxm,8,1.90,quote from Acme,2026-10
acme-8x-h100,reserved_3y,Acme,8x H100,h100-sxm,8,1.50,quote from Acme,2026-10
acme-8x-b200,on_demand,Acme,8x B200,b200,8,4.00,quote from Acme,2026-10
acme-8x-b200,spot,Acme,8x B200,b200,8,2.00,quote from Acme,2026-10
acme-8x-b200,reserved_1y,Acme,8x B200,b200,8,-1,quote from Acme,2026-10
CSV
run L catalog import cloud "$tmp/prices.csv"
check "bad import row exits 2 naming file:line: column" sh -c \
    "test $rc -eq 2 && grep -q 'prices.csv:7: usd_per_gpu_hour: must be a number' '$tmp/err'"
run L catalog show cloud acme-8x-h100
check "a file with a bad row imports nothing" fails 2
sed -i 's/,-1,/,3.00,/' "$tmp/prices.csv"
run L catalog import cloud "$tmp/prices.csv"
check "good import exits 0" test "$rc" -eq 0
run L catalog show cloud acme-8x-h100 --format csv
check "imported rows are there" test "$(grep -c acme "$tmp/out")" -eq 3
printf 'id,name,hbm_gib,hbm_tb_s,source,as_of,colour\nx,X,1,1,s,2024,red\n' \
    >"$tmp/bad.csv"
run L catalog import accelerators "$tmp/bad.csv"
check "unknown column exits 2 and names it" sh -c \
    "test $rc -eq 2 && grep -q \"'colour'\" '$tmp/err'"
run L catalog import accelerators "$tmp/missing.csv"
check "missing import file exits 2" fails 2

# ---- export round trip ---------------------------------------------------
ok=1
for kind in accelerators systems fabrics storage sites cloud models; do
    L catalog export $kind "$tmp/$kind.1.csv" >/dev/null 2>&1 || ok=0
    L catalog import $kind "$tmp/$kind.1.csv" >/dev/null 2>&1 || ok=0
    L catalog export $kind >"$tmp/$kind.2.csv" 2>/dev/null || ok=0
    cmp -s "$tmp/$kind.1.csv" "$tmp/$kind.2.csv" || ok=0
done
check "export -> import -> export is byte-identical for every kind" test $ok -eq 1
run L catalog list cloud --format csv
check "list --format csv equals export" cmp -s "$tmp/out" "$tmp/cloud.1.csv"
if LC_ALL=de_DE.UTF-8 locale 2>/dev/null | grep -q 'LC_NUMERIC="de_DE'; then
    LC_ALL=de_DE.UTF-8 "$BIN" --catalog "$DB" catalog export accelerators \
        >"$tmp/de.csv" 2>/dev/null
    check "export ignores a comma-decimal locale" \
        cmp -s "$tmp/de.csv" "$tmp/accelerators.1.csv"
fi

# ---- concurrent writers --------------------------------------------------
for i in 1 2 3 4 5 6; do
    sed "s/acme-/acme$i-/" "$tmp/prices.csv" >"$tmp/p$i.csv"
    L catalog import cloud "$tmp/p$i.csv" >/dev/null 2>"$tmp/c$i.err" &
done
wait
L catalog list cloud --format csv >"$tmp/all.csv" 2>/dev/null
check "six concurrent imports all land (busy timeout and retry)" \
    test "$(grep -c '^acme[1-6]-' "$tmp/all.csv")" -eq 36

# ---- reset ---------------------------------------------------------------
run L catalog reset
check "reset exits 0" test "$rc" -eq 0
run L catalog show cloud acme-8x-h100
check "reset drops imported rows" fails 2
run L catalog show models llama3-70b
check "reset restores the defaults" test "$rc" -eq 0

# ---- files that are not catalogs -------------------------------------------
printf 'hello, I am a text file\n' >"$tmp/text.db"
cp "$tmp/text.db" "$tmp/text.orig"
run "$BIN" --catalog "$tmp/text.db" catalog list models
check "a text file is refused with exit 1" fails 1
check "the text file is untouched" cmp -s "$tmp/text.db" "$tmp/text.orig"
printf '\211PNG\r\n\032\n\000\000\000\rIHDR' >"$tmp/img.png"
run "$BIN" --catalog "$tmp/img.png" catalog list models
check "a PNG is refused with exit 1" fails 1
head -c 12288 "$DB" >"$tmp/trunc.db"
cp "$tmp/trunc.db" "$tmp/trunc.orig"
run "$BIN" --catalog "$tmp/trunc.db" catalog list models
check "a truncated catalog is refused with exit 1" fails 1
check "the truncated catalog is untouched" cmp -s "$tmp/trunc.db" "$tmp/trunc.orig"
cp "$DB" "$tmp/ro.db"
chmod 0444 "$tmp/ro.db"
run "$BIN" --catalog "$tmp/ro.db" catalog reset
check "a read-only catalog is refused with exit 1" fails 1
if command -v sqlite3 >/dev/null 2>&1; then
    cp "$DB" "$tmp/new.db"
    sqlite3 "$tmp/new.db" 'PRAGMA user_version = 99'
    run "$BIN" --catalog "$tmp/new.db" catalog list models
    check "a newer schema is refused with exit 1" sh -c \
        "test $rc -eq 1 && grep -q newer '$tmp/err'"
fi
exit 0
