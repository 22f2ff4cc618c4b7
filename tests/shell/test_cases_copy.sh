#!/bin/sh
# test_cases_copy.sh - tests/data/training_cases.csv is the corrected
# shared copy (../shared/calibration/training_cases.csv) plus the recipe
# facts each source states: the same ids, metrics, published figures and
# tolerances, and the same sets but for software.* recipe keys (and a
# source text that may cite the config the fact comes from).  Skipped
# without ../shared (a fresh clone).
. tests/shell/lib.sh

shared=../shared/calibration/training_cases.csv
if [ ! -f "$shared" ]; then
    echo "ok cases copy (no ../shared: skipped)"
    exit 0
fi
check "cases copy: the shared cases plus software.* recipe facts" \
    python3 - "$shared" tests/data/training_cases.csv <<'PY'
import csv, sys
RECIPE = ('software.moe_a2a_overlap=', 'software.tp_comm_overlap=',
          'software.cuda_graphs=', 'software.moe_dispatcher=',
          'software.moe_force_balance=')  # new key (d19b)
a = list(csv.DictReader(open(sys.argv[1], newline='')))
b = list(csv.DictReader(open(sys.argv[2], newline='')))
ok = len(a) == len(b)
for x, y in zip(a, b):
    rest = [kv for kv in y['sets'].split() if not kv.startswith(RECIPE)]
    same = all(x[k] == y[k] for k in ('id', 'metric', 'expected', 'tol'))
    if not same or rest != x['sets'].split() or \
            not y['source'].startswith(x['source'].rstrip('"')):
        print('differs: ' + y['id'], file=sys.stderr)
        ok = False
sys.exit(0 if ok else 1)
PY
