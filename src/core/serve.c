/*
 * serve.c - the serving workload (see serve.h for the model and sources):
 * one replica's engine (rates, weights, prefill and decode times) and one
 * attention rank for serve_pool.c.  The operating point under the demand
 * is in serve_point.c, the money in serve_money.c.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "core/comm.h"
#include "core/cost.h"
#include "core/load.h"
#include "core/serve.h"
#include "core/serve_int.h"
#include "core/serve_pool.h"

void serve_miss(struct serve_result *s, enum serve_miss why, const char *fmt,
                ...)
{
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(s->reason, sizeof(s->reason), fmt, ap);
    va_end(ap);
    s->miss = why;
}

double serve_dtype_bytes(enum serve_dtype t)
{
    switch (t) {
    case SD_FP8:
    case SD_INT8:
        return 1;
    case SD_INT4:
        return 0.5 + 2.0 / 128;
    case SD_FP4:
        return 0.5 + 1.0 / 16;
    case SD_MXFP4: /* OCP MX spec v1.0: one 8-bit E8M0 scale per 32 */
        return 0.5 + 1.0 / 32;
    case SD_BF16:
    case SD_FP16:
    default:
        return 2;
    }
}

double serve_kv_bytes_per_token(const struct model_shape *m,
                                enum serve_dtype kv)
{
    double b = serve_dtype_bytes(kv);

    if (m->mla)
        return m->L * (m->kv_lora + m->rope) * b;
    return 2 * m->L * m->a_kv * (m->d_qk + m->d_v) / 2 * b;
}

double serve_kv_bytes_per_token_gpu(const struct model_shape *m,
                                    enum serve_dtype kv, double tp, double pp)
{
    double b = serve_dtype_bytes(kv), layers = m->L / (pp >= 1 ? pp : 1);
    double heads;

    if (tp < 1)
        tp = 1;
    if (m->mla)
        return layers * (m->kv_lora + m->rope) * b;
    /* KV heads split while tp <= a_kv; beyond, each rank keeps one. */
    heads = m->a_kv / tp;
    if (heads < 1)
        heads = 1;
    return 2 * layers * heads * (m->d_qk + m->d_v) / 2 * b;
}

double serve_tokens_per_step(double a, double g)
{
    if (!(g >= 1))
        return 1;
    if (!(a > 0))
        return 1;
    if (a >= 1)
        return g + 1;
    return (1 - pow(a, g + 1)) / (1 - a);
}

double serve_harmonic(double n)
{
    double h = 0;
    int i;

    if (!(n >= 1))
        return 0;
    if (n <= 64) {
        for (i = 1; i <= (int)n; i++)
            h += 1.0 / i;
        return h;
    }
    return log(n) + 0.57721566490153286 + 1 / (2 * n) - 1 / (12 * n * n);
}

double serve_experts_touched(double experts, double k, double b)
{
    if (experts < 2 || !(k > 0))
        return experts;
    if (k >= experts || !(b > 0))
        return b > 0 ? experts : 0;
    return experts * -expm1(b * log1p(-k / experts));
}

double serve_prefill_chunk(const struct scenario *sc)
{
    if (sc->recipe.prefill_chunk >= 1)
        return (double)sc->recipe.prefill_chunk;
    return sc->stack.prefill_chunk >= 1 ? sc->stack.prefill_chunk : 8192;
}

double serve_adp_wait_factor(double p, double n)
{
    if (!(n > 1) || p >= 1)
        return 1;
    if (!(p > 0))
        return n; /* the limit as p -> 0 */
    return -expm1(n * log1p(-p)) / p;
}

void serve_daily_profile(double r, double *f, int n)
{
    double lo = 0, hi = 60, kappa = 0, mean;
    int i, it;

    if (!(r > 1))
        r = 1;
    /* cos(t) - 1 at each sample, once (f is the scratch): the bisection
     * below evaluates the profile ~60 times. */
    for (i = 0; i < n; i++)
        f[i] = cos(2 * M_PI * i / n) - 1;
    /* max/mean of exp(kappa cos t) grows from 1 without bound; bisect
     * until the interval stops shrinking (double precision). */
    for (it = 0; it < 80 && r > 1; it++) {
        double mid = (lo + hi) / 2, s = 0;

        if (mid <= lo || mid >= hi)
            break;
        for (i = 0; i < n; i++)
            s += exp(mid * f[i]);
        if (1 / (s / n) < r)
            lo = mid;
        else
            hi = mid;
        kappa = (lo + hi) / 2;
    }
    mean = 0;
    for (i = 0; i < n; i++) {
        f[i] = exp(kappa * f[i]);
        mean += f[i] / n;
    }
    for (i = 0; i < n; i++)
        f[i] = mean > 0 ? f[i] / mean : 1;
}

/* ---- one replica ----------------------------------------------------- */

static double peak_of(const struct accel_spec *a, enum precision p)
{
    return a->peak_flops[p] > 0 ? a->peak_flops[p] : 0;
}

/* The GEMM rate of weights in format w: fp8 (and fp4) weights with
 * activations in the same format run the GEMMs at that peak (TensorRT-LLM
 * / ModelOpt FP8 and NVFP4); int8 and int4 are weight-only and formats the
 * chip lacks are dequantised to 16 bits (Marlin, AWQ): the GEMMs stay at
 * the 16-bit rate r16.  NVFP4 without 4-bit tensor cores (Hopper, Ampere)
 * is one of those: vLLM and SGLang run it as MXFP4, weight-only FP4
 * dequantised in Marlin's GEMM (vLLM PR #17687 / #18000 "NVFP4 Marlin",
 * SGLang PR #19652 "NVFP4 Marlin fallback for non-Blackwell GPUs"), and
 * TensorRT-LLM has no NVFP4 before Blackwell. */
static double format_rate(const struct accel_spec *a, enum serve_dtype w,
                          double r16, double low_eff, double fp4_eff)
{
    if (w == SD_FP8 && peak_of(a, PREC_FP8) > 0)
        return peak_of(a, PREC_FP8) * low_eff;
    if ((w == SD_FP4 || w == SD_MXFP4) && peak_of(a, PREC_FP4) > 0)
        return peak_of(a, PREC_FP4) * fp4_eff;
    return r16;
}

/* Under a power cap (hardware.power_limit_w) the GEMMs and attention run
 * at the clock the cap leaves (spec_power_clock). */
static void power_capped_engine(const struct scenario *sc, struct engine *e)
{
    double clock = spec_power_clock(sc);

    e->rate *= clock;
    e->attn_rate *= clock;
}

/* The GEMM and attention rates of one GPU: the peak of the format the
 * weights (and the KV cache) run in, times the stack's measured share. */
static void engine_rates(const struct scenario *sc, struct engine *e)
{
    const struct accel_spec *a = &sc->accel;
    const struct stack_spec *st = &sc->stack;
    const struct serve_spec *sv = &sc->serve;
    double p16 = peak_of(a, PREC_BF16) > 0 ? peak_of(a, PREC_BF16)
                                           : peak_of(a, PREC_FP16);
    /* software.efficiency_scale scales every compute efficiency, capped
     * at the peak (spec_scaled_eff) */
    double k = sc->efficiency_scale;
    double gemm16 = spec_scaled_eff(a->gemm_frac * st->gemm_eff, k);
    double low = a->fp8_gemm_frac > 0 ? a->fp8_gemm_frac : a->gemm_frac;
    double low_eff = spec_scaled_eff(low * st->gemm_eff * st->fp8_eff, k);
    /* 4-bit GEMMs reach their own measured share of the 4-bit peak */
    double low4 = a->fp4_gemm_frac > 0 ? a->fp4_gemm_frac : low;
    double fp4_eff = spec_scaled_eff(low4 * st->gemm_eff * st->fp8_eff, k);
    bool fp8_attn;
    enum serve_dtype xw;
    double attn_eff = spec_scaled_eff(a->attn_frac * st->attn_eff, k);

    if (p16 <= 0)
        p16 = peak_of(a, PREC_FP32);
    e->rate = format_rate(a, sv->weights, p16 * gemm16, low_eff, fp4_eff);
    /* serve.expert_weights fp8 or fp4: ModelOpt quantises the experts'
     * activations with their weights (nvidia/DeepSeek-R1-FP4: "weights
     * and activations of the linear operators within transformer blocks
     * in MoE" in FP4, the rest FP8), so their GEMMs run at that format's
     * rate; the weight-only or mixed formats (mxfp4 with 16- or 8-bit
     * activations, gpt-oss; int4, int8) keep the rate of serve.weights */
    xw = (enum serve_dtype)(sv->expert_weights - 1);
    e->rate_x = sv->expert_weights > 0 && (xw == SD_FP8 || xw == SD_FP4)
                    ? format_rate(a, xw, p16 * gemm16, low_eff, fp4_eff)
                    : e->rate;
    e->attn_rate = p16 * attn_eff;
    /* serve.attention = auto: an fp8 KV cache with 8-bit-or-less weights
     * runs the prompt's attention in fp8 too (TensorRT-LLM
     * use_fp8_context_fmha; FlashAttention-3 fp8); fp8 or bf16 say so. */
    fp8_attn = sv->attention == SATTN_FP8 ||
               (sv->attention == SATTN_AUTO && sv->kv_cache == SD_FP8 &&
                sv->weights != SD_BF16 && sv->weights != SD_FP16);
    if (fp8_attn && peak_of(a, PREC_FP8) > 0)
        e->attn_rate = peak_of(a, PREC_FP8) * attn_eff;
    power_capped_engine(sc, e);
}

/* The MTP modules' bytes per GPU when they draft (serve.spec_tokens with
 * model.mtp_layers; mtp_draft_s): each one layer like the last (MoE in a
 * MoE model, its experts spread as the model's), a 2h -> h projection and
 * two norms beside the shared embedding and head (DeepSeek-V3 report 2.2;
 * its checkpoint's 14B beside the 671B), at the weights' precision.  Held
 * in memory; a draft pass reads its share (mtp_draft_s), not the step. */
static double mtp_weights(const struct scenario *sc,
                          const struct model_shape *m, double wb, double xb,
                          const struct engine *e)
{
    double n = (double)sc->model.mtp_layers, expert = 0, dense;

    if (!(sc->serve.spec_tokens >= 1) || !(n >= 1))
        return 0;
    dense = m->dense_layer_params;
    if (m->experts >= 2) {
        expert = m->experts * m->expert_params * xb / e->moe_group;
        if (sc->layout.ep > 1)
            expert *= ceil(m->experts / (double)sc->layout.ep) *
                      (double)sc->layout.ep / m->experts;
        dense = m->moe_layer_params - m->experts * m->expert_params;
    }
    return n * ((dense + 2 * m->h * m->h + 2 * m->h) * wb + expert) / e->gpr;
}

/* The weight bytes each GPU of the replica holds, dense and expert. */
static void engine_weights(const struct scenario *sc,
                           const struct model_shape *m, struct engine *e)
{
    const struct serve_spec *sv = &sc->serve;
    double wb = serve_dtype_bytes(sv->weights);
    double embed = m->embed_params + m->output_params;
    double expert_all;
    double xb =
        sv->expert_weights > 0
            ? serve_dtype_bytes((enum serve_dtype)(sv->expert_weights - 1))
            : wb;

    /* Embedding and output layer stay in 16 bits (ModelOpt keeps lm_head
     * unquantised); the rest at serve.weights. */
    expert_all =
        m->experts >= 2 ? m->moe_layers * m->experts * m->expert_params : 0;
    e->w_gpu =
        (embed * 2 + (m->params - embed - expert_all) * wb + expert_all * xb) /
        e->gpr;
    e->w_expert = expert_all * xb / e->gpr;
    e->w_dense = e->w_gpu - e->w_expert;
    /* Wide EP: the experts spread over the whole replica, attention_dp
     * ranks of tp x pp (serve_pool.h). */
    e->moe_group = sc->layout.ep > 1 && sv->attention_dp > 1
                       ? (double)sv->attention_dp
                       : 1;
    e->w_expert /= e->moe_group;
    /* ep not dividing the experts: every GPU holds ceil(E / ep) slots,
     * the spare ones redundant copies of hot experts (DeepSeek EPLB) */
    if (sc->layout.ep > 1 && m->experts >= 2)
        e->w_expert *= ceil(m->experts / (double)sc->layout.ep) *
                       (double)sc->layout.ep / m->experts;
    e->w_gpu = e->w_dense + e->w_expert + mtp_weights(sc, m, wb, xb, e);
}

void serve_engine_init(const struct scenario *sc, const struct model_shape *m,
                       struct engine *e)
{
    const struct accel_spec *a = &sc->accel;
    const struct stack_spec *st = &sc->stack;
    const struct serve_spec *sv = &sc->serve;
    double mbu = st->mbu > 0 ? st->mbu : 1;

    memset(e, 0, sizeof(*e));
    e->tp = (double)sc->layout.tp;
    e->pp = (double)sc->layout.pp;
    e->gpr = e->tp * e->pp;
    engine_rates(sc, e);
    e->bw = a->hbm_bps * a->hbm_frac * mbu;
    engine_weights(sc, m, e);
    serve_a2a_init(sc, m, e->tp, (double)sc->layout.ep, &e->a2a);
    e->experts = m->experts;
    e->top_k = m->top_k;
    e->moe_layers = m->moe_layers;
    e->kv_tok = serve_kv_bytes_per_token_gpu(m, sv->kv_cache, e->tp, e->pp);
    /* Matmul parameters one token uses (PaLM's N, without the attention
     * term): flops_per_token = 6 N + attention. */
    e->n_mm = (m->flops_per_token - m->attn_flops_per_token) / 6;
    /* ... of them in the routed experts (top-k of every MoE layer) */
    e->n_mm_x = m->experts >= 2 ? m->moe_layers * m->top_k * m->expert_params *
                                      m->param_scale
                                : 0;
    /* Forward attention per token per context position: QK^T and AV over
     * a heads, 2 FLOPs per multiply-add (PaLM's 12 L a d s is 3x this
     * with d_qk = d_v = d). */
    e->attn_c = 2 * m->L * m->a * (m->d_qk + m->d_v);
    /* MLA decode absorbs the key and value up-projections into the query
     * and output (DeepSeek-V2, Liu et al. 2024, 2.1.2; FlashMLA): every
     * head attends over the cached latent and RoPE key, kv_lora + rope
     * wide, and sums kv_lora-wide values; prefill expands the heads. */
    e->attn_c_dec =
        m->mla ? 2 * m->L * m->a * (2 * m->kv_lora + m->rope) : e->attn_c;
    e->L = m->L;
    e->h = m->h;
    e->ar_alpha = st->allreduce_s;
    {
        double up = sc->system.scaleup_bps > 0 ? sc->system.scaleup_bps
                                               : a->scaleup_bps;
        double frac = sc->system.scaleup_frac > 0 ? sc->system.scaleup_frac : 1;

        e->ar_beta =
            up > 0 ? up * frac
                   : sc->fabric.gbps_per_gpu * 1e9 / 8 * sc->fabric.bw_frac;
        if (!(e->ar_beta > 0))
            e->ar_beta = 1e9;
    }
    e->nccl_alpha = a->nccl_ar_s;
    e->nccl_beta = a->nccl_ar_bps;
    e->ar_oneshot = st->ar_oneshot_bytes;
    e->ar_workspace = st->ar_workspace_bytes;
    e->ar_custom = spec_vendor_listed(st->custom_ar_on, a->vendor);
    e->overhead = st->step_overhead_s;
    e->sched = sv->scheduler_steps >= 1 ? (double)sv->scheduler_steps : 1;
    e->host_async = sv->async_scheduling != 0;
    e->wait_iters = (double)sv->batch_wait_iters;
    e->wait_frac = sv->batch_wait_frac;
    /* A forward pass is a chain of kernels: per dense layer about 12
     * (norm, QKV, RoPE, attention, O, all-reduce/residual, norm, gate-up,
     * activation, down, all-reduce, residual), a MoE layer 8 more (router,
     * top-k, permute, grouped GEMMs, combine), MLA 4 more (latent down and
     * up projections).  Each pays the accelerator's measured
     * launch-to-launch gap, CUDA graphs or not, plus the stack's. */
    e->launch =
        (m->dense_layers * 12 + m->moe_layers * 20 + (m->mla ? 4 * m->L : 0)) *
        (a->kernel_s + st->kernel_s);
    e->overlap = st->decode_overlap;
    e->chunk = serve_prefill_chunk(sc);
    e->q = sv->spec_tokens >= 1 ? (double)sv->spec_tokens + 1 : 1;
    e->tau = serve_tokens_per_step(sv->spec_accept, (double)sv->spec_tokens);
    /* the plan's model.mtp_layers: the serving shape runs without them */
    e->drafts =
        sv->spec_tokens >= 1 && sc->model.mtp_layers >= 1 ? e->q - 1 : 0;
    e->w_head = (m->tied ? m->embed_params : m->output_params) * 2 / e->gpr;
    e->in_hit = floor((double)sv->input_tokens * sv->prefix_hit_frac);
    e->in_new = (double)sv->input_tokens - e->in_hit;
    if (e->in_new < 1)
        e->in_new = 1;
    e->out = (double)sv->output_tokens;
    serve_offload_init(sc, m, e);
    serve_elemwise_init(sc, m, e);
    serve_dequant_init(sc, m, e);
}

/* GEMM time for `flops` on one GPU at the stack's share of the measured
 * matmul ceiling.  The accelerator's small-GEMM curve (gemm_half_flops,
 * measured on square GEMMs) is not applied: serving GEMMs are skinny
 * (few tokens, wide weights), bound by the weight read that the decode
 * step counts, and a prefill chunk keeps them large. */
static double gemm_s(const struct engine *e, double flops)
{
    return flops > 0 ? flops / e->rate : 0;
}

/* The weight GEMMs of `tokens` tokens on one GPU of a pipeline stage's
 * tp group: the routed experts' share at their own format's rate
 * (serve.expert_weights), the rest at the weights'. */
static double matmul_s(const struct engine *e, double tokens)
{
    double x = 2 * e->n_mm_x * tokens / e->gpr;

    return gemm_s(e, 2 * (e->n_mm - e->n_mm_x) * tokens / e->gpr) +
           (x > 0 ? x / e->rate_x : 0);
}

/* Does the engine hand an all-reduce of `bytes` per rank to NCCL?  Its
 * custom all-reduce reads every peer's buffer (one shot): at tp > 2 that
 * is tp - 1 times a ring's traffic, so TensorRT-LLM keeps it only while
 * tp x bytes stays under ar_oneshot (AUTO: 500 kB at tp 8, 1 MB at tp 4;
 * cpp/tensorrt_llm/thop/allreduceOp.cpp selectImplementation); at tp <= 2
 * one shot moves what a ring does and it keeps it while the message fits
 * its workspace (16 MB, customAllReduceUtils.h
 * getMaxRequiredWorkspaceSize).  0 in the stack row: never; no measured
 * NCCL curve for the accelerator: never either.  An engine without its
 * own kernel on this vendor (stacks custom_ar_on: vLLM 0.6 on ROCm) hands
 * every all-reduce to the vendor's library (RCCL). */
static bool ar_uses_nccl(const struct engine *e, double bytes)
{
    if (!(e->nccl_beta > 0))
        return false;
    if (!e->ar_custom)
        return true;
    if (e->tp > 2)
        return e->ar_oneshot > 0 && e->tp * bytes >= e->ar_oneshot;
    return e->ar_workspace > 0 && bytes > e->ar_workspace;
}

/* One TP all-reduce of `bytes` per rank as the engine runs it: its custom
 * kernel at the stack's measured call latency plus the ring's 2 (n-1)/n
 * bytes over the scale-up links (comm.h), or NCCL at the accelerator's
 * latency and bus bandwidth measured at these sizes (nccl-tests sweeps,
 * data/accelerators.csv nccl_ar_us / nccl_ar_gb_s): at 1-32 MB NCCL
 * reaches a third to two thirds of its large-message bus bandwidth. */
static double tp_allreduce_s(const struct engine *e, double bytes)
{
    if (ar_uses_nccl(e, bytes))
        return comm_allreduce_call_s(bytes, e->tp, e->nccl_beta, e->nccl_alpha);
    return comm_allreduce_call_s(bytes, e->tp, e->ar_beta, e->ar_alpha);
}

/* Two all-reduces per layer of tokens x hidden 16-bit activations
 * (Megatron TP), each as tp_allreduce_s runs it. */
static double allreduce_s(const struct engine *e, double tokens)
{
    return 2 * e->L * tp_allreduce_s(e, tokens * e->h * 2);
}

/* One prefill pass of `tokens` new prompt tokens of requests whose
 * prompts are `len` long (hit of them cached): compute-bound, floored by
 * one read of the weights, over pp stages in turn. */
static double prefill_pass_s(const struct engine *e, double tokens, double len,
                             double hit)
{
    double gemm = matmul_s(e, tokens) * e->pp;
    double ctx = hit + (len - hit) / 2; /* causal: mean context */
    double attn = e->attn_c * tokens * ctx / e->gpr / e->attn_rate * e->pp;
    double read = e->w_gpu / e->bw * e->pp, cmp = gemm + attn;

    return serve_offload_pass_s(
        e, (read > cmp ? read + (1 - e->overlap) * cmp
                       : cmp + (1 - e->overlap) * read) +
               allreduce_s(e, tokens) + serve_a2a_prefill_s(&e->a2a, tokens) +
               serve_elemwise_s(e, tokens, true) + serve_dequant_s(e, tokens) +
               e->launch + e->overhead);
}

/* One prompt alone: passes of at most `chunk` tokens. */
double serve_prefill_one_s(const struct engine *e)
{
    double passes = ceil(e->in_new / e->chunk);
    double per = e->in_new / passes;

    return passes * prefill_pass_s(e, per, e->in_new + e->in_hit, e->in_hit);
}

/* The last of a prompt's chunked passes: its tokens attend to every
 * token before them, the most context of any pass (the chunks before it
 * are its cache).  With one pass, the prompt's prefill. */
double serve_prefill_last_pass_s(const struct engine *e)
{
    double passes = ceil(e->in_new / e->chunk);
    double per = e->in_new / passes, len = e->in_new + e->in_hit;

    if (passes <= 1)
        return serve_prefill_one_s(e);
    return prefill_pass_s(e, per, len, len - per);
}

/* Amortised prefill time of one prompt when many are batched into full
 * chunks (continuous batching at load). */
double serve_prefill_bulk_s(const struct engine *e)
{
    double n = floor(e->chunk / e->in_new);

    if (n < 1)
        return serve_prefill_one_s(e);
    return prefill_pass_s(e, n * e->in_new, e->in_new + e->in_hit, e->in_hit) /
           n;
}

/* The stack's host work (step_overhead_ms: scheduling, input
 * preparation, output processing) that one decode iteration pays.  With
 * multi-step scheduling (vLLM --num-scheduler-steps k, serve.scheduler_
 * steps) the scheduler and the inputs are prepared once for k iterations
 * run back to back (vLLM blog 2024-09-05, v0.6.0: "multi-step
 * scheduling"), so each pays 1/k of it; a prefill pass is one step of
 * its own and pays all of it (prefill_pass_s). */
static double decode_host_s(const struct engine *e)
{
    return e->overhead / e->sched;
}

/* The host time a decode step of `gpu_s` on the GPU waits for.  With
 * asynchronous scheduling the host prepares step i + 1 while the GPU runs
 * step i (vLLM --async-scheduling, 0.10.2: the scheduler runs one step
 * ahead; SGLang's overlap scheduler, v0.4 "zero-overhead batch
 * scheduler"), so a step takes the longer of the two: the host's work
 * shows only beyond the GPU's.  Otherwise it runs between steps, all of
 * it. */
static double decode_host_exposed_s(const struct engine *e, double gpu_s)
{
    double host = decode_host_s(e);

    if (!e->host_async)
        return host;
    return host > gpu_s ? host - gpu_s : 0;
}

/* The drafts of one decode step when the drafter is the model's own MTP
 * module (serve.spec_tokens g, model.mtp_layers >= 1; TensorRT-LLM MTP,
 * SGLang and vLLM with DeepSeek's NextN weights): the module runs g times
 * in sequence, one token a sequence each pass (TensorRT-LLM tech blog 2,
 * "MTP Eagle ... call the same MTP module forward K times").  A module is
 * one layer like the model's, a 2h -> h projection and the output head it
 * shares with the model (DeepSeek-V3 report 2.2), so a pass costs a
 * layer's share of a step of one token a sequence, with its kernels, its
 * all-to-all and its context's KV, plus the head read again (16 bits, as
 * engine_weights keeps it) and its GEMM.  Without an MTP module the
 * drafter is not known and drafts cost nothing here (serve.spec_* price
 * the verification alone). */
static double mtp_draft_s(const struct engine *e, double b, double ctx)
{
    struct engine one = *e;
    double layer, head;

    if (!(e->drafts >= 1) || !(b > 0))
        return 0;
    one.q = 1;
    one.drafts = 0;
    one.overhead = 0; /* the host prepares the step once */
    layer = serve_decode_step_s(&one, b, ctx) / e->L;
    /* the head's V h weights per GPU, 2 bytes each: 2 b V h FLOPs */
    head = (e->w_head / e->bw + gemm_s(e, b * e->w_head)) * e->pp;
    return e->drafts * (layer + head);
}

/* One decode iteration for b running sequences at mean context ctx. */
double serve_decode_step_s(const struct engine *e, double b, double ctx)
{
    double toks = b * e->q;
    double touched =
        e->experts >= 2
            ? serve_experts_touched(e->experts, e->top_k, toks * e->moe_group) /
                  e->experts
            : 0;
    double bytes = e->w_dense + e->w_expert * touched + b * ctx * e->kv_tok;
    double t_mem = bytes / e->bw * e->pp;
    double t_cmp = matmul_s(e, toks) * e->pp +
                   e->attn_c_dec * toks * ctx / e->gpr / e->attn_rate * e->pp;
    double gpu = (t_mem > t_cmp ? t_mem + (1 - e->overlap) * t_cmp
                                : t_cmp + (1 - e->overlap) * t_mem) +
                 allreduce_s(e, toks) + serve_a2a_s(&e->a2a, toks) +
                 serve_elemwise_s(e, toks, false) + serve_dequant_s(e, toks) +
                 e->launch;
    double drafts = mtp_draft_s(e, b, ctx);

    return serve_offload_pass_s(
        e, gpu + decode_host_exposed_s(e, gpu + drafts) + drafts);
}

/* Mean context a running sequence holds (prompt plus half the output). */
double serve_mean_ctx(const struct engine *e)
{
    return e->in_new + e->in_hit + e->out / 2;
}

/* ---- one attention rank, for serve_pool.c ---------------------------- */

void serve_rank_init(const struct scenario *sc, const struct model_shape *m,
                     struct serve_rank *k, struct result *r)
{
    struct engine e;

    serve_engine_init(sc, m, &e);
    serve_memory_of(sc, &e, m, r);
    memset(k, 0, sizeof(*k));
    k->gpr = e.gpr;
    k->max_batch = r->serve.max_batch;
    k->prefill_one_s = serve_prefill_one_s(&e);
    k->prefill_bulk_s = serve_prefill_bulk_s(&e);
    k->passes = ceil(e.in_new / e.chunk);
    k->prefill_last_s = serve_prefill_last_pass_s(&e);
    k->kv_transfer_s = serve_kv_transfer_s(sc, &e);
    k->ctx = serve_mean_ctx(&e);
    k->tau = e.tau;
    k->out = e.out;
    k->in = e.in_new + e.in_hit;
}

double serve_rank_step_s(const struct scenario *sc, const struct model_shape *m,
                         double b)
{
    struct engine e;

    serve_engine_init(sc, m, &e);
    return serve_decode_step_s(&e, b, serve_mean_ctx(&e));
}
