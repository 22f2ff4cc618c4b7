#!/bin/sh
# test_cases_copy.sh - the repo copies of the shared calibration cases.
# tests/data/training_cases.csv is the corrected
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
          'software.moe_force_balance=',  # new key (d19b)
          'software.fp8_scaling=')  # new key (w19d)
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

# tests/data/serving_load_cases.csv is ../shared/calibration/
# serving_load_cases.csv for the serve_calibration suite (a fresh clone
# has no ../shared): the same rows, but that a row may name its engine's
# release (software.stack=<engine release>) and cite it in its source.
shared=../shared/calibration/serving_load_cases.csv
check "load cases copy: the shared serving load cases" \
    python3 - "$shared" tests/data/serving_load_cases.csv <<'PY'
import csv, sys
a = list(csv.DictReader(open(sys.argv[1], newline='')))
b = list(csv.DictReader(open(sys.argv[2], newline='')))
ok = len(a) == len(b)
def rest(sets):
    return [kv for kv in sets.split() if not kv.startswith('software.stack=')]
def stack(sets):
    return [kv.split('=', 1)[1] for kv in sets.split()
            if kv.startswith('software.stack=')]
def release_of(xs, ys):  # the shared engine, or a release of it
    return len(xs) == len(ys) and all(y.startswith(x) for x, y in zip(xs, ys))
for x, y in zip(a, b):
    same = all(x[k] == y[k] for k in ('id', 'metric', 'expected', 'tol'))
    if not same or rest(x['sets']) != rest(y['sets']) or \
            not release_of(stack(x['sets']), stack(y['sets'])) or \
            not y['source'].startswith(x['source'].rstrip('"')):
        print('differs: ' + y['id'], file=sys.stderr)
        ok = False
sys.exit(0 if ok else 1)
PY
