# lib.sh - the prelude every shell test shares; sourced (". lib.sh"), never
# run.  It gives a test:
#   BIN   the binary, absolute (LLMPLAN_BIN, else BIN, default ./llmplan)
#   tmp   a scratch directory removed on exit, read-only parts included,
#         with HOME and XDG_DATA_HOME inside it and no LLMPLAN_* settings
#   DB, L a catalog path in $tmp and `L ARGS`: llmplan on it
#   check WHAT COMMAND...   prints "ok WHAT" or "FAIL WHAT"
#   ok WHAT / fail WHAT [WHY] / skip WHAT WHY
#                           one result line; run_all.sh counts "ok", "FAIL"
#                           and "SKIP" lines, so a check that cannot run
#                           says so instead of passing
#   run COMMAND...          stdout to $tmp/out, stderr to $tmp/err, status
#                           to $rc
#   need TOOL               true when TOOL is on PATH
set -u
BIN=${LLMPLAN_BIN:-${BIN:-./llmplan}}
case $BIN in /*) ;; *) BIN=$(pwd)/$BIN ;; esac
tmp=$(mktemp -d)
trap 'chmod -R u+w "$tmp" 2>/dev/null; rm -rf "$tmp"' EXIT
export HOME="$tmp/home" XDG_DATA_HOME="$tmp/xdg" LC_ALL=C
unset LLMPLAN_CATALOG LLMPLAN_TEST_IMPORT_DELAY_MS
mkdir -p "$HOME"
DB="$tmp/cat/catalog.db"
L() { "$BIN" --catalog "$DB" "$@"; }

check() {
    what=$1
    shift
    if "$@"; then echo "ok $what"; else echo "FAIL $what"; fi
}

ok() { echo "ok $1"; }
fail() { echo "FAIL $1${2:+: $2}"; }
skip() { echo "SKIP $1: $2"; }
need() { command -v "$1" >/dev/null 2>&1; }

run() {
    "$@" >"$tmp/out" 2>"$tmp/err"
    rc=$?
}
