/* memory.c - per-accelerator training memory; formulas in memory.h. */
#include <math.h>

#include "core/memory.h"

/* Bytes per parameter of each model state (ZeRO section 3.1). */
static double weight_bytes(const struct scenario *sc)
{
    enum precision p = sc->train.precision;

    return (p == PREC_FP32 || p == PREC_TF32) ? 4 : 2;
}

static double optimizer_bytes(const struct scenario *sc)
{
    double master = weight_bytes(sc) < 4 ? 4 : 0;

    switch (sc->train.optimizer) {
    case OPT_ADAM8BIT:
        return master + 2;
    case OPT_SGD:
        return master + 4;
    default:
        return master + 8;
    }
}

bool memory_keeps_scores(const struct scenario *sc)
{
    return sc->layout.recompute == RECOMPUTE_NONE && attention_materialised(sc);
}

/* What the recipe's recompute modules (software.recompute_modules, under
 * selective recomputation) discard of a layer's activations, in bytes per
 * token per hidden unit split by TP: mla_up_proj drops the query, key and
 * value its up projections write (the latents stay); moe_act the routed
 * experts' activation output (f per routed copy of the gated 3f); mlp a
 * dense layer's MLP internals (its input stays). */
static double recompute_modules_dropped(const struct scenario *sc,
                                        const struct model_shape *m, bool moe,
                                        double load)
{
    unsigned mask = sc->layout.recompute == RECOMPUTE_SELECTIVE
                        ? spec_recompute_mask(&sc->recipe)
                        : 0;
    double kv_heads = m->mla ? m->a : m->a_kv, drop = 0;

    if ((mask & RECMOD_BIT_MLA_UP) && m->mla)
        drop += 2 * (m->a * m->d_qk + kv_heads * (m->d_qk + m->d_v)) / m->h;
    if ((mask & RECMOD_BIT_MOE_ACT) && moe)
        drop += 2 * load * m->top_k * m->f_expert / m->h;
    if ((mask & RECMOD_BIT_MLP) && !moe)
        drop += (m->gated ? 6 : 4) * m->f / m->h;
    return drop;
}

/* The ranks ZeRO shards the model state over: the dp x cp group, or under
 * ZeRO-3 with a stack that shards inside the scale-up domain only
 * (dp_shard_domain: MaxText's ici_fsdp inside a slice, dcn_data across
 * slices) the group's ranks inside one domain (tp ranks apart, as
 * steptime's groups). */
double memory_zero_shard(const struct scenario *sc)
{
    const struct layout *lay = &sc->layout;
    double shard = (double)lay->dp * (double)lay->cp;
    double in_domain =
        floor((double)sc->system.scaleup_domain / (double)lay->tp);

    if (sc->stack.dp_shard_domain < 0.5 || lay->zero < 3 || in_domain < 1 ||
        shard <= in_domain)
        return shard;
    return in_domain;
}

/* A dense layer's four weight matrices on one accelerator (fused QKV,
 * attention output, FFN in (gate and up fused when gated), FFN out, as
 * Megatron's ColumnParallel/RowParallelLinear modules hold them): ZeRO-3's
 * per-module gathers under DeepSpeed's coordinator. */
void memory_layer_tensors(const struct model_shape *m, double t,
                          double out[MEMORY_LAYER_TENSORS])
{
    out[0] = m->h * (m->a * m->d_qk + m->a_kv * (m->d_qk + m->d_v)) / t;
    out[1] = m->a * m->d_v * m->h / t;
    out[2] = (m->gated ? 2 : 1) * m->h * m->f / t;
    out[3] = m->f * m->h / t;
    for (int i = 0; i < MEMORY_LAYER_TENSORS; i++)
        out[i] *= m->param_scale;
}

/* What the stack's own selective recompute keeps of a layer's `bytes` of
 * activations: its selective_keep share, and the fused attention output
 * (a d_v per token, 16 bits, split by TP) whole where the policy saves it
 * (spec_selective_saves_attention). */
static double selective_kept(const struct scenario *sc,
                             const struct model_shape *m, double sbh,
                             double bytes)
{
    double keep = sc->stack.selective_keep;
    double out = 2 * sbh * m->a * m->d_v / m->h / (double)sc->layout.tp;

    if (!spec_selective_saves_attention(sc))
        return keep * bytes;
    return keep * bytes + (1 - keep) * out;
}

/* Bytes per parameter of the sharded weights and of the optimizer under
 * ZeRO-3 when the stack's sharded parameters are the fp32 master weights
 * (fp32_params: PyTorch FSDP2 keeps the sharded parameter in its fp32
 * dtype and casts to MixedPrecisionPolicy.param_dtype for the all-gather
 * only): 4 and the optimizer less its master copy.  Else unchanged. */
static void fp32_param_shards(const struct scenario *sc, double *wb, double *ob)
{
    if (sc->layout.zero < 3 || sc->stack.fp32_params < 0.5 || *wb >= 4)
        return;
    *ob -= 4; /* the master copy: optimizer_bytes counts it when wb < 4 */
    *wb = 4;
}

double memory_layer_activation_bytes(const struct scenario *sc,
                                     const struct model_shape *m, bool moe,
                                     bool scores)
{
    const struct layout *lay = &sc->layout;
    double t = (double)lay->tp, c = (double)lay->cp;
    double s = (double)sc->train.seq_len / c, b = (double)lay->microbatch;
    double sbh = s * b * m->h, kv_heads = m->mla ? m->a : m->a_kv;
    double repl = 10, split, ffn_width, bytes;

    /* Attention tensors per token in units of h: Q (a d_qk), K (a_kv
     * d_qk), V (a_kv d_v) and the attention output (a d_v), 2 bytes each;
     * for GPT shapes 2 + 4 a_kv/a + 2.  MLA also keeps its two latents
     * (replicated: the down projections are not split by TP). */
    split = 2 *
            (m->a * m->d_qk + kv_heads * (m->d_qk + m->d_v) + m->a * m->d_v) /
            m->h;
    if (m->mla)
        repl += 2 * (m->q_lora + m->kv_lora + m->rope) / m->h;
    /* FFN internals per token: 4f (2f gated: gate and up outputs plus the
     * product, 6f) in bytes per hidden unit of sbh, scaled by width. */
    if (moe) {
        /* the busiest expert-parallel rank holds its load factor times the
         * even share of the routed copies (dropless imbalance, or the
         * padding of token drop) */
        double load = spec_moe_load(
            sc->train.moe_capacity,
            spec_routing_imbalance(&sc->recipe, sc->stack.moe_imbalance),
            m->experts, m->top_k, (double)sc->layout.ep);

        ffn_width = (load * m->top_k + m->shared) * m->f_expert;
        /* k routed copies of the token before and after the experts */
        split += 4 * load * m->top_k;
        split -= recompute_modules_dropped(sc, m, true, load);
    } else {
        ffn_width = m->f;
        split -= recompute_modules_dropped(sc, m, false, 1);
    }
    split += (m->gated ? 6 : 4) * ffn_width / m->h;

    if (lay->recompute == RECOMPUTE_FULL)
        return 2 * sbh / (lay->sequence_parallel ? t : 1);

    bytes = sbh * (repl / (lay->sequence_parallel ? t : 1) + split / t);
    /* a stack's selective recompute may drop more than the attention core
     * (TorchTitan's per-op policy recomputes every other matmul) */
    if (lay->recompute == RECOMPUTE_SELECTIVE &&
        spec_recompute_mask(&sc->recipe) == 0)
        bytes = selective_kept(sc, m, sbh, bytes);
    if (scores)
        bytes += 5 * m->a * s * s * b / t;
    else if (!attention_materialised(sc))
        bytes += 4 * m->a * s * b / t; /* flash: fp32 softmax statistics */
    return bytes;
}

/* Per-accelerator state of one pipeline stage. */
struct stage_mem {
    double weights, gradients, optimizer, activations, overhead;
    double allocator, buffers; /* the two parts of overhead */
    double host; /* held in host memory (ZeRO-Offload), not in the total */
};

static double stage_total(const struct stage_mem *st)
{
    return st->weights + st->gradients + st->optimizer + st->activations +
           st->overhead;
}

/*
 * Memory of pipeline stage `first` (true) or the last one.  `layers` is the
 * busiest stage's layer count (ceil(L/p) for uneven stages).
 */
/* What the stage holds beyond its decoder layers and ends: on the last
 * stage the MTP modules, their experts split like the model's and the
 * rest (layer, projection, norms) by TP; with DualPipe a stage of each
 * direction, two copies of everything (DeepSeek-V3 report table 2: 2x
 * parameters). */
static void schedule_params(const struct scenario *sc,
                            const struct model_shape *m, bool last,
                            double *dense, double *expert)
{
    const struct layout *lay = &sc->layout;
    double t = (double)lay->tp, e = (double)lay->ep;

    if (last) {
        *dense +=
            m->mtp *
            (m->attn_params + m->norm_params + 2 * m->h * m->h + 2 * m->h +
             (m->experts > 0 ? m->router_params + m->shared * m->expert_params
                             : m->ffn_params)) /
            t;
        *expert += m->mtp * m->experts * m->expert_params /
                   (layout_expert_tp(lay) * e);
    }
    if (sc->recipe.schedule == SCHED_DUALPIPE) {
        *dense *= 2;
        *expert *= 2;
    }
}

/* FSDP / ZeRO-3 working buffers: the layer being computed and the
 * zero3_prefetch layers gathered ahead of it, in full 16-bit weights, and
 * in the backward the layer's unsharded gradient, the reduce-scatter's
 * input (PyTorch FSDP2 fully_shard: a module's unsharded parameters live
 * from its all-gather to its reshard, its unsharded gradients until their
 * reduce-scatter).  A stack with a live-parameter cap (zero3_live_params:
 * DeepSpeed's stage3_max_live_parameters) gathers module by module and
 * prefetches only while fewer than the cap are live, so at most the cap
 * plus one module (the one whose prefetch crossed it; a module larger
 * than the cap is gathered whole) are live; its gradients are reduced
 * parameter by parameter as autograd produces them (DeepSpeed's
 * reduce-scatter hooks), one module's at a time.  Neither grows with the
 * number of ranks: they are whole (unsharded) tensors. */
static double zero3_buffers(const struct scenario *sc,
                            const struct model_shape *m, double wb, double gb)
{
    double t = (double)sc->layout.tp, e = (double)sc->layout.ep;
    double layer = fmax(m->dense_layer_params, m->moe_layer_params / e) *
                   m->param_scale / t;
    double live = (1 + sc->stack.zero3_prefetch) * layer, grad = layer;
    double cap = sc->stack.zero3_live_params;

    if (cap > 0) {
        double w[MEMORY_LAYER_TENSORS], big = 0;

        memory_layer_tensors(m, t, w);
        for (int i = 0; i < MEMORY_LAYER_TENSORS; i++)
            big = fmax(big, w[i]);
        live = fmin(live, cap + big);
        grad = fmin(grad, big);
    }
    return live * wb + grad * gb;
}

static void stage_memory(const struct scenario *sc, const struct model_shape *m,
                         bool first, struct stage_mem *out)
{
    const struct layout *lay = &sc->layout;
    double t = (double)lay->tp, p = (double)lay->pp,
           v = (double)lay->interleave;
    double e = (double)lay->ep, shard = (double)lay->dp * (double)lay->cp;
    double etp = layout_expert_tp(lay);
    double layers = ceil(m->L / p); /* balanced: stages differ by <= 1 */
    double moe_frac = m->moe_layers / m->L;
    double moe_l = layers * moe_frac, dense_l = layers - moe_l;
    double dense_params, expert_params, params, m_in_flight, in_flight;
    double wb = weight_bytes(sc), gb = precision_bytes(sc->train.grad_dtype);
    double wb_shard = wb;
    double ob = optimizer_bytes(sc), expert_shard = layout_expert_dp(lay);
    double act_layer_dense, act_layer_moe, working = 0, checkpoints;
    bool scores = memory_keeps_scores(sc);
    int zero = lay->zero;

    shard = memory_zero_shard(sc);

    /* Parameters on this accelerator: layers split by TP; experts also by
     * EP; the embedding on the first stage, the output layer on the last
     * (with pipelining a tied embedding is duplicated there, as Megatron
     * does). */
    dense_params =
        dense_l * m->dense_layer_params / t +
        moe_l *
            (m->attn_params + m->norm_params + m->shared * m->expert_params) /
            t +
        moe_l * m->router_params;
    expert_params = moe_l * m->experts * m->expert_params / (etp * e);
    if (first)
        dense_params += m->embed_params / t;
    if (!first || lay->pp == 1) {
        if (!m->tied)
            dense_params += m->output_params / t;
        else if (lay->pp > 1)
            dense_params += m->embed_params / t;
        dense_params += m->h; /* final norm */
    }
    schedule_params(sc, m, !first || lay->pp == 1, &dense_params,
                    &expert_params);
    dense_params *= m->param_scale;
    expert_params *= m->param_scale;
    params = dense_params + expert_params;

    fp32_param_shards(sc, &wb_shard, &ob);
    out->weights = params * wb_shard;
    out->gradients = params * gb;
    out->optimizer = params * ob;
    if (zero >= 1)
        out->optimizer =
            dense_params * ob / shard + expert_params * ob / expert_shard;
    /* ZeRO-Offload keeps the optimizer states in host memory */
    out->host = 0;
    if (spec_offloads_optimizer(&sc->recipe)) {
        out->host = out->optimizer;
        out->optimizer = 0;
    }
    if (zero >= 2)
        out->gradients =
            dense_params * gb / shard + expert_params * gb / expert_shard;
    if (zero >= 3)
        out->weights = dense_params * wb_shard / shard +
                       expert_params * wb_shard / expert_shard;

    /* Activations: microbatches in flight on this stage. */
    m_in_flight =
        sc->train.global_batch / ((double)lay->dp * (double)lay->microbatch);
    if (first) {
        in_flight = fmin(m_in_flight, p);
        if (lay->interleave > 1 && lay->pp > 1)
            in_flight *= 1 + (p - 1) / (p * v);
        /* DualPipe: pp + 1 microbatches' activations (report table 2) */
        if (sc->recipe.schedule == SCHED_DUALPIPE)
            in_flight = fmin(m_in_flight, p + 1);
    } else {
        in_flight = 1;
    }
    act_layer_dense = memory_layer_activation_bytes(sc, m, false, scores);
    act_layer_moe = m->moe_layers > 0
                        ? memory_layer_activation_bytes(sc, m, true, scores)
                        : 0;
    checkpoints =
        in_flight * (dense_l * act_layer_dense + moe_l * act_layer_moe);
    out->activations = checkpoints;
    if (lay->recompute == RECOMPUTE_FULL) {
        /* the layer being recomputed holds its full set while in backward */
        struct scenario tmp = *sc;

        tmp.layout.recompute = RECOMPUTE_SELECTIVE;
        working = memory_layer_activation_bytes(
            &tmp, m, m->moe_layers > 0 && moe_l >= 1, false);
        out->activations += working;
        /* DeepSpeed cpu_checkpointing: the checkpoints live in host
         * memory (not in host_bytes, which is the optimizer's) */
        if (spec_offloads_activations(&sc->recipe))
            out->activations -= checkpoints;
    }
    if (!first || lay->pp == 1) {
        double s = (double)sc->train.seq_len / (double)lay->cp;

        /* fp32 logits of the output layer (Korthikanti section 4.3) */
        out->activations += 4 * s * (double)lay->microbatch * m->V / t;
    }

    /* the stack's reserve (CUDA context, NCCL buffers, workspaces) and
     * the caching allocator's slack over what the step allocates and
     * frees, the activations */
    out->allocator = sc->stack.mem_reserve_bytes +
                     sc->stack.mem_frag_frac * out->activations;
    out->buffers = 0;
    if (zero >= 3)
        out->buffers = zero3_buffers(sc, m, wb, gb);
    out->overhead = out->allocator + out->buffers;
}

void memory_estimate(const struct scenario *sc, const struct model_shape *m,
                     struct memory_result *out)
{
    struct stage_mem first, last;
    const struct stage_mem *busy;

    stage_memory(sc, m, true, &first);
    stage_memory(sc, m, false, &last);
    busy = stage_total(&last) > stage_total(&first) ? &last : &first;

    out->weights_bytes = busy->weights;
    out->gradients_bytes = busy->gradients;
    out->optimizer_bytes = busy->optimizer;
    out->activations_bytes = busy->activations;
    out->overhead_bytes = busy->overhead;
    out->allocator_bytes = busy->allocator;
    out->buffers_bytes = busy->buffers;
    out->host_bytes = busy->host;
    out->total_bytes = stage_total(busy);
    out->capacity_bytes = sc->accel.hbm_bytes;
    out->fits = out->total_bytes <= out->capacity_bytes;
}
