/*
 * hfconfig.h - a model from its Hugging Face config.json.
 *
 * Reads the config of Llama, Mistral/Mixtral, Qwen2/Qwen3 (dense and MoE),
 * DeepSeek-V2/V3 (MLA, shared experts, first dense layers), gpt-oss and
 * Gemma into a struct model_spec, field by field (the table in hfconfig.c
 * names each field and the model key it fills).  A field that changes the
 * model's parameters, FLOPs or KV cache but has no representation in
 * struct model_spec is an error naming the field (CP_ERR_USAGE, d->where =
 * the field): sliding-window attention, layers of other kinds (Mamba,
 * linear attention), dense-only layer lists, a value width other than the
 * key width.  Fields that change neither (RoPE scaling, norm epsilons,
 * max_position_embeddings, activation and routing details) are read for
 * their type only.  Biases (attention_bias, mlp_bias, Qwen2's QKV bias) add
 * under 0.01% of the parameters and are not counted.
 *
 * Never: catalog access, evaluation, guessing a field it does not know the
 * meaning of for the family (an unknown model_type is refused).
 */
#ifndef LLMPLAN_PLAN_HFCONFIG_H
#define LLMPLAN_PLAN_HFCONFIG_H

#include <stddef.h>

#include "core/diag.h"
#include "core/spec.h"
#include "plan/plan.h"

/* The checkpoint's format from quantization_config: fp8 (per-tensor or
 * weight_block_size blocks), awq/gptq 4 or 8 bits (weight-only), modelopt
 * FP8 or NVFP4, mxfp4 (gpt-oss: experts only when modules_to_not_convert
 * keeps attention).  Other methods are refused naming
 * quantization_config.quant_method. */
struct hfconfig_quant {
    bool set;                 /* the config has a quantization_config */
    enum serve_dtype weights; /* serve.weights */
    int expert_weights;       /* serve.expert_weights: 0 same, 1 + dtype */
};

/* Parse the JSON text (len bytes, need not be NUL-terminated) of a
 * config.json; name is the file name for syntax errors ("name: line N:
 * ...").  On success *out is the model with params 0 (derived from the
 * shape) and an empty id; on error *out is zeroed.  CP_ERR_PARSE for JSON
 * that does not parse or is not an object; CP_ERR_USAGE naming the field
 * for a missing, mistyped, out-of-range or unrepresentable field. */
enum cp_status hfconfig_parse(const char *name, const char *text, size_t len,
                              struct model_spec *out /* OUT */, struct diag *d);

/* As hfconfig_parse, and the checkpoint's format into *quant (may be
 * NULL; zeroed when the config has no quantization_config). */
enum cp_status hfconfig_parse_quant(const char *name, const char *text,
                                    size_t len,
                                    struct model_spec *out /* OUT */,
                                    struct hfconfig_quant *quant /* OUT */,
                                    struct diag *d);

/* Read and parse the file at path.  CP_ERR_NOT_FOUND (exit 2) naming the
 * path when it cannot be read; otherwise as hfconfig_parse. */
enum cp_status hfconfig_read(const char *path, struct model_spec *out /* OUT */,
                             struct diag *d);

/* As hfconfig_read, with the checkpoint's format (hfconfig_parse_quant). */
enum cp_status hfconfig_read_quant(const char *path,
                                   struct model_spec *out /* OUT */,
                                   struct hfconfig_quant *quant /* OUT */,
                                   struct diag *d);

/* Read path and make it p's model (plan_set_model); a quantization_config
 * also sets serve.weights and serve.expert_weights (the checkpoint's
 * format; a later --set overrides it).  origin names the input.  On error
 * p is unchanged. */
enum cp_status hfconfig_apply(struct plan *p, const char *path,
                              const char *origin, struct diag *d);

#endif
