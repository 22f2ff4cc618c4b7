#!/bin/sh
# test_cases_copy.sh - the repo copies of the shared calibration cases.
# tests/data/training_cases.csv is the corrected
# shared copy (../shared/calibration/training_cases.csv) plus the recipe
# facts each source states: the same ids, metrics, published figures and
# tolerances, and the same sets but for software.* recipe keys, the
# gradient buffer precision a recipe states (grad_reduce_in_fp32) and the
# model facts a recipe's model config states beyond the table (DeepSeek-V3's
# dense layers, moe_layer_freq, MTP modules, mtp_num_layers, and routing
# groups, moe_router_num_groups / group_topk; gpt-oss's expert biases and
# activation clamp, add_bias_linear / activation_func_clamp_value), the
# board power cap a run states (hardware.power_limit_w: torchao's B200
# table "limited to 750W", the async-TP bench's "default 500W power
# limit"), and a source text that may cite the config the fact comes from.  A row whose
# shared source says its accelerator is a stand-in ("encoded as h100-sxm")
# may name the catalog's row for the variant the source states instead.
# Skipped without ../shared (a fresh clone).
. tests/shell/lib.sh

shared=../shared/calibration/training_cases.csv
if [ ! -f "$shared" ]; then
    echo "ok cases copy (no ../shared: skipped)"
    exit 0
fi
check "cases copy: the shared cases plus software.* recipe facts" \
    python3 - "$shared" tests/data/training_cases.csv <<'PY'
import csv, re, sys
RECIPE = ('software.moe_a2a_overlap=', 'software.tp_comm_overlap=',
          'software.cuda_graphs=', 'software.moe_dispatcher=',
          'software.moe_force_balance=',  # new key (d19b)
          'model.first_dense_layers=', 'model.mtp_layers=',
          'model.moe_groups=', 'model.moe_group_topk=',
          'software.fp8_scaling=',  # new key (w19d)
          'software.offload=',  # new key (x19i)
          'software.checkpoint_early_stop=',  # new key (w19n)
          'model.expert_bias=', 'model.act_clamp=',  # new keys (w19j)
          'software.recompute_modules=',  # new key (w19k)
          'train.grad_dtype=',  # the gradient buffer a recipe states (w19k)
          'hardware.power_limit_w=')  # the power cap a run states (x19a)
a = list(csv.DictReader(open(sys.argv[1], newline='')))
b = list(csv.DictReader(open(sys.argv[2], newline='')))
ok = len(a) == len(b)
for x, y in zip(a, b):
    xs = x['sets'].split()  # a key the shared row sets stays as it is
    rest = [kv for kv in y['sets'].split()
            if not kv.startswith(RECIPE) or kv in xs]
    stand_in = re.search(r'encoded as ([a-z0-9.-]+)', x['source'])
    if stand_in:
        rest = ['hardware.accelerator=' + stand_in.group(1)
                if kv.startswith('hardware.accelerator=') else kv
                for kv in rest]
    same = all(x[k] == y[k] for k in ('id', 'metric', 'expected', 'tol'))
    if not same or rest != xs or \
            not y['source'].startswith(x['source'].rstrip('"')):
        print('differs: ' + y['id'], file=sys.stderr)
        ok = False
sys.exit(0 if ok else 1)
PY

# tests/data/serving_load_cases.csv is ../shared/calibration/
# serving_load_cases.csv for the serve_calibration suite (a fresh clone
# has no ../shared): the same rows, but that a row may name its engine's
# release (software.stack=<engine release>) and the token budget its
# recipe launched the engine with (software.prefill_chunk: TensorRT-LLM
# --max_num_tokens, SGLang's chunk), and cite them in its source; a row
# whose source states a run of N ShareGPT prompts may state that
# workload: serve.window_requests=N and serve.output_cv=1 (the ShareGPT
# length spread, README "Serving under load") - or serve.output_cv=X where
# the copy's source cites the run's own output_lens ("this run's
# output_lens ... cv X") - and the vLLM --num-scheduler-steps K its source
# states as serve.scheduler_steps=K.  A row that measures a percentile
# (serve.percentile=P in its sets) may read it, serve.ttft_pP_ms for
# serve.ttft_ms and serve.tpot_pP_ms for serve.tpot_ms (the plain keys are
# the means).  A row whose source states weights offloaded to host memory
# may say so (serve.offload=weights), and a row whose copy cites its
# checkpoint's quantization_config (quant_method) the FP8 scaling it states
# (software.fp8_scaling: Meta's fbgemm_fp8 is row).  A closed-loop row
# whose source states a `vllm bench serve` run of N prompts may state
# serve.window_requests=N, and where the copy's source cites the run's
# "total_output_tokens T over C completed" (requests that end at EOS
# before --random-output-len) serve.output_tokens = T / C rounded.  A row
# whose shared source says it wrote a checkpoint's "MXFP4 experts ...
# attention bf16" as serve.weights=fp4 may state those formats,
# serve.weights=bf16 serve.expert_weights=mxfp4, where the copy's source
# cites the checkpoint's quantization_config (modules_to_not_convert).
# An InferenceX row whose copy cites the benchmark script at the run date
# ("SemiAnalysisAI/InferenceX benchmarks/<script> @<commit>") may state
# the KV cache dtype it launches the engine with ("kv-cache-dtype X" or
# "kv_cache_config dtype X": serve.kv_cache=X) and its prompt count
# ("--num-prompts CONC x 10 = N", N ten times the row's concurrency:
# serve.window_requests=N), where it runs vLLM with "async-scheduling
# true" serve.async_scheduling=yes, and TensorRT-LLM's prompt holding
# ("batch_wait_timeout_iters K", "batch_wait_max_tokens_ratio R") as
# serve.batch_wait_iters=K serve.batch_wait_tokens_frac=R.
shared=../shared/calibration/serving_load_cases.csv
check "load cases copy: the shared serving load cases" \
    python3 - "$shared" tests/data/serving_load_cases.csv <<'PY'
import csv, re, sys
a = list(csv.DictReader(open(sys.argv[1], newline='')))
b = list(csv.DictReader(open(sys.argv[2], newline='')))
ok = len(a) == len(b)
import re
MXFP4 = 'MXFP4 experts (release checkpoint; attention bf16), ' \
    'written serve.weights=fp4'
def rest(sets, src=''):
    fp8 = ('software.fp8_scaling=',) if 'quant_method' in src else ()
    kvs = sets.split()
    if MXFP4 in src and 'modules_to_not_convert' in src and \
            'serve.expert_weights=mxfp4' in kvs:  # the formats it wrote fp4
        kvs = ['serve.weights=fp4' if kv == 'serve.weights=bf16' else kv
               for kv in kvs if kv != 'serve.expert_weights=mxfp4']
    return [kv for kv in kvs
            if not kv.startswith(('software.stack=', 'software.prefill_chunk=',
                                  'serve.offload=') + fp8)]
def sharegpt(src, ysrc, xs, ys):  # the keys a ShareGPT run of N prompts adds
    m = re.search(r'ShareGPT (?:default of )?(\d+) prompts', src)
    cv = re.search(r"this run's output_lens [^;]*cv (\d+(?:\.\d+)?)", ysrc)
    want = ['serve.output_cv=' + (cv.group(1) if cv else '1'),
            'serve.window_requests=' + m.group(1)] if m else []
    k = re.search(r'num-scheduler-steps (\d+)', src)  # vLLM's flag
    steps = ['serve.scheduler_steps=' + k.group(1)] if k else []
    return ys in (xs + want + steps, xs + want, xs)
def closed_loop(src, ysrc, xs, ys):  # a vllm bench serve run's own facts
    m = re.search(r'vllm bench serve, (\d+) prompts', src)
    o = re.search(r'total_output_tokens (\d+) over (\d+) completed', ysrc)
    if not m:
        return False
    out = 'serve.output_tokens=%d' % round(int(o.group(1)) / int(o.group(2))) \
        if o else None
    want = [out if out and kv.startswith('serve.output_tokens=') else kv
            for kv in xs]
    return ys == want + ['serve.window_requests=' + m.group(1)]
def inferencex(ysrc, xs, ys):  # the facts an InferenceX script states
    if not re.search(r'SemiAnalysisAI/InferenceX benchmarks/\S+ @[0-9a-f]{7}',
                     ysrc):
        return False
    kv = re.search(r'kv(?:-cache-dtype|_cache_config dtype) (\w+)', ysrc)
    want = ['serve.kv_cache=' + kv.group(1)
            if kv and kv_.startswith('serve.kv_cache=') else kv_
            for kv_ in xs]
    n = re.search(r'--num-prompts CONC x 10 = (\d+)', ysrc)
    c = [kv_.split('=')[1] for kv_ in xs
         if kv_.startswith('serve.concurrency=')]
    if n:
        if not c or int(n.group(1)) != 10 * int(c[0]):
            return False
        want.append('serve.window_requests=' + n.group(1))
    if 'async-scheduling true' in ysrc:
        want.append('serve.async_scheduling=yes')
    k = re.search(r'batch_wait_timeout_iters (\d+)', ysrc)
    r = re.search(r'batch_wait_max_tokens_ratio ([0-9.]+)', ysrc)
    if k and r:
        want += ['serve.batch_wait_iters=' + k.group(1),
                 'serve.batch_wait_tokens_frac=' + r.group(1)]
    return ys == want
def stack(sets):
    return [kv.split('=', 1)[1] for kv in sets.split()
            if kv.startswith('software.stack=')]
def release_of(xs, ys):  # the shared engine, or a release of it
    return len(xs) == len(ys) and all(y.startswith(x) for x, y in zip(xs, ys))
def metric(x, y):  # the same, or the percentile its sets measure
    p = re.search(r'serve\.percentile=(\d+)', x['sets'])
    m = re.fullmatch(r'serve\.(ttft|tpot)_ms', x['metric'])
    return y['metric'] == x['metric'] or (p is not None and m is not None and
        y['metric'] == 'serve.%s_p%s_ms' % (m.group(1), p.group(1)))
for x, y in zip(a, b):
    same = all(x[k] == y[k] for k in ('id', 'expected', 'tol')) and \
        metric(x, y)
    if not same or \
            not (sharegpt(x['source'], y['source'], rest(x['sets']),
                          rest(y['sets'], y['source'])) or
                 closed_loop(x['source'], y['source'], rest(x['sets']),
                             rest(y['sets'], y['source'])) or
                 inferencex(y['source'], rest(x['sets']),
                            rest(y['sets'], y['source']))) or \
            not release_of(stack(x['sets']), stack(y['sets'])) or \
            not y['source'].startswith(x['source'].rstrip('"')):
        print('differs: ' + y['id'], file=sys.stderr)
        ok = False
sys.exit(0 if ok else 1)
PY
