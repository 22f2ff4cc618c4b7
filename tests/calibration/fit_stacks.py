#!/usr/bin/env python3
"""Fit the software-stack knobs once, on every published run of each stack.

    fit_stacks.py [--bin ./llmplan] [--write] [--loso OUT.csv]
                  [--only STACK] [--show]

A stack row (data/stacks.csv) says how close a framework comes to the
hardware's measured ceilings (data/accelerators.csv): GEMM and attention
efficiency, its FP8 recipe, host dispatch per kernel, what selective
recomputation keeps, the allocator's reserve.  Each knob is one software
effect, fitted on all calibration cases that name the stack
(tests/data/training_cases.csv, the repo's copy of
../shared/calibration/training_cases.csv with the recipe facts each
source states), never per case.

This script only drives the fitter: `llmplan calibrate CASES --all-stacks`
(src/plan/calibrate.c: the knob list and bounds, the objective, the
coordinate descent, the knobs a stack has by definition, the MoE gating;
the same fitter `llmplan calibrate` runs on a user's runs).  The binary
starts from data/stacks.csv as it is on disk (imported into a scratch
catalog), so the fit does not depend on what the binary embedded.

--write rewrites the fitted columns of data/stacks.csv (the other columns
and the notes stay) with the knobs the fitter fitted or defines, to 3
significant digits.  --loso does the honest check (`llmplan calibrate
CASES --loso`): for every source (publication) the stacks are refitted
without that source's cases and predict them; one row per case (id,
source, stack, predicted, published, error, fallback) goes to OUT.csv and
the per-source summary to stdout, its last line the overall figure.  A
stack left without cases falls back to the typical framework: the median
of the other training stacks' knobs (none of which saw the held-out
source).
"""
import argparse, csv, json, os, subprocess, sys, tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))


def calibrate(a, cat, *args):
    p = subprocess.run([a.bin, '--catalog', cat, 'calibrate', a.cases] + list(args),
                       capture_output=True, text=True)
    if p.returncode:
        raise SystemExit('llmplan calibrate failed: ' + p.stderr.strip())
    return p.stdout


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--bin', default=os.path.join(ROOT, 'llmplan'))
    ap.add_argument('--shared', default=os.path.join(ROOT, '..', 'shared'),
                    help='unused (kept for callers): the metrics are the binary\'s')
    ap.add_argument('--stacks', default=os.path.join(ROOT, 'data', 'stacks.csv'))
    ap.add_argument('--cases', default=os.path.join(ROOT, 'tests', 'data', 'training_cases.csv'),
                    help='calibration cases (the repo copy: its software.* recipe facts)')
    ap.add_argument('--write', action='store_true')
    ap.add_argument('--loso', default='')
    ap.add_argument('--only', default='')
    ap.add_argument('--show', action='store_true', help='print every case after the fit')
    a = ap.parse_args()
    rows = list(csv.DictReader(open(a.stacks, newline='')))
    header = list(rows[0].keys())
    cases = {c['id']: c for c in csv.DictReader(open(a.cases, newline=''))}
    with tempfile.TemporaryDirectory() as tmp:
        cat = os.path.join(tmp, 'fit.db')
        p = subprocess.run([a.bin, '--catalog', cat, 'catalog', 'import', 'stacks', a.stacks],
                           capture_output=True, text=True)
        if p.returncode:
            raise SystemExit('import failed: ' + p.stderr)
        if a.loso:
            doc = json.loads(calibrate(a, cat, '--loso', '--format', 'json'))
            with open(a.loso, 'w', newline='') as f:
                w = csv.writer(f, lineterminator='\n')
                w.writerow(['id', 'source', 'stack', 'predicted', 'published', 'error', 'fallback'])
                for c in doc['cases']:
                    w.writerow([c['id'], c['source'], c['stack'],
                                '' if c['predicted'] is None else '%.6g' % c['predicted'],
                                cases[c['id']]['expected'], '%.6f' % c['error'],
                                'yes' if c['fallback'] else 'no'])
            sys.stdout.write(calibrate(a, cat, '--loso'))
            return
        doc = json.loads(calibrate(a, cat, '--all-stacks', '--format', 'json'))
    for s in doc['stacks']:
        if a.only and s['stack'] != a.only:
            continue
        print('%-20s %3d cases  MAPE %5.1f%%  worst %5.1f%%  %s' % (
            s['stack'], s['runs'], 100 * s['mape_fit'], 100 * s['worst_fit'],
            ' '.join('%s=%.3g' % (k['name'], k['fitted']) for k in s['knobs']
                     if k['why'] == 'fitted')), flush=True)
        if a.show:
            for c in s['cases']:
                p = c['predicted_fit']
                e = 1.0 if p is None else (p - c['measured']) / c['measured']
                print('    %-44s %10.4g %10.4g %+7.1f%%' % (c['id'], p or 0, c['measured'], 100 * e))
        row = next(r for r in rows if r['id'] == s['stack'])
        for k in s['knobs']:
            if k['store']:
                row[k['name']] = '%.3g' % k['fitted']
    if a.write:
        with open(a.stacks, 'w', newline='') as f:
            w = csv.DictWriter(f, fieldnames=header, lineterminator='\n')
            w.writeheader()
            w.writerows(rows)


if __name__ == '__main__':
    main()
