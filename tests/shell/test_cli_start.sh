#!/bin/sh
# test_cli_start.sh - the start quote, search and size share (cli_one_plan)
# and the output they all end with (cli_out_end): one plan at most, --help,
# a saved plan that is not there, and nothing written on an error.
. "$(dirname "$0")/lib.sh"

plan=$(cd "$(dirname "$0")/../.." && pwd)/data/plans/$(ls "$(dirname "$0")/../../data/plans" | head -1)

for cmd in quote search size; do
    run L "$cmd" "$plan" "$plan"
    check "$cmd: two plans exit 2" [ "$rc" -eq 2 ]
    check "$cmd: two plans name the second and say one" \
        grep -q "^llmplan: $plan: $cmd takes one plan" "$tmp/err"
    check "$cmd: two plans write nothing to stdout" [ ! -s "$tmp/out" ]
    run L "$cmd" --help
    check "$cmd --help exits 0" [ "$rc" -eq 0 ]
    check "$cmd --help prints its usage" \
        grep -q "^usage: llmplan .*$cmd \\[PLAN\\]" "$tmp/out"
    run L "$cmd" @no-such-plan
    check "$cmd @missing exits 2" [ "$rc" -eq 2 ]
    check "$cmd @missing says so" grep -q "no saved plan of that name" \
        "$tmp/err"
    run L "$cmd" @no-such-plan --output "$tmp/o-$cmd"
    check "$cmd: an error leaves --output unwritten" [ ! -e "$tmp/o-$cmd" ]
done
run L quote "$plan" "$plan"
check "quote: two plans point to compare" grep -q "(use compare for several)" \
    "$tmp/err"
