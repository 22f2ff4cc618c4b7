#!/bin/sh
# test_tui_screens.sh - TUI screen goldens (tig :save-display, tmux
# capture-pane): each tests/golden/screens/<name>.keys drives the real
# views through the script backend (no terminal) and the final screen,
# text and theme-element layers, must equal <name>.screen.
#
#   sh tests/shell/test_tui_screens.sh [NAME...]     GOLDEN_UPDATE=1 rewrites
#
# A keys file may start with "# size WxH" (default 80x24) and "# args ..."
# (global options before `tui`); <name>.userkeys, when present, becomes
# the user's key bindings (~/.config/llmplan/keys).  Every run has a fresh catalog and a clean
# environment (env -i LC_ALL=C TZ=UTC HOME=<temp>, SOURCE_DATE_EPOCH for
# the date a catalog edit records) in a temp directory.
# Timestamps (saved plans) are replaced by YYYY-MM-DDTHH:MM:SSZ.
# Prints "ok <name>" / "FAIL <name>".
set -u
BIN=${LLMPLAN_BIN:-./llmplan}
DIR=$(pwd)/tests/golden/screens
case $BIN in /*) ;; *) BIN=$(pwd)/$BIN ;; esac
root=$(mktemp -d)
trap 'rm -rf "$root"' EXIT

run_one() {
    name=$1
    keys="$DIR/$name.keys"
    tmp="$root/$name"
    mkdir -p "$tmp/home"
    if [ -f "$DIR/$name.userkeys" ]; then
        mkdir -p "$tmp/home/.config/llmplan"
        cp "$DIR/$name.userkeys" "$tmp/home/.config/llmplan/keys"
    fi
    size=$(sed -n 's/^# size \([0-9]*x[0-9]*\).*/\1/p' "$keys" | head -n 1)
    args=$(sed -n 's/^# args //p' "$keys" | head -n 1)
    # shellcheck disable=SC2086
    (cd "$tmp" && env -i LC_ALL=C TZ=UTC HOME="$tmp/home" PATH=/usr/bin:/bin \
        SOURCE_DATE_EPOCH=1793491200 \
        "$BIN" --catalog "$tmp/catalog.db" $args tui --ui-script "$keys" \
        --ui-size "${size:-80x24}" --ui-dump "$tmp/out.screen" \
        >"$tmp/out" 2>"$tmp/err" </dev/null)
    rc=$?
    if [ $rc -ne 0 ] || [ -s "$tmp/out" ] || [ -s "$tmp/err" ]; then
        echo "  exit $rc"
        sed 's/^/  /' "$tmp/out" "$tmp/err" | head -20
        echo "FAIL $name"
        return
    fi
    # saved plans show when they were saved: the same width, no time; a
    # full path in the run's directory is @TMP@ (mktemp's names are all
    # of one length, so a line reads the same in every run)
    sed -E -e 's/[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}Z/YYYY-MM-DDTHH:MM:SSZ/g' \
        -e "s|$tmp|@TMP@|g" \
        "$tmp/out.screen" >"$tmp/norm" && mv "$tmp/norm" "$tmp/out.screen"
    if [ "${GOLDEN_UPDATE:-}" = 1 ]; then
        cp "$tmp/out.screen" "$DIR/$name.screen"
        echo "ok $name (updated)"
        return
    fi
    if [ ! -f "$DIR/$name.screen" ]; then
        echo "  missing $DIR/$name.screen"
        echo "FAIL $name"
    elif ! diff -u "$DIR/$name.screen" "$tmp/out.screen" >"$tmp/diff"; then
        sed 's/^/  /' "$tmp/diff" | head -40
        echo "FAIL $name"
    else
        echo "ok $name"
    fi
}

if [ $# -gt 0 ]; then
    for n in "$@"; do run_one "$n"; done
else
    for k in "$DIR"/*.keys; do
        [ -f "$k" ] || continue
        run_one "$(basename "$k" .keys)"
    done
fi
