/*
 * serve_int.h - private to src/core/serve*.c: the engine of one serving
 * replica (serve.c) that the operating point (serve_point.c) runs on.
 */
#ifndef LLMPLAN_CORE_SERVE_INT_H
#define LLMPLAN_CORE_SERVE_INT_H

#include "core/model.h"
#include "core/scenario.h"
#include "core/serve_pool.h"

/* What one replica of tp x pp GPUs can do: rates, bytes, shape. */
struct engine {
    double tp, pp, gpr;
    double rate;      /* FLOP/s per GPU for the weight GEMMs */
    double rate_x;    /* ... for the routed experts' (serve.expert_weights) */
    double attn_rate; /* FLOP/s per GPU in the attention kernel */
    double bw;        /* bytes/s of HBM decode reaches */
    double w_gpu;     /* weight bytes per GPU */
    double w_dense;   /* per GPU, read every decode step */
    double w_expert;  /* per GPU, routed experts (read as touched) */
    double experts, top_k, moe_layers;
    double kv_tok;     /* KV bytes per token per GPU */
    double n_mm;       /* active matmul params per token */
    double n_mm_x;     /* ... of them in the routed experts */
    double attn_c;     /* attention FLOPs per token per context position */
    double attn_c_dec; /* ... in decode (MLA absorbed into the latent) */
    double L, h;
    double ar_alpha, ar_beta;
    double overhead;  /* host work per step */
    double sched;     /* decode iterations per scheduling round (>= 1) */
    bool host_async;  /* the host's step work beside the GPU's */
    double launch;    /* kernel gaps of one forward pass */
    double overlap;   /* share of the shorter of compute and memory hidden */
    double chunk;     /* tokens per prefill pass */
    double q;         /* tokens per sequence per decode step (spec) */
    double tau;       /* tokens accepted per decode step */
    double in_new;    /* prompt tokens not served from the prefix cache */
    double in_hit;    /* ... served from it */
    double out;       /* output tokens */
    double moe_group; /* attention ranks sharing the experts (EP) */
    struct serve_a2a a2a; /* the EP dispatcher (serve_pool.h) */
    /* the TP all-reduce beyond the engine's custom kernel: NCCL's measured
     * latency and bus bandwidth, and when the engine switches to it */
    double nccl_alpha, nccl_beta;
    double ar_oneshot, ar_workspace;
    bool ar_custom; /* the engine has its own all-reduce on this vendor */
    /* serve.offload=weights (serve_offload.c): weight bytes per GPU kept
     * in host memory, the HBM buffer one layer is staged in, and the
     * host link's bytes/s per direction */
    double w_host, w_stage, host_bps;
    /* serve_elemwise.c: HBM bytes per token of the routed experts'
     * activations behind a dispatcher on one GPU, and of a prefill
     * pass's permutation */
    double ew_tok, ew_permute;
    /* MTP drafting (serve.c mtp_draft_s): module passes a step (the draft
     * tokens when the model has an MTP module, else 0) and the output
     * head's bytes per GPU, which each pass reads again */
    double drafts, w_head;
    /* serve_dequant.c: HBM bytes per token per GPU of FP8 GEMMs
     * dequantised outside their kernels (0 when fused) */
    double dq_tok;
    /* serve.batch_wait_iters and _tokens_frac: prompts held to batch them
     * (serve_point.c release_period_s) */
    double wait_iters, wait_frac;
};

/* The engine of sc's replica of model m. */
void serve_engine_init(const struct scenario *sc, const struct model_shape *m,
                       struct engine *e);

/* One prompt's prefill alone; the prefill of a bulk of prompts. */
double serve_prefill_one_s(const struct engine *e);
double serve_prefill_bulk_s(const struct engine *e);

/* The last, longest, pass of one prompt's chunked prefill. */
double serve_prefill_last_pass_s(const struct engine *e);

/* One decode step of b sequences at context ctx. */
double serve_decode_step_s(const struct engine *e, double b, double ctx);

/* The mean context of a decoding sequence. */
double serve_mean_ctx(const struct engine *e);

/* serve_point.c: the replica's memory into r; the KV hand-off from a
 * prefill pool to a decode pool. */
void serve_memory_of(const struct scenario *sc, const struct engine *e,
                     const struct model_shape *m, struct result *r);
double serve_kv_transfer_s(const struct scenario *sc, const struct engine *e);

/* serve_offload.c: a prefill chunk's activations per GPU; the weights
 * the GPU leaves on the host (0 unless serve.offload=weights and they do
 * not fit); the host-link time of one pass; a pass of pass_s with the
 * offloaded weights streamed a layer ahead: the longer of the two. */
double serve_chunk_act_bytes(const struct engine *e,
                             const struct model_shape *m);
void serve_offload_init(const struct scenario *sc, const struct model_shape *m,
                        struct engine *e);
double serve_offload_link_s(const struct engine *e);
double serve_offload_pass_s(const struct engine *e, double pass_s);
/* One GPU's share of its node's host memory (systems.host_mem_gb over
 * gpus_per_node); 0 = not stated. */
double serve_offload_host_share(const struct scenario *sc);

/* serve_elemwise.c: the routed experts' activation bytes per token
 * behind an all-to-all dispatcher into e (0 without one; needs e->a2a and
 * e->moe_group); their HBM time in a decode step or prefill pass of
 * `tokens` tokens per rank. */
void serve_elemwise_init(const struct scenario *sc, const struct model_shape *m,
                         struct engine *e);
double serve_elemwise_s(const struct engine *e, double tokens, bool prefill);

/* serve_dequant.c: the unfused dequantisation of row-scaled FP8 GEMMs
 * into e (software.fp8_scaling = row on a vendor the stack's
 * fp8_row_fused_on does not list; 0 otherwise); its HBM time in a pass of
 * `tokens` tokens per replica. */
void serve_dequant_init(const struct scenario *sc, const struct model_shape *m,
                        struct engine *e);
double serve_dequant_s(const struct engine *e, double tokens);

/* The wait at percentile p (0..1) of an M/M/1 queue busy rho of the time
 * with service s: P(W > t) = rho exp(-(1 - rho) t / s); 1e300 at rho >= 1. */
double serve_wait_at(double rho, double s, double p);

#endif
