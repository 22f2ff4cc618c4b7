#!/bin/sh
# run.sh - CLI golden tests (curl tests/data, git test_cmp).
#
#   sh tests/golden/run.sh [NAME...]          compare; GOLDEN_UPDATE=1 rewrites
#
# tests/golden/cli/<name>.args holds one argv item per line (after
# "llmplan --catalog <fresh temp catalog>"); <name>.out, .err and .rc are
# the expected stdout, stderr and exit code.  An optional <name>.setup runs
# first, one command line per line (split on spaces), output ignored.
# "@TMP@" in args is the test's temp directory, and the temp directory in
# outputs is written back as "@TMP@".  Every run is in a clean environment:
# env -i LC_ALL=C TZ=UTC HOME=<temp>.  Prints "ok <name>" / "FAIL <name>".
set -u
BIN=${LLMPLAN_BIN:-./llmplan}
DIR=tests/golden/cli
case $BIN in /*) ;; *) BIN=$(pwd)/$BIN ;; esac
root=$(mktemp -d)
trap 'rm -rf "$root"' EXIT

run_one() {
    name=$1
    tmp="$root/$name"
    mkdir -p "$tmp/home"
    if [ -f "$DIR/$name.setup" ]; then
        while IFS= read -r line; do
            [ -n "$line" ] || continue
            # shellcheck disable=SC2086
            env -i LC_ALL=C TZ=UTC HOME="$tmp/home" PATH=/usr/bin:/bin \
                "$BIN" --catalog "$tmp/catalog.db" $line >/dev/null 2>&1
        done <"$DIR/$name.setup"
    fi
    set --
    while IFS= read -r arg || [ -n "$arg" ]; do
        set -- "$@" "$(printf '%s' "$arg" | sed "s|@TMP@|$tmp|g")"
    done <"$DIR/$name.args"
    env -i LC_ALL=C TZ=UTC HOME="$tmp/home" PATH=/usr/bin:/bin \
        "$BIN" --catalog "$tmp/catalog.db" "$@" \
        >"$tmp/out" 2>"$tmp/err" </dev/null
    echo $? >"$tmp/rc"
    for f in out err; do
        sed "s|$tmp|@TMP@|g" "$tmp/$f" >"$tmp/$f.n" && mv "$tmp/$f.n" "$tmp/$f"
    done
    if [ "${GOLDEN_UPDATE:-}" = 1 ]; then
        for f in out err rc; do cp "$tmp/$f" "$DIR/$name.$f"; done
        echo "ok $name (updated)"
        return
    fi
    bad=0
    for f in out err rc; do
        if [ ! -f "$DIR/$name.$f" ]; then
            echo "  missing $DIR/$name.$f"
            bad=1
        elif ! diff -u "$DIR/$name.$f" "$tmp/$f" >"$tmp/diff"; then
            sed 's/^/  /' "$tmp/diff" | head -40
            bad=1
        fi
    done
    if [ $bad = 0 ]; then echo "ok $name"; else echo "FAIL $name"; fi
}

if [ $# -gt 0 ]; then
    for n in "$@"; do run_one "$n"; done
else
    for a in "$DIR"/*.args; do
        [ -f "$a" ] || continue
        run_one "$(basename "$a" .args)"
    done
fi
