/*
 * comm.h - collectives written once: alpha-beta costs of the collectives
 * training and serving run (Thakur, Rabenseifner and Gropp 2005; NCCL
 * docs, "Collective Operations" and its cost model, src/graph/tuning.cc).
 *
 * A collective of `bytes` per rank on n ranks over links of beta bytes/s
 * per GPU and alpha s per step:
 *
 *   all-reduce        2 (n-1)/n bytes/beta + its call latency
 *   reduce-scatter      (n-1)/n bytes/beta + (n-1) alpha
 *   all-gather          as reduce-scatter
 *   all-to-all          (n-1)/n bytes/beta + (n-1) alpha
 *   point-to-point            bytes/beta + alpha
 *
 * An NCCL all-reduce's call latency is its ring's 2 (n-1) steps, bounded
 * by a tree's 2 log2(n) (comm_allreduce_s).  A serving stack's custom
 * all-reduce (TensorRT-LLM, vLLM: one-shot reads of every peer's buffer
 * at decode sizes) has its own measured call latency, independent of n
 * (comm_allreduce_call_s with stacks.allreduce_us); the bytes term is the
 * same.
 *
 * Two tiers: a group of n ranks, g of them inside each scale-up domain
 * (NVLink), the rest over the scale-out NIC.  An all-to-all sends the
 * share addressed to the g - 1 peers of its domain over NVLink and the
 * rest across the fabric; comm_remote_copies says how many copies of one
 * token cross it.
 *
 * Pure: no I/O, no globals.  Every function returns 0 for n <= 1 or
 * bytes <= 0 unless said otherwise.
 */
#ifndef LLMPLAN_CORE_COMM_H
#define LLMPLAN_CORE_COMM_H

#include <stdbool.h>

/* NCCL all-reduce: ring bytes, ring/tree latency at alpha s per step. */
double comm_allreduce_s(double bytes, double n, double beta, double alpha);

/* All-reduce with a measured call latency `call_s` (paid even when the
 * bytes are few) instead of NCCL's per-step latency. */
double comm_allreduce_call_s(double bytes, double n, double beta,
                             double call_s);

/* NCCL runs reduce-scatter and all-gather as rings only. */
double comm_reduce_scatter_s(double bytes, double n, double beta, double alpha);
double comm_all_gather_s(double bytes, double n, double beta, double alpha);

/* All-to-all inside one tier. */
double comm_all_to_all_s(double bytes, double n, double beta, double alpha);

/* One send of `bytes` over a link (pipeline stages, context-parallel ring
 * steps, the KV hand-off between serving pools); 0 when bytes <= 0. */
double comm_p2p_s(double bytes, double beta, double alpha);

/* Copies of one token that leave its scale-up domain when it goes to k
 * experts spread evenly over n ranks, g per domain: k (n - g)/n sent
 * token by token; with a dispatcher that forwards inside the domain
 * (DeepEP normal kernels, HybridEP; DeepSeek-V3 report section 3.2.2)
 * once per remote domain holding one of its experts,
 * (D - 1)(1 - (1 - 1/D)^k) for D = n/g domains.  0 when D <= 1. */
double comm_remote_copies(double n, double g, double k, bool forward);

/* The bytes terms of an all-to-all of `bytes` per rank (k copies of each
 * token, one per expert) over n ranks, g per scale-up domain: the share
 * for the g - 1 peers of its domain at beta_in, the copies that leave the
 * domain (comm_remote_copies) at beta_out.  The latency is the caller's:
 * it depends on the dispatcher (NCCL's n - 1 steps, DeepEP's one per
 * remote domain, a serving kernel's measured call). */
double comm_all_to_all_tiers_s(double bytes, double n, double g, double k,
                               bool forward, double beta_in, double beta_out);

/* The same for a forwarding dispatcher when a token's experts lie in at
 * most `reach` of the D = n/g domains (group-limited routing): it reaches
 * reach (1 - (1 - 1/reach)^k) of them, (D - 1)/D of those remote;
 * reach >= D is comm_all_to_all_tiers_s with forward. */
double comm_all_to_all_reach_s(double bytes, double n, double g, double k,
                               double reach, double beta_in, double beta_out);

#endif
