/*
 * check_hfconfig.c - models read from Hugging Face config.json files
 * (plan/hfconfig.c): each family's published parameter count from the
 * configs in tests/data/hfconfig (copied from the model repositories, see
 * the README there), the fields refused by name, malformed JSON, and the
 * plan keys set from the model (plan_set_model).
 */
#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check_helpers.h"
#include "core/model.h"
#include "plan/hfconfig.h"
#include "plan/plan.h"

Suite *suite_hfconfig(void);

#define DIR "tests/data/hfconfig/"

struct hf_case {
    const char *file;
    double want_params;
    double want_active; /* 0: not checked */
    double tol;         /* relative */
    const char *source;
};

/* clang-format off */
static const struct hf_case hf_cases[] = {
    {"llama-3.1-8b.json", 8.03e9, 8.03e9, 0.002,
     "meta-llama/Llama-3.1-8B model card: 8.03B (safetensors 8,030,261,248)"},
    {"mistral-7b-v0.3.json", 7.25e9, 7.25e9, 0.002,
     "mistralai/Mistral-7B-v0.3: safetensors 7,248,023,552 parameters"},
    {"mixtral-8x7b.json", 46.7e9, 12.9e9, 0.005,
     "Mixtral of Experts (Jiang et al. 2024, arXiv 2401.04088): 47B "
     "total, 13B active; mistral.ai: 46.7B total, 12.9B per token"},
    {"qwen2-7b.json", 7.62e9, 7.62e9, 0.002,
     "Qwen/Qwen2-7B: safetensors 7.62B (7,615,616,512 with QKV biases)"},
    {"qwen3-8b.json", 8.2e9, 8.2e9, 0.005,
     "Qwen/Qwen3-8B model card: Number of Parameters 8.2B"},
    {"qwen3-30b-a3b.json", 30.5e9, 3.3e9, 0.02,
     "Qwen/Qwen3-30B-A3B model card: 30.5B total, 3.3B activated"},
    {"qwen1.5-moe-a2.7b.json", 14.3e9, 2.7e9, 0.02,
     "Qwen/Qwen1.5-MoE-A2.7B model card: 14.3B total, 2.7B activated"},
    {"deepseek-v2.json", 236e9, 21e9, 0.02,
     "DeepSeek-V2 (arXiv 2405.04434) abstract: 236B total, 21B activated"},
    {"deepseek-v3.json", 671e9, 37e9, 0.02,
     "DeepSeek-V3 (arXiv 2412.19437): 671B total, 37B activated (the 14B "
     "multi-token-prediction module not counted)"},
    {"gpt-oss-20b-full-attention.json", 20.91e9, 0, 0.005,
     "gpt-oss model card (OpenAI 2025) table 1: gpt-oss-20b 20.91B total"},
    {"gemma-7b.json", 8.54e9, 8.54e9, 0.002,
     "Gemma (arXiv 2403.08295) table 2: 7B = 786,825,216 embedding + "
     "7,751,248,896 non-embedding parameters"},
};
/* clang-format on */

START_TEST(test_published_counts)
{
    const struct hf_case *c = &hf_cases[_i];
    char path[256];
    struct model_spec m;
    struct model_shape s;
    struct diag d;

    snprintf(path, sizeof(path), DIR "%s", c->file);
    ck_assert_msg(hfconfig_read(path, &m, &d) == CP_OK, "%s: %s: %s", c->file,
                  d.where, d.msg);
    ck_assert_uint_eq(m.params, 0); /* derived from the shape */
    model_shape_derive(&m, 4096, &s);
    ck_assert_msg(fabs(s.params / c->want_params - 1) <= c->tol,
                  "%s: %.6g parameters, want %.6g (%s)", c->file, s.params,
                  c->want_params, c->source);
    if (c->want_active > 0)
        ck_assert_msg(fabs(s.active_params / c->want_active - 1) <= c->tol,
                      "%s: %.6g active, want %.6g (%s)", c->file,
                      s.active_params, c->want_active, c->source);
    /* invariants: a token uses no more than the model has, and a model
     * without experts uses all of it */
    ck_assert(s.active_params <= s.params);
    ck_assert(s.flops_per_token >= 2 * s.active_params);
    if (m.experts <= 1)
        ck_assert_double_eq(s.active_params, s.params);
}
END_TEST

/* gpt-oss counts active parameters without the embedding lookup (model
 * card table 1: 3.61B of 20b). */
START_TEST(test_gpt_oss_active)
{
    struct model_spec m;
    struct model_shape s;
    struct diag d;

    ck_assert_int_eq(
        hfconfig_read(DIR "gpt-oss-20b-full-attention.json", &m, &d), CP_OK);
    ck_assert_uint_eq(m.experts, 32);
    ck_assert_uint_eq(m.experts_active, 4);
    ck_assert_uint_eq(m.head_dim, 64);
    model_shape_derive(&m, 4096, &s);
    ck_assert_rel(s.active_params - s.embed_params, 3.61e9, 0.01);
    /* its experts carry biases (transformers GptOssExperts
     * gate_up_proj_bias, down_proj_bias) and clamp at swiglu_limit 7 */
    ck_assert(m.expert_bias);
    ck_assert(m.act_clamp);
    /* Mixtral, read the same way, has neither */
    ck_assert_int_eq(hfconfig_read(DIR "mixtral-8x7b.json", &m, &d), CP_OK);
    ck_assert(!m.expert_bias);
    ck_assert(!m.act_clamp);
}
END_TEST

/* Fields each family maps, as the configuration classes define them. */
START_TEST(test_fields)
{
    struct model_spec m;
    struct diag d;

    ck_assert_int_eq(hfconfig_read(DIR "deepseek-v3.json", &m, &d), CP_OK);
    ck_assert_int_eq(m.attention, MATTN_MLA);
    ck_assert_uint_eq(m.kv_lora_rank, 512);
    ck_assert_uint_eq(m.q_lora_rank, 1536);
    ck_assert_uint_eq(m.rope_head_dim, 64);
    ck_assert_uint_eq(m.head_dim, 128);
    ck_assert_uint_eq(m.first_dense_layers, 3);
    ck_assert_uint_eq(m.shared_experts, 1);
    ck_assert_uint_eq(m.expert_ffn, 2048);
    ck_assert(!m.tied_embeddings);

    ck_assert_int_eq(hfconfig_read(DIR "qwen1.5-moe-a2.7b.json", &m, &d),
                     CP_OK);
    ck_assert_uint_eq(m.experts, 60);
    ck_assert_uint_eq(m.shared_experts, 4); /* 5632 = 4 x 1408 */
    ck_assert_uint_eq(m.expert_ffn, 1408);

    ck_assert_int_eq(hfconfig_read(DIR "gemma-7b.json", &m, &d), CP_OK);
    ck_assert(m.tied_embeddings); /* GemmaConfig's default */
    ck_assert_uint_eq(m.head_dim, 256);
    ck_assert_int_eq(m.attention, MATTN_MHA);

    ck_assert_int_eq(hfconfig_read(DIR "qwen3-8b.json", &m, &d), CP_OK);
    ck_assert_int_eq(m.attention, MATTN_GQA);
    ck_assert_uint_eq(m.kv_heads, 8);
    ck_assert_uint_eq(m.head_dim, 128);
}
END_TEST

/* What the model cannot represent is refused with the field's name. */
static const struct {
    const char *file;
    const char *field;
} refused_files[] = {
    {"gemma-2-9b.json", "sliding_window"},
    {"gemma-3-12b.json", "sliding_window"},
    {"gpt-oss-20b.json", "sliding_window"},
    {"mistral-7b-v0.1.json", "sliding_window"},
    {"nemotron-h-8b.json", "hybrid_override_pattern"},
};

START_TEST(test_refused_files)
{
    char path[256];
    struct model_spec m;
    struct diag d;

    snprintf(path, sizeof(path), DIR "%s", refused_files[_i].file);
    memset(&m, 0xff, sizeof(m));
    ck_assert_int_eq(hfconfig_read(path, &m, &d), CP_ERR_USAGE);
    ck_assert_str_eq(d.where, refused_files[_i].field);
    ck_assert_uint_eq(m.layers, 0); /* nothing half-read */
}
END_TEST

#define LLAMA_BODY                                                             \
    "\"hidden_size\": 4096, \"intermediate_size\": 14336, "                    \
    "\"num_attention_heads\": 32, \"num_hidden_layers\": 32, "                 \
    "\"num_key_value_heads\": 8, \"vocab_size\": 128256"

static const struct {
    const char *json;
    enum cp_status st;
    const char *where; /* the field named */
} bad_json[] = {
    {"{\"model_type\": \"llama\", " LLAMA_BODY ",}", CP_ERR_PARSE, "cfg"},
    {"[1, 2]", CP_ERR_PARSE, "cfg"},
    {"{\"model_type\": \"llama\", " LLAMA_BODY ", \"hidden_size\": 8}",
     CP_ERR_PARSE, "cfg"}, /* a duplicate key */
    {"{" LLAMA_BODY "}", CP_ERR_USAGE, "model_type"},
    {"{\"model_type\": \"falcon\", " LLAMA_BODY "}", CP_ERR_USAGE,
     "model_type"},
    {"{\"model_type\": \"llama\", \"hidden_size\": 4096}", CP_ERR_USAGE,
     "num_hidden_layers"},
    {"{\"model_type\": \"llama\", \"hidden_size\": \"4096\", "
     "\"num_hidden_layers\": 32}",
     CP_ERR_USAGE, "hidden_size"},
    {"{\"model_type\": \"llama\", \"hidden_size\": -1, "
     "\"num_hidden_layers\": 32}",
     CP_ERR_USAGE, "hidden_size"},
    {"{\"model_type\": \"llama\", \"hidden_size\": 4096.5, "
     "\"num_hidden_layers\": 32}",
     CP_ERR_USAGE, "hidden_size"},
    {"{\"model_type\": \"llama\", " LLAMA_BODY
     ", \"tie_word_embeddings\": \"no\"}",
     CP_ERR_USAGE, "tie_word_embeddings"},
    {"{\"model_type\": \"qwen2\", " LLAMA_BODY
     ", \"sliding_window\": 4096, \"use_sliding_window\": true}",
     CP_ERR_USAGE, "sliding_window"},
    {"{\"model_type\": \"qwen2_moe\", " LLAMA_BODY
     ", \"num_experts\": 8, \"num_experts_per_tok\": 2, "
     "\"moe_intermediate_size\": 1024, \"mlp_only_layers\": [0, 3]}",
     CP_ERR_USAGE, "mlp_only_layers"},
    {"{\"model_type\": \"qwen2_moe\", " LLAMA_BODY
     ", \"num_experts\": 8, \"num_experts_per_tok\": 2, "
     "\"moe_intermediate_size\": 1024, "
     "\"shared_expert_intermediate_size\": 1500}",
     CP_ERR_USAGE, "shared_expert_intermediate_size"},
    {"{\"model_type\": \"mixtral\", " LLAMA_BODY
     ", \"num_local_experts\": 8, \"num_experts_per_tok\": 9}",
     CP_ERR_USAGE, "num_experts_per_tok"},
    {"{\"model_type\": \"deepseek_v3\", " LLAMA_BODY
     ", \"kv_lora_rank\": 512, \"q_lora_rank\": null}",
     CP_ERR_USAGE, "q_lora_rank"},
    {"{\"model_type\": \"deepseek_v3\", " LLAMA_BODY
     ", \"kv_lora_rank\": 512, \"q_lora_rank\": 1536, "
     "\"qk_rope_head_dim\": 64, \"qk_nope_head_dim\": 128, "
     "\"v_head_dim\": 192}",
     CP_ERR_USAGE, "v_head_dim"},
    {"{\"model_type\": \"llama\", " LLAMA_BODY
     ", \"layers_block_type\": [\"mamba\"]}",
     CP_ERR_USAGE, "layers_block_type"},
    {"{\"model_type\": \"llama\", " LLAMA_BODY ", \"mamba_d_state\": 16}",
     CP_ERR_USAGE, "mamba_d_state"},
    {"{\"model_type\": \"llama\", " LLAMA_BODY
     ", \"layer_types\": [\"full_attention\", \"linear_attention\"]}",
     CP_ERR_USAGE, "layer_types"},
    {"{\"model_type\": \"llama\", " LLAMA_BODY ", \"num_key_value_heads\": 64}",
     CP_ERR_PARSE, "cfg"}, /* a duplicate key again */
};

START_TEST(test_bad_json)
{
    struct model_spec m;
    struct diag d;
    const char *j = bad_json[_i].json;

    ck_assert_int_eq(hfconfig_parse("cfg", j, strlen(j), &m, &d),
                     bad_json[_i].st);
    ck_assert_msg(strcmp(d.where, bad_json[_i].where) == 0,
                  "case %d: where '%s', want '%s' (%s)", _i, d.where,
                  bad_json[_i].where, d.msg);
    ck_assert_uint_eq(m.layers, 0);
}
END_TEST

/* A Llama config with the defaults its class gives: no kv heads = MHA. */
START_TEST(test_defaults)
{
    static const char j[] =
        "{\"model_type\": \"llama\", \"hidden_size\": 4096, "
        "\"intermediate_size\": 11008, \"num_attention_heads\": 32, "
        "\"num_hidden_layers\": 32, \"vocab_size\": 32000, "
        "\"rope_scaling\": null, \"sliding_window\": null}";
    struct model_spec m;
    struct model_shape s;
    struct diag d;

    ck_assert_int_eq(hfconfig_parse("cfg", j, strlen(j), &m, &d), CP_OK);
    ck_assert_uint_eq(m.kv_heads, 32);
    ck_assert_int_eq(m.attention, MATTN_MHA);
    model_shape_derive(&m, 4096, &s);
    /* Llama 2 7B checkpoint: 6,738,415,616 parameters */
    ck_assert_double_eq(s.params, 6738415616.0);
}
END_TEST

START_TEST(test_missing_file)
{
    struct model_spec m;
    struct diag d;

    ck_assert_int_eq(hfconfig_read(DIR "no-such.json", &m, &d),
                     CP_ERR_NOT_FOUND);
    ck_assert_str_eq(d.where, DIR "no-such.json");
    ck_assert_int_eq(hfconfig_read(DIR, &m, &d), CP_ERR_USAGE);
}
END_TEST

/* plan_set_model: the plan's model keys come from the config, the preset
 * and an explicit count are dropped, and keys a model leaves at 0 where 0
 * is out of range (MLA latents of a GQA model) stay unset. */
START_TEST(test_plan_set_model)
{
    struct plan *p = calloc(1, sizeof(*p));
    struct model_spec m;
    struct diag d;

    ck_assert_ptr_nonnull(p);
    plan_init(p, "t");
    ck_assert_int_eq(plan_set_key(p, PK_MODEL_PRESET, "llama3-70b", "t", &d),
                     CP_OK);
    ck_assert_int_eq(plan_set_key(p, PK_MODEL_PARAMS, "70G", "t", &d), CP_OK);
    ck_assert_int_eq(hfconfig_read(DIR "deepseek-v3.json", &m, &d), CP_OK);
    ck_assert_int_eq(plan_set_model(p, &m, "--model-config", &d), CP_OK);
    ck_assert(!p->v[PK_MODEL_PRESET].set);
    ck_assert(!p->v[PK_MODEL_PARAMS].set);
    ck_assert(p->v[PK_MODEL_FIRST_DENSE_LAYERS].set);
    ck_assert_uint_eq(p->v[PK_MODEL_FIRST_DENSE_LAYERS].u, 3);
    ck_assert_uint_eq(p->v[PK_MODEL_LAYERS].u, 61);
    ck_assert_uint_eq(p->v[PK_MODEL_KV_LORA_RANK].u, 512);
    ck_assert_uint_eq(p->v[PK_MODEL_EXPERTS].u, 256);
    ck_assert_str_eq(p->v[PK_MODEL_LAYERS].origin, "--model-config");

    ck_assert_int_eq(hfconfig_read(DIR "llama-3.1-8b.json", &m, &d), CP_OK);
    plan_init(p, "t");
    ck_assert_int_eq(plan_set_model(p, &m, "--model-config", &d), CP_OK);
    ck_assert(!p->v[PK_MODEL_KV_LORA_RANK].set);
    ck_assert_uint_eq(p->v[PK_MODEL_KV_HEADS].u, 8);
    ck_assert_uint_eq(p->v[PK_MODEL_GATED_FFN].u, 1);

    /* merged over a plan file's model: none of the file's model keys
     * stays (a preset's count or experts would change the model) */
    {
        struct plan *file = calloc(1, sizeof(*file));

        ck_assert_ptr_nonnull(file);
        plan_init(file, "f");
        ck_assert_int_eq(
            plan_set_key(file, PK_MODEL_PRESET, "mixtral-8x7b", "f", &d),
            CP_OK);
        ck_assert_int_eq(plan_set_key(file, PK_MODEL_EXPERTS, "8", "f", &d),
                         CP_OK);
        ck_assert_int_eq(plan_set_key(file, PK_HW_GPUS, "64", "f", &d), CP_OK);
        plan_merge(file, p);
        ck_assert(!file->v[PK_MODEL_PRESET].set);
        ck_assert(!file->v[PK_MODEL_EXPERTS].set ||
                  file->v[PK_MODEL_EXPERTS].u == 0);
        ck_assert(file->v[PK_HW_GPUS].set);
        ck_assert_uint_eq(file->v[PK_MODEL_LAYERS].u, 32);
        free(file);
    }
    free(p);
}
END_TEST

/* quantization_config as each quant_method writes it: the checkpoint's
 * format as serving precisions, or a refusal naming the field. */
#define QC(x)                                                                  \
    "{\"model_type\": \"llama\", " LLAMA_BODY ", \"quantization_config\": " x  \
    "}"

static const struct {
    const char *json;
    enum cp_status st;
    bool set;
    enum serve_dtype weights;
    int expert_weights;
    const char *source;
} quant_cases[] = {
    {"{\"model_type\": \"llama\", " LLAMA_BODY "}", CP_OK, false, SD_BF16, 0,
     "no quantization_config: nothing set"},
    {QC("{\"quant_method\": \"fp8\", \"fmt\": \"e4m3\", "
        "\"weight_block_size\": [128, 128]}"),
     CP_OK, true, SD_FP8, 0, "deepseek-ai/DeepSeek-V3 config.json"},
    {QC("{\"quant_method\": \"awq\", \"bits\": 4, \"group_size\": 128}"), CP_OK,
     true, SD_INT4, 0, "AutoAWQ: 4-bit, group 128"},
    {QC("{\"quant_method\": \"gptq\", \"bits\": 8}"), CP_OK, true, SD_INT8, 0,
     "GPTQ 8-bit"},
    {QC("{\"quant_method\": \"modelopt\", \"quant_algo\": \"NVFP4\"}"), CP_OK,
     true, SD_FP4, 0, "NVIDIA ModelOpt NVFP4 checkpoints"},
    {QC("{\"quant_method\": \"mxfp4\", \"modules_to_not_convert\": "
        "[\"model.layers.*.self_attn\", \"lm_head\"]}"),
     CP_OK, true, SD_BF16, 1 + SD_MXFP4,
     "openai/gpt-oss: MXFP4 experts, attention in bf16"},
    {QC("{\"quant_method\": \"bitsandbytes\", \"load_in_4bit\": true}"),
     CP_ERR_USAGE, false, SD_BF16, 0, "NF4 blocks of 64: not represented"},
    {QC("{\"quant_method\": \"gptq\", \"bits\": 3}"), CP_ERR_USAGE, false,
     SD_BF16, 0, "3-bit: not represented"},
    {QC("{\"bits\": 4}"), CP_ERR_USAGE, false, SD_BF16, 0, "no method"},
    {QC("\"fp8\""), CP_ERR_USAGE, false, SD_BF16, 0, "not an object"},
};

START_TEST(test_quant)
{
    struct model_spec m;
    struct hfconfig_quant q;
    struct diag d;
    const char *j = quant_cases[_i].json;

    memset(&q, 0xff, sizeof(q));
    diag_clear(&d);
    ck_assert_msg(hfconfig_parse_quant("cfg", j, strlen(j), &m, &q, &d) ==
                      quant_cases[_i].st,
                  "case %d (%s): %s: %s", _i, quant_cases[_i].source, d.where,
                  d.msg);
    if (quant_cases[_i].st) {
        ck_assert_ptr_nonnull(strstr(d.where, "quantization_config"));
        return;
    }
    ck_assert_int_eq(q.set, quant_cases[_i].set);
    if (q.set) {
        ck_assert_int_eq(q.weights, quant_cases[_i].weights);
        ck_assert_int_eq(q.expert_weights, quant_cases[_i].expert_weights);
    }
}
END_TEST

/* hfconfig_apply: the model and the checkpoint's format in one step. */
START_TEST(test_apply)
{
    struct plan *p = calloc(1, sizeof(*p));
    struct diag d;

    ck_assert_ptr_nonnull(p);
    plan_init(p, "t");
    ck_assert_int_eq(hfconfig_apply(p, DIR "gpt-oss-20b-full-attention.json",
                                    "--model-config", &d),
                     CP_OK);
    ck_assert(p->model_replaced);
    ck_assert_uint_eq(p->v[PK_MODEL_EXPERTS].u, 32);
    ck_assert_uint_eq(p->v[PK_SERVE_WEIGHTS].u, SD_BF16);
    ck_assert_uint_eq(p->v[PK_SERVE_EXPERT_WEIGHTS].u, 1 + SD_MXFP4);
    plan_init(p, "t");
    ck_assert_int_eq(
        hfconfig_apply(p, DIR "deepseek-v3.json", "--model-config", &d), CP_OK);
    ck_assert_uint_eq(p->v[PK_SERVE_WEIGHTS].u, SD_FP8);
    plan_init(p, "t");
    ck_assert_int_eq(
        hfconfig_apply(p, DIR "llama-3.1-8b.json", "--model-config", &d),
        CP_OK);
    ck_assert(!p->v[PK_SERVE_WEIGHTS].set);
    /* an error leaves the plan as it was */
    ck_assert_int_eq(
        hfconfig_apply(p, DIR "gemma-2-9b.json", "--model-config", &d),
        CP_ERR_USAGE);
    ck_assert_uint_eq(p->v[PK_MODEL_LAYERS].u, 32);
    free(p);
}
END_TEST

Suite *suite_hfconfig(void)
{
    Suite *s = suite_create("hfconfig");
    TCase *tc = tcase_create("families");

    tcase_add_loop_test(tc, test_published_counts, 0,
                        sizeof(hf_cases) / sizeof(hf_cases[0]));
    tcase_add_test(tc, test_gpt_oss_active);
    tcase_add_test(tc, test_fields);
    tcase_add_test(tc, test_defaults);
    suite_add_tcase(s, tc);
    tc = tcase_create("errors");
    tcase_add_loop_test(tc, test_refused_files, 0,
                        sizeof(refused_files) / sizeof(refused_files[0]));
    tcase_add_loop_test(tc, test_bad_json, 0,
                        sizeof(bad_json) / sizeof(bad_json[0]));
    tcase_add_test(tc, test_missing_file);
    tcase_add_test(tc, test_plan_set_model);
    tcase_add_loop_test(tc, test_quant, 0,
                        sizeof(quant_cases) / sizeof(quant_cases[0]));
    tcase_add_test(tc, test_apply);
    suite_add_tcase(s, tc);
    return s;
}
