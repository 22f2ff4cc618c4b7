#!/bin/sh
# lint.sh - layer rules and formatting (make lint).
#  * src/core includes no curses, sqlite3, csv, jansson or inih header and
#    calls no I/O: only snprintf/vsnprintf from stdio.
#  * only src/catalog includes <sqlite3.h>; only src/util/csvio.c <csv.h>;
#    only src/ui/term_curses.c <curses.h>.
#  * the front ends never call each other: src/ui includes nothing of
#    src/cli and src/cli nothing of src/ui (main.c dispatches; the shared
#    globals live in src/util/global.h).
#  * clang-format --dry-run on the C sources, when clang-format is there.
set -u
fail=0
bad() { echo "lint: $*"; fail=1; }

grep -nE '#include <(curses|ncurses|sqlite3|csv|jansson|ini)\.h>' src/core/*.[ch] &&
    bad "src/core must stay pure (no library includes)"
grep -nE '(^|[^n])printf\(|fopen|fwrite|fputs|getenv|[^_]time\(|malloc\(|free\(' src/core/*.c |
    grep -v 'snprintf' && bad "src/core must not do I/O or allocate"
grep -lE '#include <sqlite3\.h>' src --include='*.[ch]' -r | grep -v '^src/catalog/' &&
    bad "only src/catalog may include sqlite3.h"
grep -lE '#include <csv\.h>' src -r --include='*.[ch]' | grep -v '^src/util/csvio\.c$' &&
    bad "only src/util/csvio.c may include csv.h"
grep -lE '#include <n?curses\.h>' src -r --include='*.[ch]' | grep -v '^src/ui/term_curses\.c$' &&
    bad "only src/ui/term_curses.c may include curses.h"
grep -nE '#include "cli/' src/ui/*.[ch] &&
    bad "src/ui must not include src/cli (use util/global.h)"
grep -nE '#include "ui/' src/cli/*.[ch] &&
    bad "src/cli must not include src/ui (main.c starts the TUI)"
grep -nE '\bcli_[a-z_]+\(' src/ui/*.c &&
    bad "src/ui must not call src/cli"
if command -v clang-format >/dev/null 2>&1; then
    clang-format --dry-run -Werror src/core/*.[ch] 2>/dev/null || bad "clang-format: run clang-format -i on src/core"
fi
[ $fail -eq 0 ] && echo "lint: clean"
exit $fail
