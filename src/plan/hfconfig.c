/*
 * hfconfig.c - a model from its Hugging Face config.json; see hfconfig.h.
 *
 * The field names and their defaults are those of the transformers
 * configuration classes (LlamaConfig, MistralConfig, MixtralConfig,
 * Qwen2Config, Qwen2MoeConfig, Qwen3Config, Qwen3MoeConfig,
 * DeepseekV2Config, DeepseekV3Config, GptOssConfig, GemmaConfig,
 * Gemma2Config, Gemma3TextConfig) and of the modelling code that reads
 * them (which layers are MoE: Qwen2MoE `(i + 1) % decoder_sparse_step ==
 * 0` and not in mlp_only_layers; DeepSeek `i >= first_k_dense_replace and
 * i % moe_layer_freq == 0`).
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <jansson.h>

#include "plan/hfconfig.h"
#include "util/strbuf.h"

/* Widths and counts a config may give (the plan keys' own bounds). */
#define MAX_WIDTH 4194304LL
#define MAX_LAYERS_HF 100000LL
#define MAX_VOCAB_HF 100000000LL

enum family_kind {
    FK_DENSE,    /* llama, mistral, qwen2, qwen3, gemma */
    FK_MIXTRAL,  /* num_local_experts of width intermediate_size */
    FK_QWEN_MOE, /* num_experts of moe_intermediate_size, shared expert */
    FK_DEEPSEEK, /* MLA, n_routed + n_shared experts, first dense layers */
};

struct family {
    const char *model_type;
    enum family_kind kind;
    bool tied;          /* tie_word_embeddings when the config omits it */
    long long head_dim; /* head_dim when omitted; 0: hidden / heads */
    bool kv_is_heads;   /* num_key_value_heads omitted: = heads */
};

/* The families read, with the defaults of their configuration classes. */
static const struct family families[] = {
    {"llama", FK_DENSE, false, 0, true},
    {"mistral", FK_DENSE, false, 0, false},
    {"mixtral", FK_MIXTRAL, false, 0, false},
    {"qwen2", FK_DENSE, false, 0, false},
    {"qwen3", FK_DENSE, false, 128, false},
    {"qwen2_moe", FK_QWEN_MOE, false, 0, false},
    {"qwen3_moe", FK_QWEN_MOE, false, 128, false},
    {"deepseek_v2", FK_DEEPSEEK, false, 0, true},
    {"deepseek_v3", FK_DEEPSEEK, false, 0, true},
    {"gpt_oss", FK_MIXTRAL, false, 64, false},
    {"gemma", FK_DENSE, true, 256, false},
    {"gemma2", FK_DENSE, true, 256, false},
    {"gemma3_text", FK_DENSE, true, 256, false},
};

/* Fields of other layer kinds (state-space, linear attention): a model
 * that has them is not a stack of attention + FFN layers. */
static const char *const hybrid_fields[] = {
    "layers_block_type", "hybrid_override_pattern", "attn_layer_indices",
    "attn_layer_period", "attn_layer_offset",       "expert_layer_period",
    "ssm_cfg",           "full_attention_interval", "linear_num_key_heads",
    "block_types",
};

static const struct family *find_family(const char *type)
{
    size_t i;

    for (i = 0; i < sizeof(families) / sizeof(families[0]); i++)
        if (strcmp(families[i].model_type, type) == 0)
            return &families[i];
    return NULL;
}

/* The value of field, NULL when absent or null. */
static json_t *field(json_t *obj, const char *name)
{
    json_t *v = json_object_get(obj, name);

    return v && !json_is_null(v) ? v : NULL;
}

/* A whole number in [lo, hi] into *out; absent or null leaves *out and is
 * an error only when required. */
static enum cp_status get_count(json_t *obj, const char *name, bool required,
                                long long lo, long long hi, uint64_t *out,
                                struct diag *d)
{
    json_t *v = field(obj, name);
    long long x;

    if (!v) {
        if (required)
            return diag_set(d, CP_ERR_USAGE, name,
                            "missing from the config (a whole number)");
        return CP_OK;
    }
    if (!json_is_integer(v))
        return diag_set(d, CP_ERR_USAGE, name, "not a whole number");
    x = (long long)json_integer_value(v);
    if (x < lo || x > hi)
        return diag_set(d, CP_ERR_USAGE, name,
                        "%lld is out of range [%lld, %lld]", x, lo, hi);
    *out = (uint64_t)x;
    return CP_OK;
}

static enum cp_status get_bool(json_t *obj, const char *name, bool *out,
                               struct diag *d)
{
    json_t *v = field(obj, name);

    if (!v)
        return CP_OK;
    if (!json_is_boolean(v))
        return diag_set(d, CP_ERR_USAGE, name, "not true or false");
    *out = json_is_true(v);
    return CP_OK;
}

/* Refuse what the model cannot represent, before anything is mapped. */
static enum cp_status refuse_unrepresentable(json_t *cfg, struct diag *d)
{
    const char *key;
    json_t *v, *use, *types;
    size_t i;

    for (i = 0; i < sizeof(hybrid_fields) / sizeof(hybrid_fields[0]); i++)
        if (field(cfg, hybrid_fields[i]))
            return diag_set(d, CP_ERR_USAGE, hybrid_fields[i],
                            "hybrid layers (state-space or linear attention) "
                            "have no representation in llmplan's model");
    json_object_foreach(cfg, key, v)
    {
        if (!json_is_null(v) &&
            (strncmp(key, "mamba", 5) == 0 || strncmp(key, "ssm_", 4) == 0))
            return diag_set(d, CP_ERR_USAGE, key,
                            "hybrid Mamba layers have no representation in "
                            "llmplan's model");
    }
    /* Qwen2/3 carry a window they do not use (use_sliding_window false). */
    v = field(cfg, "sliding_window");
    use = field(cfg, "use_sliding_window");
    if (v && !(json_is_integer(v) && json_integer_value(v) == 0) &&
        !(use && json_is_false(use)))
        return diag_set(d, CP_ERR_USAGE, "sliding_window",
                        "sliding-window attention has no representation in "
                        "llmplan's model; set it to null to plan every "
                        "layer as full attention (an upper bound)");
    types = field(cfg, "layer_types");
    if (types) {
        json_t *t;

        if (!json_is_array(types))
            return diag_set(d, CP_ERR_USAGE, "layer_types", "not a list");
        json_array_foreach(types, i, t)
        {
            const char *s = json_is_string(t) ? json_string_value(t) : "";

            if (strcmp(s, "full_attention") != 0 &&
                strcmp(s, "sliding_attention") != 0)
                return diag_set(d, CP_ERR_USAGE, "layer_types",
                                "layer %zu is '%.40s': only attention layers "
                                "have a representation in llmplan's model",
                                i, s);
        }
    }
    v = field(cfg, "mlp_only_layers");
    if (v && (!json_is_array(v) || json_array_size(v) > 0))
        return diag_set(d, CP_ERR_USAGE, "mlp_only_layers",
                        "a list of dense layers has no representation in "
                        "llmplan's model (only the first n, or every n-th)");
    return CP_OK;
}

/* Qwen2/3-MoE: num_experts of moe_intermediate_size on every
 * decoder_sparse_step-th layer; Qwen2-MoE's shared expert is a multiple of
 * the routed width (Qwen1.5-MoE-A2.7B: 5632 = 4 x 1408). */
static enum cp_status map_qwen_moe(json_t *cfg, struct model_spec *m,
                                   struct diag *d)
{
    uint64_t shared = 0;
    enum cp_status st;

    st = get_count(cfg, "num_experts", false, 0, 1000000, &m->experts, d);
    if (!st && m->experts > 1) {
        st = get_count(cfg, "num_experts_per_tok", true, 1,
                       (long long)m->experts, &m->experts_active, d);
        if (!st)
            st = get_count(cfg, "moe_intermediate_size", true, 1, MAX_WIDTH,
                           &m->expert_ffn, d);
        if (!st)
            st = get_count(cfg, "decoder_sparse_step", false, 1,
                           (long long)m->layers, &m->moe_every, d);
        if (!st)
            st = get_count(cfg, "shared_expert_intermediate_size", false, 0,
                           MAX_WIDTH, &shared, d);
        if (!st && shared % m->expert_ffn != 0)
            return diag_set(d, CP_ERR_USAGE, "shared_expert_intermediate_size",
                            "%llu is not a multiple of moe_intermediate_size "
                            "%llu: a shared expert of another width has no "
                            "representation in llmplan's model",
                            (unsigned long long)shared,
                            (unsigned long long)m->expert_ffn);
        m->shared_experts = shared / m->expert_ffn;
    }
    return st;
}

/* DeepSeek-V2/V3: multi-head latent attention, n_routed_experts plus
 * n_shared_experts of moe_intermediate_size after first_k_dense_replace
 * dense layers of intermediate_size. */
static enum cp_status map_deepseek(json_t *cfg, struct model_spec *m,
                                   struct diag *d)
{
    uint64_t v_dim = 0, freq = 1;
    enum cp_status st;

    m->attention = MATTN_MLA;
    st =
        get_count(cfg, "kv_lora_rank", true, 1, MAX_WIDTH, &m->kv_lora_rank, d);
    if (!st && !field(cfg, "q_lora_rank"))
        return diag_set(d, CP_ERR_USAGE, "q_lora_rank",
                        "null (queries not compressed, as in "
                        "DeepSeek-V2-Lite) has no representation in "
                        "llmplan's model");
    if (!st)
        st = get_count(cfg, "q_lora_rank", true, 1, MAX_WIDTH, &m->q_lora_rank,
                       d);
    if (!st)
        st = get_count(cfg, "qk_rope_head_dim", true, 1, MAX_WIDTH,
                       &m->rope_head_dim, d);
    if (!st)
        st = get_count(cfg, "qk_nope_head_dim", true, 1, MAX_WIDTH,
                       &m->head_dim, d);
    if (!st)
        st = get_count(cfg, "v_head_dim", true, 1, MAX_WIDTH, &v_dim, d);
    if (!st && v_dim != m->head_dim)
        return diag_set(d, CP_ERR_USAGE, "v_head_dim",
                        "%llu differs from qk_nope_head_dim %llu: a value "
                        "width other than the key width has no "
                        "representation in llmplan's model",
                        (unsigned long long)v_dim,
                        (unsigned long long)m->head_dim);
    if (!st)
        st = get_count(cfg, "n_routed_experts", false, 0, 1000000, &m->experts,
                       d);
    if (st || m->experts <= 1)
        return st;
    st = get_count(cfg, "num_experts_per_tok", true, 1, (long long)m->experts,
                   &m->experts_active, d);
    if (!st)
        st = get_count(cfg, "moe_intermediate_size", true, 1, MAX_WIDTH,
                       &m->expert_ffn, d);
    if (!st)
        st = get_count(cfg, "n_shared_experts", false, 0, 1000000,
                       &m->shared_experts, d);
    if (!st)
        st = get_count(cfg, "first_k_dense_replace", false, 0,
                       (long long)m->layers - 1, &m->first_dense_layers, d);
    if (!st)
        st = get_count(cfg, "moe_layer_freq", false, 1, (long long)m->layers,
                       &freq, d);
    if (!st && freq != 1)
        return diag_set(d, CP_ERR_USAGE, "moe_layer_freq",
                        "%llu: DeepSeek's every-n-th rule (layer i %% n == 0) "
                        "has no representation in llmplan's model; only 1",
                        (unsigned long long)freq);
    return st;
}

/* Mixtral and gpt-oss: num_local_experts of width intermediate_size on
 * every layer. */
static enum cp_status map_mixtral(json_t *cfg, struct model_spec *m,
                                  struct diag *d)
{
    enum cp_status st;

    st = get_count(cfg, "num_local_experts", true, 1, 1000000, &m->experts, d);
    if (!st && m->experts > 1) {
        st = get_count(cfg, "num_experts_per_tok", true, 1,
                       (long long)m->experts, &m->experts_active, d);
        m->expert_ffn = m->ffn;
        m->moe_every = 1;
    }
    return st;
}

/* gpt-oss's experts always carry biases (transformers GptOssExperts:
 * gate_up_proj_bias, down_proj_bias) and clamp their gated activation at
 * swiglu_limit (7.0 in both releases). */
static void map_gpt_oss_experts(json_t *cfg, struct model_spec *m)
{
    json_t *limit = field(cfg, "swiglu_limit");

    m->expert_bias = m->experts > 1;
    m->act_clamp =
        m->experts > 1 && json_is_number(limit) && json_number_value(limit) > 0;
}

static enum cp_status map_config(json_t *cfg, struct model_spec *m,
                                 struct diag *d)
{
    const struct family *fam;
    json_t *type = field(cfg, "model_type"), *text = field(cfg, "text_config");
    enum cp_status st;

    /* Multimodal wrappers (Gemma 3) keep the language model apart. */
    if (text && json_is_object(text) && !field(cfg, "hidden_size"))
        return map_config(text, m, d);
    st = refuse_unrepresentable(cfg, d);
    if (st)
        return st;
    if (!type || !json_is_string(type))
        return diag_set(d, CP_ERR_USAGE, "model_type",
                        "missing from the config (llama, mistral, mixtral, "
                        "qwen2, qwen3, qwen2_moe, qwen3_moe, deepseek_v2, "
                        "deepseek_v3, gpt_oss, gemma, gemma2, gemma3_text)");
    fam = find_family(json_string_value(type));
    if (!fam)
        return diag_set(d, CP_ERR_USAGE, "model_type",
                        "'%.40s' is not a family llmplan reads (llama, "
                        "mistral, mixtral, qwen2, qwen3, qwen2_moe, "
                        "qwen3_moe, deepseek_v2, deepseek_v3, gpt_oss, "
                        "gemma, gemma2, gemma3_text)",
                        json_string_value(type));

    st = get_count(cfg, "num_hidden_layers", true, 1, MAX_LAYERS_HF, &m->layers,
                   d);
    if (!st)
        st = get_count(cfg, "hidden_size", true, 1, MAX_WIDTH, &m->hidden, d);
    if (!st)
        st =
            get_count(cfg, "num_attention_heads", true, 1, 65536, &m->heads, d);
    if (!st && fam->kv_is_heads)
        m->kv_heads = m->heads;
    if (!st)
        st = get_count(cfg, "num_key_value_heads", !fam->kv_is_heads, 1,
                       (long long)m->heads, &m->kv_heads, d);
    if (!st)
        st =
            get_count(cfg, "intermediate_size", true, 1, MAX_WIDTH, &m->ffn, d);
    if (!st)
        st = get_count(cfg, "vocab_size", true, 1, MAX_VOCAB_HF, &m->vocab, d);
    m->tied_embeddings = fam->tied;
    if (!st)
        st = get_bool(cfg, "tie_word_embeddings", &m->tied_embeddings, d);
    /* Every family read has a gated FFN (SwiGLU, GeGLU). */
    m->gated_ffn = true;
    m->head_dim = (uint64_t)fam->head_dim;
    if (!st && fam->kind != FK_DEEPSEEK)
        st = get_count(cfg, "head_dim", false, 1, MAX_WIDTH, &m->head_dim, d);
    if (!st && !m->head_dim)
        m->head_dim = m->hidden / m->heads;
    /* Read for their type only: they change neither the parameters nor
     * the FLOPs per token (the context a plan uses is train.seq_len /
     * serve.input_tokens). */
    if (!st)
        st = get_count(cfg, "max_position_embeddings", false, 1,
                       (long long)1 << 40, &(uint64_t){0}, d);
    if (st)
        return st;
    m->attention = m->kv_heads < m->heads ? MATTN_GQA : MATTN_MHA;
    m->moe_every = 1;

    switch (fam->kind) {
    case FK_DENSE:
        return CP_OK;
    case FK_MIXTRAL:
        st = map_mixtral(cfg, m, d);
        if (!st && strcmp(fam->model_type, "gpt_oss") == 0)
            map_gpt_oss_experts(cfg, m);
        return st;
    case FK_QWEN_MOE:
        return map_qwen_moe(cfg, m, d);
    case FK_DEEPSEEK:
        return map_deepseek(cfg, m, d);
    }
    return CP_OK;
}

/* The checkpoint's format (quantization_config, as transformers writes
 * it for each quant_method) as serving precisions. */
static enum cp_status map_quant(json_t *cfg, struct hfconfig_quant *q,
                                struct diag *d)
{
    json_t *qc = field(cfg, "quantization_config"), *v, *skip;
    const char *method, *algo;
    long long bits = 0;
    size_t i;

    memset(q, 0, sizeof(*q));
    if (!qc)
        return CP_OK;
    if (!json_is_object(qc))
        return diag_set(d, CP_ERR_USAGE, "quantization_config",
                        "not an object");
    v = field(qc, "quant_method");
    if (!v || !json_is_string(v))
        return diag_set(d, CP_ERR_USAGE, "quantization_config.quant_method",
                        "missing or not a string");
    method = json_string_value(v);
    v = field(qc, "bits");
    if (v && json_is_integer(v))
        bits = (long long)json_integer_value(v);
    v = field(qc, "quant_algo");
    algo = v && json_is_string(v) ? json_string_value(v) : "";
    q->set = true;
    if (strcmp(method, "fp8") == 0) {
        q->weights = SD_FP8; /* per-tensor or weight_block_size blocks */
    } else if ((strcmp(method, "awq") == 0 || strcmp(method, "gptq") == 0) &&
               (bits == 4 || bits == 8)) {
        q->weights = bits == 4 ? SD_INT4 : SD_INT8;
    } else if (strcmp(method, "modelopt") == 0 &&
               (strcmp(algo, "FP8") == 0 || strcmp(algo, "NVFP4") == 0)) {
        q->weights = algo[0] == 'F' ? SD_FP8 : SD_FP4;
    } else if (strcmp(method, "mxfp4") == 0) {
        /* gpt-oss: the experts in MXFP4, attention, router, embedding and
         * output left in 16 bits (modules_to_not_convert) */
        bool attn_kept = false;

        skip = field(qc, "modules_to_not_convert");
        if (skip && json_is_array(skip)) {
            json_array_foreach(skip, i, v)
            {
                if (json_is_string(v) && strstr(json_string_value(v), "attn"))
                    attn_kept = true;
            }
        }
        q->weights = attn_kept ? SD_BF16 : SD_MXFP4;
        q->expert_weights = 1 + SD_MXFP4;
    } else {
        memset(q, 0, sizeof(*q));
        return diag_set(d, CP_ERR_USAGE, "quantization_config.quant_method",
                        "'%.40s%s%.20s' is not a format llmplan reads (fp8, "
                        "awq or gptq with 4 or 8 bits, modelopt FP8 or "
                        "NVFP4, mxfp4)",
                        method, algo[0] ? " " : "", algo);
    }
    return CP_OK;
}

enum cp_status hfconfig_parse(const char *name, const char *text, size_t len,
                              struct model_spec *out, struct diag *d)
{
    return hfconfig_parse_quant(name, text, len, out, NULL, d);
}

enum cp_status hfconfig_parse_quant(const char *name, const char *text,
                                    size_t len, struct model_spec *out,
                                    struct hfconfig_quant *quant,
                                    struct diag *d)
{
    struct hfconfig_quant q;
    json_error_t jerr;
    json_t *root;
    enum cp_status st;

    memset(out, 0, sizeof(*out));
    root = json_loadb(text, len, JSON_REJECT_DUPLICATES, &jerr);
    if (!root)
        return diag_set(d, CP_ERR_PARSE, name, "line %d: %s", jerr.line,
                        jerr.text);
    if (!json_is_object(root)) {
        json_decref(root);
        return diag_set(d, CP_ERR_PARSE, name, "not a JSON object");
    }
    st = map_config(root, out, d);
    if (!st) {
        json_t *text_cfg = field(root, "text_config");

        /* Gemma 3 keeps the language model's fields in text_config but
         * the checkpoint's quantization at the top */
        st = map_quant(root, &q, d);
        if (!st && !q.set && text_cfg && json_is_object(text_cfg))
            st = map_quant(text_cfg, &q, d);
    }
    json_decref(root);
    if (st)
        memset(out, 0, sizeof(*out));
    else if (quant)
        *quant = q;
    return st;
}

enum cp_status hfconfig_read(const char *path, struct model_spec *out,
                             struct diag *d)
{
    return hfconfig_read_quant(path, out, NULL, d);
}

enum cp_status hfconfig_read_quant(const char *path, struct model_spec *out,
                                   struct hfconfig_quant *quant, struct diag *d)
{
    struct strbuf sb;
    struct stat sbuf;
    enum cp_status st;
    FILE *fp;
    int e;

    memset(out, 0, sizeof(*out));
    /* As plan_load_file: missing is a usage error (2), unreadable a
     * runtime one (1); read once (a FIFO has no second chance). */
    fp = fopen(path, "r");
    if (!fp)
        return diag_set(d,
                        errno == ENOENT || errno == ENOTDIR ? CP_ERR_NOT_FOUND
                                                            : CP_ERR_IO,
                        path, "cannot read config: %s", strerror(errno));
    if (fstat(fileno(fp), &sbuf) == 0 && S_ISDIR(sbuf.st_mode)) {
        fclose(fp);
        return diag_set(d, CP_ERR_USAGE, path,
                        "cannot read config: is a directory");
    }
    strbuf_init(&sb, 1 << 20);
    st = strbuf_read_stream(&sb, fp);
    e = errno;
    fclose(fp);
    if (!st)
        st = hfconfig_parse_quant(path, sb.buf, sb.len, out, quant, d);
    else
        st = diag_set(d, st == CP_ERR_RANGE ? CP_ERR_RANGE : CP_ERR_IO, path,
                      "cannot read config: %s",
                      st == CP_ERR_RANGE ? "larger than 1 MiB"
                                         : strerror(e ? e : EIO));
    strbuf_release(&sb);
    return st;
}

enum cp_status hfconfig_apply(struct plan *p, const char *path,
                              const char *origin, struct diag *d)
{
    struct model_spec m;
    struct hfconfig_quant q;
    struct plan *tmp;
    enum cp_status st;
    char buf[16];

    st = hfconfig_read_quant(path, &m, &q, d);
    if (st)
        return st;
    tmp = malloc(sizeof(*tmp));
    if (!tmp)
        return diag_set(d, CP_ERR_NOMEM, origin, "out of memory");
    *tmp = *p;
    st = plan_set_model(tmp, &m, origin, d);
    if (!st && q.set)
        st = plan_set_key(tmp, PK_SERVE_WEIGHTS, serve_dtype_name(q.weights),
                          origin, d);
    if (!st && q.set) {
        snprintf(buf, sizeof(buf), "%s",
                 q.expert_weights ? serve_dtype_name((enum serve_dtype)(
                                        q.expert_weights - 1))
                                  : "same");
        st = plan_set_key(tmp, PK_SERVE_EXPERT_WEIGHTS, buf, origin, d);
    }
    if (!st)
        *p = *tmp;
    free(tmp);
    return st;
}
