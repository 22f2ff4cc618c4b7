#!/bin/sh
# test_concurrency.sh - many processes on one catalog at once (scripts
# quoting in parallel, a TUI open, an import running): 8 concurrent
# `plan save` and 4 concurrent `catalog import`, with readers quoting
# meanwhile, first on a catalog that does not exist yet (every process
# races to create it) and then on an existing one.  Afterwards every plan
# and every row is there, each exactly as written, every process exited 0,
# and the database passes PRAGMA integrity_check.  Prints "ok <what>" /
# "FAIL <what>".
set -u
. "$(dirname "$0")/lib.sh"

SITES_HDR=$(head -n 1 "$(dirname "$0")/../../data/sites.csv")

# sites CSV for writer $1 of round $2: 25 rows with ids conc-$2-$1-N
make_csv() {
    echo "$SITES_HDR"
    n=1
    while [ $n -le 25 ]; do
        echo "conc-$2-$1-$n,Writer $1 row $n,1.$n,0.0$n,0.3,30,140,0,1e7,test,2025,test,2025,C,,,,,"
        n=$((n + 1))
    done
}

# plan INI for saver $1 of round $2: distinct GPU counts so that every
# saved text is recognisable
make_plan() {
    printf '[model]\npreset = llama3-8b\n[hardware]\naccelerator = h100-sxm\ngpus = %d\n[train]\ntokens = %dG\n' \
        $((8 * $1)) $((100 + $1 + 10 * $2))
}

# round NAME DB: 8 saves, 4 imports, 4 quotes, all at once
round() {
    r=$1
    db=$2
    dir="$tmp/round-$r"
    mkdir -p "$dir"
    i=1
    while [ $i -le 8 ]; do
        make_plan $i $r >"$dir/plan$i.ini"
        i=$((i + 1))
    done
    i=1
    while [ $i -le 4 ]; do
        make_csv $i $r >"$dir/sites$i.csv"
        i=$((i + 1))
    done
    pids=""
    i=1
    while [ $i -le 8 ]; do
        ("$BIN" --catalog "$db" plan save "p$r-$i" "$dir/plan$i.ini" \
            >"$dir/save$i.out" 2>"$dir/save$i.err"
         echo $? >"$dir/save$i.rc") &
        if [ $i -le 4 ]; then
            ("$BIN" --catalog "$db" catalog import sites "$dir/sites$i.csv" \
                >"$dir/imp$i.out" 2>"$dir/imp$i.err"
             echo $? >"$dir/imp$i.rc") &
            ("$BIN" --catalog "$db" quote --model llama3-8b --accel h100-sxm \
                --gpus 8 --format json >"$dir/q$i.out" 2>"$dir/q$i.err"
             echo $? >"$dir/q$i.rc") &
        fi
        i=$((i + 1))
    done
    wait

    bad=0
    for f in "$dir"/*.rc; do
        [ "$(cat "$f")" = 0 ] || { bad=1; echo "# $f: exit $(cat "$f"): $(cat "${f%.rc}.err")"; }
    done
    check "$r: all 16 concurrent processes exit 0" test $bad -eq 0

    "$BIN" --catalog "$db" plan list >"$dir/list" 2>&1
    n=$(grep -c "^p$r-[1-8] " "$dir/list")
    check "$r: all 8 saved plans are listed" test "$n" -eq 8
    ok=1
    i=1
    while [ $i -le 8 ]; do
        "$BIN" --catalog "$db" plan show "p$r-$i" >"$dir/show$i" 2>&1 || ok=0
        grep -q "^gpus = $((8 * i))\$" "$dir/show$i" || ok=0
        i=$((i + 1))
    done
    check "$r: every saved plan reads back with its own values" test $ok -eq 1

    "$BIN" --catalog "$db" catalog list sites --format csv >"$dir/sites" 2>&1
    n=$(grep -c "^conc-$r-[1-4]-" "$dir/sites")
    check "$r: all 100 imported rows are there" test "$n" -eq 100
    ok=1
    i=1
    while [ $i -le 4 ]; do
        grep "^conc-$r-$i-" "$dir/sites" | cut -d, -f1,2 | sort >"$dir/got$i"
        tail -n +2 "$dir/sites$i.csv" | cut -d, -f1,2 | sort >"$dir/want$i"
        cmp -s "$dir/got$i" "$dir/want$i" || ok=0
        i=$((i + 1))
    done
    check "$r: every import's rows are its own, complete" test $ok -eq 1
    check "$r: the default catalog is complete beside them" \
        sh -c "\"$BIN\" --catalog \"$db\" catalog show accelerators h100-sxm >/dev/null 2>&1"
    check "$r: integrity_check ok, WAL mode" python3 -c "
import sqlite3, sys
c = sqlite3.connect(sys.argv[1])
assert c.execute('PRAGMA integrity_check').fetchone()[0] == 'ok'
assert c.execute('PRAGMA journal_mode').fetchone()[0] == 'wal'
" "$db"
    check "$r: no temporary files left beside the catalog" \
        test -z "$(ls "$(dirname "$db")" | grep -v '^catalog\.db\(-wal\|-shm\)\?$')"
}

# Round 1: nobody has created the catalog yet.
round new "$tmp/new/catalog.db"
# Round 2: the same catalog, existing.
round old "$tmp/new/catalog.db"
check "both rounds' plans are there" \
    test "$("$BIN" --catalog "$tmp/new/catalog.db" plan list | grep -c '^p')" -eq 16
