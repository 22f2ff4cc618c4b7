/*
 * scenario.c - validation of every input, defaults, and scenario_eval(),
 * which runs the sub-models in dependency order:
 *   model shape -> memory -> step time -> network BOM -> storage ->
 *   reliability -> energy -> cost.
 */
#include <assert.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/bounds.h"
#include "core/cost.h"
#include "core/energy.h"
#include "core/fields.h"
#include "core/load.h"
#include "core/memory.h"
#include "core/model.h"
#include "core/netbom.h"
#include "core/reliability.h"
#include "core/scenario.h"
#include "core/serve.h"
#include "core/serve_pool.h"
#include "core/steptime.h"
#include "core/storage.h"

/* Bounds on a stack's engine values (an input field's bounds are its row
 * in core/fields.h): generous enough for any real plan, small enough that
 * every product in the model stays far from overflow in double. */
#define MAX_SEQ 1e9
#define MAX_BATCH 1e9

/* The finance defaults' sources (reference/catalog.md section 8) and
 * the running costs left out until a plan states them. */
static const struct {
    const char *key, *source;
} finance_sources[] = {
    {"finance.depreciation_years",
     "5-year IT life: Epoch AI cost model (hardware from 2023); hyperscaler "
     "server lives 5-6 years (Microsoft, Alphabet, Amazon, Meta 10-K)"},
    {"finance.cost_of_capital",
     "assumption, no citable source for GPU capex (reference/catalog.md "
     "section 8): set your own rate"},
    {"finance.utilization",
     "assumption: the share of the year the owned fleet does paid work; "
     "serving plans use their daily profile instead"},
    {"finance.maintenance_frac",
     "assumption, no citable rate: hardware maintenance a year, 5% of IT "
     "CapEx"},
    {"finance.facility_years",
     "15 years: mechanical and electrical plant is commonly depreciated "
     "over 15-20 years (cost.h COST_FACILITY_YEARS)"},
    {"finance.residual_frac",
     "Epoch AI: price-performance improves 0.14 OOM a year, so value "
     "decays ~32% a year; 0.68^5 = 0.15 after 5 years"},
    {"finance.spares_frac",
     "reference/catalog.md 7.2: keep 5-10% spare nodes (stas00, "
     "SemiAnalysis)"},
    {"finance.support_frac",
     "excluded (0): vendor support is ~20% of the DGX base price a year "
     "(supercluster.blog via stas00, low confidence); set it to count it"},
    {"finance.insurance_frac",
     "excluded (0): no citable rate; set it to count insurance"},
    {"finance.staff_usd_per_mw_year",
     "excluded (0): no citable staffing figure (reference/catalog.md "
     "section 8); set it to count staff"},
    {"finance.software_usd_per_gpu_year",
     "excluded (0): only plans that buy licences pay them (NVIDIA AI "
     "Enterprise lists at 4,500 USD per GPU-year); set it to count them"},
};

const char *scenario_finance_source(const char *key)
{
    size_t i;

    for (i = 0; i < sizeof(finance_sources) / sizeof(finance_sources[0]); i++)
        if (strcmp(finance_sources[i].key, key) == 0)
            return finance_sources[i].source;
    return NULL;
}

void scenario_defaults(struct scenario *sc)
{
    memset(sc, 0, sizeof(*sc));
    sc->stack.gemm_eff = 0.85;
    sc->stack.attn_eff = 0.8;
    sc->stack.fp8_eff = 1;
    sc->efficiency_scale = 1;
    sc->stack.dp_overlap = 1;
    sc->stack.zero3_prefetch = 1;
    sc->stack.mem_reserve_bytes = 1073741824.0;
    sc->stack.mem_frag_frac = 0.05;
    sc->stack.selective_keep = 1;
    sc->stack.moe_imbalance = 1;
    sc->stack.mbu = 1;
    sc->stack.kv_mem_frac = 0.9;
    sc->stack.prefill_chunk = 8192;
    sc->stack.decode_overlap = 0.5;
    sc->train.seq_len = 4096;
    sc->train.global_batch = 1024;
    sc->train.precision = PREC_BF16;
    sc->train.optimizer = OPT_ADAM;
    sc->train.grad_dtype = PREC_FP32;
    sc->train.attention = ATTN_AUTO;
    sc->gpus = 1;
    sc->oversubscription = 1;
    sc->layout.tp = sc->layout.pp = sc->layout.dp = 1;
    sc->layout.cp = sc->layout.ep = 1;
    sc->layout.microbatch = 1;
    sc->layout.interleave = 1;
    sc->layout.recompute = RECOMPUTE_SELECTIVE;
    sc->layout.sequence_parallel = false;
    sc->layout.zero = 0;
    sc->finance.depreciation_years = 5;
    sc->finance.cost_of_capital = 0.08;
    sc->finance.utilization = 0.8;
    sc->finance.maintenance_frac = 0.05;
    sc->finance.facility_years = 15;  /* cost.h: COST_FACILITY_YEARS */
    sc->finance.residual_frac = 0.15; /* Epoch: 0.68^5 after 5 years */
    sc->finance.spares_frac = 0.05;   /* reference 7.2: 5-10% spares */
    sc->reliability.restart_min = 10;
    sc->cloud_term = TERM_ON_DEMAND;
    sc->serve.mode = SERVE_ONLINE;
    sc->serve.input_tokens = 1024;
    sc->serve.output_tokens = 256;
    sc->serve.peak_to_avg = 1;
    sc->serve.percentile = SERVE_PCT_P99;
    sc->serve.window_requests = 1000;
    sc->serve.scheduler_steps = 1;
    sc->serve.weights = SD_BF16;
    sc->serve.kv_cache = SD_BF16;
    sc->serve.disaggregated = DISAGG_NO;
    sc->serve.pool = POOL_BOTH;
    sc->serve.attention_dp = 1;
}

static enum cp_status count_in(struct diag *d, const char *key, uint64_t v,
                               double lo, double hi)
{
    if ((double)v < lo || (double)v > hi)
        return diag_set(d, CP_ERR_RANGE, key, "%llu is out of range [%g, %g]",
                        (unsigned long long)v, lo, hi);
    return CP_OK;
}

/* The rows of core/fields.h this file checks, as constants of this file:
 * check_field() with a constant id compiles to a load and two compares
 * (the layout search validates every candidate). */
#define OFF(member) offsetof(struct scenario, member)
#define ROW_MIN(id, sec, k, type, flags, lo, ...) [FLD_##id] = lo,
#define ROW_MAX(id, sec, k, type, flags, lo, hi, ...) [FLD_##id] = hi,
#define ROW_FLAGS(id, sec, k, type, flags, ...) [FLD_##id] = flags,
#define ROW_STORE(id, sec, k, type, flags, lo, hi, unit, choices, values, ref, \
                  def, store, ...)                                             \
    [FLD_##id] = store,
#define ROW_OFF(id, sec, k, type, flags, lo, hi, unit, choices, values, ref,   \
                def, store, off, ...)                                          \
    [FLD_##id] = off,
static const double row_min[FIELD_COUNT] = {FIELD_LIST(ROW_MIN)};
static const double row_max[FIELD_COUNT] = {FIELD_LIST(ROW_MAX)};
static const unsigned row_flags[FIELD_COUNT] = {FIELD_LIST(ROW_FLAGS)};
static const enum field_store row_store[FIELD_COUNT] = {FIELD_LIST(ROW_STORE)};
static const size_t row_off[FIELD_COUNT] = {FIELD_LIST(ROW_OFF)};

/* Field f of the struct at base, which sits at base_off in struct
 * scenario, against its row's bounds (field_check_* words the error). */
static inline enum cp_status check_field(const void *base, size_t base_off,
                                         enum field_id f, struct diag *d)
{
    const char *at = (const char *)base + (row_off[f] - base_off);
    uint64_t u = 0;
    double x;
    int e;

    if (row_store[f] == PS_U64) {
        memcpy(&u, at, sizeof(u));
        x = (double)u;
    } else if (row_store[f] == PS_F64) {
        memcpy(&x, at, sizeof(x));
    } else {
        memcpy(&e, at, sizeof(e));
        x = e;
    }
    if (x == 0 && (row_flags[f] & PKF_ZERO_UNSET))
        return CP_OK;
    if (x >= row_min[f] && x <= row_max[f]) /* NaN fails */
        return CP_OK;
    return row_store[f] == PS_U64 ? field_check_count(f, u, d)
                                  : field_check_real(f, x, d);
}

/* st = the first field of a list out of range (X-lists of field ids;
 * CHECK_SC for members of struct scenario, CHECK_MODEL for the model). */
#define CHECK_SC(id)                                                           \
    if (!st)                                                                   \
        st = check_field(sc, 0, FLD_##id, d);
#define CHECK_MODEL(id)                                                        \
    if (!st)                                                                   \
        st = check_field(m, OFF(model), FLD_##id, d);

/* Enum field f of the struct at base (at base_off in struct scenario)
 * against its row's choices; the error lists them (field_check_enum). */
static inline enum cp_status check_enum(const void *base, size_t base_off,
                                        enum field_id f, struct diag *d)
{
    int e;

    memcpy(&e, (const char *)base + (row_off[f] - base_off), sizeof(e));
    return field_check_enum(f, e, d);
}

#define CHECK_ENUM(id)                                                         \
    if (!st)                                                                   \
        st = check_enum(sc, 0, FLD_##id, d);

/* Every count of the model (0: not given, from the shape or a default). */
#define MODEL_FIELDS(X)                                                        \
    X(MODEL_PARAMS)                                                            \
    X(MODEL_LAYERS)                                                            \
    X(MODEL_HIDDEN)                                                            \
    X(MODEL_HEADS)                                                             \
    X(MODEL_KV_HEADS)                                                          \
    X(MODEL_FFN)                                                               \
    X(MODEL_VOCAB)                                                             \
    X(MODEL_EXPERTS)                                                           \
    X(MODEL_EXPERTS_ACTIVE)                                                    \
    X(MODEL_SHARED_EXPERTS)                                                    \
    X(MODEL_EXPERT_FFN)                                                        \
    X(MODEL_MOE_EVERY)                                                         \
    X(MODEL_FIRST_DENSE_LAYERS)                                                \
    X(MODEL_MTP_LAYERS)                                                        \
    X(MODEL_MOE_GROUPS)                                                        \
    X(MODEL_MOE_GROUP_TOPK)                                                    \
    X(MODEL_HEAD_DIM)                                                          \
    X(MODEL_KV_LORA_RANK)                                                      \
    X(MODEL_Q_LORA_RANK)                                                       \
    X(MODEL_ROPE_HEAD_DIM)

/* Group-limited routing needs a mixture of experts split into equal
 * groups, and the chosen groups must hold the token's k experts. */
static enum cp_status validate_groups(const struct model_spec *m,
                                      struct diag *d)
{
    double per_group;

    if (!m->moe_groups && !m->moe_group_topk)
        return CP_OK;
    if (m->experts < 2 || !m->moe_groups || m->experts % m->moe_groups)
        return diag_set(d, CP_ERR_RANGE, "model.moe_groups",
                        "%llu must divide model.experts (%llu) of a "
                        "mixture-of-experts model",
                        (unsigned long long)m->moe_groups,
                        (unsigned long long)m->experts);
    per_group = (double)m->experts / (double)m->moe_groups;
    if (m->moe_group_topk < 1 || m->moe_group_topk > m->moe_groups ||
        (double)m->moe_group_topk * per_group <
            (double)(m->experts_active ? m->experts_active : 1))
        return diag_set(d, CP_ERR_RANGE, "model.moe_group_topk",
                        "%llu must be 1..model.moe_groups (%llu) and its "
                        "groups hold model.experts_active experts",
                        (unsigned long long)m->moe_group_topk,
                        (unsigned long long)m->moe_groups);
    return CP_OK;
}

/* Expert biases and the clamped activation are the experts' (gpt-oss):
 * a dense model has none, and only a gated activation has a clamp. */
static enum cp_status validate_expert_extras(const struct model_spec *m,
                                             struct diag *d)
{
    if ((m->expert_bias || m->act_clamp) && m->experts < 2)
        return diag_set(d, CP_ERR_RANGE,
                        m->expert_bias ? "model.expert_bias"
                                       : "model.act_clamp",
                        "needs a mixture-of-experts model (model.experts "
                        "of 2 or more)");
    if (m->act_clamp && !m->gated_ffn)
        return diag_set(d, CP_ERR_RANGE, "model.act_clamp",
                        "needs a gated activation (model.gated_ffn=yes)");
    return CP_OK;
}

static enum cp_status validate_model(const struct model_spec *m, struct diag *d)
{
    enum cp_status st;

    if (!m->layers && !m->params)
        return diag_set(d, CP_ERR_RANGE, "model.layers",
                        "the model needs model.layers or model.params "
                        "(or a model.preset)");
    st = CP_OK;
    MODEL_FIELDS(CHECK_MODEL)
    if (!st && m->first_dense_layers && m->layers)
        st = count_in(d, "model.first_dense_layers", m->first_dense_layers, 0,
                      (double)m->layers - 1);
    if (!st)
        st = validate_groups(m, d);
    if (!st)
        st = validate_expert_extras(m, d);
    if (st)
        return st;
    if (m->params && m->hidden) {
        /* A count and a full shape: they must describe one model (the
         * count sizes memory, the shape times the step). */
        struct model_shape s;
        double ratio;

        model_shape_derive(m, 1, &s);
        ratio = s.param_scale;
        if (!(ratio >= 0.8 && ratio <= 1.25))
            return diag_set(d, CP_ERR_RANGE, "model.params",
                            "%.4g disagrees with the shape (%.4g parameters "
                            "from layers, hidden, heads, ffn and vocab); "
                            "give one or the other",
                            (double)m->params, s.params / s.param_scale);
    }
    if (check_enum(m, OFF(model), FLD_MODEL_ATTENTION, d) != CP_OK)
        return CP_ERR_RANGE;
    if (m->attention == MATTN_MLA && !m->kv_lora_rank)
        return diag_set(d, CP_ERR_RANGE, "model.kv_lora_rank",
                        "missing: MLA needs the latent width of K and V");
    if (!m->head_dim && m->hidden && m->heads && m->hidden % m->heads)
        return diag_set(d, CP_ERR_RANGE, "model.heads",
                        "%llu does not divide model.hidden (%llu)",
                        (unsigned long long)m->heads,
                        (unsigned long long)m->hidden);
    if (m->heads && m->kv_heads &&
        (m->kv_heads > m->heads || m->heads % m->kv_heads))
        return diag_set(d, CP_ERR_RANGE, "model.kv_heads",
                        "%llu must divide model.heads (%llu)",
                        (unsigned long long)m->kv_heads,
                        (unsigned long long)m->heads);
    if (m->experts > 1 &&
        (m->experts_active < 1 || m->experts_active > m->experts))
        return diag_set(d, CP_ERR_RANGE, "model.experts_active",
                        "must be between 1 and model.experts (%llu)",
                        (unsigned long long)m->experts);
    return CP_OK;
}

enum cp_status scenario_validate_model_spec(const struct model_spec *m,
                                            struct diag *d)
{
    return validate_model(m, d);
}

#define LAYOUT_FIELDS(X)                                                       \
    X(PAR_TP)                                                                  \
    X(PAR_PP)                                                                  \
    X(PAR_DP)                                                                  \
    X(PAR_CP)                                                                  \
    X(PAR_EP)                                                                  \
    X(PAR_MICROBATCH)                                                          \
    X(PAR_INTERLEAVE)                                                          \
    X(PAR_ZERO)

/* The layout against the model and the GPU count (Megatron's rules);
 * shape is model_shape_derive of the model at train.seq_len, or NULL. */
/* DualPipe pairs stage i with stage pp-1-i on every device and feeds
 * microbatches from both ends (DeepSeek-V3 report section 3.2.1;
 * deepseek-ai/DualPipe dualpipe/dualpipe.py @030ce432, DualPipe.step
 * asserts: an even number of ranks, an even number of microbatches, at
 * least two per rank). */
static enum cp_status validate_dualpipe(const struct scenario *sc,
                                        struct diag *d)
{
    const struct layout *lay = &sc->layout;
    uint64_t mbs = sc->train.global_batch / (lay->dp * lay->microbatch);

    if (sc->recipe.schedule != SCHED_DUALPIPE)
        return CP_OK;
    if (lay->pp < 2 || lay->pp % 2 || lay->interleave > 1)
        return diag_set(d, CP_ERR_LAYOUT, "software.pp_schedule",
                        "dualpipe needs an even parallel.pp (%llu) and no "
                        "parallel.interleave (%llu)",
                        (unsigned long long)lay->pp,
                        (unsigned long long)lay->interleave);
    if (mbs % 2 || mbs < 2 * lay->pp)
        return diag_set(d, CP_ERR_LAYOUT, "software.pp_schedule",
                        "dualpipe needs an even number of microbatches per "
                        "step (%llu), at least 2*pp (%llu)",
                        (unsigned long long)mbs,
                        (unsigned long long)(2 * lay->pp));
    return CP_OK;
}

static enum cp_status validate_layout(const struct scenario *sc,
                                      const struct model_shape *shape,
                                      struct diag *d)
{
    const struct layout *lay = &sc->layout;
    struct model_shape m;
    enum cp_status st;
    double heads, kv, layers, experts;

    st = CP_OK;
    LAYOUT_FIELDS(CHECK_SC)
    /* the layout search's path: compare, and word the error from the row */
    if (!st && (unsigned)lay->recompute > RECOMPUTE_FULL)
        st = field_check_enum(FLD_PAR_RECOMPUTE, (int)lay->recompute, d);
    if (st)
        return st;

    if ((double)lay->tp * (double)lay->pp * (double)lay->dp * (double)lay->cp !=
        (double)sc->gpus)
        return diag_set(
            d, CP_ERR_LAYOUT, "parallel",
            "tp*pp*dp*cp = %llu*%llu*%llu*%llu does not equal "
            "hardware.gpus (%llu)",
            (unsigned long long)lay->tp, (unsigned long long)lay->pp,
            (unsigned long long)lay->dp, (unsigned long long)lay->cp,
            (unsigned long long)sc->gpus);

    if (shape)
        m = *shape;
    else
        model_shape_derive(&sc->model, (double)sc->train.seq_len, &m);
    heads = m.a;
    kv = m.a_kv;
    layers = m.L;
    experts = m.experts;
    if (fmod(heads, (double)lay->tp) != 0)
        return diag_set(d, CP_ERR_LAYOUT, "parallel.tp",
                        "%llu does not divide model.heads (%.0f)",
                        (unsigned long long)lay->tp, heads);
    if (fmod(kv, (double)lay->tp) != 0 && fmod((double)lay->tp, kv) != 0)
        return diag_set(d, CP_ERR_LAYOUT, "parallel.tp",
                        "%llu and model.kv_heads (%.0f) must divide one "
                        "another",
                        (unsigned long long)lay->tp, kv);
    if ((double)lay->pp > layers)
        return diag_set(d, CP_ERR_LAYOUT, "parallel.pp",
                        "%llu pipeline stages exceed model.layers (%.0f)",
                        (unsigned long long)lay->pp, layers);
    /* the embedding and the output layer may be virtual stages of their
     * own (Llama 3 405B: 126 layers in 16 x 8 chunks) */
    if (lay->interleave > 1 &&
        (lay->pp < 2 || (double)lay->pp * (double)lay->interleave > layers + 2))
        return diag_set(d, CP_ERR_LAYOUT, "parallel.interleave",
                        "%llu needs pp > 1 and at least one layer per "
                        "virtual stage (pp*interleave <= model.layers + 2, "
                        "%.0f)",
                        (unsigned long long)lay->interleave, layers + 2);
    if (sc->train.seq_len % lay->cp)
        return diag_set(d, CP_ERR_LAYOUT, "parallel.cp",
                        "%llu does not divide train.seq_len (%llu)",
                        (unsigned long long)lay->cp,
                        (unsigned long long)sc->train.seq_len);
    if (experts < 2 && lay->ep != 1)
        return diag_set(d, CP_ERR_LAYOUT, "parallel.ep",
                        "expert parallelism needs a mixture-of-experts model");
    if (experts >= 2 && (fmod(experts, (double)lay->ep) != 0 ||
                         ((lay->tp * lay->dp * lay->cp) % lay->ep) != 0))
        return diag_set(d, CP_ERR_LAYOUT, "parallel.ep",
                        "%llu must divide model.experts (%.0f) and tp*dp*cp "
                        "(%llu)",
                        (unsigned long long)lay->ep, experts,
                        (unsigned long long)(lay->tp * lay->dp * lay->cp));
    if (sc->train.global_batch % (lay->dp * lay->microbatch))
        return diag_set(d, CP_ERR_LAYOUT, "train.global_batch",
                        "%llu is not a multiple of dp*microbatch (%llu*%llu)",
                        (unsigned long long)sc->train.global_batch,
                        (unsigned long long)lay->dp,
                        (unsigned long long)lay->microbatch);
    if (lay->interleave > 1 &&
        (sc->train.global_batch / (lay->dp * lay->microbatch)) % lay->pp)
        return diag_set(d, CP_ERR_LAYOUT, "parallel.interleave",
                        "the interleaved schedule needs the microbatches per "
                        "step (%llu) to be a multiple of pp (%llu)",
                        (unsigned long long)(sc->train.global_batch /
                                             (lay->dp * lay->microbatch)),
                        (unsigned long long)lay->pp);
    return validate_dualpipe(sc, d);
}

#define HARDWARE_FIELDS(X)                                                     \
    X(HW_GPUS)                                                                 \
    X(HW_OVERSUBSCRIPTION)                                                     \
    X(HW_POWER_LIMIT_W)                                                        \
    X(HW_STORAGE_TB)

/* hardware.power_limit_w caps the board below its TDP: a cap above it
 * (nvidia-smi -pl refuses one above the board's maximum limit) or on an
 * accelerator whose TDP the catalog does not state would set nothing. */
static enum cp_status validate_power_limit(const struct scenario *sc,
                                           struct diag *d)
{
    const struct accel_spec *a = &sc->accel;

    if (!(sc->power_limit_w > 0))
        return CP_OK;
    if (!(a->tdp_w > 0))
        return diag_set(d, CP_ERR_RANGE, "hardware.power_limit_w",
                        "'%s' states no tdp_w to cap", a->id);
    if (sc->power_limit_w > a->tdp_w)
        return diag_set(d, CP_ERR_RANGE, "hardware.power_limit_w",
                        "%g W is above the TDP of '%s' (%g W)",
                        sc->power_limit_w, a->id, a->tdp_w);
    return CP_OK;
}

static enum cp_status validate_hardware(const struct scenario *sc,
                                        struct diag *d)
{
    const struct accel_spec *a = &sc->accel;
    const struct system_spec *s = &sc->system;
    const struct fabric_spec *f = &sc->fabric;
    enum cp_status st;
    int i;

    st = CP_OK;
    HARDWARE_FIELDS(CHECK_SC)
    if (st)
        return st;
    if (!(a->hbm_bytes > 0) || !(a->hbm_bps > 0))
        return diag_set(d, CP_ERR_RANGE, "hardware.accelerator",
                        "'%s' has no memory capacity or bandwidth", a->id);
    for (i = 0; i < PREC_COUNT; i++)
        if (!isfinite(a->peak_flops[i]) || a->peak_flops[i] < 0)
            return diag_set(d, CP_ERR_RANGE, "hardware.accelerator",
                            "'%s' has an invalid peak", a->id);
    if (!(a->peak_flops[sc->train.precision] > 0))
        return diag_set(d, CP_ERR_RANGE, "train.precision",
                        "'%s' has no %s peak", a->id,
                        precision_name(sc->train.precision));
    if (!(a->gemm_frac > 0 && a->gemm_frac <= 1) ||
        !(a->fp8_gemm_frac >= 0 && a->fp8_gemm_frac <= 1) ||
        !(a->fp4_gemm_frac >= 0 && a->fp4_gemm_frac <= 1) ||
        !(a->attn_fa2_frac >= 0 && a->attn_fa2_frac <= 1) ||
        !(a->hbm_frac > 0 && a->hbm_frac <= 1) ||
        !(a->attn_frac > 0 && a->attn_frac <= 1) ||
        !(a->power_frac >= 0 && a->power_frac <= 2) ||
        !(a->kernel_s >= 0 && a->kernel_s < 1) ||
        !(a->gemm_half_flops >= 0 && a->gemm_half_flops < 1e15) ||
        !(a->nccl_ar_s >= 0 && a->nccl_ar_s < 1) ||
        !(a->nccl_ar_bps >= 0 && a->nccl_ar_bps < 1e15))
        return diag_set(d, CP_ERR_RANGE, "hardware.accelerator",
                        "'%s' has calibration knobs out of range", a->id);
    if (!isfinite(a->scaleup_bps) || a->scaleup_bps < 0 ||
        !isfinite(a->tdp_w) || a->tdp_w < 0 || !isfinite(a->price_usd) ||
        a->price_usd < 0)
        return diag_set(d, CP_ERR_RANGE, "hardware.accelerator",
                        "'%s' has values out of range", a->id);
    st = validate_power_limit(sc, d);
    if (st)
        return st;
    if (s->gpus_per_node < 1 || s->gpus_per_node > 1e6 ||
        s->scaleup_domain < 1 || s->scaleup_domain > B_GPUS_MAX ||
        !(s->scaleup_frac > 0 && s->scaleup_frac <= 1) ||
        !isfinite(s->scaleup_bps) || s->scaleup_bps < 0 ||
        !isfinite(s->host_power_w) || s->host_power_w < 0 ||
        !isfinite(s->node_price_usd) || s->node_price_usd < 0 ||
        s->nodes_per_rack < 1 || !isfinite(s->node_mtbf_h) ||
        s->node_mtbf_h < 0 || s->node_mtbf_h > B_NODE_MTBF_H_MAX)
        return diag_set(d, CP_ERR_RANGE, "hardware.system",
                        "'%s' has values out of range", s->id);
    if (!(f->gbps_per_gpu > 0) || !isfinite(f->gbps_per_gpu) ||
        !(f->bw_frac > 0 && f->bw_frac <= 1) || !isfinite(f->latency_s) ||
        f->latency_s < 0 || f->latency_s > 1 || f->switch_radix < 2 ||
        !isfinite(f->switch_price_usd) || f->switch_price_usd < 0 ||
        !isfinite(f->switch_power_w) || f->switch_power_w < 0 ||
        !isfinite(f->nic_price_usd) || f->nic_price_usd < 0 ||
        !isfinite(f->nic_power_w) || f->nic_power_w < 0 ||
        !isfinite(f->transceiver_price_usd) || f->transceiver_price_usd < 0 ||
        !isfinite(f->transceiver_power_w) || f->transceiver_power_w < 0 ||
        !isfinite(f->cable_price_usd) || f->cable_price_usd < 0)
        return diag_set(d, CP_ERR_RANGE, "hardware.fabric",
                        "'%s' has values out of range", f->id);
    if (!isfinite(sc->storage.read_bps) || sc->storage.read_bps < 0 ||
        !isfinite(sc->storage.write_bps) || sc->storage.write_bps < 0 ||
        !isfinite(sc->storage.usd_per_tb) || sc->storage.usd_per_tb < 0 ||
        !isfinite(sc->storage.watts_per_tb) || sc->storage.watts_per_tb < 0 ||
        !isfinite(sc->storage.capacity_tb) || sc->storage.capacity_tb < 0)
        return diag_set(d, CP_ERR_RANGE, "hardware.storage",
                        "'%s' has values out of range", sc->storage.id);
    return CP_OK;
}

static enum cp_status validate_stack(const struct stack_spec *s, struct diag *d)
{
    /* each knob in its range (0 < x for efficiencies); the first that is
     * not is named, as a catalog import names its column */
    const struct {
        const char *name;
        double x, lo, hi;
        bool open_lo;
    } k[] = {
        {"gemm_eff", s->gemm_eff, 0, 1, true},
        {"attn_eff", s->attn_eff, 0, 1, true},
        {"fp8_eff", s->fp8_eff, 0, 1, true},
        {"tp_overlap", s->tp_overlap, 0, 1, false},
        {"dp_overlap", s->dp_overlap, 0, 1, false},
        {"zero3_prefetch", s->zero3_prefetch, 0, 64, false},
        {"dp_flat", s->dp_flat, 0, 1, false}, /* new key: dp_flat (d19a) */
        {"tp_bwd_exposed", s->tp_bwd_exposed, 0, 1, false},
        {"ckpt_early_stop", s->ckpt_early_stop, 0, 1, false},
        {"pp_overlap", s->pp_overlap, 0, 1, false},
        {"zero3_live_params", s->zero3_live_params, 0, 1e15, false},
        {"dp_shard_domain", s->dp_shard_domain, 0, 1, false},
        {"per_op_sac", s->per_op_sac, 0, 1, false},
        {"fp32_params", s->fp32_params, 0, 1, false},
        {"kernel_us", s->kernel_s * 1e6, 0, 1e6, false},
        {"step_overhead_ms", s->step_overhead_s * 1e3, 0, 1e6, false},
        {"mem_reserve_gib", s->mem_reserve_bytes / 1073741824.0, 0, 1e4, false},
        {"mem_frag_frac", s->mem_frag_frac, 0, 1, false},
        {"selective_keep", s->selective_keep, 0, 1, false},
        {"ep_overlap", s->ep_overlap, 0, 1, false},
        /* 0: not set (a scenario built without scenario_defaults) */
        {"moe_imbalance", s->moe_imbalance == 0 ? 1 : s->moe_imbalance, 1, 16,
         false},
        {"moe_gemm_per_expert", s->moe_gemm_per_expert, 0, 1, false},
    };

    /* facts, on or off: the model reads each at 0.5 from either side */
    const struct {
        const char *name;
        double x;
    } flag[] = {
        {"per_op_sac", s->per_op_sac},
        {"fp32_params", s->fp32_params},
    };
    size_t i;

    for (i = 0; i < sizeof(k) / sizeof(k[0]); i++)
        if (!(k[i].open_lo ? k[i].x > k[i].lo : k[i].x >= k[i].lo) ||
            !(k[i].x <= k[i].hi))
            return diag_set(d, CP_ERR_RANGE, "software.stack",
                            "'%s': %s %g is out of range", s->id, k[i].name,
                            k[i].x);
    for (i = 0; i < sizeof(flag) / sizeof(flag[0]); i++)
        if (flag[i].x != 0 && flag[i].x != 1)
            return diag_set(d, CP_ERR_RANGE, "software.stack",
                            "'%s': %s %g must be 0 or 1", s->id, flag[i].name,
                            flag[i].x);
    return CP_OK;
}

/* One pool's parallelism against the model: key names the pool's keys
 * (or parallel.* for the plan's own layout). */
static enum cp_status validate_pool(const struct scenario *sc,
                                    const struct model_shape *m,
                                    enum serve_pool phase, struct diag *d)
{
    const struct serve_pool_spec *ps =
        phase == POOL_PREFILL ? &sc->serve.prefill : &sc->serve.decode;
    const char *name = phase == POOL_PREFILL ? "prefill" : "decode";
    bool own = phase != POOL_BOTH;
    struct serve_pool_layout pl;
    char k_tp[40], k_ep[40], k_adp[40], k_gpus[40];
    double group;

    serve_pool_layout_of(sc, phase, &pl);
    snprintf(k_tp, sizeof(k_tp), own && ps->tp ? "serve.%s.tp" : "parallel.tp",
             name);
    snprintf(k_ep, sizeof(k_ep), own && ps->ep ? "serve.%s.ep" : "parallel.ep",
             name);
    snprintf(k_adp, sizeof(k_adp),
             own && ps->attention_dp ? "serve.%s.attention_dp"
                                     : "serve.attention_dp",
             name);
    snprintf(k_gpus, sizeof(k_gpus),
             own && ps->gpus ? "serve.%s.gpus" : "hardware.gpus", name);
    if (fmod(m->a, pl.tp) != 0)
        return diag_set(d, CP_ERR_LAYOUT, k_tp,
                        "%.0f does not divide model.heads (%.0f)", pl.tp, m->a);
    if (fmod(m->a_kv, pl.tp) != 0 && fmod(pl.tp, m->a_kv))
        return diag_set(d, CP_ERR_LAYOUT, k_tp,
                        "%.0f and model.kv_heads (%.0f) must divide one "
                        "another",
                        pl.tp, m->a_kv);
    if (m->experts < 2 && pl.ep != 1)
        return diag_set(d, CP_ERR_LAYOUT, k_ep,
                        "expert parallelism needs a mixture-of-experts model");
    group = pl.tp * pl.pp * pl.adp;
    if (m->experts >= 2 && pl.ep > m->experts)
        return diag_set(d, CP_ERR_LAYOUT, k_ep,
                        "%.0f ranks exceed model.experts (%.0f): every EP "
                        "rank holds at least one expert",
                        pl.ep, m->experts);
    if (m->experts >= 2 && pl.ep > group)
        return diag_set(d, CP_ERR_LAYOUT, k_ep,
                        "%.0f exceeds the GPUs of a replica "
                        "(tp*pp*attention_dp = %.0f)",
                        pl.ep, group);
    if (m->experts >= 2 && fmod(m->experts, pl.ep) != 0 && pl.adp <= 1)
        return diag_set(d, CP_ERR_LAYOUT, k_ep,
                        "%.0f does not divide model.experts (%.0f); "
                        "redundant experts need serve.attention_dp",
                        pl.ep, m->experts);
    if (pl.ep > 1 && pl.adp > 1 && fmod(pl.tp * pl.adp, pl.ep) != 0)
        return diag_set(d, CP_ERR_LAYOUT, k_ep,
                        "%.0f does not divide tp*attention_dp (%.0f), the "
                        "GPUs the experts spread over",
                        pl.ep, pl.tp * pl.adp);
    if (own && pl.gpus > 0 && fmod(pl.gpus, group) != 0)
        return diag_set(d, CP_ERR_LAYOUT, k_gpus,
                        "%.0f is not a multiple of tp*pp*attention_dp (%.0f), "
                        "the GPUs of one %s replica",
                        pl.gpus, group, name);
    (void)k_adp;
    return CP_OK;
}

#define POOL_FIELDS(X)                                                         \
    X(SERVE_ATTENTION_DP)                                                      \
    X(SERVE_PREFILL_GPUS)                                                      \
    X(SERVE_PREFILL_TP)                                                        \
    X(SERVE_PREFILL_EP)                                                        \
    X(SERVE_PREFILL_ATTENTION_DP)                                              \
    X(SERVE_DECODE_GPUS)                                                       \
    X(SERVE_DECODE_TP)                                                         \
    X(SERVE_DECODE_EP)                                                         \
    X(SERVE_DECODE_ATTENTION_DP)                                               \
    X(SERVE_DECODE_MAX_BATCH)

/* serve.pool, serve.attention_dp and the disaggregated pools' keys. */
static enum cp_status validate_pools(const struct scenario *sc,
                                     const struct model_shape *m,
                                     struct diag *d)
{
    const struct serve_spec *v = &sc->serve;
    const struct serve_pool_spec *ps[2] = {&v->prefill, &v->decode};
    static const char *const names[2] = {"prefill", "decode"};
    enum cp_status st;
    int i;

    st = CP_OK;
    CHECK_ENUM(SERVE_POOL)
    if (st)
        return st;
    POOL_FIELDS(CHECK_SC)
    for (i = 0; i < 2 && !st; i++) {
        char key[40];
        bool any = ps[i]->gpus || ps[i]->tp || ps[i]->ep || ps[i]->attention_dp;

        if (any && v->disaggregated != DISAGG_YES) {
            snprintf(key, sizeof(key), "serve.%s.%s", names[i],
                     ps[i]->gpus ? "gpus"
                     : ps[i]->tp ? "tp"
                     : ps[i]->ep ? "ep"
                                 : "attention_dp");
            st = diag_set(d, CP_ERR_RANGE, key,
                          "a pool's own parallelism needs "
                          "serve.disaggregated=yes");
        }
    }
    if (!st && v->decode.max_batch && v->disaggregated != DISAGG_YES &&
        v->pool != POOL_DECODE)
        st = diag_set(d, CP_ERR_RANGE, "serve.decode.max_batch",
                      "a decode pool's batch needs serve.disaggregated=yes "
                      "or serve.pool=decode");
    if (st)
        return st;
    st = validate_pool(sc, m, POOL_BOTH, d);
    if (!st && serve_pool_applies(sc))
        st = validate_pool(
            sc, m, v->pool == POOL_DECODE ? POOL_DECODE : POOL_PREFILL, d);
    if (!st && serve_pool_applies(sc) && v->pool == POOL_BOTH)
        st = validate_pool(sc, m, POOL_DECODE, d);
    if (!st && v->pool == POOL_BOTH && serve_pool_applies(sc) &&
        !v->gpus_auto && v->prefill.gpus && v->decode.gpus &&
        v->prefill.gpus + v->decode.gpus != sc->gpus)
        st = diag_set(d, CP_ERR_LAYOUT, "serve.decode.gpus",
                      "the prefill (%llu) and decode (%llu) pools must add "
                      "up to hardware.gpus (%llu)",
                      (unsigned long long)v->prefill.gpus,
                      (unsigned long long)v->decode.gpus,
                      (unsigned long long)sc->gpus);
    if (!st && v->pool != POOL_BOTH && v->mode == SERVE_ONLINE &&
        v->concurrency == 0 && !(v->requests_per_s > 0) &&
        !(v->tokens_per_day > 0))
        st = diag_set(d, CP_ERR_RANGE, "serve.pool",
                      "a pool measured alone online needs "
                      "serve.concurrency or serve.requests_per_s");
    return st;
}

/* A serving replica (tp x pp GPUs) against the model and the fleet. */
#define SERVE_LAYOUT_FIELDS(X)                                                 \
    X(PAR_TP)                                                                  \
    X(PAR_PP)                                                                  \
    X(PAR_EP)

static enum cp_status validate_serve_layout(const struct scenario *sc,
                                            struct diag *d)
{
    const struct layout *lay = &sc->layout;
    struct model_shape m;
    enum cp_status st;
    double gpr;

    st = CP_OK;
    SERVE_LAYOUT_FIELDS(CHECK_SC)
    if (st)
        return st;
    model_shape_derive(&sc->model, 1, &m);
    gpr = (double)lay->tp * (double)lay->pp;
    if (fmod(m.a, (double)lay->tp) != 0)
        return diag_set(d, CP_ERR_LAYOUT, "parallel.tp",
                        "%llu does not divide model.heads (%.0f)",
                        (unsigned long long)lay->tp, m.a);
    if (fmod(m.a_kv, (double)lay->tp) != 0 && fmod((double)lay->tp, m.a_kv))
        return diag_set(d, CP_ERR_LAYOUT, "parallel.tp",
                        "%llu and model.kv_heads (%.0f) must divide one "
                        "another",
                        (unsigned long long)lay->tp, m.a_kv);
    if ((double)lay->pp > m.L)
        return diag_set(d, CP_ERR_LAYOUT, "parallel.pp",
                        "%llu pipeline stages exceed model.layers (%.0f)",
                        (unsigned long long)lay->pp, m.L);
    if (m.experts < 2 && lay->ep != 1)
        return diag_set(d, CP_ERR_LAYOUT, "parallel.ep",
                        "expert parallelism needs a mixture-of-experts model");
    st = validate_pools(sc, &m, d);
    if (st)
        return st;
    gpr *= (double)sc->serve.attention_dp;
    if (!sc->serve.gpus_auto && !serve_pool_applies(sc) &&
        fmod((double)sc->gpus, gpr) != 0)
        return diag_set(d, CP_ERR_LAYOUT, "hardware.gpus",
                        "%llu is not a multiple of tp*pp*attention_dp "
                        "(%.0f), the GPUs of one replica",
                        (unsigned long long)sc->gpus, gpr);
    if ((double)sc->serve.owned_gpus > 0 &&
        fmod((double)sc->serve.owned_gpus, gpr) != 0)
        return diag_set(d, CP_ERR_LAYOUT, "serve.owned_gpus",
                        "%llu is not a multiple of tp*pp*attention_dp "
                        "(%.0f), the GPUs of one replica",
                        (unsigned long long)sc->serve.owned_gpus, gpr);
    return CP_OK;
}

#define SERVE_FIELDS(X)                                                        \
    X(SERVE_INPUT_TOKENS)                                                      \
    X(SERVE_OUTPUT_TOKENS)                                                     \
    X(SERVE_REQUESTS_PER_S)                                                    \
    X(SERVE_TOKENS_PER_DAY)                                                    \
    X(SERVE_PEAK_TO_AVG)                                                       \
    X(SERVE_CONCURRENCY)                                                       \
    X(SERVE_TTFT_MS)                                                           \
    X(SERVE_TPOT_MS)                                                           \
    X(SERVE_WINDOW_REQUESTS)                                                   \
    X(SERVE_OUTPUT_CV)                                                         \
    X(SERVE_SCHEDULER_STEPS)                                                   \
    X(SERVE_BATCH_WAIT_ITERS)                                                  \
    X(SERVE_BATCH_WAIT_TOKENS_FRAC)                                            \
    X(SERVE_PREFIX_HIT)                                                        \
    X(SERVE_MAX_BATCH)                                                         \
    X(SERVE_OWNED_GPUS)                                                        \
    X(SERVE_SPEC_TOKENS)                                                       \
    X(SERVE_SPEC_ACCEPT)

/* serve.offload: streaming weights from the host needs a link to it. */
static enum cp_status validate_serve_offload(const struct scenario *sc,
                                             struct diag *d)
{
    if (check_enum(sc, 0, FLD_SERVE_OFFLOAD, d) != CP_OK)
        return CP_ERR_RANGE;
    if (sc->serve.offload == SOFF_WEIGHTS && !(sc->system.host_link_bps > 0))
        return diag_set(d, CP_ERR_RANGE, "serve.offload",
                        "weight offload needs the system's link to host "
                        "memory (catalog systems.host_link_gb_s), which "
                        "'%s' does not state",
                        sc->system.id[0] ? sc->system.id : "the system");
    return CP_OK;
}

/* Serving inputs and the engine's knobs. */
static enum cp_status validate_serve(const struct scenario *sc, struct diag *d)
{
    const struct serve_spec *v = &sc->serve;
    const struct stack_spec *s = &sc->stack;
    enum cp_status st;

    st = CP_OK;
    CHECK_ENUM(SERVE_MODE)
    if (st)
        return st;
    SERVE_FIELDS(CHECK_SC)
    CHECK_ENUM(SERVE_PERCENTILE)
    CHECK_ENUM(SERVE_WEIGHTS)
    CHECK_ENUM(SERVE_EXPERT_WEIGHTS)
    CHECK_ENUM(SERVE_ATTENTION)
    if (!st && v->attention == SATTN_FP8 &&
        !(sc->accel.peak_flops[PREC_FP8] > 0))
        st = diag_set(d, CP_ERR_RANGE, "serve.attention",
                      "fp8 attention needs fp8 tensor cores, which '%s' "
                      "has not",
                      sc->accel.id);
    CHECK_ENUM(SERVE_COMM)
    if (!st && v->comm == SCOMM_FP8 && !(sc->accel.peak_flops[PREC_FP8] > 0))
        st = diag_set(d, CP_ERR_RANGE, "serve.comm",
                      "fp8 dispatch needs fp8 support, which '%s' has not",
                      sc->accel.id);
    CHECK_ENUM(SERVE_KV_CACHE)
    CHECK_ENUM(SERVE_DISAGGREGATED)
    CHECK_ENUM(SERVE_ASYNC_SCHEDULING)
    if (!st)
        st = validate_serve_offload(sc, d);
    if (st)
        return st;
    if (v->gpus_auto && v->mode == SERVE_ONLINE && !(v->requests_per_s > 0) &&
        !(v->tokens_per_day > 0) && v->concurrency == 0)
        return diag_set(d, CP_ERR_RANGE, "serve.tokens_per_day",
                        "no demand to size hardware.gpus=auto for: give "
                        "serve.tokens_per_day, serve.requests_per_s or "
                        "serve.concurrency above 0");
    if (!(s->mbu > 0 && s->mbu <= 1) ||
        !(s->kv_mem_frac > 0 && s->kv_mem_frac <= 1) ||
        !(s->max_seqs >= 0 && s->max_seqs <= MAX_BATCH) ||
        !(s->allreduce_s >= 0 && s->allreduce_s < 1) ||
        !(s->prefill_chunk >= 0 && s->prefill_chunk <= MAX_SEQ) ||
        !(s->decode_overlap >= 0 && s->decode_overlap <= 1) ||
        !(s->ar_oneshot_bytes >= 0 && s->ar_oneshot_bytes < 1e12) ||
        !(s->ar_workspace_bytes >= 0 && s->ar_workspace_bytes < 1e12))
        return diag_set(d, CP_ERR_RANGE, "software.stack",
                        "'%s' has serving values out of range", s->id);
    return validate_serve_layout(sc, d);
}

#define SITE_FIELDS(X)                                                         \
    X(SITE_PUE)                                                                \
    X(SITE_USD_PER_KWH)                                                        \
    X(SITE_KGCO2_PER_KWH)

#define FINANCE_FIELDS(X)                                                      \
    X(FIN_DEPRECIATION_YEARS)                                                  \
    X(FIN_COST_OF_CAPITAL)                                                     \
    X(FIN_UTILIZATION)                                                         \
    X(FIN_MAINTENANCE_FRAC)                                                    \
    X(FIN_FACILITY_YEARS)                                                      \
    X(FIN_RESIDUAL_FRAC)                                                       \
    X(FIN_SPARES_FRAC)                                                         \
    X(FIN_SUPPORT_FRAC)                                                        \
    X(FIN_INSURANCE_FRAC)                                                      \
    X(FIN_STAFF_USD_PER_MW_YEAR)                                               \
    X(FIN_SOFTWARE_USD_PER_GPU_YEAR)                                           \
    X(CLOUD_USD_PER_GPU_HOUR)

#define RELIABILITY_FIELDS(X)                                                  \
    X(REL_NODE_MTBF_H)                                                         \
    X(REL_RESTART_MIN)

static enum cp_status validate_money(const struct scenario *sc, struct diag *d)
{
    const struct site_spec *s = &sc->site;
    enum cp_status st;
    int i;

    st = CP_OK;
    SITE_FIELDS(CHECK_SC)
    if (!st &&
        (!isfinite(s->air_kw_per_rack) || s->air_kw_per_rack < 0 ||
         !isfinite(s->liquid_kw_per_rack) || s->liquid_kw_per_rack < 0 ||
         !isfinite(s->colo_usd_per_kw_month) || s->colo_usd_per_kw_month < 0 ||
         !isfinite(s->build_usd_per_mw) || s->build_usd_per_mw < 0 ||
         !isfinite(s->rear_door_kw_per_rack) || s->rear_door_kw_per_rack < 0 ||
         !isfinite(s->rear_door_usd_per_kw) || s->rear_door_usd_per_kw < 0 ||
         !isfinite(s->liquid_usd_per_kw) || s->liquid_usd_per_kw < 0 ||
         !isfinite(s->liquid_pue) || s->liquid_pue < 0 || s->liquid_pue > 5))
        st = diag_set(d, CP_ERR_RANGE, "site.id",
                      "'%s' has values out of range", s->id);
    FINANCE_FIELDS(CHECK_SC)
    for (i = 0; !st && i < TERM_COUNT; i++)
        if (!isfinite(sc->cloud.usd_per_gpu_hour[i]) ||
            sc->cloud.usd_per_gpu_hour[i] < 0)
            st = diag_set(d, CP_ERR_RANGE, "cloud.offer",
                          "'%s' has a negative price", sc->cloud.id);
    RELIABILITY_FIELDS(CHECK_SC)
    return st;
}

enum cp_status scenario_validate_model(const struct scenario *sc,
                                       struct diag *d)
{
    enum cp_status st = validate_model(&sc->model, d);

    CHECK_SC(TRAIN_SEQ_LEN)
    return st;
}

#define TRAIN_FIELDS(X)                                                        \
    X(TRAIN_TOKENS)                                                            \
    X(TRAIN_GPU_HOURS)                                                         \
    X(TRAIN_MOE_CAPACITY)                                                      \
    X(TRAIN_SEQ_LEN)                                                           \
    X(TRAIN_GLOBAL_BATCH)

/* What validate checks before the layout: the model, the training
 * inputs, the stack and its recipe, the hardware. */
static enum cp_status validate_head(const struct scenario *sc, struct diag *d)
{
    enum cp_status st;

    st = validate_model(&sc->model, d);
    TRAIN_FIELDS(CHECK_SC)
    if (!st && !(sc->train.moe_capacity == 0 ||
                 (sc->train.moe_capacity >= 1 && sc->train.moe_capacity <= 16)))
        st = diag_set(d, CP_ERR_RANGE, "train.moe_capacity",
                      "must be 0 (dropless) or a capacity factor from 1 to 16");
    if (!st && ((unsigned)sc->train.precision >= PREC_COUNT ||
                sc->train.precision == PREC_INT8))
        st = diag_set(d, CP_ERR_RANGE, "train.precision",
                      "must be fp32, tf32, bf16, fp16, fp8, mxfp8 or fp4");
    if (!st)
        st = validate_stack(&sc->stack, d);
    /* 0 is "not set" (a scenario built without scenario_defaults): 1. */
    CHECK_SC(SOFTWARE_EFFICIENCY_SCALE)
    CHECK_SC(SOFTWARE_PREFILL_CHUNK)
    CHECK_ENUM(SOFTWARE_MOE_A2A_OVERLAP)
    CHECK_ENUM(SOFTWARE_TP_COMM_OVERLAP)
    CHECK_ENUM(SOFTWARE_CUDA_GRAPHS)
    CHECK_ENUM(SOFTWARE_MOE_DISPATCHER)
    CHECK_ENUM(SOFTWARE_MOE_FORCE_BALANCE)
    CHECK_ENUM(SOFTWARE_PP_SCHEDULE)
    CHECK_ENUM(SOFTWARE_FP8_SCALING)
    CHECK_ENUM(SOFTWARE_OFFLOAD)
    CHECK_ENUM(SOFTWARE_CHECKPOINT_EARLY_STOP)
    CHECK_ENUM(SOFTWARE_RECOMPUTE_MODULES)
    /* Megatron-Core builds mla_up_proj's checkpoint in MLA only */
    if (!st && (spec_recompute_mask(&sc->recipe) & RECMOD_BIT_MLA_UP) != 0 &&
        sc->model.attention != MATTN_MLA)
        st = diag_set(d, CP_ERR_RANGE, "software.recompute_modules",
                      "mla_up_proj recomputes MLA's up projections: needs "
                      "model.attention=mla");
    if (!st && spec_offloads_optimizer(&sc->recipe) &&
        !(sc->system.host_link_bps > 0 && sc->system.host_cores > 0 &&
          sc->system.gpus_per_node > 0))
        st = diag_set(d, CP_ERR_RANGE, "software.offload",
                      "optimizer offload needs the system's host link and "
                      "CPU cores (catalog systems.host_link_gb_s, "
                      "host_cores); %s states none",
                      sc->system.id[0] ? sc->system.id : "the system");
    /* the host update is DeepSpeed's CPU-Adam (ZeRO-Offload section 5.2) */
    if (!st && spec_offloads_optimizer(&sc->recipe) &&
        sc->train.optimizer != OPT_ADAM)
        st = diag_set(d, CP_ERR_RANGE, "software.offload",
                      "optimizer offload runs DeepSpeed's CPU-Adam: needs "
                      "train.optimizer=adam");
    CHECK_ENUM(TRAIN_OPTIMIZER)
    CHECK_ENUM(TRAIN_GRAD_DTYPE)
    CHECK_ENUM(TRAIN_ATTENTION)
    CHECK_ENUM(WORKLOAD_KIND)
    CHECK_ENUM(CLOUD_TERM)
    if (!st)
        st = validate_hardware(sc, d);
    return st;
}

/* scenario_validate; without the training layout (layout false) for
 * scenario_validate_inputs; with the model's shape already derived (shape
 * not NULL) for scenario_validate_shape. */
static enum cp_status validate(const struct scenario *sc,
                               const struct model_shape *shape, bool layout,
                               struct diag *d)
{
    enum cp_status st = validate_head(sc, d);

    if (!st && sc->workload == WORKLOAD_SERVE)
        st = validate_serve(sc, d);
    else if (!st && layout)
        st = validate_layout(sc, shape, d);
    if (!st)
        st = validate_money(sc, d);
    return st;
}

enum cp_status scenario_validate_part(const struct scenario *sc,
                                      enum validate_part part,
                                      const struct model_shape *shape,
                                      struct diag *d)
{
    switch (part) {
    case VALIDATE_HEAD:
        return validate_head(sc, d);
    case VALIDATE_LAYOUT:
        return validate_layout(sc, shape, d);
    case VALIDATE_MONEY:
        return validate_money(sc, d);
    }
    return diag_set(d, CP_ERR_USAGE, "validate", "unknown part");
}

enum cp_status scenario_validate(const struct scenario *sc, struct diag *d)
{
    return validate(sc, NULL, true, d);
}

enum cp_status scenario_validate_shape(const struct scenario *sc,
                                       const struct model_shape *shape,
                                       struct diag *d)
{
    return validate(sc, shape, true, d);
}

enum cp_status scenario_validate_inputs(const struct scenario *sc,
                                        struct diag *d)
{
    return validate(sc, NULL, false, d);
}

/* Network, storage, energy and cost of a serving fleet (serve_load's
 * base); returns what owning it costs a year. */
static double serve_fleet_cost(const struct scenario *sc, bool base,
                               struct result *out)
{
    serve_load(sc, base, out);
    netbom_estimate(sc, out);
    /* The model's files on the shared tier: weights as served. */
    out->storage.checkpoint_bytes =
        out->serve.weights_bytes * out->serve.gpus_per_replica;
    out->storage.capacity_bytes = out->storage.checkpoint_bytes;
    energy_estimate(sc, out);
    cost_estimate(sc, out);
    return out->cost.build.annual_capital_usd +
           out->cost.build.opex_usd_per_year;
}

/* The serving workload: the replica and fleet (serve.c), then the same
 * fleet models as training through the load. */
static void serve_eval(const struct scenario *sc, unsigned flags,
                       struct result *out)
{
    struct model_spec serve_model;
    struct model_shape m;
    uint64_t warnings;
    double all_owned;
    double len =
        (double)sc->serve.input_tokens + (double)sc->serve.output_tokens;

    memset(out, 0, sizeof(*out));
    out->workload = WORKLOAD_SERVE;
    out->layout = sc->layout;
    /* model.mtp_layers are modules trained beside the model: serving
     * runs the model alone */
    serve_model = sc->model;
    serve_model.mtp_layers = 0;
    model_shape_derive(&serve_model, len, &m);
    out->model.params = m.params;
    out->model.active_params = m.active_params;
    out->model.flops_per_token = m.flops_per_token;
    out->model.attn_flops_per_token = m.attn_flops_per_token;
    out->model.layers = m.L;
    out->model.vocab = m.V;
    out->model.hidden = m.h;
    out->model.heads = m.a;
    out->model.ffn = m.f;
    serve_estimate(sc, &m, out);
    snprintf(out->bottleneck, sizeof(out->bottleneck), "%s",
             (serve_pool_applies(sc) ? out->serve.prefill_bound
                                     : out->serve.prefill_time_frac > 0.5)
                 ? "prefill"
                 : "decode");
    if (!(flags & EVAL_QUIET) && !out->serve.fits)
        result_warn(out, "does not fit: %s", out->serve.reason);
    if (flags & (EVAL_MEMORY_ONLY | EVAL_TIME_ONLY))
        return;
    warnings = out->nwarnings;
    /* The whole fleet owned first (its cost a year is the all-owned day),
     * then, for a hybrid, the owned base the result describes. */
    all_owned = serve_fleet_cost(sc, false, out);
    if (sc->serve.owned_gpus > 0)
        serve_fleet_cost(sc, true, out);
    serve_money(sc, all_owned, out);
    if (flags & EVAL_QUIET)
        out->nwarnings = warnings;
}

void scenario_eval_flags(const struct scenario *sc, unsigned flags,
                         struct result *out)
{
    scenario_eval_shape(sc, NULL, flags, out);
}

/* What a quick evaluation (EVAL_MEMORY_ONLY, EVAL_TIME_ONLY) writes: the
 * search calls it for every layout, where clearing the whole result (9 kB,
 * most of it cost and serving tables it never fills) cost more than the
 * step-time model itself. */
static void result_clear_quick(struct result *out)
{
    out->workload = WORKLOAD_TRAIN;
    memset(&out->model, 0, sizeof(out->model));
    memset(&out->memory, 0, sizeof(out->memory));
    memset(&out->time, 0, sizeof(out->time));
    memset(out->bottleneck, 0, sizeof(out->bottleneck));
    out->nwarnings = 0;
}

void scenario_eval_shape(const struct scenario *sc,
                         const struct model_shape *shape, unsigned flags,
                         struct result *out)
{
    struct model_shape m;
    uint64_t warnings;

    if (sc->workload == WORKLOAD_SERVE) {
        serve_eval(sc, flags, out);
        return;
    }
    if (flags & (EVAL_MEMORY_ONLY | EVAL_TIME_ONLY))
        result_clear_quick(out);
    else
        memset(out, 0, sizeof(*out));
    out->layout = sc->layout;
    if (shape)
        m = *shape;
    else
        model_shape_derive(&sc->model, (double)sc->train.seq_len, &m);
    out->model.params = m.params;
    out->model.active_params = m.active_params;
    out->model.flops_per_token = m.flops_per_token;
    out->model.attn_flops_per_token = m.attn_flops_per_token;
    out->model.layers = m.L;
    out->model.vocab = m.V;
    out->model.hidden = m.h;
    out->model.heads = m.a;
    out->model.ffn = m.f;

    memory_estimate(sc, &m, &out->memory);
    if (!(flags & EVAL_QUIET) && !out->memory.fits)
        result_warn(out,
                    "does not fit: %.1f GiB needed per accelerator, %.1f GiB "
                    "available",
                    out->memory.total_bytes / 1073741824.0,
                    out->memory.capacity_bytes / 1073741824.0);
    if (flags & EVAL_MEMORY_ONLY)
        return;

    steptime_estimate(sc, &m, flags, out);
    if (flags & EVAL_TIME_ONLY)
        return;
    warnings = out->nwarnings;
    load_fleet(sc, (double)sc->gpus, &out->load);
    netbom_estimate(sc, out);
    storage_estimate(sc, out);
    reliability_estimate(sc, out);
    load_train(sc, out);
    energy_estimate(sc, out);
    cost_estimate(sc, out);
    if (flags & EVAL_QUIET)
        out->nwarnings = warnings; /* the search needs no texts */
}

void scenario_eval(const struct scenario *sc, struct result *out)
{
    scenario_eval_flags(sc, EVAL_DEFAULT, out);
}
