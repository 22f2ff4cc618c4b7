#!/bin/sh
# test_tui_eval.sh - how often the TUI evaluates (issue 14, item 14): the
# numbers move as you type (one evaluation per valid prefix), but Enter
# after typing does not evaluate the same plan a second time, and an Esc
# back to the value already evaluated neither.  LLMPLAN_TEST_EVALS makes
# the TUI print its count on exit.  Prints "ok ..." / "FAIL ...".
set -u
. "$(dirname "$0")/lib.sh"

evals() { # evals KEYS...: the evaluations of a session typing KEYS
    printf '%s\n' "$@" >"$tmp/k"
    (cd "$tmp" && env -i LC_ALL=C TZ=UTC HOME="$tmp/home" PATH=/usr/bin:/bin \
        LLMPLAN_TEST_EVALS=1 "$BIN" --catalog "$tmp/c.db" tui \
        --ui-script "$tmp/k" --ui-dump "$tmp/s" 2>&1 >/dev/null) |
        sed -n 's/^llmplan: test: \([0-9]*\) evaluations$/\1/p'
}
check() { # check NAME GOT WANT
    if [ "$2" = "$3" ]; then
        echo "ok tui eval: $1"
    else
        echo "FAIL tui eval: $1 (got '$2' evaluations, want $3)"
    fi
}
# start: 1; typing 2, 20, 204, 2048: 4 more; Enter: none
check "Enter after typing does not evaluate again" \
    "$(evals / text:hardware.gpus Enter Enter C-u text:2048 Enter)" 5
# start: 1; 2, 20: 2 more; Esc back to 1024 (evaluated at the start): 1
check "Esc evaluates the plan as it was once more" \
    "$(evals / text:hardware.gpus Enter Enter C-u text:20 Esc)" 4
# start 1; moving about and opening help: none
check "moving and switching views do not evaluate" \
    "$(evals Down Down Up '?' Escape)" 1
