/* model.c - model shape, parameter counts and model FLOPs; see model.h. */
#include <math.h>

#include "core/model.h"

/* Defaults for shape keys a plan leaves out (documented in model.h). */
#define DEFAULT_VOCAB 51200.0
#define DEFAULT_HEAD_DIM 128.0

static double or_default(uint64_t v, double dflt)
{
    return v ? (double)v : dflt;
}

/* Hidden size for a model given only its parameter count and depth: the
 * positive root of 12 L h^2 + V h - params = 0 (GPT layers hold 12 h^2
 * parameters: 4 h^2 attention + 8 h^2 FFN at f = 4h; Narayanan et al. 2021
 * eq. 2), rounded to a multiple of the head dimension. */
static double solve_hidden(double params, double L, double V)
{
    double a = 12 * L, disc = V * V + 4 * a * params;
    double h = (-V + sqrt(disc)) / (2 * a);

    h = floor(h / DEFAULT_HEAD_DIM + 0.5) * DEFAULT_HEAD_DIM;
    return h < DEFAULT_HEAD_DIM ? DEFAULT_HEAD_DIM : h;
}

/* Heads for a derived width: a multiple of 8 (so TP of 2, 4 and 8 divide
 * them, as in every published model) that divides h with a head dimension
 * of 64..256, nearest to h/128; else h/128. */
static double derive_heads(double h)
{
    double target = h / DEFAULT_HEAD_DIM, base = floor(target / 8 + 0.5) * 8;
    double k;
    int i;

    for (i = 0; i < 64; i++) {
        k = base + (i % 2 ? 8.0 : -8.0) * (double)((i + 1) / 2);
        if (k >= 8 && fmod(h, k) == 0 && h / k >= 64 && h / k <= 256)
            return k;
    }
    return fmax(1, floor(target));
}

/* One MTP module's layer: like the model's last layer, an MoE layer in an
 * MoE model (DeepSeek-V3's MTP block is MoE, its first_k_dense_replace
 * layers are at the start). */
static double mtp_layer_params(const struct model_shape *s)
{
    return s->experts > 0 ? s->moe_layer_params : s->dense_layer_params;
}

void model_shape_derive(const struct model_spec *m, double seq_len,
                        struct model_shape *out)
{
    struct model_shape s = {0};
    double derived, matmul_active;

    s.V = or_default(m->vocab, DEFAULT_VOCAB);
    s.L = or_default(m->layers, 0);
    if (s.L == 0) {
        /* Depth from the parameter count with the aspect ratio of
         * GPT-3-like models (h / L ~ 128, Kaplan et al. 2020 fig. 5):
         * 12 L h^2 with h = 128 L gives L = cbrt(params / (12 * 128^2)). */
        s.L = floor(cbrt((double)m->params / (12 * 128.0 * 128.0)) + 0.5);
        if (s.L >= 8) /* a multiple of 8, for pipeline stages */
            s.L = floor(s.L / 8 + 0.5) * 8;
        if (s.L < 1)
            s.L = 1;
    }
    if (m->hidden)
        s.h = (double)m->hidden;
    else if (m->params)
        s.h = solve_hidden((double)m->params, s.L, s.V);
    else
        s.h = DEFAULT_HEAD_DIM;
    s.a = m->heads ? (double)m->heads : derive_heads(s.h);
    s.a_kv = or_default(m->kv_heads, s.a);
    s.d = m->head_dim ? (double)m->head_dim : s.h / s.a;
    s.mla = m->attention == MATTN_MLA;
    s.rope = s.mla ? (double)m->rope_head_dim : 0;
    /* Every published MLA model that compresses its queries does so at
     * three times the KV latent (DeepSeek-V2 and V3: 1536 / 512; Kimi K2
     * the same): the default when q_lora_rank is not given. */
    s.q_lora =
        s.mla ? or_default(m->q_lora_rank, 3 * (double)m->kv_lora_rank) : 0;
    s.kv_lora = s.mla ? (double)m->kv_lora_rank : 0;
    s.d_qk = s.d + s.rope;
    s.d_v = s.d;
    s.f = or_default(m->ffn, 4 * s.h);
    s.gated = m->gated_ffn;
    s.tied = m->tied_embeddings;

    s.experts = m->experts > 1 ? (double)m->experts : 0;
    if (s.experts > 0) {
        double every = or_default(m->moe_every, 1);

        s.top_k = or_default(m->experts_active, 1);
        s.shared = (double)m->shared_experts;
        s.f_expert = or_default(m->expert_ffn, s.f);
        double first = fmin((double)m->first_dense_layers, s.L - 1);

        s.moe_layers = floor((s.L - first) / every);
        if (s.moe_layers < 1)
            s.moe_layers = 1;
    }
    s.dense_layers = s.L - s.moe_layers;

    /* Per-layer parameters (models.md section 1). */
    if (s.mla)
        s.attn_params =
            (s.q_lora > 0 ? s.h * s.q_lora + s.q_lora + s.q_lora * s.a * s.d_qk
                          : s.h * s.a * s.d_qk) +
            s.h * (s.kv_lora + s.rope) + s.kv_lora +
            s.kv_lora * s.a * (s.d + s.d_v) + s.a * s.d_v * s.h;
    else
        s.attn_params =
            s.h * s.a * s.d + 2 * s.h * s.a_kv * s.d + s.a * s.d * s.h;
    s.norm_params = 2 * s.h;
    s.ffn_params = (s.gated ? 3 : 2) * s.h * s.f;
    s.expert_params = (s.gated ? 3 : 2) * s.h * s.f_expert;
    s.router_params = s.experts > 0 ? s.h * s.experts : 0;
    s.embed_params = s.V * s.h;
    s.output_params = s.tied ? 0 : s.V * s.h;
    s.dense_layer_params = s.attn_params + s.norm_params + s.ffn_params;
    s.moe_layer_params = s.attn_params + s.norm_params + s.router_params +
                         (s.experts + s.shared) * s.expert_params;

    derived = s.dense_layers * s.dense_layer_params +
              s.moe_layers * s.moe_layer_params + s.embed_params +
              s.output_params + s.h; /* + final norm */
    s.params = m->params ? (double)m->params : derived;
    s.param_scale = m->params ? s.params / derived : 1;
    s.mtp = (double)m->mtp_layers;
    s.mtp_params = s.mtp * (mtp_layer_params(&s) + 2 * s.h * s.h + 2 * s.h) *
                   s.param_scale;

    /* Weights used in a matmul for one token: every layer's attention and
     * FFN (top-k + shared experts and the router in MoE layers) and the
     * output projection (which is the embedding matrix when tied); the
     * input embedding is a lookup, not a matmul. */
    matmul_active = s.L * s.attn_params + s.dense_layers * s.ffn_params +
                    s.moe_layers * (s.router_params +
                                    (s.top_k + s.shared) * s.expert_params) +
                    s.V * s.h;
    s.active_params = (matmul_active + s.L * s.norm_params + s.h +
                       (s.tied ? 0 : s.embed_params)) *
                      s.param_scale;
    /* Each MTP module runs its layer (the experts it routes to), its
     * projection and the shared output head once more per token
     * (DeepSeek-V3 report section 2.2, eq. 21-23). */
    matmul_active +=
        s.mtp * (s.attn_params +
                 (s.experts > 0
                      ? s.router_params + (s.top_k + s.shared) * s.expert_params
                      : s.ffn_params) +
                 2 * s.h * s.h + s.V * s.h);
    /* PaLM appendix B: 6N per token for the weight matmuls (forward 2N,
     * backward 4N) plus 12 L a d s for attention scores and values. */
    s.attn_flops_per_token =
        6 * (s.L + s.mtp) * s.a * (s.d_qk + s.d_v) * seq_len;
    s.flops_per_token =
        6 * matmul_active * s.param_scale + s.attn_flops_per_token;
    *out = s;
}

uint64_t model_auto_global_batch(double params, uint64_t seq_len, double *lo,
                                 double *hi)
{
    static const struct {
        double below;  /* total parameters */
        double lo, hi; /* tokens per step, in 2^20 */
    } band[] = {
        {2e9, 0.5, 1},  {20e9, 1, 4},       {200e9, 2, 8},
        {500e9, 4, 16}, {INFINITY, 16, 64},
    };
    unsigned i = 0;
    double tokens, b;

    while (i + 1 < sizeof(band) / sizeof(band[0]) && !(params < band[i].below))
        i++;
    if (lo)
        *lo = band[i].lo * 1048576;
    if (hi)
        *hi = band[i].hi * 1048576;
    /* a power of two divides into the most layouts, and rounding one down
     * stays inside the band (its ends are at least 2x apart) */
    tokens = band[i].hi * 1048576;
    b = seq_len ? tokens / (double)seq_len : 1;
    return b >= 2 ? (uint64_t)exp2(floor(log2(b))) : 1;
}
