/* steptime.c - step time of one training iteration; model in steptime.h. */
#include <math.h>
#include <string.h>

#include "core/comm.h"
#include "core/memory.h"
#include "core/scenario.h"
#include "core/steptime.h"

/* Latency of a collective inside the scale-up domain (NVLink/NVSwitch
 * class; NCCL's small-message all-reduce inside a DGX is ~10 us for 2
 * hops, i.e. a few us per step). */
#define SCALEUP_ALPHA_S 3e-6
/* Element-wise kernels per layer, forward (norms, residuals, dropout,
 * activation, RoPE); backward runs about twice as many. */
#define ELEMWISE_KERNELS_FWD 8.0
/* A mixture-of-experts layer adds its routing, forward: router softmax and
 * top-k, auxiliary loss, token counts, permute (sort + gather), unpermute
 * (scatter + weighted sum) and the count exchange before the all-to-all
 * (Megatron-Core MoE token dispatcher); backward about twice as many. */
#define MOE_KERNELS_FWD 12.0
/* DeepSpeed's CPU-Adam updates 1 billion parameters in 0.22 s on the
 * ZeRO-Offload paper's DGX-2 host (Ren et al. 2021, arXiv 2101.06840,
 * section 5.2 / table 3: 2 x 24-core Xeon Platinum 8168): per core
 * 1e9 / 0.22 / 48.  An accelerator's process gets its node's cores over
 * its accelerators (system host_cores / gpus_per_node). */
#define CPU_ADAM_PARAMS_S_CORE (1e9 / 0.22 / 48)
/* Causal attention: a fused kernel skips the masked upper triangle. */
#define CAUSAL_FRAC 0.5
/* Flash attention backward: 5 matmuls against 2 forward (Dao 2023). */
#define FLASH_BWD_RATIO 2.5
/* Overlap is not free: while a collective runs beside compute, NCCL's
 * kernels hold SMs (a block per channel) and HBM bandwidth, and the
 * compute slows by about this fraction of the time they overlap.  Fitted
 * once with the accelerator knobs (README, Calibration); a calibration
 * harness may define it at build time. */
#ifndef OVERLAP_TAX
#define OVERLAP_TAX 0.28
#endif

/* The part of `comm` that compute lasting `comp` cannot hide: what
 * outlasts it (at least the `tail` that must follow it), plus the
 * slowdown of the compute it overlaps. */
static double exposed(double comm, double comp, double tail)
{
    double hidden = fmin(comm, comp);

    return fmax(comm - comp, tail) + OVERLAP_TAX * hidden;
}

/* ---- the machine as the model sees it ------------------------------ */

struct link {
    double beta;  /* bytes/s per GPU, achieved */
    double alpha; /* s per message */
};

/* A communication group: n ranks, g of them inside each scale-up domain. */
struct group {
    double n, g;
    struct link in, out;
};

struct hw {
    const struct accel_spec *a;
    const struct stack_spec *sw;
    double peak;      /* GEMM peak at the training precision */
    double peak16;    /* 16-bit peak: attention, the output layer */
    double eta;       /* large-GEMM efficiency at `peak`: ceiling x stack */
    double eta16;     /* the same at the 16-bit peak */
    double attn_rate; /* fused attention FLOP/s */
    double half;      /* GEMM size at which efficiency halves, FLOP */
    double kernel;    /* launch + host dispatch per kernel, s */
    double launch;    /* launch alone: a kernel replayed from a CUDA graph */
    double tp_ov;     /* share of TP communication pipelined with GEMMs */
    double ep_ov;     /* share of the MoE all-to-all overlapped */
    enum cuda_graphs graphs;
    bool forward;        /* dispatcher forwards inside the domain (DeepEP) */
    double cast;         /* bytes moved per element cast to 8/4 bits; 0: none */
    double cast_kernels; /* kernels per cast */
    double rescale;      /* bytes per gradient GEMM output element
                            rescaled apart (torchao rowwise); 0: none */
    double rescale_kernels; /* kernels per linear layer's backward */
    double elem;            /* bytes per activation element */
    double bw;              /* achieved HBM bytes/s */
    double domain;          /* scale-up domain size */
    struct link up, out;
};

/* Whether the stack casts to 8 bits with torchao's kernels (stack
 * cast_kernel torchao: torchtitan) rather than Transformer Engine's. */
static bool torchao_casts(const struct scenario *sc)
{
    return strcmp(sc->stack.cast_kernel, "torchao") == 0;
}

/* The FP8 scaling recipe a run uses: its own (software.fp8_scaling), else
 * the stack's: torchtitan without a float8 recipe_name builds torchao's
 * Float8LinearConfig(), dynamic tensorwise (torchtitan @6fc499f
 * components/quantization/float8.py: "Float8 tensorwise scaled training
 * active"); Transformer Engine's own otherwise. */
static enum fp8_scaling fp8_scaling_of(const struct scenario *sc)
{
    if (sc->recipe.fp8_scaling != FP8_SCALING_STACK)
        return sc->recipe.fp8_scaling;
    return torchao_casts(sc) ? FP8_SCALING_TENSOR : FP8_SCALING_STACK;
}

/* Bytes moved per element cast to 8 (or 4) bits, and the kernels the
 * cast takes (steptime_cast_bytes). */
double steptime_cast_bytes(const struct scenario *sc, enum precision p,
                           double *kernels)
{
    const struct accel_spec *a = &sc->accel;
    enum fp8_scaling scaling = fp8_scaling_of(sc);

    *kernels = 1;
    if (p == PREC_MXFP8 && torchao_casts(sc)) {
        /* torchao mx_formats (recipe mxfp8_cublas): one kernel casts along
         * dim0, its read fused into the op before, a second (torchtitan's
         * default mxfp8_dim1_cast_kernel_choice, triton) reads the 16-bit
         * tensor again for dim1; each writes the 8-bit copy and an E8M0
         * scale per 32 (torchao testing/training/roofline_utils.py,
         * get_tensor_memory_traffic_ovhd_s, "mxfp8_cublas", fuse_with_prev:
         * (1) + (2 + 1) bytes, two kernels) */
        *kernels = 2;
        return 1.0 + 2.0 + 1.0 + 2.0 / 32;
    }
    if (p == PREC_FP8 && scaling == FP8_SCALING_TENSOR)
        /* torchao dynamic tensorwise: the tensor's amax must be known
         * before the cast, so the amax pass fuses into the op before and
         * the cast reads the 16-bit tensor again and writes both 8-bit
         * layouts (torchao testing/training/roofline_utils.py,
         * get_tensor_memory_traffic_ovhd_s, "tensorwise", fuse_with_prev:
         * 2 + 2 x 1 bytes) */
        return 2.0 + 2.0;
    if (p == PREC_FP8 && scaling == FP8_SCALING_ROW) {
        /* torchao rowwise: a scale per row along each GEMM's reduction
         * axis, so one kernel writes the dim-0 8-bit copy and a 16-bit
         * transpose (its read fused), a second reads the transpose and
         * writes the dim-1 copy (the same roofline, "rowwise":
         * 1 + 2 + 2 + 1 bytes, two kernels) */
        *kernels = 2;
        return 1.0 + 2.0 + 2.0 + 1.0;
    }
    return p == PREC_FP4     ? 1.0 + 2.0 / 16
           : p == PREC_MXFP8 ? 2.0 + 2.0 / 32
           : strcmp(a->vendor, "NVIDIA") == 0 && a->peak_flops[PREC_MXFP8] > 0
               ? 1.0
               : 2.0;
}

/* torchao's rowwise float8 runs the backward's two GEMMs (input and weight
 * gradients) without fast accumulation (torchao float8/config.py:
 * gemm_config_grad_input and gemm_config_grad_weight default to
 * use_fast_accum False), and without it it calls the tensorwise cuBLAS
 * GEMM with unit scales and multiplies the 16-bit output by the row
 * scales afterwards (float8_ops.py addmm_float8_unwrapped: "the rowwise
 * CUTLASS-based kernel is so slow without fast-accum that we'd rather use
 * the tensorwise cuBLAS-based kernel and do the scaling manually
 * afterwards"), which torch.compile leaves as at least one extra kernel
 * per GEMM (torchao issue #2184): each output, M x K and K x N, read and
 * written in 16 bits (steptime_rescale_bytes). */
double steptime_rescale_bytes(const struct scenario *sc, enum precision p,
                              double M, double N, double K, double *kernels)
{
    *kernels = 0;
    if (p != PREC_FP8 || fp8_scaling_of(sc) != FP8_SCALING_ROW)
        return 0;
    *kernels = 2;
    return (2.0 + 2.0) * (M * K + K * N);
}

/* A power-capped run (hardware.power_limit_w) computes at the clock the
 * cap leaves (spec_power_clock): GEMM and attention rates scale with it,
 * as a share of the nominal peak that MFU keeps as its denominator; HBM,
 * on its own clock, and the links do not. */
static void power_capped_rates(const struct scenario *sc, struct hw *hw)
{
    double clock = spec_power_clock(sc);

    hw->eta *= clock;
    hw->eta16 *= clock;
    hw->attn_rate *= clock;
}

static void hw_init(const struct scenario *sc, struct hw *hw)
{
    const struct accel_spec *a = &sc->accel;
    double up =
        sc->system.scaleup_bps > 0 ? sc->system.scaleup_bps : a->scaleup_bps;
    double nic = sc->fabric.gbps_per_gpu * 1e9 / 8;

    /* software.efficiency_scale: what-if on the compute efficiency */
    double k = sc->efficiency_scale, attn;
    enum precision p = sc->train.precision;
    bool low = p == PREC_FP8 || p == PREC_MXFP8 || p == PREC_FP4;

    hw->a = a;
    hw->sw = &sc->stack;
    hw->peak = a->peak_flops[p];
    hw->eta = spec_scaled_eff(a->gemm_frac * sc->stack.gemm_eff, k);
    hw->peak16 = hw->peak;
    hw->eta16 = hw->eta;
    hw->cast = 0;
    hw->cast_kernels = 0;
    hw->rescale = 0;
    hw->rescale_kernels = 0;
    if (low) {
        /* Transformer Engine runs the linear layers in 8 (or 4) bits and
         * keeps attention, the embedding and the output layer in 16 bits.
         * Activation casts are fused into the op before (LayerNormLinear,
         * the activation function), which then also writes the 8-bit copy
         * and its transpose for the backward: 2 bytes per element more;
         * MXFP8 and NVFP4 add a block scale per 32 or 16 elements
         * (Micikevicius et al. 2022; OCP MX spec 2023).  Only Hopper
         * needs the transpose for tensor-scaled FP8: Blackwell's FP8 GEMMs
         * take every layout, so one 8-bit copy will do, while MX formats
         * scale along the reduction axis and need a second quantization
         * (Transformer Engine docs, "Handling transposes"; Blackwell is
         * NVIDIA's generation with MX tensor cores: other vendors keep the
         * transpose, for want of a source).  Weights are cast once per
         * step (fp8 weight caching), not per microbatch. */
        double frac = a->fp8_gemm_frac > 0 ? a->fp8_gemm_frac : a->gemm_frac;

        /* NVFP4 GEMMs reach their own measured share of the 4-bit peak */
        if (p == PREC_FP4 && a->fp4_gemm_frac > 0)
            frac = a->fp4_gemm_frac;

        hw->eta =
            spec_scaled_eff(frac * sc->stack.gemm_eff * sc->stack.fp8_eff, k);
        if (a->peak_flops[PREC_BF16] > 0) {
            hw->peak16 = a->peak_flops[PREC_BF16];
            hw->eta16 = spec_scaled_eff(a->gemm_frac * sc->stack.gemm_eff, k);
        }
        hw->cast = steptime_cast_bytes(sc, p, &hw->cast_kernels);
        /* per element of one output: M x K = 1, K x N = 0 */
        hw->rescale =
            steptime_rescale_bytes(sc, p, 1, 0, 1, &hw->rescale_kernels);
    }
    /* FlashAttention-2 has no Hopper or Blackwell code path (TMA, wgmma,
     * tcgen05): on those it reaches its own, lower ceiling (FA3 README:
     * 370 / 322 TFLOP/s fwd / bwd on H100 against FA3's 648 / 561). */
    attn = strcmp(sc->stack.attn_kernel, "fa2") == 0 && a->attn_fa2_frac > 0
               ? a->attn_fa2_frac
               : a->attn_frac;
    hw->attn_rate = hw->peak16 * spec_scaled_eff(sc->stack.attn_eff * attn, k);
    power_capped_rates(sc, hw);
    hw->half = a->gemm_half_flops;
    hw->kernel = a->kernel_s + sc->stack.kernel_s;
    hw->launch = a->kernel_s;
    /* Recipe facts (software.*) override the stack's typical recipe:
     * Megatron-Core --overlap-moe-expert-parallel-comm (1F1B all-to-all
     * overlap) and --tp-comm-overlap turn the overlap on whole. */
    hw->tp_ov = sc->recipe.tp_overlap == RECIPE_YES  ? 1
                : sc->recipe.tp_overlap == RECIPE_NO ? 0
                                                     : sc->stack.tp_overlap;
    hw->ep_ov = sc->recipe.a2a_overlap == RECIPE_YES  ? 1
                : sc->recipe.a2a_overlap == RECIPE_NO ? 0
                                                      : sc->stack.ep_overlap;
    /* DualPipe runs a forward chunk beside a backward chunk and hides
     * each one's dispatch and combine under the other's compute
     * (DeepSeek-V3 report section 3.2.1, figure 4) */
    if (sc->recipe.schedule == SCHED_DUALPIPE &&
        sc->recipe.a2a_overlap == RECIPE_STACK)
        hw->ep_ov = 1;
    hw->graphs = sc->recipe.graphs;
    hw->forward = sc->recipe.dispatcher == DISPATCH_DEEPEP ||
                  sc->recipe.dispatcher == DISPATCH_HYBRIDEP;
    hw->elem = (p == PREC_FP32 || p == PREC_TF32) ? 4 : 2;
    hw->bw = a->hbm_bps * a->hbm_frac;
    hw->domain = (double)sc->system.scaleup_domain;
    hw->out.beta = nic * sc->fabric.bw_frac / sc->oversubscription;
    hw->out.alpha = sc->fabric.latency_s;
    /* Without a scale-up fabric, GPUs in a node talk over the NIC path. */
    hw->up.beta = up > 0 ? up * sc->system.scaleup_frac : hw->out.beta;
    hw->up.alpha = up > 0 ? SCALEUP_ALPHA_S : hw->out.alpha;
}

/* n ranks spaced `stride` apart in rank order (Megatron: tp innermost). */
static void group_init(const struct hw *hw, double n, double stride,
                       struct group *gr)
{
    double per_domain = floor(hw->domain / stride);

    gr->n = n;
    gr->g = per_domain < 1 ? 1 : (per_domain > n ? n : per_domain);
    gr->in = hw->up;
    gr->out = hw->out;
}

/* Hierarchical collectives: inside the domain first, then across domains
 * on 1/g of the data (models.md section 3). */
static double group_allreduce(const struct group *gr, double bytes)
{
    double across = gr->n / gr->g;

    if (across <= 1)
        return comm_allreduce_s(bytes, gr->n, gr->in.beta, gr->in.alpha);
    return comm_reduce_scatter_s(bytes, gr->g, gr->in.beta, gr->in.alpha) +
           comm_allreduce_s(bytes / gr->g, across, gr->out.beta,
                            gr->out.alpha) +
           comm_all_gather_s(bytes, gr->g, gr->in.beta, gr->in.alpha);
}

static double group_reduce_scatter(const struct group *gr, double bytes)
{
    double across = gr->n / gr->g;

    if (across <= 1)
        return comm_reduce_scatter_s(bytes, gr->n, gr->in.beta, gr->in.alpha);
    return comm_reduce_scatter_s(bytes, gr->g, gr->in.beta, gr->in.alpha) +
           comm_reduce_scatter_s(bytes / gr->g, across, gr->out.beta,
                                 gr->out.alpha);
}

/* A data-parallel / ZeRO reduce-scatter (or all-gather: the same cost) of
 * `bytes` per rank over the group, as the stack runs it (stack dp_flat).
 * Hierarchical: inside the scale-up domain, then across domains on 1/g of
 * the data (group_reduce_scatter): (g - 1) + (n/g - 1) steps.  Flat: one
 * NCCL ring over every rank of the group, which is what DeepSpeed ZeRO-3
 * (zero_hpz_partition_size 1) and FSDP / FSDP2 sharding over the whole DP
 * mesh ask of NCCL (its reduce-scatter and all-gather are rings only:
 * NCCL docs, "Collective Operations").  NCCL lays one ring per NIC, so a
 * node's NICs carry the ring together: (n-1)/n of the bytes at the
 * domain's aggregate scale-out bandwidth, in one pass.  What the flat ring
 * adds is latency: it is n - 1 steps long, n - D of them inside a domain
 * and D - 1 across the D domains (NCCL's own cost model, src/graph/
 * tuning.cc: intra-node steps at the NVLink latency, inter-node ones at
 * the network's).  At thousands of ranks those steps outlast the
 * shrinking shard of a layer: ZeRO-3 at scale turns latency-bound (MiCS,
 * Zhang et al. 2022, section 2; ZeRO++, Wang et al. 2023, section 1).
 * d21b: this is the DP ring to move into core/comm.c. */
static double dp_ring_s(const struct group *gr, double bytes, bool flat)
{
    double n = gr->n, D = gr->n / gr->g, beta;

    if (!flat || D <= 1 || bytes <= 0)
        return group_reduce_scatter(gr, bytes);
    beta = fmin(gr->g * gr->out.beta, gr->in.beta);
    return comm_reduce_scatter_s(bytes, n, beta, 0) + (n - D) * gr->in.alpha +
           (D - 1) * gr->out.alpha;
}

/* An MoE dispatch (or combine) of `bytes` per rank: k copies of each
 * token, one per routed expert.  The all-to-all sends every copy to its
 * rank.  A forwarding dispatcher (DeepEP, HybridEP: DeepSeek-V3 report
 * section 3.2.2; DeepEP README, "normal kernels") sends a token across the
 * fabric once per remote domain that holds one of its experts and fans it
 * out over the scale-up links there: with k experts spread evenly over D
 * domains a token reaches (D - 1)(1 - (1 - 1/D)^k) remote domains on
 * average, against k (D - 1)/D copies. */
static double group_all_to_all(const struct group *gr, double bytes, double k,
                               bool forward, double reach)
{
    double n = gr->n, g = gr->g, D = n / g;

    if (n <= 1 || bytes <= 0)
        return 0;
    if (D <= 1)
        return comm_all_to_all_s(bytes, n, gr->in.beta, gr->in.alpha);
    if (forward && k > 1 && reach < D)
        return comm_all_to_all_reach_s(bytes, n, g, k, reach, gr->in.beta,
                                       gr->out.beta) +
               (D - 1) * gr->out.alpha;
    return comm_all_to_all_tiers_s(bytes, n, g, k, forward && k > 1,
                                   gr->in.beta, gr->out.beta) +
           (forward ? (D - 1) : (n - 1)) * gr->out.alpha;
}

/* Domains of the expert-parallel group one token's experts may lie in:
 * all D of them, or with group-limited routing (model.moe_groups G,
 * model.moe_group_topk t; the groups are contiguous experts, so
 * contiguous ranks) the t chosen groups' domains: t D/G when a group
 * spans whole domains (DeepSeek-V3: 8 groups over 8 nodes, t = 4, "at
 * most 4 nodes", report section 2.1.2), else the domains t groups land in
 * among D, D (1 - (1 - 1/D)^t). */
static double routing_reach(const struct model_spec *ms, double D)
{
    double G = (double)ms->moe_groups, t = (double)ms->moe_group_topk;

    if (!(G > 0 && t > 0) || D <= 1)
        return D;
    if (D / G >= 1)
        return fmin(D, t * D / G);
    return D * -expm1(t * log1p(-1 / D));
}

/* ---- compute --------------------------------------------------------- */

double steptime_gemm_s(double rate, double half, double bw, double kernel,
                       double M, double N, double K, double batch,
                       double elem_bytes)
{
    double flops = 2 * M * N * K * batch;
    double bytes = elem_bytes * (M * K + K * N + M * N) * batch;
    double t_c, t_m;

    if (flops <= 0)
        return 0;
    t_c = flops / rate * (flops + half) / flops;
    t_m = bytes / bw;
    return (t_c > t_m ? t_c : t_m) + kernel;
}

static double gemm_at(const struct hw *hw, bool low, double M, double N,
                      double K, double batch)
{
    double rate = low ? hw->peak * hw->eta : hw->peak16 * hw->eta16;

    return steptime_gemm_s(rate, hw->half, hw->bw, hw->kernel, M, N, K, batch,
                           low && hw->cast > 0 ? 1 : hw->elem);
}

/* Casting a tensor of n elements to 8 or 4 bits (one fused kernel). */
static double cast_s(const struct hw *hw, double n)
{
    return hw->cast > 0 ? n * hw->cast / hw->bw + hw->cast_kernels * hw->kernel
                        : 0;
}

/* The backward's rescale of its two gradient GEMMs' outputs under
 * torchao rowwise float8 (steptime_rescale_bytes), `batch` GEMMs of each. */
static double rescale_s(const struct hw *hw, double M, double N, double K,
                        double batch)
{
    if (!(hw->rescale > 0))
        return 0;
    return batch * ((M * K + K * N) * hw->rescale / hw->bw +
                    hw->rescale_kernels * hw->kernel);
}

/* A linear layer's forward time and its backward (data and weight
 * gradients), at the training precision: in 8 or 4 bits the activation
 * and the weight are cast forward, the output gradient backward. */
static void gemm_fb(const struct hw *hw, double M, double N, double K,
                    double batch, double *f, double *b)
{
    *f += gemm_at(hw, true, M, N, K, batch) + cast_s(hw, M * K * batch);
    *b += gemm_at(hw, true, M, K, N, batch) +
          gemm_at(hw, true, K, N, M, batch) + cast_s(hw, M * N * batch) +
          rescale_s(hw, M, N, K, batch);
}

/* The same in 16 bits whatever the training precision (attention core,
 * output layer). */
static void gemm16_fb(const struct hw *hw, double M, double N, double K,
                      double batch, double *f, double *b)
{
    *f += gemm_at(hw, false, M, N, K, batch);
    *b +=
        gemm_at(hw, false, M, K, N, batch) + gemm_at(hw, false, K, N, M, batch);
}

static double bytes_s(const struct hw *hw, double bytes)
{
    return bytes / hw->bw;
}

/* Attention's exponential against its matmuls: H100 SXM5 does 989 TFLOP/s
 * of 16-bit matmul but 3.9 TFLOP/s of special functions (exp2), so one
 * exponential takes as long as 989 / 3.9 = 254 tensor-core FLOPs
 * (FlashAttention-3, Shah et al. 2024, arXiv 2407.08608, section 3).  The
 * softmax's exponential per score element, not overlapped with the
 * matmuls, reproduces FA3's measured rates at head dimensions 64 and 256
 * against 128 within 3% (tests: check_steptime.c attn_dim_cases).
 * Blackwell's ratio is twice as steep, but its kernels emulate part of
 * the exponentials on the FMA units (FlashAttention-4) and Blackwell
 * Ultra doubles the exponential rate: no measurement at another head
 * dimension tells them apart, so every accelerator keeps H100's. */
#define ATTN_EXP_FLOPS (989.0 / 3.9)
/* The head dimension the fused-attention ceilings (attn_frac) were
 * measured at: FA3's and cuDNN's headline figures, and most models run. */
#define ATTN_REF_HEAD_DIM 128.0

/* Per score element: matmul FLOPs (forward QK^T and PV, 2(d_qk + d_v);
 * backward FLASH_BWD_RATIO times that) plus one exponential each way (the
 * backward recomputes the probabilities). */
double steptime_attn_dim_scale(double d_qk, double d_v, bool backward)
{
    double ratio = backward ? FLASH_BWD_RATIO : 1.0;
    double mm = ratio * 2 * (d_qk + d_v);
    double mm_ref = ratio * 4 * ATTN_REF_HEAD_DIM;

    if (!(mm > 0))
        return 1.0;
    return (1 + ATTN_EXP_FLOPS / mm) / (1 + ATTN_EXP_FLOPS / mm_ref);
}

/* One transformer layer, one microbatch, one accelerator. */
struct layer_time {
    double f, b;       /* compute forward / backward */
    double attn_f;     /* attention core forward (selective recompute) */
    double last_f;     /* its last GEMM's forward: the dense FFN down
                          projection (checkpoint early stop) */
    double rec_f;      /* what software.recompute_modules repeats */
    double tp_f, tp_b; /* tensor-parallel communication */
    double cp_f, cp_b; /* context-parallel ring, after overlap */
    double ep_f, ep_b; /* expert all-to-all */
};

/* Q, K, V and output projections; MLA goes through its latents (the
 * down projections replicated across TP, the up projections split) */
static void attention_projections(const struct model_shape *m,
                                  const struct hw *at, double T, double heads,
                                  double kv, struct layer_time *lt,
                                  double *col_f, double *col_b)
{
    double h = m->h, dq = m->d_qk, dv = m->d_v;

    if (m->mla) {
        if (m->q_lora > 0) {
            gemm_fb(at, T, m->q_lora, h, 1, &lt->f, &lt->b);
            gemm_fb(at, T, heads * dq, m->q_lora, 1, col_f, col_b);
        } else {
            gemm_fb(at, T, heads * dq, h, 1, col_f, col_b);
        }
        gemm_fb(at, T, m->kv_lora + m->rope, h, 1, &lt->f, &lt->b);
        gemm_fb(at, T, heads * (m->d + dv), m->kv_lora, 1, col_f, col_b);
    } else {
        gemm_fb(at, T, heads * dq + kv * (dq + dv), h, 1, col_f, col_b);
    }
    gemm_fb(at, T, h, heads * dv, 1, &lt->f, &lt->b);
}

/* attention core, 16-bit: local queries against every key (ring with
 * CP) */
static void attention_core(const struct scenario *sc,
                           const struct model_shape *m, const struct hw *at,
                           double *attn_f, double *attn_b)
{
    const struct layout *lay = &sc->layout;
    double t = (double)lay->tp, c = (double)lay->cp;
    double b = (double)lay->microbatch, s = (double)sc->train.seq_len;
    double sc_len = s / c, heads = m->a / t;
    double dq = m->d_qk, dv = m->d_v;

    if (attention_materialised(sc)) {
        double n_scores = b * heads * sc_len * s;

        gemm16_fb(at, sc_len, s, dq, b * heads, attn_f, attn_b);
        gemm16_fb(at, sc_len, dv, s, b * heads, attn_f, attn_b);
        /* scale-mask-softmax (read 2, write 2) and dropout (read 2,
         * write 2, mask 1) forward; their backward about 11 bytes */
        *attn_f += bytes_s(at, 9 * n_scores) + 2 * at->kernel;
        *attn_b += bytes_s(at, 11 * n_scores) + 2 * at->kernel;
    } else {
        double flops = 2 * b * heads * sc_len * s * (dq + dv) * CAUSAL_FRAC;

        *attn_f =
            flops / at->attn_rate * steptime_attn_dim_scale(dq, dv, false) +
            at->kernel;
        *attn_b = FLASH_BWD_RATIO * flops / at->attn_rate *
                      steptime_attn_dim_scale(dq, dv, true) +
                  at->kernel;
    }
}

/* gpt-oss's experts as Megatron-Core @92c8482 (the Megatron-Bridge 25.11
 * pin) runs them.  The clamp (fusions/fused_bias_geglu.py
 * weighted_bias_quick_geglu_impl, activation_func_clamp_value): each half
 * of the first layer's output clamped (read and write f each) and the two
 * concatenated again (read and write 2f) before the fused activation:
 * 8f per copy, 3 kernels; backward each clamp's gradient (gradient and
 * input in, gradient out: 3f each) and the concatenation of the halves'
 * gradients (4f): 10f, 3 kernels.  The second layer's bias
 * (transformer/moe/experts.py TEGroupedMLP._apply_bias, skip_bias_add):
 * per local expert bias x probability (write h) added to its rows (read
 * 2h, write h), then one cat (read and write h): 6h, 2 kernels per expert
 * and the cat; backward the bias gradient (g x p written, summed: 3h) and
 * the probability's (g x b written, summed over h: 3h), 4 kernels per
 * expert.  The first layer's bias rides its GEMM's epilogue (skip_bias_add
 * off): nothing apart. */
double steptime_moe_eager_bytes(const struct model_spec *ms, double copies,
                                double f, double h, double elem, double local,
                                bool backward, double *kernels)
{
    double per_copy = 0;

    *kernels = 0;
    if (ms->act_clamp) {
        per_copy += (backward ? 10 : 8) * f;
        *kernels += 3;
    }
    if (ms->expert_bias) {
        per_copy += 6 * h;
        *kernels += backward ? 4 * local : 2 * local + 1;
    }
    return per_copy * copies * elem;
}

/* Kernel launches a grouped expert GEMM (one of fc1 or fc2, one
 * direction) makes beyond its first: none for one grouped kernel; one per
 * further local expert for a stack that issues a GEMM per expert
 * (moe_gemm_per_expert: Transformer Engine GroupedLinear loops cuBLAS over
 * the experts, nvte_multi_stream_cublas_gemm).  Forward runs fc1 and fc2,
 * backward their data and weight gradients: 2 and 4 grouped GEMMs.  Each
 * launch pays the dispatch of the scope it runs in (a full-layer CUDA
 * graph replays them at launch cost). */
static double expert_gemm_launches(const struct scenario *sc, double local)
{
    return local > 1 ? sc->stack.moe_gemm_per_expert * (local - 1) : 0;
}

/* The experts' separate element-wise passes (steptime_moe_eager_bytes)
 * on the busiest rank's `copies` routed token copies. */
static void moe_eager_time(const struct scenario *sc, const struct hw *hw,
                           double copies, double f, double h, double local,
                           struct layer_time *lt)
{
    const struct model_spec *ms = &sc->model;
    double k_f, k_b, fwd, bwd;

    fwd = steptime_moe_eager_bytes(ms, copies, f, h, hw->elem, local, false,
                                   &k_f);
    bwd =
        steptime_moe_eager_bytes(ms, copies, f, h, hw->elem, local, true, &k_b);
    lt->f += bytes_s(hw, fwd) + k_f * hw->kernel;
    lt->b += bytes_s(hw, bwd) + k_b * hw->kernel;
}

/* The routed (and shared) experts of a mixture-of-experts layer: compute
 * into lt and the column-parallel sums, the all-to-all into lt->ep_f/ep_b;
 * returns the element-wise bytes of the forward pass. */
static double moe_ffn_time(const struct scenario *sc,
                           const struct model_shape *m, const struct hw *hw,
                           const struct hw *rt, double T, struct layer_time *lt,
                           double *col_f, double *col_b)
{
    const struct layout *lay = &sc->layout;
    double t = (double)lay->tp, c = (double)lay->cp, e = (double)lay->ep;
    double h = m->h, elem = hw->elem;
    double f_width, up_width, ew_f;
    struct group gr;
    /* Routed experts: E/ep on this rank, split etp ways; with EP folded
     * over TP (etp = 1) each rank routes its 1/t share of the tokens
     * (sequence parallel).  Grouped GEMMs, one per local expert. */
    double etp = layout_expert_tp(lay), local = m->experts / e;
    double T_moe = T * etp / t;
    /* the busiest rank sets the pace: dropless routing gives it the
     * stack's imbalance times the even share, token drop pads every
     * expert to its capacity (Megatron-Core --moe-expert-capacity-
     * factor with --moe-pad-expert-input-to-capacity) */
    double load = spec_moe_load(
        sc->train.moe_capacity,
        spec_routing_imbalance(&sc->recipe, sc->stack.moe_imbalance),
        m->experts, m->top_k, e);
    double per_expert = load * T_moe * m->top_k * e / m->experts;
    double shared_up = (m->gated ? 2 : 1) * m->f_expert * m->shared / t;

    f_width = m->f_expert;
    up_width = (m->gated ? 2 : 1) * f_width / etp;
    gemm16_fb(rt, T, m->experts, h, 1, &lt->f, &lt->b);
    gemm_fb(hw, per_expert, up_width, h, local, col_f, col_b);
    gemm_fb(hw, per_expert, h, f_width / etp, local, &lt->f, &lt->b);
    if (m->shared > 0) {
        gemm_fb(hw, T, shared_up, h, 1, &lt->f, &lt->b);
        gemm_fb(hw, T, h, f_width * m->shared / t, 1, &lt->f, &lt->b);
    }
    /* activation on k routed copies, permute and unpermute copies */
    ew_f = (m->gated ? 3 : 2) *
               (load * T_moe * m->top_k * f_width / etp +
                T * m->shared * f_width / t) *
               elem +
           4 * load * T_moe * m->top_k * h * elem;
    /* dispatch and combine: each rank sends its sequence-parallel
     * share of the routed tokens (T/t of them, k copies) to ep ranks
     * etp apart (t*c apart when the experts split like the dense
     * layers, whose etp ranks then gather them over the scale-up
     * domain); a stack that overlaps one microbatch's all-to-all with
     * another's compute hides its share ep_overlap */
    group_init(hw, e, etp == t ? t * c : etp, &gr);
    lt->ep_f = 2 * group_all_to_all(&gr, load * T / t * m->top_k * h * elem,
                                    m->top_k, hw->forward,
                                    routing_reach(&sc->model, gr.n / gr.g));
    if (etp > 1) {
        struct group tpg;

        group_init(hw, etp, 1, &tpg);
        lt->ep_f += 2 * group_reduce_scatter(&tpg, T * m->top_k * h * elem);
    }
    lt->ep_b = lt->ep_f;
    lt->f += MOE_KERNELS_FWD * rt->kernel;
    lt->b += 2 * MOE_KERNELS_FWD * rt->kernel;
    lt->f += 2 * expert_gemm_launches(sc, local) * hw->kernel;
    lt->b += 4 * expert_gemm_launches(sc, local) * hw->kernel;
    moe_eager_time(sc, hw, per_expert * local, f_width / etp, h, local, lt);
    return ew_f;
}

/* The forward work selective recomputation repeats for the modules the
 * recipe names (software.recompute_modules; Megatron-Core
 * --recompute-modules, transformer_config.py): the attention core
 * (attn_f, at the attention scope's dispatch); MLA's query and key-value
 * up projections from their latents and RoPE applied to the query and
 * key positional parts (mla_up_proj: "output-discarding" checkpoints, the
 * latents kept); the routed experts' activation, which reads the fc1
 * output of every routed copy (2f, gated) and writes f, cast again to 8
 * bits in a low-precision run (moe_act); a dense layer's MLP, both GEMMs
 * and the activation (mlp; not the MoE layers, which Megatron-Core
 * recomputes only under "moe").  One layer, one microbatch, on the kernel
 * dispatch of the scope each module runs in. */
static double recompute_modules_time(const struct scenario *sc,
                                     const struct model_shape *m,
                                     const struct hw *hw, const struct hw *at,
                                     bool moe, double T, double attn_f)
{
    unsigned mask = spec_recompute_mask(&sc->recipe);
    double t = (double)sc->layout.tp, heads = m->a / t, elem = hw->elem;
    double rec = 0, unused = 0;

    if (mask & RECMOD_BIT_CORE_ATTN)
        rec += attn_f;
    if ((mask & RECMOD_BIT_MLA_UP) && m->mla) {
        if (m->q_lora > 0)
            gemm_fb(at, T, heads * m->d_qk, m->q_lora, 1, &rec, &unused);
        gemm_fb(at, T, heads * (m->d + m->d_v), m->kv_lora, 1, &rec, &unused);
        /* RoPE on the query's and the shared key's positional parts */
        rec += bytes_s(at, 2 * T * (heads + 1) * m->rope * elem) + at->kernel;
    }
    if ((mask & RECMOD_BIT_MOE_ACT) && moe) {
        double load = spec_moe_load(
            sc->train.moe_capacity,
            spec_routing_imbalance(&sc->recipe, sc->stack.moe_imbalance),
            m->experts, m->top_k, (double)sc->layout.ep);
        /* the rank's routed copies: its share T/t of the tokens, k each */
        double n = load * T / t * m->top_k * m->f_expert;

        rec += bytes_s(hw, ((m->gated ? 2 : 1) + 1) * n * elem) + hw->kernel +
               cast_s(hw, n);
    }
    if ((mask & RECMOD_BIT_MLP) && !moe) {
        double up = (m->gated ? 2 : 1) * m->f / t;

        gemm_fb(hw, T, up, m->h, 1, &rec, &unused);
        gemm_fb(hw, T, m->h, m->f / t, 1, &rec, &unused);
        rec +=
            bytes_s(hw, (m->gated ? 3 : 2) * T * m->f / t * elem) + hw->kernel;
    }
    return rec;
}

static void layer_time(const struct scenario *sc, const struct model_shape *m,
                       const struct hw *hw_in, bool moe, struct layer_time *lt)
{
    const struct layout *lay = &sc->layout;
    double t = (double)lay->tp, c = (double)lay->cp;
    double b = (double)lay->microbatch, s = (double)sc->train.seq_len;
    double sc_len = s / c, T = b * sc_len;
    double h = m->h, heads = m->a / t, kv = (m->mla ? m->a : m->a_kv) / t;
    double dq = m->d_qk, dv = m->d_v;
    double elem = hw_in->elem, repl = lay->sequence_parallel ? t : 1;
    double attn_f = 0, attn_b = 0, ew_f, up_width, f_width, tp_hide;
    double col_f = 0, col_b = 0; /* column-parallel GEMMs (QKV, FFN up) */
    struct group gr;
    /* CUDA graphs replay the kernels of their scope without host dispatch
     * (Megatron-Core --cuda-graph-scope attn, moe_router, moe_preprocess;
     * full: the whole layer, --cuda-graph-impl local, which dropless MoE
     * cannot capture for its data-dependent shapes). */
    struct hw whole = *hw_in, at, rt;
    const struct hw *hw = &whole;

    if (hw_in->graphs == GRAPHS_FULL)
        whole.kernel = hw_in->launch;
    at = rt = whole;
    if (hw_in->graphs >= GRAPHS_ATTN)
        at.kernel = hw_in->launch;
    if (hw_in->graphs >= GRAPHS_ROUTER)
        rt.kernel = hw_in->launch;

    lt->f = lt->b = lt->last_f = 0;
    attention_projections(m, &at, T, heads, kv, lt, &col_f, &col_b);

    attention_core(sc, m, &at, &attn_f, &attn_b);
    lt->attn_f = attn_f;
    lt->rec_f = recompute_modules_time(sc, m, hw, &at, moe, T, attn_f);
    lt->f += attn_f;
    lt->b += attn_b;

    /* FFN: dense, or router + routed experts + shared experts */
    lt->ep_f = lt->ep_b = 0;
    if (!moe) {
        double down_f = 0, down_b = 0;

        f_width = m->f;
        up_width = (m->gated ? 2 : 1) * f_width / t;
        gemm_fb(hw, T, up_width, h, 1, &col_f, &col_b);
        gemm_fb(hw, T, h, f_width / t, 1, &down_f, &down_b);
        lt->f += down_f;
        lt->b += down_b;
        lt->last_f = down_f;
        ew_f = (m->gated ? 3 : 2) * T * f_width / t * elem;
    } else {
        ew_f = moe_ffn_time(sc, m, hw, &rt, T, lt, &col_f, &col_b);
    }

    /* element-wise: 2 layernorms (read + write), 2 bias-dropout-residual
     * (read 2, write 1, mask 0.5) = 11 passes over s*b*h, split by TP only
     * with sequence parallelism; backward reads and writes about twice */
    ew_f += 11 * T * h * elem / repl;
    /* half of them (the input norm, the residual) in the attention block */
    lt->f +=
        bytes_s(hw, ew_f) + ELEMWISE_KERNELS_FWD / 2 * (hw->kernel + at.kernel);
    lt->b +=
        bytes_s(hw, 2 * ew_f) + ELEMWISE_KERNELS_FWD * (hw->kernel + at.kernel);

    lt->f += col_f;
    lt->b += col_b;
    if (moe) {
        double o = hw->ep_ov;

        lt->ep_f = (1 - o) * lt->ep_f + o * exposed(lt->ep_f, lt->f, 0);
        lt->ep_b = (1 - o) * lt->ep_b + o * exposed(lt->ep_b, lt->b, 0);
    }

    /* TP: two all-reduces (or RS + AG pairs with SP) each way.  Backward,
     * Megatron overlaps the input-gradient reduction of each column-
     * parallel layer with its weight-gradient GEMM (and, with SP, the
     * re-gather of its input with the data-gradient GEMM), so only what
     * outlasts those GEMMs is exposed (Korthikanti 2022 Table 4: backward
     * takes ~1.55x forward, not 2x); a stack whose TP runs its backward
     * collectives in order with the GEMMs (tp_bwd_exposed: PyTorch DTensor
     * TP, each functional collective waited on where autograd needs it)
     * hides none of them.  Forward, a stack with TP comm
     * overlap (Transformer Engine userbuffers, async-TP) pipelines the
     * collectives with the GEMMs around them for its share tp_overlap. */
    group_init(hw, t, 1, &gr);
    lt->tp_f = 2 * group_allreduce(&gr, T * h * elem);
    tp_hide = hw->tp_ov;
    lt->tp_b = (1 - tp_hide) * ((1 - sc->stack.tp_bwd_exposed) *
                                    exposed(lt->tp_f, col_b, 0) +
                                sc->stack.tp_bwd_exposed * lt->tp_f) +
               tp_hide * exposed(lt->tp_f, lt->b, 0);
    lt->tp_f = (1 - tp_hide) * lt->tp_f + tp_hide * exposed(lt->tp_f, lt->f, 0);

    /* CP: K and V chunks around the ring, overlapped with attention */
    lt->cp_f = lt->cp_b = 0;
    if (lay->cp > 1) {
        double kv_bytes = T * kv * (dq + dv) * elem;
        double ring;

        group_init(hw, c, t, &gr);
        ring = (gr.n / gr.g > 1)
                   ? (c - 1) * comm_p2p_s(kv_bytes, gr.out.beta, gr.out.alpha)
                   : (c - 1) * comm_p2p_s(kv_bytes, gr.in.beta, gr.in.alpha);
        lt->cp_f = exposed(ring, attn_f, 0);
        lt->cp_b = exposed(2 * ring, attn_b, 0);
    }
}

/* ---- the step ---------------------------------------------------------- */

/* One microbatch on the busiest pipeline stage, split into its parts. */
struct stage_time {
    double layers;     /* transformer layers on the stage (ceil(L/pp)) */
    double f, b;       /* layer compute, forward / backward */
    double rec;        /* recomputation */
    double tp, cp, ep; /* exposed communication */
    double head_f, head_b, head_tp; /* embedding, output layer, loss */
    double mtp_layers, mtp_heads;   /* MTP modules on the stage */
};

/* Where the MTP modules run: on the last stage, which a pipeline layout
 * gives fewer decoder layers to make room for them (Megatron-Core
 * --pipeline-model-parallel-layout; Megatron-Bridge's DeepSeek-V3 layouts
 * put 61 layers + MTP + loss on 16 stages as 4 decoder layers each and 1 +
 * MTP + loss on the last).  The busiest stage holds ceil(L/pp) decoder
 * layers, so the last has pp ceil(L/pp) - L slots spare: MTP layers
 * beyond them lengthen the busiest stage, and the MTP heads (projection,
 * output layer, loss) do unless a slot is left for them.  Without
 * pipelining all of it runs on the one stage. */
static void mtp_on_stage(const struct scenario *sc, const struct model_shape *m,
                         struct stage_time *st)
{
    double p = (double)sc->layout.pp;
    double spare = p > 1 ? p * ceil(m->L / p) - m->L : 0;

    st->mtp_layers = fmax(0, m->mtp - spare);
    st->mtp_heads = m->mtp > 0 && spare - m->mtp < 1 ? m->mtp : 0;
}

/* Checkpoint early stop (stack ckpt_early_stop, software.
 * checkpoint_early_stop): PyTorch's non-reentrant activation checkpointing
 * from torch 2.1 on stops recomputing a block as soon as every tensor its
 * backward saved is back (torch.utils.checkpoint, set_checkpoint_early_stop,
 * on by default since pytorch/pytorch PR #96866, 2023-03, after the 2.0
 * branch cut).  Autograd saves an op's inputs before the op runs (the
 * generated VariableType code sets up the backward node, saving inputs,
 * then dispatches), so the last saved tensors of a dense block are the
 * FFN down projection's input and weight, and the recompute stops before
 * that GEMM: it and what follows it (the residual add, a TP reduction)
 * are not recomputed.  The recompute time a dense layer saves: its down
 * projection's forward; an MoE layer's tail (unpermute, combine) is left
 * whole for want of a source on what it saves. */
static double early_stop_skip(const struct scenario *sc, double dense_l,
                              const struct layer_time *dense)
{
    if (!spec_ckpt_early_stop(&sc->recipe, sc->stack.ckpt_early_stop))
        return 0;
    return dense_l * dense->last_f;
}

/* The share of a dense layer's forward TP communication full recompute
 * repeats: the forward reduces twice (after the attention output and
 * the FFN down projections); an early stop skips the second. */
static double early_stop_tp_share(const struct scenario *sc)
{
    return spec_ckpt_early_stop(&sc->recipe, sc->stack.ckpt_early_stop) ? 0.5
                                                                        : 1;
}

/* What the stack's own selective recompute repeats of a forward f whose
 * attention core takes attn: the attention core (Korthikanti 2022 section
 * 5) unless the policy saves the fused kernel's output
 * (spec_selective_saves_attention: torchtitan's per-op policy), and what
 * the policy does not keep of the rest (selective_keep). */
static double stack_selective_rec(const struct scenario *sc, double f,
                                  double attn)
{
    double rec = (1 - sc->stack.selective_keep) * (f - attn);

    return spec_selective_saves_attention(sc) ? rec : rec + attn;
}

/* The TP collectives a per-op selective recompute runs again (stack
 * per_op_sac: torchtitan's _save_list names reduce_scatter_tensor, not
 * all_gather_into_tensor or all_reduce): with sequence parallelism the
 * forward's all-gathers, half its TP traffic (an all-reduce is a
 * reduce-scatter and an all-gather), without it the all-reduces, all of
 * it; exposed as the forward's are (tp_f, after its overlap). */
static double per_op_sac_regather(const struct scenario *sc, double tp_f)
{
    if (sc->stack.per_op_sac < 0.5 || spec_recompute_mask(&sc->recipe) != 0)
        return 0;
    return sc->layout.sequence_parallel ? tp_f / 2 : tp_f;
}

/* The layers of the busiest stage for one microbatch.  Stages are
 * balanced (they differ by at most one layer), so the busiest holds
 * ceil(L/pp); MoE and dense layers mix in the model's proportion. */
static void stage_layers(const struct scenario *sc, const struct model_shape *m,
                         const struct hw *hw, struct stage_time *st)
{
    struct layer_time dense = {0}, moe = {0};
    double moe_l, dense_l;

    mtp_on_stage(sc, m, st);
    st->layers = ceil(m->L / (double)sc->layout.pp);
    moe_l = st->layers * (m->moe_layers / m->L) +
            (m->experts > 0 ? st->mtp_layers : 0);
    st->layers += st->mtp_layers;
    dense_l = st->layers - moe_l;
    layer_time(sc, m, hw, false, &dense);
    if (moe_l > 0)
        layer_time(sc, m, hw, true, &moe);

    st->f = dense_l * dense.f + moe_l * moe.f;
    st->b = dense_l * dense.b + moe_l * moe.b;
    st->tp =
        dense_l * (dense.tp_f + dense.tp_b) + moe_l * (moe.tp_f + moe.tp_b);
    st->cp =
        dense_l * (dense.cp_f + dense.cp_b) + moe_l * (moe.cp_f + moe.cp_b);
    st->ep = moe_l * (moe.ep_f + moe.ep_b);
    switch (sc->layout.recompute) {
    case RECOMPUTE_FULL:
        /* the whole forward again, its communication included, but for
         * what a checkpoint that stops early leaves out */
        st->rec = st->f - early_stop_skip(sc, dense_l, &dense);
        st->tp +=
            dense_l * dense.tp_f * early_stop_tp_share(sc) + moe_l * moe.tp_f;
        st->cp += dense_l * dense.cp_f + moe_l * moe.cp_f;
        st->ep += moe_l * moe.ep_f;
        break;
    case RECOMPUTE_SELECTIVE:
        /* the modules the recipe names (recompute_modules_time) */
        if (spec_recompute_mask(&sc->recipe) != 0) {
            st->rec = dense_l * dense.rec_f + moe_l * moe.rec_f;
            break;
        }
        st->rec = stack_selective_rec(
            sc, st->f, dense_l * dense.attn_f + moe_l * moe.attn_f);
        st->tp +=
            per_op_sac_regather(sc, dense_l * dense.tp_f + moe_l * moe.tp_f);
        break;
    default:
        st->rec = 0;
        break;
    }
}

/* Each MTP module's own work beside its layer (counted with the stage's
 * layers): the projection of [norm(h); norm(embedding)] from 2h to h and
 * the shared output head with its loss once more (DeepSeek-V3 report
 * section 2.2: one head per prediction depth, all on the last stage). */
static void mtp_head(const struct model_shape *m, const struct hw *hw, double T,
                     double t, double heads, double *f, double *b)
{
    double one_f = 0, one_b = 0;

    if (heads <= 0)
        return;
    gemm_fb(hw, T, m->h, 2 * m->h, 1, &one_f, &one_b);
    gemm16_fb(hw, T, m->V / t, m->h, 1, &one_f, &one_b);
    one_f += bytes_s(hw, 3 * 4 * T * m->V / t) + 2 * hw->kernel;
    one_b += bytes_s(hw, 3 * 4 * T * m->V / t) + 2 * hw->kernel;
    *f += heads * one_f;
    *b += heads * one_b;
}

/* Whether the pipeline split counts the embedding and the output layer
 * with its loss as layers of their own.  With more virtual stages than
 * layers (pp x interleave = L + 2, as Llama 3 405B ran: Dubey et al. 2024
 * section 3.3.2) they are chunks of their own; and where the L layers do
 * not split evenly over the pp x interleave chunks but L + 2 do, the
 * split must have counted them: Megatron-Core splits the layers evenly
 * unless told otherwise (its layer count must divide by the virtual
 * stages), and Megatron-Bridge's Llama 3.1 405B and Qwen3-235B recipes
 * tell it account_for_embedding_in_pipeline_split and
 * account_for_loss_in_pipeline_split (recipes/llama/llama3.py,
 * recipes/qwen/qwen3_moe.py): 126 + 2 and 94 + 2 slots. */
static bool head_in_split(const struct scenario *sc,
                          const struct model_shape *m)
{
    double chunks = (double)sc->layout.pp * (double)sc->layout.interleave;

    if (sc->layout.pp <= 1)
        return false;
    return chunks > m->L ||
           (fmod(m->L, chunks) != 0 && fmod(m->L + 2, chunks) == 0);
}

/* Embedding on the first stage; output projection and the fp32
 * cross-entropy (about three passes over the logits) on the last; both on
 * a single stage.  With several stages the costlier end sets the pace. */
static void stage_head(const struct scenario *sc, const struct model_shape *m,
                       const struct hw *hw, double T, struct stage_time *st)
{
    double t = (double)sc->layout.tp, elem = hw->elem;
    double emb_f = bytes_s(hw, 2 * T * m->h * elem) + hw->kernel;
    double ce = bytes_s(hw, 3 * 4 * T * m->V / t) + 2 * hw->kernel;
    double head_f = 0, head_b = 0, ar;
    struct group gr;

    gemm16_fb(hw, T, m->V / t, m->h, 1, &head_f, &head_b);
    head_f += ce;
    head_b += ce;
    mtp_head(m, hw, T, t, st->mtp_heads, &head_f, &head_b);
    /* vocabulary-parallel embedding and loss each reduce over TP */
    group_init(hw, t, 1, &gr);
    ar = group_allreduce(&gr, T * m->h * elem);
    if (sc->layout.pp == 1) {
        st->head_f = emb_f + head_f;
        st->head_b = emb_f + head_b;
        st->head_tp = 2 * ar;
    } else if (head_f + head_b > 2 * emb_f) {
        st->head_f = head_f;
        st->head_b = head_b;
        st->head_tp = ar;
    } else {
        st->head_f = emb_f;
        st->head_b = emb_f;
        st->head_tp = ar;
    }
    /* When the split counts the embedding and the output layer as layers
     * (head_in_split) the GPU holding the output runs one layer fewer, so
     * the head costs only what it exceeds a layer by. */
    if (head_in_split(sc, m) && st->layers >= 1) {
        st->head_f = fmax(0, st->head_f - st->f / st->layers);
        st->head_b = fmax(0, st->head_b - st->b / st->layers);
    }
}

/* Pipeline point-to-point: a send each way per virtual stage per
 * microbatch, over the scale-up domain only when two whole stages fit in
 * it; Megatron splits the activation across the TP ranks (scatter-gather),
 * so each rank sends 1/t of it. */
static double pp_comm(const struct scenario *sc, const struct model_shape *m,
                      const struct hw *hw, double T, double mbs)
{
    const struct layout *lay = &sc->layout;
    double t = (double)lay->tp, p = (double)lay->pp;
    double span = t * (double)lay->cp * (double)lay->dp;
    const struct link *l = (2 * span <= hw->domain) ? &hw->up : &hw->out;
    double bytes = T * m->h * hw->elem / t;

    if (lay->pp < 2)
        return 0;
    return 2 * (double)lay->interleave * (mbs + p - 1) *
           comm_p2p_s(bytes, l->beta, l->alpha);
}

/* The pipeline sends an interleaved schedule leaves exposed.  Megatron-
 * Core's interleaved 1F1B posts each virtual stage's send and receive
 * asynchronously and waits on them only where the next chunk needs its
 * input (--overlap-p2p-communication: on by default with virtual stages,
 * which Megatron-Bridge sets whenever vp > 1, comm_overlap.py), so the
 * stack's share pp_overlap of the sends runs beside compute, paying the
 * overlap tax, but for the pipeline's fill: the first microbatch's sends
 * down the p - 1 stage boundaries, which nothing runs beside. */
static double pp_overlapped(const struct scenario *sc, double pp_s,
                            double compute, double mbs)
{
    double p = (double)sc->layout.pp, v = (double)sc->layout.interleave;
    double o = sc->stack.pp_overlap, fill;

    if (v <= 1 || p <= 1 || !(o > 0) || !(pp_s > 0))
        return pp_s;
    fill = pp_s * (p - 1) / (v * (mbs + p - 1));
    return (1 - o) * pp_s + o * exposed(pp_s, compute, fill);
}

/* Parameters held by one accelerator of the busiest stage (TP, PP, EP). */
static double local_params(const struct scenario *sc,
                           const struct model_shape *m, double layers)
{
    const struct layout *lay = &sc->layout;
    double t = (double)lay->tp, p = (double)lay->pp;
    double moe_l = layers * (m->moe_layers / m->L), dense_l = layers - moe_l;

    return (dense_l * m->dense_layer_params / t +
            moe_l *
                (m->attn_params + m->norm_params +
                 m->shared * m->expert_params) /
                t +
            moe_l * m->experts * m->expert_params /
                (layout_expert_tp(lay) * (double)lay->ep) +
            (m->embed_params + m->output_params) / (t * p)) *
           m->param_scale;
}

/* ZeRO-3 under a live-parameter cap (DeepSpeed's partitioned parameter
 * coordinator, deepspeed/runtime/zero/partitioned_param_coordinator.py
 * fetch_sub_module, v0.6): parameters are gathered module by module, each
 * module's weight its own all-gather (a ring's latency each), and after
 * fetching a module the coordinator prefetches what follows only while
 * fewer than stage3_max_live_parameters are live.  A module at least as
 * large as the cap leaves no room, so the module after it (in the order
 * of use: forward, then backward reversed) is gathered on demand and its
 * all-gather is not hidden.  Its gradients are reduce-scattered beside the
 * backward either way (overlap_comm).  Time per layer of one microbatch;
 * `w` the layer's matrices (memory_layer_tensors), fwd and bwd its
 * compute. */
static double zero3_capped_layer(const struct group *gr, const double *w,
                                 double cap, double wt, double grad, double fwd,
                                 double bwd, bool flat)
{
    double sum = 0, t = 0;
    int n = MEMORY_LAYER_TENSORS;

    for (int i = 0; i < n; i++)
        sum += w[i];
    for (int i = 0; i < n && sum > 0; i++) {
        double share = w[i] / sum;
        double ag = dp_ring_s(gr, wt * share, flat);
        double rs = dp_ring_s(gr, grad * share, flat);
        bool pf_fwd = w[(i + n - 1) % n] < cap, pf_bwd = w[(i + 1) % n] < cap;

        t += pf_fwd ? exposed(ag, fwd * share, 0) : ag;
        t += pf_bwd ? exposed(ag + rs, bwd * share, 0)
                    : ag + exposed(rs, bwd * share, 0);
    }
    return t;
}

/* The ring steps of the all-reduce across slices that the program waits
 * on.  A TPU slice reaches the others only through its hosts: a transfer
 * is a send that interrupts the host to DMA the buffer out and a
 * recv-done the TPU program waits on until the host has the data in
 * (XProf Megascale stats docs), carried by the hosts' TCP (MaxText
 * rto_setup.sh @76bd53b0f sets rto_min 5 ms on the route the DCN uses).
 * The bytes move by DMA beside the compute, but each of the 2 (D - 1)
 * steps of a ring over D slices waits for the host round trip of the one
 * before it (a ring: each step forwards what the last one brought), and
 * the program waits at each recv-done: the fabric's latency per step, per
 * layer, exposed.  The MaxText v5e table (1 to 32 slices) grows with
 * layers x 2 (D - 1), not with log D or with the bytes. */
static double dcn_ring_stall_s(const struct group *gr, double layers)
{
    double D = gr->n / gr->g;

    return D > 1 ? layers * 2 * (D - 1) * gr->out.alpha : 0;
}

/* Data-parallel replicas across scale-up domains (stack dp_shard_domain:
 * MaxText's dcn_data_parallelism over slices, ZeRO-3 inside each): after
 * the domain's reduce-scatter each rank holds 1/g of the gradient and
 * all-reduces it with its peers in the other D - 1 domains over the
 * scale-out network, once per step, layer by layer as the backward of the
 * last microbatch produces them.  The bytes per rank do not shrink with
 * more domains; a stack hides its share dp_overlap of their transfer
 * under that backward, and the ring's steps stall it (dcn_ring_stall_s). */
static double replica_allreduce(const struct group *gr, double grad,
                                double layers, double bwd, double o)
{
    double D = gr->n / gr->g, ar;

    if (D <= 1)
        return 0;
    ar = layers * comm_allreduce_s(grad / gr->g / layers, D, gr->out.beta, 0);
    return (1 - o) * ar + o * exposed(ar, bwd, ar / layers) +
           dcn_ring_stall_s(gr, layers);
}

/* Exposed data-parallel / ZeRO communication per step over the dp*cp
 * group (tp ranks apart).  Gradient reduction can overlap the backward
 * pass of the microbatch that produces it except the last bucket (about
 * one layer's worth): a stack overlaps its share dp_overlap (Megatron-Core
 * --overlap-grad-reduce; Megatron-LM 2021 reduced after the backward).
 * ZeRO 0/1 reduce once per step (gradients accumulate locally), ZeRO 2/3
 * every microbatch (the gradients are sharded); ZeRO 1/2 gather the
 * updated 16-bit weights once per step, beside the next forward.  ZeRO-3
 * gathers each layer's weights for its forward and again for its backward
 * and reduce-scatters its gradients, layer by layer and microbatch by
 * microbatch (DeepSpeed stage 3, FSDP): per-layer messages, each paying
 * the ring's latency, hidden under that layer's compute only when the
 * stack prefetches them (zero3_prefetch > 0; under a live-parameter cap,
 * zero3_capped_layer).  A stack that shards inside the scale-up domain
 * only runs ZeRO-3 there and all-reduces across domains
 * (replica_allreduce). */
static double dp_comm(const struct scenario *sc, const struct model_shape *m,
                      const struct hw *hw, const struct stage_time *st,
                      double params, double mbs)
{
    const struct layout *lay = &sc->layout;
    double shard = (double)lay->dp * (double)lay->cp;
    double grad = params * precision_bytes(sc->train.grad_dtype);
    double wt = params * hw->elem;
    double bwd = st->b + st->rec + st->head_b, fwd = st->f + st->head_f;
    double layers = fmax(1, st->layers), bucket = 1 / layers;
    double o = hw->sw->dp_overlap, cap = hw->sw->zero3_live_params;
    bool flat = hw->sw->dp_flat > 0.5;
    double rs, ag, across = 0, w[MEMORY_LAYER_TENSORS];
    struct group gr;

    if (shard <= 1)
        return 0;
    group_init(hw, shard, (double)lay->tp, &gr);
    if (lay->zero == 0) {
        rs = group_allreduce(&gr, grad);
        return (1 - o) * rs + o * exposed(rs, bwd, rs * bucket);
    }
    if (lay->zero <= 2) {
        double per_rs;

        rs = dp_ring_s(&gr, grad, flat);
        ag = dp_ring_s(&gr, wt, flat); /* all-gather: same cost */
        per_rs = (1 - o) * rs + o * exposed(rs, bwd, rs * bucket);
        ag = (1 - o) * ag + o * exposed(ag, fwd, ag * bucket);
        return (lay->zero == 2 ? mbs : 1) * per_rs + ag;
    }
    if (hw->sw->dp_shard_domain > 0.5 && gr.n > gr.g) {
        across = replica_allreduce(&gr, grad, layers, bwd, o);
        gr.n = gr.g; /* ZeRO-3 inside the domain */
    }
    /* ZeRO-3, one layer at a time */
    if (cap > 0 && hw->sw->zero3_prefetch > 0) {
        memory_layer_tensors(m, (double)lay->tp, w);
        return across + mbs * layers *
                            zero3_capped_layer(&gr, w, cap, wt / layers,
                                               grad / layers, fwd / layers,
                                               bwd / layers, flat);
    }
    rs = dp_ring_s(&gr, grad / layers, flat);
    ag = dp_ring_s(&gr, wt / layers, flat);
    if (hw->sw->zero3_prefetch > 0)
        return across + mbs * layers *
                            (exposed(ag, fwd / layers, 0) +
                             exposed(ag + rs, bwd / layers, 0));
    return across + mbs * layers * (2 * ag + rs);
}

/* ZeRO-Offload's step (software.offload=optimizer; Ren et al. 2021
 * section 4): each GPU sends its ZeRO shard of the 16-bit gradients to
 * the host (16 bits, 32 in fp32 training) over its host link (the
 * system's host_link_gb_s), the host's CPU-Adam updates the fp32
 * master weights and moments there, and the updated 16-bit weights come back.
 * DeepSpeed copies the gradients out as each bucket is reduced (under ZeRO 2/3
 * every microbatch, accumulating on the host), so the copy hides under
 * the backward but for its last bucket; the update and the copy back
 * follow the backward (no one-step delayed parameter update, which
 * DeepSpeed leaves off by default). */
static double offload_time(const struct scenario *sc, const struct hw *hw,
                           const struct stage_time *st, double sharded,
                           double mbs)
{
    double bwd = st->b + st->rec + st->head_b;
    double bucket = 1 / fmax(1, st->layers);
    double link = sc->system.host_link_bps;
    double d2h = sharded * hw->elem / link, h2d = d2h;
    double copies = sc->layout.zero >= 2 ? mbs : 1;
    double cpu = CPU_ADAM_PARAMS_S_CORE * (double)sc->system.host_cores /
                 (double)sc->system.gpus_per_node;

    return copies * exposed(d2h, bwd, d2h * bucket) + sharded / cpu + h2d;
}

/* DeepSpeed's cpu_checkpointing (software.offload=optimizer_activations):
 * each layer's checkpointed input goes to host memory during the forward
 * and comes back for its recomputation in the backward, over the
 * accelerator's host link, beside the compute; what outlasts it and the
 * last layer's copy show. */
static double checkpoint_offload_s(const struct scenario *sc,
                                   const struct model_shape *m,
                                   const struct stage_time *st, double mbs)
{
    double layers = fmax(1, st->layers), link = sc->system.host_link_bps;
    double copy;

    if (!spec_offloads_activations(&sc->recipe) ||
        sc->layout.recompute != RECOMPUTE_FULL || !(link > 0))
        return 0;
    copy = layers * memory_layer_activation_bytes(sc, m, false, false) / link;
    return mbs * (exposed(copy, st->f + st->head_f, copy / layers) +
                  exposed(copy, st->b + st->rec + st->head_b, copy / layers));
}

/* Optimizer (Megatron's mixed-precision step), bandwidth-bound: read the
 * gradient, read and write the fp32 master weight and the states (Adam:
 * m and v; 8-bit Adam: two bytes; SGD: momentum), write the 16-bit weight;
 * around it four passes over the gradients (unscale and inf check, norm
 * for clipping, copy, zeroing).  ZeRO >= 1 shards the update.  With the
 * optimizer offloaded the GPU keeps the gradient passes and the host does
 * the update (offload_time). */
static double optimizer_time(const struct scenario *sc, const struct hw *hw,
                             const struct stage_time *st, double params,
                             double mbs)
{
    const struct layout *lay = &sc->layout;
    double gb = precision_bytes(sc->train.grad_dtype);
    double shard = memory_zero_shard(sc);
    double sharded = lay->zero >= 1 ? params / shard : params;
    double per_param, grad_passes;

    switch (sc->train.optimizer) {
    case OPT_ADAM8BIT:
        per_param = gb + 8 + 4 + hw->elem;
        break;
    case OPT_SGD:
        per_param = gb + 8 + 8 + hw->elem;
        break;
    default:
        per_param = gb + 8 + 16 + hw->elem;
        break;
    }
    grad_passes = 4 * gb * (lay->zero >= 2 ? sharded : params);
    if (spec_offloads_optimizer(&sc->recipe))
        return offload_time(sc, hw, st, sharded, mbs) +
               bytes_s(hw, grad_passes) + 10 * hw->kernel;
    return bytes_s(hw, sharded * per_param + grad_passes) + 10 * hw->kernel;
}

/* DualPipe's bubble and pipeline sends (DeepSeek-V3 report section 3.2.1,
 * table 2): (pp/2 - 1)(F&B + B - 3W) against 1F1B's (pp - 1)(F + B), where
 * F&B is a forward and a backward chunk overlapped (their compute in
 * sequence, F + B, the communication hidden) and W the weight-gradient
 * half of the backward (B/2): (pp/2 - 1)(F + B/2), in proportion to the
 * microbatch's time.  Its sends run beside the overlapped chunks: what
 * `compute` hides of them costs the overlap tax only. */
static double dualpipe_bubble(const struct stage_time *st, double p,
                              double t_mb, double compute, double *pp_s)
{
    double f = st->f + st->head_f, b = st->b + st->rec + st->head_b;

    *pp_s = exposed(*pp_s, compute, 0);
    if (f + b <= 0)
        return 0;
    return (p / 2 - 1) * (f + b / 2) / (f + b) * t_mb;
}

/* Hardware FLOPs per token a checkpoint that stops early does not
 * recompute: each dense layer's FFN down projection, 2 h f
 * (early_stop_skip). */
static double early_stop_flops(const struct scenario *sc,
                               const struct model_shape *m)
{
    if (!spec_ckpt_early_stop(&sc->recipe, sc->stack.ckpt_early_stop))
        return 0;
    return m->dense_layers * 2 * m->h * m->f * m->param_scale;
}

/* FLOPs per token the recompute modules repeat (hardware FLOPs): a
 * third of the attention core's 12 L a d s, MLA's up projections in every
 * layer, the dense layers' MLP; the activation is element-wise. */
static double recompute_modules_flops(const struct scenario *sc,
                                      const struct model_shape *m)
{
    unsigned mask = spec_recompute_mask(&sc->recipe);
    double fl = 0;

    if (mask & RECMOD_BIT_CORE_ATTN)
        fl += m->attn_flops_per_token / 3;
    if ((mask & RECMOD_BIT_MLA_UP) && m->mla)
        fl +=
            2 * m->L *
            (m->q_lora * m->a * m->d_qk + m->kv_lora * m->a * (m->d + m->d_v));
    if (mask & RECMOD_BIT_MLP)
        fl += 2 * m->dense_layers * (m->gated ? 3 : 2) * m->h * m->f;
    return fl;
}

/* The largest part of the step names the bottleneck. */
static void name_bottleneck(const struct time_result *tr, struct result *r)
{
    static const char *const names[] = {"compute", "bubble",  "tp_comm",
                                        "pp_comm", "dp_comm", "cp_comm",
                                        "ep_comm"};
    double parts[7];
    int i, best = 0;

    parts[0] = tr->compute_s;
    parts[1] = tr->bubble_s;
    parts[2] = tr->tp_comm_s;
    parts[3] = tr->pp_comm_s;
    parts[4] = tr->dp_comm_s;
    parts[5] = tr->cp_comm_s;
    parts[6] = tr->ep_comm_s;
    for (i = 1; i < 7; i++)
        if (parts[i] > parts[best])
            best = i;
    for (i = 0; names[best][i] && i < (int)sizeof(r->bottleneck) - 1; i++)
        r->bottleneck[i] = names[best][i];
    r->bottleneck[i] = '\0';
}

void steptime_estimate(const struct scenario *sc, const struct model_shape *m,
                       unsigned flags, struct result *r)
{
    const struct layout *lay = &sc->layout;
    struct time_result *tr = &r->time;
    struct stage_time st = {0};
    struct hw hw;
    double p = (double)lay->pp, v = (double)lay->interleave;
    double s = (double)sc->train.seq_len, N = (double)sc->gpus;
    double B = (double)sc->train.global_batch;
    double T = (double)lay->microbatch * s / (double)lay->cp;
    double mbs = B / ((double)lay->dp * (double)lay->microbatch);
    double comp_mb, t_mb, params, pp_s, dp_s, opt_s, step, bubble;
    double tokens_step = B * s, model_flops, hw_flops;

    hw_init(sc, &hw);
    stage_layers(sc, m, &hw, &st);
    stage_head(sc, m, &hw, T, &st);
    comp_mb = st.f + st.b + st.rec + st.head_f + st.head_b;
    t_mb = comp_mb + st.tp + st.cp + st.ep + st.head_tp;
    params = local_params(sc, m, st.layers);
    /* DualPipe: every device holds a stage of each direction */
    if (sc->recipe.schedule == SCHED_DUALPIPE)
        params *= 2;
    pp_s = pp_comm(sc, m, &hw, T, mbs);
    dp_s = dp_comm(sc, m, &hw, &st, params, mbs);
    opt_s = optimizer_time(sc, &hw, &st, params, mbs) +
            checkpoint_offload_s(sc, m, &st, mbs);

    /* 1F1B / interleaved schedule (Narayanan et al. 2021 section 2.2):
     * m microbatches plus a bubble of (p - 1)/v of one microbatch. */
    bubble = (p - 1) / v * t_mb;
    if (sc->recipe.schedule == SCHED_DUALPIPE)
        bubble = dualpipe_bubble(&st, p, t_mb, mbs * comp_mb, &pp_s);
    else
        pp_s = pp_overlapped(sc, pp_s, mbs * comp_mb, mbs);
    step =
        mbs * t_mb + bubble + pp_s + dp_s + opt_s + sc->stack.step_overhead_s;

    /* Hardware FLOPs add what recomputation repeats: the forward
     * (a third of 6N + 12Las) for full, the attention core for selective
     * (Korthikanti 2022: 96 B s L h^2 against 72 for full). */
    model_flops = m->flops_per_token * tokens_step;
    hw_flops = model_flops;
    if (lay->recompute == RECOMPUTE_FULL)
        hw_flops += model_flops / 3 - early_stop_flops(sc, m) * tokens_step;
    else if (lay->recompute == RECOMPUTE_SELECTIVE &&
             spec_recompute_mask(&sc->recipe) != 0)
        hw_flops += recompute_modules_flops(sc, m) * tokens_step;
    else if (lay->recompute == RECOMPUTE_SELECTIVE)
        hw_flops += stack_selective_rec(sc, model_flops,
                                        m->attn_flops_per_token * tokens_step) /
                    3;

    tr->step_s = step;
    tr->microbatches = mbs;
    tr->compute_s = mbs * comp_mb + opt_s + sc->stack.step_overhead_s;
    tr->optimizer_s = opt_s;
    tr->bubble_s = bubble;
    tr->tp_comm_s = mbs * (st.tp + st.head_tp);
    tr->pp_comm_s = pp_s;
    tr->dp_comm_s = dp_s;
    tr->cp_comm_s = mbs * st.cp;
    tr->ep_comm_s = mbs * st.ep;
    tr->tokens_per_s = tokens_step / step;
    tr->model_tflops_per_gpu = model_flops / step / N / 1e12;
    tr->hw_tflops_per_gpu = hw_flops / step / N / 1e12;
    tr->mfu = model_flops / step / (N * hw.peak);
    tr->hfu = hw_flops / step / (N * hw.peak);
    tr->steps = sc->train.tokens / tokens_step;
    tr->train_days = tr->steps * step / 86400;
    tr->gpu_hours = tr->steps * step * N / 3600;
    name_bottleneck(tr, r);

    if (flags & EVAL_QUIET)
        return;
    if ((double)lay->tp > hw.domain)
        result_warn(r,
                    "tensor parallelism (tp=%llu) spans beyond the scale-up "
                    "domain (%.0f GPUs)",
                    (unsigned long long)lay->tp, hw.domain);
    /* A batch below what runs of this size use starves the pipeline:
     * point at the band (model_auto_global_batch) unless it is in use. */
    if (tr->bubble_s > 0.2 * step && !sc->train.batch_auto &&
        sc->train.global_batch <
            model_auto_global_batch(m->params, sc->train.seq_len, NULL, NULL))
        result_warn(r,
                    "pipeline bubble is %.0f%% of the step; runs of this "
                    "model size use larger batches "
                    "(train.global_batch=auto: %llu sequences)",
                    100 * tr->bubble_s / step,
                    (unsigned long long)model_auto_global_batch(
                        m->params, sc->train.seq_len, NULL, NULL));
    else if (tr->bubble_s > 0.2 * step)
        result_warn(r,
                    "pipeline bubble is %.0f%% of the step; more "
                    "microbatches or interleaving would shrink it",
                    100 * tr->bubble_s / step);
    if (dp_s > 0.2 * step)
        result_warn(r, "data-parallel communication is %.0f%% of the step",
                    100 * dp_s / step);
    if (sc->train.tokens <= 0)
        result_warn(r, "train.tokens is 0: no time to train");
}
