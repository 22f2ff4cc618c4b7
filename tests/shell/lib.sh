# lib.sh - the prelude the shell tests share; sourced (". lib.sh"), never
# run.  It gives a test:
#   BIN   the binary, absolute (LLMPLAN_BIN, default ./llmplan)
#   tmp   a scratch directory removed on exit, read-only parts included,
#         with HOME and XDG_DATA_HOME inside it and no LLMPLAN_* settings
#   DB, L a catalog path in $tmp and `L ARGS`: llmplan on it
#   check WHAT COMMAND...   prints "ok WHAT" or "FAIL WHAT"
#   run COMMAND...          stdout to $tmp/out, stderr to $tmp/err, status
#                           to $rc
set -u
BIN=${LLMPLAN_BIN:-./llmplan}
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

run() {
    "$@" >"$tmp/out" 2>"$tmp/err"
    rc=$?
}
