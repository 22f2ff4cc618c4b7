/*
 * steptime.h - time of one optimizer step, its parts, and what follows from
 * it (tokens/s, MFU, HFU, days and GPU-hours to train).
 *
 * The model is built from the hardware's published numbers and a handful
 * of per-accelerator efficiency knobs from the catalog (accel_spec:
 * gemm_frac, gemm_half_flops, attn_frac, hbm_frac, kernel_s) and per-tier
 * bandwidth fractions (system.scaleup_frac, fabric.bw_frac), fitted once
 * against the calibration runs and never per case.
 *
 * Compute (per layer, per microbatch, per accelerator): every GEMM with its
 * shape under TP/SP/CP/EP is timed by a roofline,
 *     t = max(F / (peak * eta(F)), bytes / (hbm * hbm_frac)) + kernel_s,
 *     eta(F) = gemm_frac * F / (F + gemm_half_flops),
 * so small GEMMs run below the measured large-GEMM efficiency; element-wise
 * work (norms, activation, dropout, residual, softmax of materialised
 * scores) is bandwidth-bound.  Fused (flash) attention runs at attn_frac of
 * peak on the work it does (causal: about half the score matrix).  Backward
 * is two GEMMs per forward GEMM (flash attention: 2.5x its forward);
 * recompute adds the forward again (full) or the attention core (selective).
 *
 * Communication: the alpha-beta collectives of comm.h (ring all-reduce
 * 2(n-1)/n S/beta, reduce-scatter and all-gather half that, all-to-all
 * (n-1)/n S/beta; latency 2(n-1) alpha for rings, bounded by a tree's
 * 2 log2(n) alpha).  Groups are placed as Megatron does (tp innermost,
 * then cp, ep inside dp, pp outermost): a group whose ranks stay inside the
 * scale-up domain uses its bandwidth, otherwise the per-GPU NIC share of
 * the fabric divided by oversubscription; data-parallel collectives that
 * span nodes are hierarchical (reduce-scatter in the domain, all-reduce
 * across on 1/g of the data, all-gather back).
 * TP: 2 all-reduces (or reduce-scatter + all-gather with SP) of s b h
 * 16-bit values per layer forward and 2 backward, not overlapped.  PP: one
 * send per virtual-stage boundary each way per microbatch.  DP: gradients
 * once per step (ZeRO 0/1) or per microbatch (ZeRO 2/3), overlapped with
 * the backward of the last microbatch except the last bucket; ZeRO-3 also
 * all-gathers weights forward and backward (overlapped with compute by
 * prefetch; under a live-parameter cap, stack zero3_live_params, a module
 * following one at least the cap is gathered on demand; with the stack's
 * dp_shard_domain ZeRO-3 stays inside the scale-up domain and the domains
 * all-reduce their gradient shards once per step).  With
 * software.offload=optimizer_activations the full-recompute checkpoints
 * go to the host and back over its link beside the compute.  CP: K and V
 * passed around the ring, overlapped with
 * attention.  EP: all-to-all dispatch and combine of the routed tokens per
 * MoE layer, forward and backward, not overlapped.
 *
 * Pipeline (Narayanan et al. 2021 section 2.2): step = m t_mb +
 * (p - 1)/v t_mb + exposed PP/DP communication + optimizer step, where t_mb
 * is one microbatch's forward and backward on the slowest stage.  The
 * optimizer step is bandwidth-bound over the (sharded) model states.
 */
#ifndef LLMPLAN_CORE_STEPTIME_H
#define LLMPLAN_CORE_STEPTIME_H

#include "core/model.h"
#include "core/result.h"
#include "core/spec.h"

/* Roofline time of one GEMM [M x K] * [K x N] repeated `batch` times with
 * elements of `elem_bytes`: FLOPs at `rate` (peak x large-GEMM efficiency),
 * slowed by (flops + half) / flops for small GEMMs, or bytes at HBM
 * bandwidth `bw`, whichever is longer, plus `kernel` seconds. */
double steptime_gemm_s(double rate, double half, double bw, double kernel,
                       double M, double N, double K, double batch,
                       double elem_bytes);

/* Bytes moved per element when the training precision p (8 or 4 bits)
 * casts an activation or gradient, and in *kernels how many kernels the
 * cast takes: the stack's recipe (Transformer Engine: the cast fuses into
 * the op before and writes the 8-bit copy, plus its transpose on Hopper
 * and a second quantization for MX formats), or software.fp8_scaling's
 * torchao tensorwise (4 bytes) and rowwise (6 bytes, 2 kernels); on a
 * stack whose cast_kernel is torchao, FP8 defaults to tensorwise and
 * MXFP8 casts each axis in its own kernel (4 + 2/32 bytes, 2 kernels). */
double steptime_cast_bytes(const struct scenario *sc, enum precision p,
                           double *kernels);

/* Bytes one linear layer's backward moves, and in *kernels the kernels it
 * launches, to rescale the outputs of its two gradient GEMMs (M tokens, N
 * outputs, K inputs: the input gradient M x K and the weight gradient K x
 * N, 16 bits read and written) under torchao's rowwise float8, which runs
 * them as the tensorwise cuBLAS GEMM with unit scales and applies the row
 * scales after it; 0 for every other recipe and precision. */
double steptime_rescale_bytes(const struct scenario *sc, enum precision p,
                              double M, double N, double K, double *kernels);

/* Time per FLOP of fused (flash) attention with heads of d_qk / d_v
 * against heads of 128 (the head dimension of the fused-attention
 * ceilings, accel attn_frac), forward or backward: each score element
 * costs its matmul FLOPs (forward 2(d_qk + d_v), backward 2.5 times that)
 * and one exponential, which takes the special-function units as long as
 * the tensor cores take for ATTN_EXP_FLOPS; small heads spend a larger
 * share of their time on it. */
double steptime_attn_dim_scale(double d_qk, double d_v, bool backward);

/* Bytes the experts' separate element-wise passes move in one MoE layer
 * of one rank, forward or backward, over `copies` routed token copies
 * of activation-half width f and hidden width h (elements of `elem`
 * bytes), with `local` experts on the rank; *kernels the kernels they
 * launch.  ms->act_clamp: the clamp of both activation halves and their
 * re-concatenation before the fused gated activation; ms->expert_bias:
 * the second expert layer's bias, scaled by the routing probability and
 * added expert by expert (Megatron-Core's TEGroupedMLP). */
double steptime_moe_eager_bytes(const struct model_spec *ms, double copies,
                                double f, double h, double elem, double local,
                                bool backward, double *kernels);

/* Fill r->time (and r->bottleneck; warnings unless flags has EVAL_QUIET)
 * for validated sc with shape m; r->memory must be filled. */
void steptime_estimate(const struct scenario *sc, const struct model_shape *m,
                       unsigned flags, struct result *r);

#endif
