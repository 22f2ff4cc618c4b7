#!/bin/sh
# test_tui_themes.sh - theme and key-binding files through the validators
# (`llmplan tui --check-theme FILE...`, `--check-keys FILE...`): every
# shipped theme is clean; bad files give one "file:line: ..." line per
# problem and exit 2; --theme with an unknown name is refused before the
# terminal is touched.  Prints "ok <what>" / "FAIL <what>".
set -u
. "$(dirname "$0")/lib.sh"

run() { # run EXPECTED_RC NAME ARGS... (stderr into $tmp/err)
    want=$1
    name=$2
    shift 2
    env -i LC_ALL=C TZ=UTC HOME="$tmp" PATH=/usr/bin:/bin "$BIN" "$@" \
        >"$tmp/out" 2>"$tmp/err" </dev/null
    got=$?
    if [ "$got" != "$want" ]; then
        echo "  exit $got, want $want"
        sed 's/^/  /' "$tmp/err" | head -10
        echo "FAIL $name"
        return 1
    fi
    return 0
}

same() { # same NAME EXPECTED-TEXT (against $tmp/err)
    printf '%s\n' "$2" >"$tmp/want"
    if diff -u "$tmp/want" "$tmp/err" >"$tmp/diff"; then
        echo "ok $1"
    else
        sed 's/^/  /' "$tmp/diff"
        echo "FAIL $1"
    fi
}

for t in themes/*.theme; do
    if run 0 "theme $t" tui --check-theme "$(pwd)/$t"; then
        if [ -s "$tmp/err" ]; then
            sed 's/^/  /' "$tmp/err"
            echo "FAIL theme $t is clean"
        else
            echo "ok theme $t is clean"
        fi
    fi
done

cat >"$tmp/bad.theme" <<'EOT'
# a theme with mistakes
title   black  cyan
titel   red    blue
value   purple default
label   red    color300
section red    blue   blink
border  red
normal  white  black  bold
EOT
run 2 "bad theme" tui --check-theme "$tmp/bad.theme" &&
    same "bad theme: file:line errors, parsing goes on" \
"$tmp/bad.theme:3: unknown element 'titel'
$tmp/bad.theme:4: value: unknown colour 'purple'
$tmp/bad.theme:5: label: unknown colour 'color300'
$tmp/bad.theme:6: section: unknown attribute 'blink'
$tmp/bad.theme:7: border: needs a foreground and a background colour"

run 2 "missing theme" tui --check-theme "$tmp/none.theme" &&
    same "missing theme file" "$tmp/none.theme: cannot read theme"

cat >"$tmp/keys" <<'EOT'
# my keys
bind plan x quit
bind global F5 view-search
bind plan X fly
bind nowhere a quit
bind plan Hyper-a quit
bind plan a
EOT
run 2 "bad keys" tui --check-keys "$tmp/keys" &&
    same "bad key bindings: file:line errors" \
"$tmp/keys:4: unknown action 'fly'
$tmp/keys:5: unknown view 'nowhere'
$tmp/keys:6: unknown key 'Hyper-a'
$tmp/keys:7: expected 'bind <view> <key> <action>'"

run 2 "unknown --theme" --catalog "$tmp/c.db" --theme nosuch tui \
    --ui-script /dev/null --ui-dump "$tmp/s" &&
    same "unknown --theme is refused" \
"llmplan: --theme: nosuch: unknown theme (built in: default, light, high-contrast, mono)"

# --theme PATH and NO_COLOR both start (a script of no keys; 100 columns,
# where the title has room for the theme's name beside the tabs)
printf '# no keys\n' >"$tmp/none.keys"
run 0 "--theme PATH" --catalog "$tmp/c.db" --theme "$(pwd)/themes/light.theme" \
    tui --ui-script "$tmp/none.keys" --ui-size 100x24 --ui-dump "$tmp/s" &&
    if grep -q 'theme: light' "$tmp/s"; then
        echo "ok --theme PATH"
    else
        echo "FAIL --theme PATH (title: $(sed -n 2p "$tmp/s"))"
    fi
if env -i NO_COLOR=1 LC_ALL=C HOME="$tmp" "$BIN" --catalog "$tmp/c.db" tui \
    --ui-script "$tmp/none.keys" --ui-dump "$tmp/s" 2>"$tmp/err"; then
    echo "ok NO_COLOR starts"
else
    echo "FAIL NO_COLOR"
fi
