/*
 * serve_pool.h - wide expert parallelism and disaggregated pools with their
 * own parallelism (README, "Wide expert parallelism and disaggregated
 * pools").
 *
 * A replica may span nodes.  Its attention runs data-parallel: adp ranks
 * of tp x pp GPUs, each with its own batch and KV cache (SGLang --dp,
 * --enable-dp-attention; vLLM --data-parallel-size; TensorRT-LLM
 * enable_attention_dp).  Its MoE layers run expert-parallel over ep of
 * those GPUs (the rest of the group splits each expert by tensor
 * parallelism): every GPU holds E / ep experts, the expert weights of the
 * replica are spread over its tp x pp x adp GPUs, and every decode step
 * reads the experts the whole replica's batch touches.
 *
 * The dispatcher: before and after each MoE layer every GPU sends its
 * tokens' top-k copies to the GPUs holding the experts and gets them back
 * (DeepEP dispatch and combine, DeepSeek-AI 2025; NCCL all-to-all on one
 * NVLink domain, MNNVL on NVL72).  Per MoE layer and GPU,
 *
 *   bytes = T/tp x k x h x (dispatch + combine bytes per element),
 *
 * dispatch in fp8 with 1/128 scales when the weights are fp8 or 4-bit
 * (DeepEP low-latency and normal kernels), else 16 bits, or as
 * serve.comm says (bf16 | fp8: communication precision set apart from
 * the weights, issue 22 item 3); combine 16 bits.
 * The share addressed inside the scale-up domain (g ranks of ep) rides
 * NVLink, the rest the scale-out NIC:
 *
 *   t = bytes (g - 1) / ep / beta_up + bytes (ep - g) / ep / beta_out
 *       + 2 alpha
 *
 * in decode (DeepEP low-latency: token by token); a prefill pass sends a
 * token once per remote domain its k experts fall in and forwards it
 * over NVLink (DeepEP normal), n (1 - (1 - 1/n)^k) (n - 1) / n copies
 * across n = ep / g domains,
 *
 * alpha the fabric's latency across domains, the stack's collective
 * latency inside one.  A stack that runs two micro-batches (SGLang
 * two-batch overlap, vLLM dual-batch overlap, TensorRT-LLM's overlap
 * scheduler) hides the share stack.ep_overlap of it behind compute.
 *
 * Pools.  With serve.disaggregated=yes and serve.prefill.* / serve.decode.*
 * each pool has its own tp, ep, attention_dp and GPUs; a request's prompt
 * runs on the prefill pool, its KV crosses the fabric (kv_transfer) and its
 * tokens are generated on the decode pool.  serve.pool=prefill|decode
 * measures one pool alone: the prefill pool produces prompt tokens (and the
 * first output token), the decode pool generates from KV handed to it.
 *
 * Closed loop of N users over both pools: the request rate r solves
 *   N = r (TTFT(r) + D(r)),
 * TTFT = prefill + queue at the prefill pool's load + KV transfer, D the
 * decode time at the batch r D / decode ranks (Little's law); when the
 * prefill pool saturates the users wait in its queue, TTFT = N / r - D.
 *
 * Never: I/O, allocation, globals.
 */
#ifndef LLMPLAN_CORE_SERVE_POOL_H
#define LLMPLAN_CORE_SERVE_POOL_H

#include "core/model.h"
#include "core/result.h"
#include "core/spec.h"

/* One pool's effective parallelism: the pool's keys, else parallel.* and
 * serve.attention_dp.  gpus 0: unsized (the pool is sized for demand). */
struct serve_pool_layout {
    double tp, pp, ep, adp;
    double gpus;
};

/* The layout of `phase` (POOL_BOTH: the plan's own parallel.* and
 * hardware.gpus). */
void serve_pool_layout_of(const struct scenario *sc, enum serve_pool phase,
                          struct serve_pool_layout *out /* OUT */);

/* The dispatcher of one GPU: the all-to-all of every MoE layer. */
struct serve_a2a {
    double ep;       /* expert-parallel ranks; <= 1: no all-to-all */
    double tp;       /* the tokens of a rank are split over its tp GPUs */
    double top_k;    /* copies of each token */
    double h;        /* hidden size */
    double layers;   /* MoE layers */
    double bytes_el; /* dispatch + combine bytes per element */
    double g;        /* EP ranks inside one scale-up domain */
    double beta_in, beta_out;   /* bytes/s per GPU, achieved */
    double alpha_in, alpha_out; /* s per call */
    double overlap;             /* share hidden behind compute */
};

void serve_a2a_init(const struct scenario *sc, const struct model_shape *m,
                    double tp, double ep, struct serve_a2a *a /* OUT */);

/* Whether the dispatch goes in fp8 (serve.comm; auto: with fp8, fp4 or
 * int4 weights), and the dispatch + combine bytes per element. */
bool serve_dispatch_fp8(enum serve_comm_prec comm, enum serve_dtype weights);
double serve_a2a_bytes_el(bool fp8);

/* Exposed dispatch + combine time of all MoE layers for `tokens` tokens
 * of one attention rank; 0 without expert parallelism. */
double serve_a2a_s(const struct serve_a2a *a, double tokens);

/* ... for a prefill pass: the dispatcher forwards inside the domain, a
 * token crosses the fabric once per remote domain its experts fall in
 * (DeepEP normal mode). */
double serve_a2a_prefill_s(const struct serve_a2a *a, double tokens);

/* Whether serve_pool_estimate evaluates the plan: a pool measured alone,
 * or disaggregated pools with their own parallelism or size. */
bool serve_pool_applies(const struct scenario *sc);

/* Evaluate such a plan: r->serve, r->memory.  Pure. */
void serve_pool_estimate(const struct scenario *sc, const struct model_shape *m,
                         struct result *r /* IN/OUT */);

/* ---- one attention rank of a pool, implemented in serve.c ----------- */

struct serve_rank {
    double gpr;            /* GPUs of the rank, tp x pp */
    double max_batch;      /* sequences its KV holds (and the caps allow) */
    double prefill_one_s;  /* one prompt alone */
    double prefill_bulk_s; /* one prompt amortised in full chunks */
    double passes;         /* prefill passes of one prompt */
    double prefill_last_s; /* its last pass, which attends to the most */
    double kv_transfer_s;  /* one prompt's KV to the decode pool */
    double ctx;            /* mean context of a running sequence */
    double tau;            /* tokens accepted per decode step */
    double out;            /* output tokens */
    double in;             /* prompt tokens */
};

/* The rank of sc's layout (tp, pp, ep, serve.attention_dp); fills
 * r->memory and r->serve's memory fields (and reason when it does not
 * fit). */
void serve_rank_init(const struct scenario *sc, const struct model_shape *m,
                     struct serve_rank *k /* OUT */,
                     struct result *r /* IN/OUT */);

/* One decode step of the rank at b running sequences. */
double serve_rank_step_s(const struct scenario *sc, const struct model_shape *m,
                         double b);

#endif
