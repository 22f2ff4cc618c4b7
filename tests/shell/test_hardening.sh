#!/bin/sh
# test_hardening.sh - what a newcomer and an attacker hit (issue 14): each
# block is one item of the README's "Hardening" section.
#   - --output is the user's file: devices and FIFOs are written, never
#     replaced; a symbolic link is followed (a dangling one refused); mode,
#     owner and hard links stay; a read-only file and the open catalog are
#     refused; a new file honours the umask;
# Prints "ok <what>" / "FAIL <what>".
set -u
BIN=${LLMPLAN_BIN:-./llmplan}
case $BIN in /*) ;; *) BIN=$(pwd)/$BIN ;; esac
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export HOME="$tmp/home" XDG_DATA_HOME="$tmp/xdg" LC_ALL=C
unset LLMPLAN_CATALOG
mkdir -p "$HOME"
DB="$tmp/cat/catalog.db"
L() { "$BIN" --catalog "$DB" "$@"; }

check() { # check WHAT COMMAND...
    what=$1
    shift
    if "$@"; then echo "ok $what"; else echo "FAIL $what"; fi
}
run() {
    "$@" >"$tmp/out" 2>"$tmp/err"
    rc=$?
}
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
check "output: no temporary left behind" \
    sh -c "! ls -A '$o' '$(dirname "$DB")' | grep -q '\.tmp\.'"
