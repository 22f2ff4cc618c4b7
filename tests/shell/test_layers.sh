#!/bin/sh
# test_layers.sh - the include rules between the front ends (issue 14,
# item 17): src/ui and src/cli never include or call each other; main.c
# dispatches and the shared globals live in src/util/global.h.  Prints
# "ok ..." / "FAIL ...".
set -u
. "$(dirname "$0")/lib.sh"
# A rule over a folder that moved or emptied would find nothing and pass:
# every folder a rule reads must hold C files.
for d in src/ui src/cli src/util src/core src/plan src/export src/catalog; do
    n=$(ls "$d"/*.[ch] 2>/dev/null | wc -l)
    if [ "$n" -gt 0 ]; then ok "layers: $d holds the C files the rules read"
    else fail "layers: $d holds the C files the rules read" "no *.c or *.h there"; fi
done
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
check "src/core includes nothing above it" \
    "grep -nE '#include \"(plan|cli|ui|export|catalog)/' src/core/*.[ch]"
