#!/bin/sh
# test_hardening.sh - what a newcomer and an attacker hit (issue 14): each
# block is one item of the README's "Hardening" section.
#   - --output is the user's file: devices and FIFOs are written, never
#     replaced; a symbolic link is followed (a dangling one refused); mode,
#     owner and hard links stay; a read-only file and the open catalog are
#     refused; a new file honours the umask;
#   - catalog import with some of the columns updates only those columns
#     of a stored row; a new row must give every required one;
#   - plan files: lines of any length; an indented line is an ordinary
#     line, not the continuation of the previous value;
#   - a NUL byte in a CSV file is refused, not cut short; control
#     characters (ESC, BEL, CR, BS) in catalog text are shown as ^X by the
#     table formats and --explain, never sent raw to the terminal;
#   - a read-only catalog (file or directory) still serves quote, list,
#     export and plan show (opened read-only); a full disk or a read-only
#     directory is reported as such, never as "catalog is corrupt";
#   - a value out of range planted in the catalog with sqlite3 is refused
#     when the row is loaded (exit 2, naming kind, id and column), never an
#     assertion failure; and a TUI that crashes all the same (SIGABRT,
#     SIGSEGV) leaves the terminal as it found it;
#   - a FIFO plan file is read once (it hung); a plan that cannot be read
#     for permissions exits 1 (I/O), a missing one 2; --help into a full
#     disk exits 1; option values are checked whole, not cut at 255; 15t
#     and 30B are counts;
#   - import and list stream: a million-row catalog needs no more memory
#     than a small one;
# Prints "ok <what>" / "FAIL <what>".
. "$(dirname "$0")/lib.sh"
mode_of() { stat -c %a "$1"; }

L catalog list sites >/dev/null 2>&1
L catalog export sites >"$tmp/sites.csv"

# ---- 1. --output is the user's file ------------------------------------------
o="$tmp/o"
mkdir -p "$o"
(umask 077 && "$BIN" --catalog "$DB" catalog export sites "$o/new.csv")
check "output: a new file honours the umask (077 -> 600)" \
    test "$(mode_of "$o/new.csv")" = 600
(umask 022 && "$BIN" --catalog "$DB" quote --model llama3-8b --accel h100-sxm \
    --gpus 8 --format json --output "$o/new.json")
check "output: a new file honours the umask (022 -> 644)" \
    test "$(mode_of "$o/new.json")" = 644
echo old >"$o/kept.csv"
chmod 640 "$o/kept.csv"
L catalog export sites "$o/kept.csv"
check "output: an existing file keeps its mode (640)" \
    test "$(mode_of "$o/kept.csv")" = 640
check "output: and gets the new contents" cmp -s "$o/kept.csv" "$tmp/sites.csv"
if [ "$(id -u)" = 0 ]; then
    echo old >"$o/owned.csv"
    chown 65534:65534 "$o/owned.csv"
    L catalog export sites "$o/owned.csv"
    check "output: an existing file keeps its owner" \
        test "$(stat -c %u:%g "$o/owned.csv")" = 65534:65534
fi
echo old >"$o/target.csv"
ln -s target.csv "$o/link.csv"
L catalog export sites "$o/link.csv"
check "output: a symbolic link stays a link" test -L "$o/link.csv"
check "output: the file it names is written" cmp -s "$o/target.csv" "$tmp/sites.csv"
ln -s nowhere.csv "$o/dangling.csv"
run L catalog export sites "$o/dangling.csv"
check "output: a dangling link is refused (exit 1)" test "$rc" -eq 1
check "output: and not replaced" test -L "$o/dangling.csv" -a ! -e "$o/nowhere.csv"
echo old >"$o/ro.csv"
chmod 444 "$o/ro.csv"
run L catalog export sites "$o/ro.csv"
check "output: a 0444 file is refused (exit 1), even for root" test "$rc" -eq 1
check "output: the read-only file is as it was" \
    test "$(cat "$o/ro.csv")" = old -a "$(mode_of "$o/ro.csv")" = 444
check "output: the message says it is read-only" grep -q 'read-only' "$tmp/err"
echo old >"$o/h1.csv"
ln "$o/h1.csv" "$o/h2.csv"
L catalog export sites "$o/h1.csv"
check "output: hard links stay one file" \
    test "$(stat -c %i "$o/h1.csv")" = "$(stat -c %i "$o/h2.csv")"
check "output: both names show the new contents" cmp -s "$o/h2.csv" "$tmp/sites.csv"
mkfifo "$o/fifo"
timeout 10 cat "$o/fifo" >"$o/fifo.out" &
reader=$!
timeout 10 "$BIN" --catalog "$DB" catalog export sites "$o/fifo"
[ -p "$o/fifo" ] || : >"$o/fifo" 2>/dev/null
wait $reader
check "output: a FIFO stays a FIFO" test -p "$o/fifo"
check "output: the reader of the FIFO gets the export" cmp -s "$o/fifo.out" "$tmp/sites.csv"
# Devices of our own (mknod, as root), never the system's /dev/null: a
# binary with the bug would replace them.
if [ "$(id -u)" = 0 ] && mknod "$o/null" c 1 3 2>/dev/null &&
    mknod "$o/full" c 1 7 2>/dev/null; then
    run L catalog export sites "$o/null"
    check "output: a null device is written (exit 0)" test "$rc" -eq 0
    check "output: the null device stays a character device" test -c "$o/null"
    run L catalog export sites "$o/full"
    check "output: a full device is a write error (exit 1)" test "$rc" -eq 1
    check "output: the full device stays a character device" test -c "$o/full"
fi
L catalog export sites /proc/self/fd/1 >"$o/stdout.csv" 2>"$tmp/err"
check "output: /proc/self/fd/1 (/dev/stdout) reaches the redirection" \
    cmp -s "$o/stdout.csv" "$tmp/sites.csv"
cp "$DB" "$tmp/db.before"
run L catalog export sites "$DB"
check "output: the open catalog is refused (exit 2)" test "$rc" -eq 2
check "output: the message names the catalog" grep -q 'catalog in use' "$tmp/err"
check "output: the catalog is still a catalog" \
    sh -c "'$BIN' --catalog '$DB' catalog show sites us-average >/dev/null"
run L quote --model llama3-8b --accel h100-sxm --gpus 8 --output "$DB-wal"
check "output: the catalog's -wal file is refused (exit 2)" test "$rc" -eq 2
ln -s "$DB" "$o/db-link"
run L catalog export sites "$o/db-link"
check "output: a link to the open catalog is refused (exit 2)" test "$rc" -eq 2
if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null 2>&1; then
    # a file nobody may write, in a directory nobody may not add to
    mkdir -p "$o/shared"
    echo old >"$o/shared/report.csv"
    chown 65534 "$o/shared/report.csv"
    cp "$DB" "$tmp/nobody.db"
    chown 65534 "$tmp/nobody.db"
    chmod 755 "$tmp" "$o"
    setpriv --reuid=65534 --regid=65534 --clear-groups "$BIN" \
        --catalog "$tmp/nobody.db" catalog export sites "$o/shared/report.csv" \
        >"$tmp/out" 2>"$tmp/err"
    rc=$?
    chmod 700 "$tmp"
    check "output: a writable file in a directory one cannot add to is written in place" \
        sh -c "test $rc -eq 0 && cmp -s '$o/shared/report.csv' '$tmp/sites.csv'"
fi
check "output: no temporary left behind" \
    sh -c "! ls -A '$o' '$(dirname "$DB")' | grep -q '\.tmp\.'"

# ---- 2. an import of some columns updates only those columns -----------------
# A catalog of its own from here on, whatever the blocks above did to theirs.
DB="$tmp/cat2/catalog.db"
L catalog show accelerators h100-sxm --format csv >"$tmp/h100.before"
L quote --model llama3-8b --accel h100-sxm --gpus 8 --format csv >"$tmp/q.before"
printf '%s\n%s\n' 'id,name,bf16_tflops,hbm_gib,hbm_tb_s,price_usd,price_source,price_as_of,source,as_of' \
    'h100-sxm,NVIDIA H100 SXM5 80GB,989,80,3.35,31905,a quote,2025-01-31,a datasheet,2026-08' \
    >"$tmp/part.csv"
run L catalog import accelerators "$tmp/part.csv"
check "import: a subset of the columns imports (exit 0)" test "$rc" -eq 0
L catalog show accelerators h100-sxm --format csv >"$tmp/h100.after"
cols_equal() { # cols_equal COLS...: those columns are unchanged
    python3 - "$tmp/h100.before" "$tmp/h100.after" "$@" <<'PY'
import csv, sys
a = list(csv.DictReader(open(sys.argv[1])))[0]
b = list(csv.DictReader(open(sys.argv[2])))[0]
bad = [c for c in sys.argv[3:] if a[c] != b[c]]
sys.exit(1 if bad else 0)
PY
}
check "import: columns left out keep their values (tdp_w, knobs, notes)" \
    cols_equal tdp_w fp8_tflops scaleup_gb_s gemm_frac attn_frac hbm_frac \
    kernel_us power_frac confidence notes vendor
check "import: the columns given are written (source)" \
    grep -q 'a datasheet' "$tmp/h100.after"
L quote --model llama3-8b --accel h100-sxm --gpus 8 --format csv >"$tmp/q.after"
check "import: the quote of the updated accelerator is unchanged" \
    cmp -s "$tmp/q.before" "$tmp/q.after"
printf 'id,name,hbm_gib\nnew-gpu,New GPU,80\n' >"$tmp/new.csv"
run L catalog import accelerators "$tmp/new.csv"
check "import: a new row without a required column is refused (exit 2)" \
    test "$rc" -eq 2
check "import: the message names the missing column and the row" \
    grep -q "new.csv:2: .*missing required column 'hbm_tb_s' .*'new-gpu'" "$tmp/err"
run L catalog show accelerators new-gpu
check "import: and nothing of it is written" test "$rc" -eq 2
printf 'name,hbm_gib\nX,80\n' >"$tmp/nokey.csv"
run L catalog import accelerators "$tmp/nokey.csv"
check "import: a file without the id column is refused (exit 2)" \
    sh -c "test $rc -eq 2 && grep -q \"missing required column 'id'\" '$tmp/err'"

# ---- 7. plan files: long lines, no continuation lines -------------------------
python3 - "$tmp/long.ini" <<'PY'
import sys
with open(sys.argv[1], 'w') as f:
    f.write('[model]\npreset = llama3-8b\n')
    f.write('# ' + 'a comment longer than any line buffer ' * 10 + '\n')
    f.write('[hardware]\naccelerator = h100-sxm' + ' ' * 250 + '; why this one\n')
    f.write('gpus = 8\n')
PY
run L quote "$tmp/long.ini" --format csv
check "ini: lines over 199 characters parse (exit 0)" test "$rc" -eq 0
check "ini: the value before a long run of blanks is read" \
    grep -q '^plan.hardware,accelerator,[a-z]*,h100-sxm$' "$tmp/out"
printf '[model]\npreset = llama3-8b\n[hardware]\naccelerator = h100-sxm\ngpus = 8\n[parallel]\ntp = 2\n  pp = 2\n' \
    >"$tmp/indent.ini"
run L quote "$tmp/indent.ini" --format csv
check "ini: an indented key is a key, not a continuation (exit 0)" test "$rc" -eq 0
check "ini: both the key before it and the indented key apply" \
    sh -c "grep -q '^layout,tp,[a-z]*,2$' '$tmp/out' && grep -q '^layout,pp,[a-z]*,2$' '$tmp/out'"

# ---- 8. a NUL byte in a CSV field is refused, not cut short ------------------
# every column, so that only the NUL is wrong
python3 - "$tmp/h100.after" "$tmp/nul.csv" <<'PY'
import sys
data = open(sys.argv[1], 'rb').read().replace(b'NVIDIA H100', b'NVIDIA\0 H100', 1)
open(sys.argv[2], 'wb').write(data)
PY
run L catalog import accelerators "$tmp/nul.csv"
check "csv: a NUL byte in a field is refused (exit 2)" test "$rc" -eq 2
check "csv: the message names the line" grep -q 'nul.csv:2: NUL byte' "$tmp/err"
check "csv: the row is as it was" \
    sh -c "'$BIN' --catalog '$DB' catalog show accelerators h100-sxm --format csv | cmp -s - '$tmp/h100.after'"

# Terminal escapes planted in a catalog row: the table formats show them.
printf '%s\n%s\n' 'id,name,pue,usd_per_kwh,kgco2_per_kwh,source,as_of,price_source,price_as_of' \
    "esc,\"$(printf '\033[31mRED\033[0m\007bell\rCR\bBS')\",1.2,0.1,0.3,\"$(printf '\033]0;title\007src')\",2025,p,2025" \
    >"$tmp/esc.csv"
run L catalog import sites "$tmp/esc.csv"
check "escapes: a row with control characters imports (exit 0)" test "$rc" -eq 0
raw_free() { ! LC_ALL=C grep -q "$(printf '[\033\007\010\r]')" "$1"; }
L catalog list sites >"$tmp/list.txt" 2>&1
check "escapes: catalog list sends no ESC, BEL, BS or CR" raw_free "$tmp/list.txt"
check "escapes: catalog list shows them as ^[ ^G ^M ^H" \
    grep -q '\^\[\[31mRED\^\[\[0m\^Gbell\^MCR\^HBS' "$tmp/list.txt"
L catalog show sites esc >"$tmp/show.txt" 2>&1
check "escapes: catalog show sends none" raw_free "$tmp/show.txt"
L quote --model llama3-8b --accel h100-sxm --gpus 8 --site esc --explain \
    >"$tmp/explain.txt" 2>&1
check "escapes: quote --explain sends none" raw_free "$tmp/explain.txt"
check "escapes: quote --explain shows the source as ^[]0;title^Gsrc" \
    grep -q '\^\[\]0;title\^Gsrc' "$tmp/explain.txt"
L catalog export sites >"$tmp/esc-export.csv"
check "escapes: CSV export keeps the bytes (data, not a terminal)" \
    grep -q "$(printf '\033\\[31mRED')" "$tmp/esc-export.csv"

# ---- 9. read-only catalogs, full disks --------------------------------------
ro="$tmp/ro"
mkdir -p "$ro"
cp "$DB" "$ro/catalog.db"
"$BIN" --catalog "$ro/catalog.db" plan save shared --model llama3-8b \
    --accel h100-sxm --gpus 8 >/dev/null 2>&1
rm -f "$ro/catalog.db-wal" "$ro/catalog.db-shm"
chmod 444 "$ro/catalog.db"
R() { "$BIN" --catalog "$ro/catalog.db" "$@"; }
run R quote --model llama3-8b --accel h100-sxm --gpus 8
check "read-only catalog file: quote works (exit 0)" test "$rc" -eq 0
run R search --model llama3-8b --accel h100-sxm --gpus 8 --top 1
check "read-only catalog file: search works (exit 0)" test "$rc" -eq 0
run R catalog list sites
check "read-only catalog file: catalog list works (exit 0)" test "$rc" -eq 0
run R catalog export sites
check "read-only catalog file: catalog export works (exit 0)" test "$rc" -eq 0
run R plan show shared
check "read-only catalog file: plan show works (exit 0)" test "$rc" -eq 0
run R catalog import sites "$tmp/esc.csv"
check "read-only catalog file: import is refused (exit 1), saying read-only" \
    sh -c "test $rc -eq 1 && grep -q 'read-only' '$tmp/err'"
run R plan save other --model llama3-8b --accel h100-sxm --gpus 8
check "read-only catalog file: plan save is refused (exit 1)" test "$rc" -eq 1
chmod 644 "$ro/catalog.db"
if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null 2>&1; then
    # a catalog nobody may write, in a directory nobody may write
    rm -f "$ro/catalog.db-wal" "$ro/catalog.db-shm"
    chown 65534 "$ro/catalog.db"
    chmod 755 "$ro"
    chmod 755 "$tmp"
    N() { setpriv --reuid=65534 --regid=65534 --clear-groups "$BIN" \
        --catalog "$ro/catalog.db" "$@"; }
    run N quote --model llama3-8b --accel h100-sxm --gpus 8
    check "read-only directory: quote works (exit 0)" test "$rc" -eq 0
    run N catalog import sites "$tmp/esc.csv"
    check "read-only directory: import exits 1" test "$rc" -eq 1
    check "read-only directory: the message says read-only, not corrupt" \
        sh -c "grep -q 'read-only' '$tmp/err' && ! grep -q corrupt '$tmp/err'"
    chmod 700 "$tmp"
fi
if [ "$(id -u)" = 0 ] && command -v unshare >/dev/null 2>&1 &&
    unshare -m true 2>/dev/null; then
    # a full file system of our own, in a mount namespace of our own
    full="$tmp/full"
    mkdir -p "$full"
    cp "$DB" "$tmp/full.db"
    rm -f "$tmp/full.db-wal" "$tmp/full.db-shm"
    unshare -m sh -c "mount -t tmpfs -o size=400k tmpfs '$full' &&
        cp '$tmp/full.db' '$full/catalog.db' &&
        { dd if=/dev/zero of='$full/fill' bs=1k count=1000 2>/dev/null; true; } &&
        '$BIN' --catalog '$full/catalog.db' catalog import sites '$tmp/esc.csv'" \
        >"$tmp/out" 2>"$tmp/err"
    rc=$?
    check "disk full: import exits 1" test "$rc" -eq 1
    check "disk full: the message says disk full, not corrupt" \
        sh -c "grep -q 'disk full' '$tmp/err' && ! grep -q corrupt '$tmp/err'"
fi

# ---- 10. values planted in the catalog are checked on load --------------------
plant() { # plant SQL: a copy of the catalog with SQL applied, in $tmp/planted.db
    rm -f "$tmp/planted.db" "$tmp/planted.db-wal" "$tmp/planted.db-shm"
    "$BIN" --catalog "$tmp/planted.db" catalog list sites >/dev/null 2>&1
    python3 -c 'import sqlite3, sys
c = sqlite3.connect(sys.argv[1]); c.execute(sys.argv[2]); c.commit()' \
        "$tmp/planted.db" "$1"
}
P() { "$BIN" --catalog "$tmp/planted.db" "$@"; }
plant "UPDATE accelerators SET hbm_gib = 1e300 WHERE id = 'h100-sxm'"
run P quote --model llama3-8b --accel h100-sxm --gpus 8 --tokens 1T
check "planted: hbm_gib = 1e300 exits 2, no assertion" test "$rc" -eq 2
check "planted: the message names kind, id and column" \
    grep -q "catalog accelerators 'h100-sxm': hbm_gib: " "$tmp/err"
run P search --model llama3-8b --accel h100-sxm --gpus 8 --tokens 1T
check "planted: search exits 2 too" test "$rc" -eq 2
plant "UPDATE accelerators SET bf16_tflops = 'lots' WHERE id = 'h100-sxm'"
run P quote --model llama3-8b --accel h100-sxm --gpus 8
check "planted: text in a number column exits 2, naming it" \
    sh -c "test $rc -eq 2 && grep -q 'bf16_tflops: is not a number' '$tmp/err'"
plant "UPDATE models SET experts_active = 9e18 WHERE id = 'llama3-8b'"
run P quote --model llama3-8b --accel h100-sxm --gpus 8
check "planted: a model count out of range exits 2, naming it" \
    sh -c "test $rc -eq 2 && grep -q \"catalog models 'llama3-8b': experts_active\" '$tmp/err'"

# A crash in the TUI (an assertion's abort) restores the terminal: the
# program runs in tmux, gets SIGABRT, and the shell after it finds the
# terminal cooked (icanon, echo) and off the alternate screen.
if command -v tmux >/dev/null 2>&1; then
    sock="llmplan-hardening-$$"
    T="tmux -L $sock -f /dev/null"
    cat >"$tmp/crash.sh" <<EOS
#!/bin/sh
env -i HOME="$tmp/home" TERM=screen-256color LC_ALL=C PATH=/usr/bin:/bin \
    sh -c 'echo \$\$ >"\$1"; shift; exec "\$@"' sh "$tmp/crash.pid" \
    "$BIN" --catalog "$DB"
echo \$? >"$tmp/crash.rc"
stty -a >"$tmp/crash.stty" 2>&1
sleep 30
EOS
    chmod +x "$tmp/crash.sh"
    $T new-session -d -s c -x 100 -y 30 "$tmp/crash.sh"
    i=0
    until $T capture-pane -p -t c 2>/dev/null | grep -q "MEMORY PER GPU" ||
        [ $i -ge 100 ]; do
        sleep 0.1
        i=$((i + 1))
    done
    kill -ABRT "$(cat "$tmp/crash.pid")" 2>/dev/null
    i=0
    until [ -s "$tmp/crash.stty" ] || [ $i -ge 100 ]; do
        sleep 0.1
        i=$((i + 1))
    done
    sleep 0.2
    check "tui crash: SIGABRT ends it (134) with the terminal cooked (icanon, echo)" \
        sh -c "test '$(cat "$tmp/crash.rc" 2>/dev/null)' = 134 &&
            grep -q ' icanon' '$tmp/crash.stty' && grep -q ' echo ' '$tmp/crash.stty'"
    check "tui crash: the TUI's screen is gone (alternate screen left)" \
        sh -c "! $T capture-pane -p -t c | grep -q 'MEMORY PER GPU'"
    $T kill-server >/dev/null 2>&1
fi

# ---- 11. small things --------------------------------------------------------
printf '[model]\npreset = llama3-8b\n[hardware]\naccelerator = h100-sxm\ngpus = 8\n' \
    >"$tmp/p.ini"
# A writer that opens the FIFO, writes and closes at once: a reader that
# opens the file twice finds no writer the second time and waits forever
# (it did in several of five tries).
hung=0
for i in 1 2 3 4 5; do
    rm -f "$tmp/fifo.ini"
    mkfifo "$tmp/fifo.ini"
    timeout 3 "$BIN" --catalog "$DB" quote "$tmp/fifo.ini" >/dev/null 2>&1 &
    pid=$!
    sleep 0.2
    sh -c 'printf "%s\n" "$(cat "$1")" >"$2"' x "$tmp/p.ini" "$tmp/fifo.ini" &
    writer=$!
    wait $pid || hung=$((hung + 1))
    kill $writer 2>/dev/null
    wait $writer 2>/dev/null
done
check "plan: a FIFO plan file is read (five tries, no hang)" test "$hung" -eq 0
run L quote "$tmp/no-such.ini"
missing_rc=$rc
if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null 2>&1; then
    nb="$tmp/nb"
    mkdir -p "$nb"
    chown 65534 "$nb"
    cp "$tmp/p.ini" "$nb/secret.ini"
    chmod 000 "$nb/secret.ini"
    chmod 755 "$tmp"
    setpriv --reuid=65534 --regid=65534 --clear-groups "$BIN" \
        --catalog "$nb/catalog.db" quote "$nb/secret.ini" >"$tmp/out" 2>"$tmp/err"
    rc=$?
    chmod 700 "$tmp"
    check "plan: permission denied exits 1 (I/O), saying so; a missing file 2" \
        sh -c "test $rc -eq 1 && test $missing_rc -eq 2 &&
            grep -q 'Permission denied' '$tmp/err'"
fi
for args in "--help" "quote --help" "catalog --help" "--version"; do
    # shellcheck disable=SC2086
    "$BIN" $args >/dev/full 2>"$tmp/err"
    rc=$?
    check "llmplan $args >/dev/full exits 1 with a message" \
        sh -c "test $rc -eq 1 && grep -q 'cannot write' '$tmp/err'"
done
run L quote "$tmp/p.ini" --gpus "8$(printf '%300s' '')junk"
check "options: a value of 300+ characters is refused whole (exit 2)" \
    sh -c "test $rc -eq 2 && grep -q 'longer than' '$tmp/err'"
run L quote "$tmp/p.ini" --tokens 15t --set model.params=8b --format csv
check "numbers: 15t and 8b are accepted (exit 0)" test "$rc" -eq 0
check "numbers: 15t is 15 x 10^12 tokens" \
    grep -q '^plan.train,tokens,[a-z]*,15000000000000$' "$tmp/out"
check "numbers: 8b is 8 x 10^9 parameters" \
    grep -q '^plan.model,params,[a-z]*,8000000000$' "$tmp/out"
run L quote "$tmp/p.ini" --tokens 30B
check "numbers: 30B tokens (exit 0)" test "$rc" -eq 0
printf 'id,name,hbm_gib,hbm_tb_s,source,as_of\nleap,L,1,1,s,2023-02-29\n' >"$tmp/leap.csv"
run L catalog import accelerators "$tmp/leap.csv"
check "dates: 2023-02-29 is refused (exit 2)" \
    sh -c "test $rc -eq 2 && grep -q 'as_of' '$tmp/err'"

# ---- 12. import and list stream ----------------------------------------------
# Peak memory (ru_maxrss of the child) with 10000 and with 150000 extra
# rows: streaming, the difference is a few MB; holding every row it was
# hundreds (1M rows: 1.8 GB to import, 5.5 GB to list as JSON).
maxrss_kb() { # maxrss_kb COMMAND...: run it, print its peak RSS in KiB
    # under ASan, freed memory waits in a 256 MB quarantine: keep it small
    ASAN_OPTIONS="${ASAN_OPTIONS:-}:quarantine_size_mb=1" python3 -c '
import resource, subprocess, sys
r = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
if r.returncode != 0:
    print(-1); sys.exit(0)
print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)' "$@"
}
rows_csv() { # rows_csv N FILE
    python3 - "$1" "$2" "$(head -n 1 "$tmp/sites.csv")" <<'PY'
import sys
n, path, hdr = int(sys.argv[1]), sys.argv[2], sys.argv[3]
with open(path, 'w') as f:
    f.write(hdr + '\n')
    pad = ',' * (len(hdr.split(',')) - 15)  # columns newer than the row
    for i in range(n):
        f.write('big-%d,Big site %d,1.2,0.1,0.3,30,140,0,1e7,test,2025,test,2025,C,%s\n' % (i, i, pad))
PY
}
rows_csv 10000 "$tmp/small.csv"
rows_csv 150000 "$tmp/large.csv"
small_db="$tmp/small.db"
large_db="$tmp/large.db"
m_small=$(maxrss_kb "$BIN" --catalog "$small_db" catalog import sites "$tmp/small.csv")
m_large=$(maxrss_kb "$BIN" --catalog "$large_db" catalog import sites "$tmp/large.csv")
check "stream: a 150000-row import peaks within 40 MB of a 10000-row one ($m_small -> $m_large KiB)" \
    test "$m_small" -gt 0 -a "$m_large" -gt 0 -a $((m_large - m_small)) -lt 40960
for f in json table csv; do
    m_small=$(maxrss_kb "$BIN" --catalog "$small_db" catalog list sites --format $f)
    m_large=$(maxrss_kb "$BIN" --catalog "$large_db" catalog list sites --format $f)
    check "stream: catalog list --format $f of 150000 rows peaks within 40 MB of 10000 ($m_small -> $m_large KiB)" \
        test "$m_small" -gt 0 -a "$m_large" -gt 0 -a $((m_large - m_small)) -lt 40960
done
check "stream: the listed JSON is whole (150000 + default rows)" \
    sh -c "'$BIN' --catalog '$large_db' catalog list sites --format json | python3 -c 'import json,sys; sys.exit(0 if len(json.load(sys.stdin)) > 150000 else 1)'"
