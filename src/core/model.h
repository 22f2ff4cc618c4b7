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
    /* multi-token prediction: mtp modules, each a projection (2h -> h), two
     * norms and one layer like the last (MoE in an MoE model), sharing the
     * embedding and the output head; mtp_params is all of them (not in
     * `params`, which is the model as reported: DeepSeek-V3's 671B) */
    double mtp, mtp_params;
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

/* train.global_batch = auto.  Published pretraining runs settle on a
 * number of tokens per optimizer step that grows with the model: they warm
 * up at the low end of a band and spend most of their tokens at its high
 * end.  By total parameters (MoE: every expert, as the runs report them):
 *   below 2B    0.5M to 1M tokens  GPT-3 125M-1.3B (Brown et al. 2020,
 *                                  Table 2.1)
 *   below 20B   1M to 4M           GPT-3 2.7B-13B 1M-2M; Llama 2 7B, 13B
 *                                  4M (Touvron et al. 2023, section 2.2)
 *   below 200B  2M to 8M           Chinchilla 70B 1.5M -> 3M (Hoffmann et
 *                                  al. 2022, Table 4); GPT-3 175B 3.2M;
 *                                  Llama 2 70B 4M
 *   below 500B  4M to 16M          Llama 3 405B 4M -> 8M -> 16M (Dubey et
 *                                  al. 2024, section 3.4.1); Gopher 280B
 *                                  3M -> 6M
 *   from 500B   16M to 64M         DeepSeek-V3 671B, 3,072 -> 15,360
 *                                  sequences of 4K (Liu et al. 2024,
 *                                  section 4.2)
 * (M = 2^20 tokens).  *lo and *hi get the band; the result is its high
 * end in sequences of seq_len, rounded down to a power of two, at least
 * 1. */
uint64_t model_auto_global_batch(double params, uint64_t seq_len,
                                 double *lo /* OUT, may be NULL */,
                                 double *hi /* OUT, may be NULL */);

#endif
