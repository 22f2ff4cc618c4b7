#!/bin/sh
# test_faults.sh - nothing is lost when things go wrong:
#   - a process killed (SIGKILL) inside an import's transaction leaves the
#     catalog exactly as it was (and unlocked); so does one killed at a
#     random moment of a big import;
#   - --output files are written to a temporary and renamed: a file-size
#     limit (ulimit -f) or an unwritable directory gives exit 1, leaves
#     the old file as it was and no temporary behind;
#   - a truncated, corrupt, empty or foreign file given as the catalog is
#     refused with exit 1 and a clear message, and left untouched;
#   - a catalog of a newer schema is refused; an older one is migrated in
#     one transaction (a migration that fails leaves it untouched), also
#     when several processes open it at once.
# Prints "ok <what>" / "FAIL <what>".
. "$(dirname "$0")/lib.sh"
fails() { # fails CODE [PATTERN]: exit code, empty stdout, llmplan: message
    test "$rc" -eq "$1" -a ! -s "$tmp/out" && grep -q '^llmplan: ' "$tmp/err" &&
        { [ $# -lt 2 ] || grep -qi "$2" "$tmp/err"; }
}
sum() { cksum <"$1"; }
py() { python3 - "$@"; }

# The whole catalog as text: every kind, the plans, the settings.
snapshot() { # snapshot DB OUT
    for k in accelerators systems fabrics storage sites cloud models; do
        "$BIN" --catalog "$1" catalog export "$k" || echo "export $k failed"
    done >"$2" 2>&1
    "$BIN" --catalog "$1" plan list | cut -c1-40 >>"$2" 2>&1
}
integrity() {
    py "$1" <<'PY'
import sqlite3, sys
c = sqlite3.connect(sys.argv[1])
sys.exit(0 if c.execute('PRAGMA integrity_check').fetchone()[0] == 'ok' else 1)
PY
}

L plan save keep "$(dirname "$0")/../golden/plans/good.ini" >/dev/null 2>&1 ||
    printf '[hardware]\naccelerator = h100-sxm\n' | L plan save keep /dev/stdin >/dev/null
L catalog export sites >"$tmp/sites.csv"

# ---- SIGKILL inside an import's transaction -----------------------------
# 3000 new sites, plus a changed default row: all or nothing.
{
    head -n 1 "$tmp/sites.csv"
    sed -n '2p' "$tmp/sites.csv" | sed 's/^\([^,]*\),[^,]*,/\1,CHANGED BY THE KILLED IMPORT,/'
    i=1
    while [ $i -le 3000 ]; do
        echo "kill-$i,Killed import row $i,1.2,0.1,0.3,30,140,0,1e7,test,2025,test,2025,C,,,,,"
        i=$((i + 1))
    done
} >"$tmp/big.csv"
snapshot "$DB" "$tmp/before.txt"
LLMPLAN_TEST_IMPORT_DELAY_MS=20000 "$BIN" --catalog "$DB" catalog import sites \
    "$tmp/big.csv" >/dev/null 2>"$tmp/kill.err" &
pid=$!
n=0
while ! grep -q 'rows written' "$tmp/kill.err" 2>/dev/null && [ $n -lt 200 ]; do
    sleep 0.05
    n=$((n + 1))
done
check "the import reached its transaction (test hook)" grep -q 'rows written' "$tmp/kill.err"
kill -KILL $pid 2>/dev/null
wait $pid 2>/dev/null
snapshot "$DB" "$tmp/after.txt"
check "SIGKILL inside the import's transaction: catalog as before" \
    cmp -s "$tmp/before.txt" "$tmp/after.txt"
check "no killed-import row is visible" sh -c "! grep -q 'kill-\|CHANGED BY' '$tmp/after.txt'"
check "the catalog passes integrity_check after the kill" integrity "$DB"
run L catalog import sites "$tmp/big.csv"
check "the next import is not blocked by the killed one" test "$rc" -eq 0
check "and all its 3000 rows land" \
    test "$(L catalog list sites --format csv | grep -c '^kill-')" -eq 3000
L catalog reset >/dev/null 2>&1

# SIGKILL at a few random moments of a big import (no hook): all or nothing.
{
    head -n 1 "$tmp/sites.csv"
    i=1
    while [ $i -le 40000 ]; do
        echo "rnd-$i,Random kill row $i,1.2,0.1,0.3,30,140,0,1e7,test,2025,test,2025,C,,,,,"
        i=$((i + 1))
    done
} >"$tmp/huge.csv"
ok=1
for delay in 0.02 0.1 0.3; do
    L catalog import sites "$tmp/huge.csv" >/dev/null 2>&1 &
    pid=$!
    sleep $delay
    kill -KILL $pid 2>/dev/null
    wait $pid 2>/dev/null
    n=$(L catalog list sites --format csv 2>/dev/null | grep -c '^rnd-')
    case $n in 0) ;; 40000) L catalog reset >/dev/null 2>&1 ;; *) ok=0 ;; esac
    integrity "$DB" || ok=0
done
check "SIGKILL at random moments of a 40000-row import: all or nothing" test $ok -eq 1
L catalog reset >/dev/null 2>&1

# ---- --output: temporary + rename ------------------------------------------
mkdir -p "$tmp/outdir"
echo "old contents" >"$tmp/outdir/q.json"
echo "old contents" >"$tmp/outdir/cloud.csv"
cp "$tmp/outdir/q.json" "$tmp/old.orig"
# search --top 100 prints ~0.5 MB; 200 blocks of 512 bytes leave room for
# the catalog's -shm file but not for the output.
(ulimit -f 200 && "$BIN" --catalog "$DB" search --model llama3-70b \
    --accel h100-sxm --gpus 1024 --top 100 --format json \
    --output "$tmp/outdir/q.json") >"$tmp/out.txt" 2>"$tmp/err"
rc=$?
check "file-size limit: search --output exits 1" test "$rc" -eq 1
check "file-size limit: the message names the file" grep -q "$tmp/outdir/q.json" "$tmp/err"
check "file-size limit: the old file is as it was" cmp -s "$tmp/outdir/q.json" "$tmp/old.orig"
check "file-size limit: no temporary left" \
    test "$(ls -A "$tmp/outdir" | sort | tr '\n' ' ')" = "cloud.csv q.json "
# 3000 sites export to some 300 KB; 200 blocks leave room for the
# catalog's 32 KB -shm file (a smaller limit fails the catalog's open, not
# the export, and a sanitizer build can die on the mapped -shm instead)
L catalog import sites "$tmp/big.csv" >/dev/null 2>&1
(ulimit -f 200 && "$BIN" --catalog "$DB" catalog export sites \
    "$tmp/outdir/cloud.csv") >"$tmp/out.txt" 2>"$tmp/err"
rc=$?
check "file-size limit: catalog export FILE exits 1" test "$rc" -eq 1
check "file-size limit: the export names its file" grep -q "$tmp/outdir/cloud.csv" "$tmp/err"
check "file-size limit: the old export is as it was" \
    cmp -s "$tmp/outdir/cloud.csv" "$tmp/old.orig"
check "file-size limit: no temporary left by export" \
    test "$(ls -A "$tmp/outdir" | sort | tr '\n' ' ')" = "cloud.csv q.json "
run "$BIN" --catalog "$DB" search --model llama3-70b --accel h100-sxm \
    --gpus 1024 --top 100 --format json --output "$tmp/outdir/q.json"
check "without the limit the same search writes the whole file" \
    python3 -c "import json,sys; json.load(open(sys.argv[1]))" "$tmp/outdir/q.json"

# killed at random moments while writing: the file is the old one or the
# whole new one, never half of one
ok=1
for delay in 0.01 0.05 0.1 0.2 0.4; do
    echo "old contents" >"$tmp/outdir/k.json"
    "$BIN" --catalog "$DB" search --model llama3-70b --accel h100-sxm \
        --gpus 1024 --top 100 --format json --output "$tmp/outdir/k.json" \
        >/dev/null 2>&1 &
    pid=$!
    sleep $delay
    kill -KILL $pid 2>/dev/null
    wait $pid 2>/dev/null
    if ! cmp -s "$tmp/outdir/k.json" "$tmp/old.orig"; then
        python3 -c "import json,sys; json.load(open(sys.argv[1]))" \
            "$tmp/outdir/k.json" 2>/dev/null || ok=0
    fi
done
rm -f "$tmp/outdir"/k.json.tmp.*
check "SIGKILL while writing --output: the old file or the whole new one" test $ok -eq 1

# an unwritable directory (root ignores modes: then /proc's, which no one
# can create files in)
mkdir -p "$tmp/ro"
chmod 0555 "$tmp/ro"
if [ "$(id -u)" = 0 ]; then rodir=/proc/self; else rodir="$tmp/ro"; fi
run L quote --model llama3-8b --accel h100-sxm --gpus 8 --output "$rodir/q.json"
check "read-only directory: quote --output exits 1" fails 1 "$rodir/q.json"
check "read-only directory: no file" test ! -e "$rodir/q.json"
check "read-only directory: no temporary" \
    sh -c "! ls -A '$rodir' 2>/dev/null | grep -q '^q\.json\.tmp'"
run L catalog export models "$rodir/models.csv"
check "read-only directory: catalog export exits 1" fails 1
check "read-only directory: no export file" test ! -e "$rodir/models.csv"
run L quote --model llama3-8b --accel h100-sxm --gpus 8 --output "$tmp/nodir/q.json"
check "missing directory: exit 1, no file" sh -c "test $rc -eq 1 && test ! -e '$tmp/nodir'"
run L quote --model llama3-8b --accel h100-sxm --gpus 8 --output "$tmp/outdir"
check "--output naming a directory: exit 1, 'is a directory'" fails 1 "is a directory"
run L quote --model no-such-model --accel h100-sxm --gpus 8 --output "$tmp/outdir/q.json"
check "a failed quote leaves --output alone" sh -c \
    "test $rc -eq 2 && python3 -c 'import json,sys; json.load(open(sys.argv[1]))' '$tmp/outdir/q.json'"

# ---- files that are not (healthy) catalogs ---------------------------------
refused() { # refused NAME FILE PATTERN: exit 1, clear message, untouched
    s0=$(sum "$2")
    run "$BIN" --catalog "$2" quote --model llama3-8b --accel h100-sxm --gpus 8
    check "$1: refused with exit 1" fails 1 "$3"
    run "$BIN" --catalog "$2" plan save x "$tmp/p.ini"
    check "$1: a write is refused with exit 1" fails 1 "$3"
    check "$1: the file is untouched" test "$(sum "$2")" = "$s0"
    check "$1: no -wal or -journal created beside it" \
        sh -c "test ! -s '$2-wal' && test ! -e '$2-journal'"
}
printf '[hardware]\naccelerator = h100-sxm\n' >"$tmp/p.ini"
# a clean copy of the catalog (checkpointed, no -wal)
py "$DB" "$tmp/clean.db" <<'PY'
import sqlite3, sys
src = sqlite3.connect(sys.argv[1])
dst = sqlite3.connect(sys.argv[2])
src.backup(dst)
dst.execute('PRAGMA journal_mode = DELETE')
dst.close()
PY
size=$(wc -c <"$tmp/clean.db")
head -c $((size / 2)) "$tmp/clean.db" >"$tmp/trunc.db"
refused "truncated catalog" "$tmp/trunc.db" "corrupt\|truncated\|malformed"
cp "$tmp/clean.db" "$tmp/corrupt.db"
# garbage over pages in the middle (page 1, the header, stays)
py "$tmp/corrupt.db" <<'PY'
import sys
f = open(sys.argv[1], 'r+b')
data = bytearray(f.read())
for off in range(4096, len(data) - 4096, 8192):
    data[off:off + 2048] = bytes((i * 37 + 11) % 256 for i in range(2048))
f.seek(0); f.write(data); f.close()
PY
refused "corrupt catalog" "$tmp/corrupt.db" "corrupt\|malformed"
: >"$tmp/empty.db"
refused "empty file" "$tmp/empty.db" "not an llmplan catalog"
py "$tmp/foreign.db" <<'PY'
import sqlite3, sys
c = sqlite3.connect(sys.argv[1])
c.execute('CREATE TABLE photos (id INTEGER PRIMARY KEY, path TEXT)')
c.execute("INSERT INTO photos (path) VALUES ('/home/me/cat.jpg')")
c.commit()
PY
refused "another program's SQLite database" "$tmp/foreign.db" "another program"
head -c 4096 /dev/urandom >"$tmp/random.db" 2>/dev/null
refused "random bytes" "$tmp/random.db" "not an llmplan catalog"
mkdir -p "$tmp/dir.db"
run "$BIN" --catalog "$tmp/dir.db" quote --model llama3-8b --accel h100-sxm --gpus 8
check "a directory as catalog: exit 1" fails 1 "not a file"

# ---- schema versions ----------------------------------------------------
cp "$tmp/clean.db" "$tmp/newer.db"
py "$tmp/newer.db" <<'PY'
import sqlite3, sys
c = sqlite3.connect(sys.argv[1]); c.execute('PRAGMA user_version = 99'); c.commit()
PY
refused "a newer schema" "$tmp/newer.db" "newer than this llmplan supports"

# An older catalog: version 0 (our application_id, no schema yet), with a
# plan-free, row-free shape.  Opening it migrates it to the current schema.
mkold() {
    py "$1" <<'PY'
import sqlite3, sys
c = sqlite3.connect(sys.argv[1])
c.execute('PRAGMA application_id = 1819045232')
c.execute('PRAGMA user_version = 0')
c.execute('CREATE TABLE legacy_notes (note TEXT)')
c.execute("INSERT INTO legacy_notes VALUES ('kept by the migration')")
c.commit()
PY
}
version() {
    py "$1" <<'PY'
import sqlite3, sys
print(sqlite3.connect(sys.argv[1]).execute('PRAGMA user_version').fetchone()[0])
PY
}
current=$(version "$DB")
mkold "$tmp/old.db"
run "$BIN" --catalog "$tmp/old.db" plan save migrated "$tmp/p.ini"
check "an older catalog opens (migrated) and takes a write" test "$rc" -eq 0
check "it is at the current schema version ($current)" test "$(version "$tmp/old.db")" = "$current"
check "its own data survived the migration" py "$tmp/old.db" <<'PY'
import sqlite3, sys
c = sqlite3.connect(sys.argv[1])
assert c.execute('SELECT note FROM legacy_notes').fetchone()[0] == 'kept by the migration'
PY
run "$BIN" --catalog "$tmp/old.db" plan show migrated
check "the plan saved through the migrated catalog reads back" test "$rc" -eq 0

# several processes opening the same old catalog at once: one migrates,
# the others see it done (the version is read again inside the lock)
mkold "$tmp/old4.db"
for i in 1 2 3 4 5 6; do
    ("$BIN" --catalog "$tmp/old4.db" plan save "m$i" "$tmp/p.ini" >/dev/null 2>"$tmp/m$i.err"
     echo $? >"$tmp/m$i.rc") &
done
wait
ok=1
for i in 1 2 3 4 5 6; do [ "$(cat "$tmp/m$i.rc")" = 0 ] || { ok=0; cat "$tmp/m$i.err"; }; done
check "six processes migrating one old catalog at once all succeed" test $ok -eq 1
check "and all six plans are there" \
    test "$("$BIN" --catalog "$tmp/old4.db" plan list | grep -c '^m[1-6] ')" -eq 6

# a migration that fails (the old file already has a conflicting table)
# rolls back: the file is as it was, still version 0
mkold "$tmp/bad-old.db"
py "$tmp/bad-old.db" <<'PY'
import sqlite3, sys
c = sqlite3.connect(sys.argv[1])
c.execute('CREATE TABLE plans (something_else INTEGER)')
c.commit()
PY
s0=$(sum "$tmp/bad-old.db")
run "$BIN" --catalog "$tmp/bad-old.db" plan list
check "a failing migration exits 1 and says so" fails 1 "migration failed"
check "a failing migration leaves the file as it was" test "$(sum "$tmp/bad-old.db")" = "$s0"
check "a failing migration leaves version 0" test "$(version "$tmp/bad-old.db")" = 0
