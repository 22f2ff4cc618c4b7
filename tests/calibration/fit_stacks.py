#!/usr/bin/env python3
"""Fit the software-stack knobs once, on every published run of each stack.

    fit_stacks.py [--bin ./llmplan] [--shared ../shared] [--write]
                  [--loso OUT.csv] [--only STACK]

A stack row (data/stacks.csv) says how close a framework comes to the
hardware's measured ceilings (data/accelerators.csv): GEMM and attention
efficiency, its FP8 recipe, host dispatch per kernel, what selective
recomputation keeps, the allocator's reserve.  Each knob is one software
effect; this script fits them on all calibration cases that name the stack
(tests/data/training_cases.csv, the repo's copy of
../shared/calibration/training_cases.csv with the recipe facts each source
states), never per case, by coordinate
descent on the mean absolute error (median-like: where two sources
disagree on the same run, the model does not split the difference for
everyone else).  A stack
with no case keeps the catalog defaults.

--write rewrites the fitted columns of data/stacks.csv (the other columns
and the notes stay).  --loso does the honest check: for every source
(publication) it refits the stacks without that source's cases and
predicts them, writing one row per case (id, source, stack, predicted,
published, error) to OUT.csv and a per-source summary to stdout.  A stack
left without cases falls back to the typical framework: the median of the
other training stacks' fitted knobs (none of which saw the held-out
source).
"""
import argparse, csv, io, json, math, os, subprocess, sys, tempfile
from concurrent.futures import ThreadPoolExecutor

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))

# knob: (low, high, catalog default).  Fitted only where it moves the cases.
# The bounds are what is plausible for the effect: a framework's kernels
# reach at least half of the measured ceiling of the same kernel class.
KNOBS = {
    'gemm_eff': (0.50, 1.00, 0.85),
    'attn_eff': (0.50, 1.00, 0.80),
    'fp8_eff': (0.50, 1.00, 1.00),
    'kernel_us': (0.0, 20.0, 0.0),  # host dispatch: eager PyTorch ~10-20 us
    'selective_keep': (0.20, 1.00, 1.00),
    'ep_overlap': (0.0, 1.00, 0.0),
    'moe_imbalance': (1.0, 3.0, 1.0),  # dropless: busiest EP rank / even share
    'mem_reserve_gib': (0.25, 8.0, 1.0),
}


# Fewest MoE runs of a stack that may tell its dropless routing imbalance.
MOE_RUNS_MIN = 3

# Knobs a stack has by definition, never fitted: selective_keep measures a
# framework's selective recomputation against Megatron's set (the attention
# core: Korthikanti et al. 2022; Megatron-Core --recompute-modules default
# core_attn), so the Megatron stacks keep 1.  The same rule is in
# src/plan/calibrate.c (calib_knob_defined).
DEFINED = {
    'megatron-core': {'selective_keep': 1.0},
    'megatron-lm': {'selective_keep': 1.0},
}


def is_moe(case):
    """A run that tells moe_imbalance: MoE, dropless (no token drop) and
    the router left to route (not software.moe_force_balance=yes)."""
    kv = dict(s.split('=', 1) for s in case['sets'].split() if '=' in s)
    if int(kv.get('model.experts', '0')) <= 1:
        return False
    if float(kv.get('train.moe_capacity', '0')) > 0:
        return False
    return kv.get('software.moe_force_balance', 'stack') != 'yes'


def load_validate(shared):
    sys.path.insert(0, os.path.join(shared, 'acceptance'))
    import validate  # the acceptance harness's metric definitions
    return validate


def stack_of(case):
    for kv in case['sets'].split():
        if kv.startswith('software.stack='):
            return kv.split('=', 1)[1]
    return 'megatron-core'


def source_of(case):
    return case['source'].split(';')[0].strip()


class Runner:
    def __init__(self, binary, validate, stacks_path):
        self.bin = binary
        self.v = validate
        self.rows = list(csv.DictReader(open(stacks_path, newline='')))
        self.header = list(self.rows[0].keys())
        self.tmp = tempfile.TemporaryDirectory()
        self.n = 0

    def row(self, sid):
        return next(r for r in self.rows if r['id'] == sid)

    def predict(self, cases, sid, knobs):
        """Predictions for cases under stack sid with knobs applied."""
        self.n += 1
        cat = os.path.join(self.tmp.name, 'c%d.db' % self.n)
        row = dict(self.row(sid))
        for k, x in knobs.items():
            row[k] = '%.6g' % x
        buf = io.StringIO()
        w = csv.DictWriter(buf, fieldnames=self.header, lineterminator='\n')
        w.writeheader()
        w.writerow(row)
        path = os.path.join(self.tmp.name, 's.csv')
        with open(path, 'w') as f:
            f.write(buf.getvalue())
        p = subprocess.run([self.bin, '--catalog', cat, 'catalog', 'import',
                            'stacks', path], capture_output=True, text=True)
        if p.returncode:
            raise SystemExit('import failed: ' + p.stderr)

        def one(c):
            cmd = [self.bin, '--catalog', cat, 'quote', '--format', 'json']
            for kv in c['sets'].split():
                cmd += ['--set', kv]
            q = subprocess.run(cmd, capture_output=True, text=True)
            if q.returncode:
                return None
            try:
                x = float(self.v.metric(json.loads(q.stdout), c['metric']))
            except Exception:
                return None
            return x if math.isfinite(x) else None

        with ThreadPoolExecutor(4) as ex:
            out = list(ex.map(one, cases))
        os.unlink(cat)
        return out


def errors(cases, preds):
    return [1.0 if p is None else abs(p - float(c['expected'])) / float(c['expected'])
            for c, p in zip(cases, preds)]


def score(errs):
    return sum(errs) / len(errs) if errs else 0


def fit_stack(run, sid, cases, start):
    """Coordinate descent with a golden-section search per knob."""
    knobs = {k: min(max(x, KNOBS[k][0]), KNOBS[k][1]) for k, x in start.items()}
    knobs.update(DEFINED.get(sid, {}))
    best = score(errors(cases, run.predict(cases, sid, knobs)))
    active = []
    measured_memory = any(c['metric'] == 'total_gib' for c in cases)
    moe_runs = sum(1 for c in cases if is_moe(c))
    for k, (lo, hi, _) in KNOBS.items():
        if k == 'mem_reserve_gib' and not measured_memory:
            continue  # only a measured peak can tell the reserve
        if k == 'moe_imbalance' and moe_runs < MOE_RUNS_MIN:
            continue  # one or two MoE runs would make it a per-case fit
        if k in DEFINED.get(sid, {}):
            continue  # the stack has it by definition
        trial = dict(knobs)
        trial[k] = lo if abs(knobs[k] - lo) > abs(knobs[k] - hi) else hi
        if score(errors(cases, run.predict(cases, sid, trial))) != best:
            active.append(k)
    g = (math.sqrt(5) - 1) / 2
    for _ in range(3):
        for k in active:
            lo, hi, _ = KNOBS[k]
            a, b = lo, hi
            f = lambda x: score(errors(cases, run.predict(cases, sid, dict(knobs, **{k: x}))))
            c1, c2 = b - g * (b - a), a + g * (b - a)
            f1, f2 = f(c1), f(c2)
            for _ in range(12):
                if f1 < f2:
                    b, c2, f2 = c2, c1, f1
                    c1 = b - g * (b - a)
                    f1 = f(c1)
                else:
                    a, c1, f1 = c1, c2, f2
                    c2 = a + g * (b - a)
                    f2 = f(c2)
            x, fx = (c1, f1) if f1 < f2 else (c2, f2)
            if fx < best:
                knobs[k], best = x, fx
    return knobs, best, active


def typical_knobs(run, sid):
    """The median of the other training stacks' knobs in data/stacks.csv:
    what a framework without published runs is assumed to reach."""
    out = {}
    for k, (_, _, d) in KNOBS.items():
        xs = sorted(float(r[k]) for r in run.rows
                    if r['id'] != sid and r.get('kind') == 'train' and r.get(k, '') != '')
        out[k] = xs[len(xs) // 2] if len(xs) % 2 else (xs[len(xs) // 2 - 1] + xs[len(xs) // 2]) / 2 if xs else d
    return out


def start_knobs(run, sid):
    row = run.row(sid)
    out = {k: float(row[k]) if row.get(k, '') != '' else d for k, (_, _, d) in KNOBS.items()}
    out.update(DEFINED.get(sid, {}))
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--bin', default=os.path.join(ROOT, 'llmplan'))
    ap.add_argument('--shared', default=os.path.join(ROOT, '..', 'shared'))
    ap.add_argument('--stacks', default=os.path.join(ROOT, 'data', 'stacks.csv'))
    ap.add_argument('--cases', default=os.path.join(ROOT, 'tests', 'data', 'training_cases.csv'),
                    help='calibration cases (the repo copy: its software.* recipe facts)')
    ap.add_argument('--write', action='store_true')
    ap.add_argument('--loso', default='')
    ap.add_argument('--only', default='')
    ap.add_argument('--show', action='store_true', help='print every case after the fit')
    a = ap.parse_args()
    v = load_validate(a.shared)
    cases = list(csv.DictReader(open(a.cases, newline='')))
    run = Runner(a.bin, v, a.stacks)
    by_stack = {}
    for c in cases:
        by_stack.setdefault(stack_of(c), []).append(c)
    stacks = [s for s in by_stack if not a.only or s == a.only]

    if a.loso:
        rows = []
        for src in sorted({source_of(c) for c in cases}):
            held = [c for c in cases if source_of(c) == src]
            for sid in sorted({stack_of(c) for c in held}):
                train = [c for c in by_stack[sid] if source_of(c) != src]
                test = [c for c in held if stack_of(c) == sid]
                if train:
                    knobs, _, _ = fit_stack(run, sid, train, start_knobs(run, sid))
                else:
                    knobs = typical_knobs(run, sid)
                preds = run.predict(test, sid, knobs)
                for c, p in zip(test, preds):
                    e = 1.0 if p is None else (p - float(c['expected'])) / float(c['expected'])
                    rows.append({'id': c['id'], 'source': src, 'stack': sid,
                                 'predicted': '' if p is None else '%.6g' % p,
                                 'published': c['expected'], 'error': '%.6f' % e,
                                 'fallback': 'yes' if not train else 'no'})
                errs = [abs(float(r['error'])) for r in rows if r['source'] == src and r['stack'] == sid]
                print('%-60s %-18s %3d cases  MAPE %5.1f%%  worst %5.1f%%%s' % (
                    src[:60], sid, len(errs), 100 * sum(errs) / len(errs), 100 * max(errs),
                    '  (typical stack: no other source)' if not train else ''), flush=True)
        with open(a.loso, 'w', newline='') as f:
            w = csv.DictWriter(f, fieldnames=list(rows[0].keys()), lineterminator='\n')
            w.writeheader()
            w.writerows(rows)
        errs = [abs(float(r['error'])) for r in rows]
        print('leave-one-source-out: %d cases, MAPE %.1f%%, worst %.1f%%' % (
            len(errs), 100 * sum(errs) / len(errs), 100 * max(errs)))
        return

    for sid in stacks:
        knobs, best, active = fit_stack(run, sid, by_stack[sid], start_knobs(run, sid))
        errs = errors(by_stack[sid], run.predict(by_stack[sid], sid, knobs))
        print('%-20s %3d cases  MAPE %5.1f%%  worst %5.1f%%  %s' % (
            sid, len(errs), 100 * sum(errs) / len(errs), 100 * max(errs),
            ' '.join('%s=%.3g' % (k, knobs[k]) for k in active)), flush=True)
        if a.show:
            preds = run.predict(by_stack[sid], sid, knobs)
            for c, p in zip(by_stack[sid], preds):
                e = 1.0 if p is None else (p - float(c['expected'])) / float(c['expected'])
                print('    %-44s %10.4g %10.4g %+7.1f%%' % (c['id'], p or 0, float(c['expected']), 100 * e))
        row = run.row(sid)
        for k in active + list(DEFINED.get(sid, {})):
            row[k] = '%.3g' % knobs[k]
    if a.write:
        with open(a.stacks, 'w', newline='') as f:
            w = csv.DictWriter(f, fieldnames=run.header, lineterminator='\n')
            w.writeheader()
            w.writerows(run.rows)


if __name__ == '__main__':
    main()
