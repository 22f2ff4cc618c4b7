#!/bin/sh
# test_finance_csv.sh - issue 12: the finance CSV a spreadsheet opens.
#  * quote/compare --format csv --schedule: a generated-by row, a unit on
#    every row, plain decimals (no e-notation), one yes/no spelling, the
#    source and as-of date of every catalog row, the yearly schedule and
#    the monthly series;
#  * text a spreadsheet would run (= + - @) is neutralised on export and
#    refused on catalog import;
#  * LibreOffice converts it to xlsx with numbers as numbers and no
#    formula in any cell (skipped, with a line saying so, without soffice;
#    CI installs libreoffice-calc-nogui).
# Prints "ok <what>" / "FAIL <what>".
set -u
. "$(dirname "$0")/lib.sh"
export SOURCE_DATE_EPOCH=1790000000
cat="$tmp/catalog.db"
run() { "$BIN" --catalog "$cat" "$@"; }

# A plan whose name a spreadsheet would run.
cp data/plans/hybrid-owned.ini "$tmp/=1+1.ini"
run compare "$tmp/=1+1.ini" data/plans/azure-nd-h100-v5.ini --format csv \
    --schedule --output "$tmp/fin.csv" 2>"$tmp/err"
if [ $? -eq 0 ] && python3 - "$tmp/fin.csv" <<'PY'
import csv, re, sys
rows = list(csv.reader(open(sys.argv[1], newline='')))
hdr = rows[0]
assert hdr[:3] == ['section', 'metric', 'unit'], hdr
assert hdr[3] == "'=1+1", hdr            # neutralised, still readable
body = rows[1:]
assert body[0][:3] == ['generated', 'by', 'text'] and body[0][3].startswith('llmplan ')
assert body[1][:3] == ['generated', 'on', 'date'] and body[1][3] == '2026-09-21'
assert all(r[2] for r in body), [r for r in body if not r[2]][:3]
num = re.compile(r'^-?[0-9]+(\.[0-9]+)?$')
for r in body:
    for v in r[3:]:
        assert not re.match(r'^-?[0-9.]+[eE][-+]?[0-9]+$', v), ('e-notation', r)
        assert v not in ('true', 'false'), ('bool spelling', r)
keys = {(r[0], r[1]) for r in body}
for need in [('sources', 'hardware.system.price_source'),
             ('sources', 'cloud.offer.price_as_of'),
             ('schedule.year_0', 'capex_usd'), ('schedule.year_5', 'build_npv_usd'),
             ('schedule.year_5', 'cloud_npv_usd'), ('series.month_60', 'build_cumulative_usd'),
             ('cost', 'breakeven_reason'), ('cost.cloud', 'commitment_usd')]:
    assert need in keys, need
# issue 20: as-of dates are one ISO shape; one spelling per unit
iso = re.compile(r'^[0-9]{4}-[0-9]{2}-[0-9]{2}$')
for r in body:
    if r[0] == 'sources' and r[2] == 'date':
        assert all(c == '' or iso.match(c) for c in r[3:]), ('as_of shape', r)
    assert 'GPU-h' not in r[2], ('GPU hour spelling', r)
    if '_per_day' in r[1] and r[1].startswith(('usd', 'burst_usd')):
        assert r[2] == 'USD/day', ('per-day unit', r)
    if 'usd_per_mtok' in r[1]:
        assert r[2] == 'USD/Mtok', ('per-Mtok unit', r)
# the cloud's last-year NPV is the quote's NPV
v = {(r[0], r[1]): r[3:] for r in body}
for i in range(2):
    assert abs(float(v[('schedule.year_5', 'cloud_npv_usd')][i]) - float(v[('cost.cloud', 'npv_usd')][i])) < 1e-3
PY
then ok "finance CSV: units, plain decimals, sources, schedule, series"
else fail "finance CSV" "$(cat "$tmp/err")"; fi

# issue 20: the wide schedule, one row per year, one column per line item
run compare "$tmp/=1+1.ini" data/plans/azure-nd-h100-v5.ini \
    --format csv --schedule wide --output "$tmp/wide.csv" 2>"$tmp/err"
if [ $? -eq 0 ] && python3 - "$tmp/fin.csv" "$tmp/wide.csv" <<'PY'
import csv, sys
long_rows = list(csv.reader(open(sys.argv[1], newline='')))
wide = list(csv.reader(open(sys.argv[2], newline='')))
assert wide[0][:3] == ['plan', 'year', 'capex_usd'], wide[0]
names = long_rows[0][3:]
body = wide[1:]
for i, name in enumerate(names):
    mine = [r for r in body if r[0] == name]
    assert [r[1] for r in mine] == [str(y) for y in range(len(mine))], mine
    assert len(mine) == 6, (name, len(mine))
    for r in mine:
        for c, col in enumerate(wide[0][2:]):
            want = [l for l in long_rows
                    if l[0] == 'schedule.year_' + r[1] and l[1] == col][0][3 + i]
            assert r[2 + c] == want, (name, r[1], col, r[2 + c], want)
PY
then ok "--schedule wide: one row per plan and year, the long schedule's values"
else fail "--schedule wide" "$(cat "$tmp/err")"; fi

# Issue 18: the payback is where the schedule's discounted cumulative
# columns cross, and the monthly series is the schedule's cash month by
# month (the resale at month 60 included).
if run quote data/plans/dgx-h100-node.ini --format csv --schedule \
        --output "$tmp/dgx.csv" 2>"$tmp/err" && python3 - "$tmp/dgx.csv" <<'PY'
import csv, sys
v = {(r[0], r[1]): r[3] for r in csv.reader(open(sys.argv[1], newline=''))}
m = float(v[('cost', 'breakeven_months')])
y = 0
while float(v[('schedule.year_%d' % y, 'build_npv_usd')]) > float(v[('schedule.year_%d' % y, 'cloud_npv_usd')]):
    y += 1
assert y >= 1 and 12 * (y - 1) <= m <= 12 * y, (m, y)
for y in range(6):
    for side in ('build', 'cloud'):
        a = float(v[('schedule.year_%d' % y, side + '_cumulative_usd')])
        b = float(v[('series.month_%d' % (12 * y), side + '_cumulative_usd')])
        assert abs(a - b) <= 1e-6 * max(1, abs(a)), (y, side, a, b)
PY
then ok "payback lies in the year the schedule's discounted columns cross"
else fail "payback and schedule" "$(cat "$tmp/err")"; fi

# Issue 20 item 5: a 3-year term pays back but has no break-even
# utilization; the warning says which, in words.
run quote data/plans/dgx-h100-node.ini --term reserved_3y >"$tmp/out" 2>"$tmp/err"
if grep -q "breakeven_months  *[0-9]" "$tmp/out" &&
    ! grep -q "no break-even:" "$tmp/out" &&
    grep -q "no break-even utilization: owning is cheaper at any utilization$" "$tmp/out"; then
    ok "reserved_3y: payback printed, no contradicting warning"
else fail "reserved_3y warning" "$(grep -i break "$tmp/out")"; fi

if run quote data/plans/hybrid-owned.ini --format table --schedule >/dev/null 2>"$tmp/err"; then
    fail "--schedule without csv is refused"
elif grep -q "^llmplan: --schedule: needs --format csv" "$tmp/err"; then
    ok "--schedule without csv is refused"
else fail "--schedule without csv is refused" "$(cat "$tmp/err")"; fi

# Catalog import refuses formula-like text; plain data still imports.
h='id,name,pue,usd_per_kwh,kgco2_per_kwh,source,as_of,price_source,price_as_of'
printf '%s\nx1,"=HYPERLINK(""http://x"")",1.2,0.1,0.3,s,2025,p,2025\n' "$h" >"$tmp/inj.csv"
printf '%s\nx2,Plain,1.2,0.1,0.3,@import,2025,p,2025\n' "$h" >"$tmp/inj2.csv"
printf '%s\nx3,Plain,1.2,0.1,0.3,-2+3,2025,p,2025\n' "$h" >"$tmp/inj3.csv"
printf 'id,name,pue,usd_per_kwh,kgco2_per_kwh,source,as_of,price_source,price_as_of\nx4,Plain,1.2,0.1,0.3,a survey (2025),2025,the same survey,2025\n' >"$tmp/ok.csv"
a=0; run catalog import sites "$tmp/inj.csv" >/dev/null 2>"$tmp/e1" || a=$?
b=0; run catalog import sites "$tmp/inj2.csv" >/dev/null 2>"$tmp/e2" || b=$?
c=0; run catalog import sites "$tmp/inj3.csv" >/dev/null 2>"$tmp/e3" || c=$?
e=0; run catalog import sites "$tmp/ok.csv" >/dev/null 2>"$tmp/e4" || e=$?
if [ $a -eq 2 ] && [ $b -eq 2 ] && [ $c -eq 2 ] && [ $e -eq 0 ] &&
    grep -q ':2: name: starts with' "$tmp/e1" && grep -q ':2: source: starts with' "$tmp/e2"; then
    ok "catalog import refuses formula-like text"
else fail "catalog import refuses formula-like text" "$a $b $c $(cat "$tmp/e1" "$tmp/e2")"; fi

# LibreOffice: numbers as numbers, no formula anywhere.
if ! need soffice; then
    skip "LibreOffice opens the CSV" "soffice not installed (CI installs libreoffice-calc-nogui)"
else
    (cd "$tmp" && timeout 60 soffice --headless --infilter=CSV:44,34,76,1 \
        --convert-to xlsx --outdir "$tmp" "$tmp/fin.csv" >/dev/null 2>&1)
    if [ -s "$tmp/fin.xlsx" ] && python3 - "$tmp/fin.csv" "$tmp/fin.xlsx" <<'PY'
import csv, re, sys, zipfile
import xml.etree.ElementTree as ET
ns = {'m': 'http://schemas.openxmlformats.org/spreadsheetml/2006/main'}
z = zipfile.ZipFile(sys.argv[2])
sheet = ET.fromstring(z.read('xl/worksheets/sheet1.xml'))
shared = []
if 'xl/sharedStrings.xml' in z.namelist():
    for si in ET.fromstring(z.read('xl/sharedStrings.xml')).findall('m:si', ns):
        shared.append(''.join(t.text or '' for t in si.iter('{%s}t' % ns['m'])))
assert not sheet.findall('.//m:f', ns), 'a formula in the sheet'
cells = {}
for c in sheet.iter('{%s}c' % ns['m']):
    v = c.find('m:v', ns)
    cells[c.get('r')] = (c.get('t', 'n'), v.text if v is not None else None)
def col(i):
    s = ''
    i += 1
    while i:
        i, r = divmod(i - 1, 26)
        s = chr(65 + r) + s
    return s
rows = list(csv.reader(open(sys.argv[1], newline='')))
num = re.compile(r'^-?[0-9]+(\.[0-9]+)?$')
checked = 0
for ri, row in enumerate(rows):
    for ci, text in enumerate(row):
        if ci < 3 or not num.match(text):
            continue
        t, v = cells.get('%s%d' % (col(ci), ri + 1), (None, None))
        assert t == 'n', ('not a number', ri + 1, ci, text, t)
        assert abs(float(v) - float(text)) <= 1e-9 * max(1, abs(float(text))), (text, v)
        checked += 1
assert checked > 300, checked
t, v = cells['D1']
assert t == 's' and shared[int(v)] == "'=1+1", (t, v)
# issue 20: every as-of cell gets the same type in the sheet
types = set()
for ri, row in enumerate(rows):
    if len(row) > 3 and row[0] == 'sources' and row[2] == 'date':
        for ci in range(3, len(row)):
            if row[ci]:
                types.add(cells.get('%s%d' % (col(ci), ri + 1), (None,))[0])
assert len(types) == 1, ('as_of typed differently', types)
PY
    then ok "LibreOffice reads the finance CSV: numbers as numbers, no formula"
    else fail "LibreOffice reads the finance CSV"; fi
fi
