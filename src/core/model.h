/*
 * model.h - model shape, parameter counts and model FLOPs.
 *
 * Sources: parameter counts per layer follow models.md section 1 (attention
 * h*a*d + 2*h*a_kv*d + a*d*h, FFN 2hf or 3hf gated, norms 2h, embedding Vh
 * and an untied output layer Vh; MoE layers hold `experts` FFNs of width
 * expert_ffn plus a router h*experts).  Model FLOPs per token are PaLM's
 * (Chowdhery et al. 2022, appendix B): 6 * N_matmul + 12 * L * a * d * s,
 * where N_matmul counts the weights used in matmuls for one token (layers
 * and the output projection, not the input embedding lookup; MoE counts
 * the top-k and shared experts only).  With MLA (DeepSeek-V2, Liu et al.
 * 2024, section 2.1) the attention weights are the Q path (h x q_lora and
 * q_lora x a(d + rope); q_lora defaults to 3 kv_lora as in V2, V3 and
 * Kimi K2), the KV down
 * projection h x (kv_lora + rope), its up projection kv_lora x 2ad and the
 * output a d x h; attention FLOPs are 6 L a s (d_qk + d_v), PaLM's term
 * with the two widths apart.  For GPT shapes this equals
 * Megatron's 72 B s L h^2 (1 + s/6h + V/12hL) per iteration (Narayanan et
 * al. 2021, eq. 3).
 */
#ifndef LLMPLAN_CORE_MODEL_H
#define LLMPLAN_CORE_MODEL_H

#include <stdbool.h>

#include "spec.h"

/* The shape the rest of the model works with, all as doubles. */
struct model_shape {
    double L, h, a, a_kv, d, f, V; /* d: model.head_dim, else h / a */
    bool gated, tied;
    /* Attention widths: a query-key dot product spans d_qk, a value d_v
     * (both d, except MLA: d_qk = d + rope, d_v = d).  MLA's latents are
     * 0 for MHA/GQA. */
    bool mla;
    double d_qk, d_v, q_lora, kv_lora, rope;
    double experts, top_k, shared, f_expert;
    double moe_layers, dense_layers; /* moe_layers + dense_layers == L */
    /* parameters */
    double attn_params;          /* per layer: Q, K, V, O */
    double norm_params;          /* per layer */
    double ffn_params;           /* one dense FFN */
    double expert_params;        /* one expert FFN */
    double router_params;        /* per MoE layer */
    double embed_params;         /* V*h */
    double output_params;        /* V*h when untied, else 0 */
    double dense_layer_params;   /* attn + norm + ffn */
    double moe_layer_params;     /* attn + norm + router + (E+shared) experts */
    double params;               /* total, as reported */
    double active_params;        /* used per token */
    double param_scale;          /* explicit model.params / derived; else 1 */
    double flops_per_token;      /* 6 N_matmul_active + attention */
    double attn_flops_per_token; /* 12 L a d s */
};

/* Fill *out from m for sequence length seq_len.  Missing shape keys (0) are
 * derived: with model.params and layers given, h solves
 * 12 L h^2 + V h = params (rounded to a multiple of 128), heads = h / 128,
 * ffn = 4h, vocab 51200; kv_heads defaults to heads.  m must have been
 * validated (layers >= 1, or params >= 1). */
void model_shape_derive(const struct model_spec *m, double seq_len,
                        struct model_shape *out /* OUT */);

#endif
