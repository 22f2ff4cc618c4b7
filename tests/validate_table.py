#!/usr/bin/env python3
"""Generate the README validation tables from the calibration cases.

    validate_table.py [--bin ./llmplan] [--shared ../shared] [--readme README.md]
                      [--loso]

Runs ../shared/acceptance/validate.py (every case of
tests/data/training_cases.csv through `llmplan quote`), then rewrites the
block between <!-- validation:begin --> and <!-- validation:end --> in the
README with the error per source and one row per case (model, GPUs,
layout, stack, metric, published, predicted, error) and the summary line;
the same for the further published runs of tests/data/published_runs.csv
between <!-- published-runs:begin/end -->; the serving cases (fitted,
held out, under load with its leave-one-source-out line) likewise.  With --loso it also runs the
leave-one-source-out check (tests/calibration/fit_stacks.py --loso, which
runs `llmplan calibrate --loso`: the stacks refitted without each source
by the fitter of `llmplan calibrate`, predicting it) into
<!-- loso:begin/end -->.
`make validate` calls it; the numbers are never typed."""
import argparse, hashlib, csv, os, subprocess, sys, tempfile

BEGIN, END = '<!-- validation:begin -->', '<!-- validation:end -->'
MORE_BEGIN, MORE_END = '<!-- published-runs:begin -->', '<!-- published-runs:end -->'
LOSO_BEGIN, LOSO_END = '<!-- loso:begin -->', '<!-- loso:end -->'
SERVE_BEGIN, SERVE_END = '<!-- serving:begin -->', '<!-- serving:end -->'
HELD_BEGIN, HELD_END = '<!-- serving-held-out:begin -->', '<!-- serving-held-out:end -->'
LOAD_BEGIN, LOAD_END = '<!-- serving-load:begin -->', '<!-- serving-load:end -->'
SLOSO_BEGIN, SLOSO_END = '<!-- serving-loso:begin -->', '<!-- serving-loso:end -->'


def describe(sets):
    kv = dict(s.split('=', 1) for s in sets.split())
    if kv.get('workload.kind') == 'serve':
        return describe_serve(kv)
    if 'model.hidden' in kv:
        model = 'L%s h%s' % (kv.get('model.layers', '?'), kv['model.hidden'])
    else:
        model = '%.3gB params' % (float(kv.get('model.params', 0)) / 1e9)
    lay = 'tp%s pp%s dp%s' % (kv.get('parallel.tp', '1'), kv.get('parallel.pp', '1'), kv.get('parallel.dp', '1'))
    if kv.get('parallel.interleave', '1') != '1':
        lay += ' v%s' % kv['parallel.interleave']
    lay += ' mb%s %s' % (kv.get('parallel.microbatch', '1'), kv.get('parallel.recompute', ''))
    if kv.get('parallel.sequence_parallel') == 'yes':
        lay += '+sp'
    if kv.get('parallel.zero', '0') != '0':
        lay += ' zero%s' % kv['parallel.zero']
    acc = kv.get('hardware.accelerator', '')
    lay += ' ' + kv.get('train.precision', 'bf16')
    return model, '%s x %s' % (kv.get('hardware.gpus', '?'), acc), lay, kv.get('software.stack', 'megatron-core')


def replica(kv, pre):
    """tp, ep and attention DP of a replica or a pool ('' or 'serve.prefill.')."""
    tp = kv.get(pre + 'tp' if pre else 'parallel.tp', '1')
    lay = 'tp%s' % tp
    ep = kv.get(pre + 'ep' if pre else 'parallel.ep', '1')
    if ep != '1':
        lay += ' ep%s' % ep
    adp = kv.get(pre + 'attention_dp' if pre else 'serve.attention_dp', '1')
    if adp != '1':
        lay += ' adp%s' % adp
    if not pre and kv.get('parallel.pp', '1') != '1':
        lay += ' pp%s' % kv['parallel.pp']
    return lay


def describe_serve(kv):
    """A serving case: a replica's layout, or each disaggregated pool's
    (P: prefill, D: decode, with its GPUs), or the one pool measured."""
    model = 'L%s h%s' % (kv.get('model.layers', '?'), kv.get('model.hidden', '?'))
    if kv.get('model.experts'):
        model += ' E%s' % kv['model.experts']
    acc = kv.get('hardware.accelerator', '')
    pools = [(x, 'serve.%s.' % name) for x, name in (('P', 'prefill'), ('D', 'decode'))
             if 'serve.%s.gpus' % name in kv]
    if kv.get('serve.disaggregated') == 'yes' and pools:
        lay = ', '.join('%s %s' % (x, replica(kv, pre)) for x, pre in pools)
        gpus = '+'.join(kv[pre + 'gpus'] for _, pre in pools)
    else:
        lay = replica(kv, '')
        gpus = kv.get('hardware.gpus', '?')
    if kv.get('serve.pool'):
        lay += ' (%s pool)' % kv['serve.pool']
    lay += ' %s %s/%s %s' % (kv.get('serve.weights', 'bf16'), kv.get('serve.input_tokens', '?'),
                             kv.get('serve.output_tokens', '?'), kv.get('serve.mode', 'online'))
    if kv.get('serve.concurrency'):
        lay += ' c%s' % kv['serve.concurrency']
    if kv.get('serve.requests_per_s'):
        lay += ' %s req/s' % kv['serve.requests_per_s']
    if kv.get('serve.percentile'):
        lay += ' p%s' % kv['serve.percentile']
    return model, '%s x %s' % (gpus, acc), lay, kv.get('software.stack', 'vllm')


def table(validate, binary, cases_path, begin, end, intro):
    """Run validate.py on one case file; the README block for it."""
    cases = {c['id']: c for c in csv.DictReader(open(cases_path, newline=''))}
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, 'v.csv')
        p = subprocess.run([sys.executable, validate, '--bin', binary,
                            '--cases', cases_path, '--csv', out],
                           capture_output=True, text=True)
        summary = (p.stdout.strip().splitlines() or ['no output'])[-1]
        rows = list(csv.DictReader(open(out, newline='')))
    by_source = {}
    for r in rows:
        src = cases[r['id']]['source'].split(';')[0].strip()
        by_source.setdefault(src, []).append(abs(float(r['error'])))
    lines = [begin, '', intro, '',
             '| source | cases | MAPE | worst |', '|---|---:|---:|---:|']
    for src, es in sorted(by_source.items()):
        lines.append('| %s | %d | %.1f%% | %.1f%% |' % (src, len(es), 100 * sum(es) / len(es), 100 * max(es)))
    lines += ['', '| case | model | GPUs | layout | stack | metric | published | predicted | error |',
              '|---|---|---|---|---|---|---:|---:|---:|']
    for r in rows:
        c = cases[r['id']]
        model, gpus, lay, stack = describe(c['sets'])
        pred = r['predicted']
        pred_s = '%.4g' % float(pred) if pred != '' else 'refused'
        lines.append('| %s | %s | %s | %s | %s | %s | %.4g | %s | %+.1f%% |' % (
            r['id'], model, gpus, lay, stack, r['metric'], float(r['published']), pred_s, 100 * float(r['error'])))
    lines += ['', '**%s**' % summary, '', end]
    return '\n'.join(lines), summary, rows


def replace_block(text, begin, end, block, heading):
    if begin in text and end in text:
        head, rest = text.split(begin, 1)
        return head + block + rest.split(end, 1)[1]
    return text.rstrip('\n') + '\n\n' + heading + '\n\n' + block + '\n'


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--bin', default='./llmplan')
    ap.add_argument('--shared', default='../shared')
    ap.add_argument('--readme', default='README.md')
    ap.add_argument('--more', default='tests/data/published_runs.csv')
    ap.add_argument('--cases', default='tests/data/training_cases.csv')
    ap.add_argument('--loso', action='store_true')
    ap.add_argument('--errors-header', default='src/plan/stack_errors.h',
                    help='with --loso: where the per-stack errors for size go')
    ap.add_argument('--serve-errors-header', default='src/plan/serve_errors.h',
                    help='where the serving engines\' held-out errors for size go')
    a = ap.parse_args()
    validate = os.path.join(a.shared, 'acceptance', 'validate.py')
    text = open(a.readme).read()
    block, summary, _ = table(
        validate, a.bin, a.cases, BEGIN, END,
        'Generated by `make validate` from `%s` '
        '(`python3 ../shared/acceptance/validate.py --cases %s`); do not edit by hand.' % (a.cases, a.cases))
    text = replace_block(text, BEGIN, END, block, '## Validation')
    print(summary)
    if os.path.exists(a.more):
        block, summary, _ = table(
            validate, a.bin, a.more, MORE_BEGIN, MORE_END,
            'Generated by `make validate` from `%s` (`python3 ../shared/acceptance/'
            'validate.py --cases %s`); do not edit by hand.' % (a.more, a.more))
        text = replace_block(text, MORE_BEGIN, MORE_END, block, '### More published runs')
        print(summary)
    if a.loso:
        block, summary = loso_table(a)
        text = replace_block(text, LOSO_BEGIN, LOSO_END, block, '### Leave one source out')
        print(summary)
    serving = os.path.join(a.shared, 'calibration', 'serving_cases.csv')
    if os.path.exists(serving):
        block, summary, _ = table(
            validate, a.bin, serving, SERVE_BEGIN, SERVE_END,
            'Generated by `make validate` from `../shared/calibration/serving_cases.csv` '
            '(`python3 ../shared/acceptance/validate.py --cases ...`); do not edit by hand.')
        text = replace_block(text, SERVE_BEGIN, SERVE_END, block, '### Serving')
        print(summary)
    held = 'tests/data/serving_published.csv'
    if os.path.exists(held):
        block, summary, rows = table(
            validate, a.bin, held, HELD_BEGIN, HELD_END,
            'Generated by `make validate` from `%s` (held out: never fitted); '
            'do not edit by hand.' % held)
        text = replace_block(text, HELD_BEGIN, HELD_END, block, '#### Held out')
        write_serve_errors_header(a, held, rows)
        print(summary)
    load = 'tests/data/serving_load_cases.csv'
    if os.path.exists(load):
        block, summary, rows = table(
            validate, a.bin, load, LOAD_BEGIN, LOAD_END,
            'Generated by `make validate` from `%s` (nothing fitted on them); '
            'do not edit by hand.' % load)
        text = replace_block(text, LOAD_BEGIN, LOAD_END, block, '#### Under load')
        print(summary)
        block, summary = serving_loso_block(load, rows)
        text = replace_block(text, SLOSO_BEGIN, SLOSO_END, block, '#### Serving: leave one source out')
        print(summary)
    open(a.readme, 'w').write(text)


def serving_loso_block(path, rows):
    """Leave one source out for serving, as training has it: each source
    predicted by knobs fitted without it.  No serving knob is fitted by
    `make validate` (fit_stacks.py refits the training stacks only) and
    none was set on the load cases, so for them leaving a source out
    changes no knob: the figure is their in-sample error, per source and
    overall, computed here, not assumed."""
    cases = {c['id']: c for c in csv.DictReader(open(path, newline=''))}
    by_source = {}
    for r in rows:
        src = cases[r['id']]['source'].split(';')[0].strip()
        by_source.setdefault(src, []).append(abs(float(r['error'])))
    errs = sorted(e for es in by_source.values() for e in es)
    p90 = errs[min(len(errs) - 1, -(-9 * len(errs) // 10) - 1)]
    summary = ('leave-one-source-out (serving, %d load cases from %d sources): MAPE %.1f%%, '
               'p90 %.1f%%, worst %.1f%% (= in-sample: no knob fitted on them)' % (
                   len(errs), len(by_source), 100 * sum(errs) / len(errs), 100 * p90, 100 * errs[-1]))
    lines = [SLOSO_BEGIN, '',
             'Generated by `make validate` from `%s`; do not edit by hand. '
             'No serving knob is refitted by `make validate` (`tests/calibration/fit_stacks.py` '
             'fits the training stacks; the serving engines\' knobs in `data/stacks.csv` were '
             'set once on `serving_cases.csv`, vLLM\'s and SGLang\'s estimated), and none on '
             'these rows: leaving a source out changes no knob, so each source\'s error below '
             'is already out of sample.' % path, '']
    lines += ['**%s**' % summary, '', SLOSO_END]
    return '\n'.join(lines), summary


def loso_table(a):
    """Refit without each source, predict it: the README block."""
    fit = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'calibration', 'fit_stacks.py')
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, 'loso.csv')
        p = subprocess.run([sys.executable, fit, '--bin', a.bin, '--shared', a.shared,
                            '--cases', a.cases, '--loso', out], capture_output=True, text=True)
        if p.returncode:
            raise SystemExit(p.stderr)
        summary = (p.stdout.strip().splitlines() or ['no output'])[-1]
        rows = list(csv.DictReader(open(out, newline='')))
    write_errors_header(a, rows)
    groups = {}
    for r in rows:
        groups.setdefault((r['source'], r['stack'], r['fallback']), []).append(abs(float(r['error'])))
    lines = [LOSO_BEGIN, '',
             'Generated by `make validate` (`tests/calibration/fit_stacks.py --loso`, '
             'i.e. `llmplan calibrate tests/data/training_cases.csv --loso`): '
             'each source is predicted by stack knobs fitted without it; do not edit by hand.', '',
             '| held-out source | stack | cases | MAPE | worst | knobs from |',
             '|---|---|---:|---:|---:|---|']
    for (src, stack, fb), es in sorted(groups.items()):
        lines.append('| %s | %s | %d | %.1f%% | %.1f%% | %s |' % (
            src, stack, len(es), 100 * sum(es) / len(es), 100 * max(es),
            'median of the other stacks (no knob moved by 3+ runs of another source)'
            if fb == 'yes' else 'the other sources (the rest: median of the other stacks)'))
    lines += ['', '**%s**' % summary, '', LOSO_END]
    return '\n'.join(lines), summary


# The data each generated header is computed from.  The header records
# their SHA-256 (the files' bytes in this order, as `cat FILES | sha256sum`
# gives it) and tests/shell/test_generated.sh fails when they changed
# without `make validate`.
STACK_INPUTS = ('tests/data/training_cases.csv', 'data/stacks.csv',
                'data/accelerators.csv')
SERVE_INPUTS = ('tests/data/serving_published.csv', 'data/stacks.csv',
                'data/accelerators.csv')


def inputs_line(a, names):
    h = hashlib.sha256()
    for n in names:
        with open(n.format(shared=a.shared), 'rb') as f:
            h.update(f.read())
    return ' * inputs: sha256 %s of %s' % (h.hexdigest(), ' '.join(
        n.format(shared='../shared') for n in names))


def write_serve_errors_header(a, held, rows):
    """The held-out serving error per engine and over all held-out rows,
    as the C table `llmplan size` on a serving plan draws its ranges from
    (the fitted rows would understate it)."""
    stacks = {}
    for c in csv.DictReader(open(held, newline='')):
        kv = dict(x.split('=', 1) for x in c['sets'].split())
        stacks[c['id']] = kv.get('software.stack', 'tensorrt-llm')
    per, every = {}, []
    for r in rows:
        if r['predicted'] == '':
            continue
        e = abs(float(r['error']))
        per.setdefault(stacks[r['id']], []).append(e)
        every.append(e)
    lines = ['/* serve_errors.h - generated by `make validate` (tests/validate_table.py)',
             ' * from %s: the mean absolute error of each serving' % held,
             ' * engine on published rows it was never fitted to.  Do not edit by hand.',
             inputs_line(a, SERVE_INPUTS) + ' */',
             '#define SIZE_SERVE_ERRORS \\']
    rows_c = ['    {"%s", %.4f, %d}' % (sid, sum(per[sid]) / len(per[sid]), len(per[sid]))
              for sid in sorted(per)]
    lines += [r + ', \\' for r in rows_c[:-1]] + rows_c[-1:]
    lines.append('#define SIZE_SERVE_ERROR %.4f /* %d held-out rows */' % (sum(every) / len(every), len(every)))
    with open(a.serve_errors_header + '.tmp', 'w') as f:
        f.write('\n'.join(lines) + '\n')
    os.replace(a.serve_errors_header + '.tmp', a.serve_errors_header)


TIME_METRICS = ('step_s', 'tokens_per_s_per_gpu', 'mfu', 'model_tflops_per_gpu',
                'hw_tflops_per_gpu', 'train_days', 'gpu_hours')


def write_errors_header(a, rows):
    """The leave-one-source-out error of the time metrics, per stack and
    overall, as the C table `llmplan size` draws its ranges from.  A stack
    whose runs check only memory (deepspeed's ZeRO table) has no time error
    of its own and is left out: size then uses the overall figure."""
    cases = {c['id']: c for c in csv.DictReader(open(a.cases, newline=''))}
    per, every = {}, []
    for r in rows:
        c = cases.get(r['id'])
        if not c or c['metric'] not in TIME_METRICS:
            continue
        e = abs(float(r['error']))
        per.setdefault(r['stack'], []).append(e)
        every.append(e)
    lines = ['/* stack_errors.h - generated by `make validate` (tests/validate_table.py',
             ' * --loso) from the leave-one-source-out run: the mean absolute error of',
             ' * the time metrics of each stack\'s published runs, each predicted by',
             ' * knobs fitted without its source.  Do not edit by hand.',
             inputs_line(a, STACK_INPUTS) + ' */',
             '#define SIZE_STACK_ERRORS \\']
    rows_c = ['    {"%s", %.4f, %d}' % (sid, sum(per[sid]) / len(per[sid]), len(per[sid]))
              for sid in sorted(per)]
    lines += [r + ', \\' for r in rows_c[:-1]] + rows_c[-1:]
    lines.append('#define SIZE_OVERALL_ERROR %.4f /* %d runs */' % (sum(every) / len(every), len(every)))
    with open(a.errors_header + '.tmp', 'w') as f:
        f.write('\n'.join(lines) + '\n')
    os.replace(a.errors_header + '.tmp', a.errors_header)


if __name__ == '__main__':
    main()
