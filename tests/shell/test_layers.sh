#!/bin/sh
# test_layers.sh - the include rules between the front ends (issue 14,
# item 17): src/ui and src/cli never include or call each other; main.c
# dispatches and the shared globals live in src/util/global.h.  Prints
# "ok ..." / "FAIL ...".
set -u
check() { # check NAME COMMAND-THAT-FINDS-VIOLATIONS
    out=$(sh -c "$2" 2>/dev/null)
    if [ -n "$out" ]; then
        echo "FAIL layers: $1"
        echo "$out" | sed 's/^/  | /'
    else
        echo "ok layers: $1"
    fi
}
check "src/ui includes nothing of src/cli" \
    "grep -nE '#include \"cli/' src/ui/*.[ch]"
check "src/ui calls nothing of src/cli" \
    "grep -nE '\\bcli_[a-z_]+\\(' src/ui/*.c"
check "src/cli includes nothing of src/ui" \
    "grep -nE '#include \"ui/' src/cli/*.[ch]"
check "src/util includes no front end" \
    "grep -nE '#include \"(cli|ui)/' src/util/*.[ch]"
