/* check_model.c - parameter counts and model FLOPs (core/model.c). */
#include <check.h>

#include "check_helpers.h"
#include "core/model.h"

struct param_case {
    const char *name;
    struct model_spec m;
    double want_params;
    double want_active; /* 0: same as params */
    double tol;
    const char *source;
};

/* clang-format off */
static const struct param_case param_cases[] = {
    {"llama2-7b", {.layers = 32, .hidden = 4096, .heads = 32, .kv_heads = 32,
      .ffn = 11008, .vocab = 32000, .gated_ffn = true}, 6738415616.0, 0, 1e-9,
     "Llama 2 7B checkpoint: 6,738,415,616 parameters"},
    {"llama3-8b", {.layers = 32, .hidden = 4096, .heads = 32, .kv_heads = 8,
      .ffn = 14336, .vocab = 128256, .gated_ffn = true}, 8030261248.0, 0, 1e-9,
     "Llama 3 8B checkpoint: 8,030,261,248 parameters (GQA)"},
    {"llama3-70b", {.layers = 80, .hidden = 8192, .heads = 64, .kv_heads = 8,
      .ffn = 28672, .vocab = 128256, .gated_ffn = true}, 70553706496.0, 0,
     1e-9, "Llama 3 70B checkpoint: 70,553,706,496 parameters"},
    {"mixtral-8x7b", {.layers = 32, .hidden = 4096, .heads = 32, .kv_heads = 8,
      .ffn = 14336, .vocab = 32000, .gated_ffn = true, .experts = 8,
      .experts_active = 2, .expert_ffn = 14336, .moe_every = 1},
     46702792704.0, 12879925248.0, 1e-9,
     "Mixtral 8x7B: 46.7B total, 12.9B active (Jiang et al. 2024)"},
    {"gpt3-175b", {.layers = 96, .hidden = 12288, .heads = 96, .kv_heads = 96,
      .ffn = 49152, .vocab = 50257, .tied_embeddings = true}, 175e9, 0, 0.005,
     "GPT-3 175B (Brown et al. 2020, Table 2.1)"},
    /* first_k_dense_replace 3: 3 dense layers of FFN 18432, 58 MoE */
    {"deepseek-v3", {.layers = 61, .hidden = 7168, .heads = 128,
      .kv_heads = 128, .ffn = 18432, .vocab = 129280, .gated_ffn = true,
      .experts = 256, .experts_active = 8, .shared_experts = 1,
      .expert_ffn = 2048, .moe_every = 1, .first_dense_layers = 3,
      .head_dim = 128, .attention = MATTN_MLA, .kv_lora_rank = 512,
      .q_lora_rank = 1536, .rope_head_dim = 64}, 671e9, 37e9, 0.02,
     "DeepSeek-V3: 671B total, 37B active, without the 14B MTP module "
     "(DeepSeek-AI 2024, arXiv 2412.19437, section 1)"},
    {"deepseek-v2", {.layers = 60, .hidden = 5120, .heads = 128,
      .kv_heads = 128, .ffn = 12288, .vocab = 102400, .gated_ffn = true,
      .experts = 160, .experts_active = 6, .shared_experts = 2,
      .expert_ffn = 1536, .moe_every = 1, .first_dense_layers = 1,
      .head_dim = 128, .attention = MATTN_MLA, .kv_lora_rank = 512,
      .q_lora_rank = 1536, .rope_head_dim = 64}, 236e9, 21e9, 0.02,
     "DeepSeek-V2: 236B total, 21B active (Liu et al. 2024, arXiv "
     "2405.04434, abstract)"},
};
/* clang-format on */

START_TEST(test_params)
{
    const struct param_case *c = &param_cases[_i];
    struct model_shape s;

    model_shape_derive(&c->m, 2048, &s);
    ck_assert_rel(s.params, c->want_params, c->tol);
    ck_assert_rel(s.active_params,
                  c->want_active ? c->want_active : c->want_params,
                  c->tol + 1e-9);
}
END_TEST

/* Megatron's per-iteration count, Narayanan et al. 2021 eq. 3:
 * 72 B s L h^2 (1 + s/6h + V/12hL) equals ours for GPT shapes. */
/* The first n layers dense: each takes one MoE layer's experts away and
 * gives one dense FFN back; n = 0 is every layer MoE. */
START_TEST(test_first_dense_layers)
{
    struct model_spec m = param_cases[5].m;
    struct model_shape s0, s3;

    ck_assert_str_eq(param_cases[5].name, "deepseek-v3");
    m.first_dense_layers = 0;
    model_shape_derive(&m, 4096, &s0);
    model_shape_derive(&param_cases[5].m, 4096, &s3);
    ck_assert_double_eq(s0.moe_layers, 61);
    ck_assert_double_eq(s3.moe_layers, 58);
    ck_assert_double_eq(s3.dense_layers, 3);
    ck_assert_double_eq_tol(s0.params - s3.params,
                            3 * (s0.moe_layer_params - s3.dense_layer_params),
                            1);
    ck_assert(s3.active_params < s3.params);
    ck_assert(s3.flops_per_token > 0);
}
END_TEST

/* Multi-token prediction (DeepSeek-V3 report section 2.2): each module is
 * a projection (2h -> h), two norms and one transformer block, sharing the
 * embedding and the output head with the model. */
struct mtp_case {
    const char *name;
    unsigned model; /* index in param_cases */
    uint64_t mtp;
    double want_params; /* the MTP modules as a checkpoint stores them */
    double tol;
    const char *source;
};

/* clang-format off */
static const struct mtp_case mtp_cases[] = {
    /* the Hugging Face checkpoint keeps its own copy of the embedding and
     * the head in the MTP module: 2 V h more than the trained parameters */
    {"deepseek-v3", 5, 1, 14e9, 0.05,
     "DeepSeek-V3 README: 685B on Hugging Face = 671B main model + 14B MTP "
     "module"},
};
/* clang-format on */

START_TEST(test_mtp_params)
{
    const struct mtp_case *c = &mtp_cases[_i];
    struct model_spec m = param_cases[c->model].m;
    struct model_shape s;

    ck_assert_str_eq(param_cases[c->model].name, c->name);
    m.mtp_layers = c->mtp;
    model_shape_derive(&m, 4096, &s);
    ck_assert_rel(s.mtp_params + 2 * s.V * s.h, c->want_params, c->tol);
}
END_TEST

/* Invariants: MTP leaves the reported counts alone and adds per token the
 * module's active matmuls (its layer with k + shared experts, the 2h x h
 * projection, the V x h head) and one more layer's attention. */
START_TEST(test_mtp_flops)
{
    struct model_spec m = param_cases[5].m;
    struct model_shape s0, s1, s2;
    double layer, attn;

    model_shape_derive(&m, 4096, &s0);
    m.mtp_layers = 1;
    model_shape_derive(&m, 4096, &s1);
    m.mtp_layers = 2;
    model_shape_derive(&m, 4096, &s2);
    ck_assert_double_eq(s0.mtp_params, 0);
    ck_assert_double_eq(s1.params, s0.params);
    ck_assert_double_eq(s1.active_params, s0.active_params);
    layer = s1.attn_params + s1.router_params +
            (s1.top_k + s1.shared) * s1.expert_params;
    attn = 6 * s1.a * (s1.d_qk + s1.d_v) * 4096;
    ck_assert_rel(s1.flops_per_token - s0.flops_per_token,
                  6 * (layer + 2 * s1.h * s1.h + s1.V * s1.h) + attn, 1e-12);
    ck_assert_rel(s2.flops_per_token - s1.flops_per_token,
                  s1.flops_per_token - s0.flops_per_token, 1e-12);
    ck_assert_rel(s2.mtp_params, 2 * s1.mtp_params, 1e-12);
}
END_TEST

START_TEST(test_megatron_flops)
{
    static const double shapes[][4] = {
        {48, 6144, 64, 51200},    /* 22B */
        {96, 12288, 96, 51200},   /* 175B */
        {105, 20480, 128, 51200}, /* 530B */
        {128, 25600, 160, 51200}, /* 1T */
    };
    const double *sh = shapes[_i];
    struct model_spec m = {0};
    struct model_shape s;
    double L = sh[0], h = sh[1], V = sh[3], seq = 2048, want;

    m.layers = (uint64_t)L;
    m.hidden = (uint64_t)h;
    m.heads = m.kv_heads = (uint64_t)sh[2];
    m.ffn = (uint64_t)(4 * h);
    m.vocab = (uint64_t)V;
    m.tied_embeddings = true;
    model_shape_derive(&m, seq, &s);
    want = 72 * seq * L * h * h * (1 + seq / (6 * h) + V / (12 * h * L));
    ck_assert_rel(s.flops_per_token * seq, want, 1e-12);
}
END_TEST

/* With only model.params and layers, the shape is derived and the given
 * parameter count is the one reported. */
START_TEST(test_params_only)
{
    struct model_spec m = {0};
    struct model_shape s;

    m.params = 7500000000ULL;
    m.layers = 48;
    model_shape_derive(&m, 1024, &s);
    ck_assert_double_eq(s.params, 7.5e9);
    ck_assert(s.h >= 3000 && s.h <= 4000);
    ck_assert_double_eq(fmod(s.h, s.a), 0);
    ck_assert_rel(s.param_scale, 1, 0.05);
    ck_assert_finite(s.flops_per_token);
}
END_TEST

START_TEST(test_absurd_finite)
{
    struct model_spec m = {0};
    struct model_shape s;

    m.params = 1000000000000000ULL; /* 10^15 */
    model_shape_derive(&m, 1e7, &s);
    ck_assert_finite(s.h);
    ck_assert_finite(s.flops_per_token);
    ck_assert(s.L >= 1 && s.h > 0);
}
END_TEST

/* train.global_batch = auto: the high end of the tokens-per-step band of
 * published runs of each size, in sequences. */
static const struct {
    double params;
    uint64_t seq_len;
    uint64_t batch; /* sequences */
    const char *source;
} batch_cases[] = {
    {125e6, 2048, 512, "GPT-3 Small: 0.5M tokens (Table 2.1), high end 1M"},
    {7e9, 4096, 1024, "Llama 2 7B: 4M tokens of 4096 (section 2.2)"},
    {70e9, 4096, 2048, "Chinchilla 70B 3M, Llama 2 70B 4M: high end 8M"},
    {405e9, 8192, 2048, "Llama 3 405B: 16M tokens of 8192 (3.4.1)"},
    {671e9, 4096, 16384, "DeepSeek-V3: 15,360 x 4096 (4.2), as 2^14"},
    {405e9, 3000, 4096, "16M / 3000 = 5592, down to a power of two"},
    {405e9, 1u << 25, 1, "a sequence longer than the band: one"},
};

START_TEST(test_auto_batch)
{
    double lo, hi;
    uint64_t b = model_auto_global_batch(batch_cases[_i].params,
                                         batch_cases[_i].seq_len, &lo, &hi);

    ck_assert_msg(b == batch_cases[_i].batch, "%s: %llu",
                  batch_cases[_i].source, (unsigned long long)b);
    /* invariants: the band is ordered, the batch inside it (but for one
     * sequence longer than the band), and it never shrinks with size */
    ck_assert(lo > 0 && lo < hi);
    if (batch_cases[_i].seq_len <= hi) {
        ck_assert((double)b * (double)batch_cases[_i].seq_len >= lo);
        ck_assert((double)b * (double)batch_cases[_i].seq_len <= hi);
    }
    ck_assert_uint_le(b, model_auto_global_batch(batch_cases[_i].params * 3,
                                                 batch_cases[_i].seq_len, NULL,
                                                 NULL));
}
END_TEST

Suite *suite_model(void)
{
    Suite *s = suite_create("model");
    TCase *tc = tcase_create("core");

    tcase_add_loop_test(tc, test_params, 0,
                        sizeof(param_cases) / sizeof(param_cases[0]));
    tcase_add_loop_test(tc, test_megatron_flops, 0, 4);
    tcase_add_test(tc, test_params_only);
    tcase_add_loop_test(tc, test_auto_batch, 0,
                        sizeof(batch_cases) / sizeof(batch_cases[0]));
    tcase_add_test(tc, test_first_dense_layers);
    tcase_add_loop_test(tc, test_mtp_params, 0,
                        sizeof(mtp_cases) / sizeof(mtp_cases[0]));
    tcase_add_test(tc, test_mtp_flops);
    suite_add_tcase(s, tc);
    tc = tcase_create("limits");
    tcase_add_test(tc, test_absurd_finite);
    suite_add_tcase(s, tc);
    return s;
}
