/* check_steptime.c - roofline and step-time invariants. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "check_helpers.h"
#include "core/comm.h"
#include "core/model.h"
#include "core/scenario.h"
#include "core/steptime.h"
#include "fixture.h"

/* A large GEMM runs at gemm_frac of peak; a tiny one is bandwidth- or
 * launch-bound. */
START_TEST(test_gemm_roofline)
{
    struct scenario sc;
    const struct accel_spec *a;
    double peak, big, flops = 2.0 * 16384 * 16384 * 16384;

    fixture_scenario(&sc, "h100-sxm");
    a = &sc.accel;
    peak = a->peak_flops[PREC_BF16];
    big = steptime_gemm_s(peak * a->gemm_frac, a->gemm_half_flops,
                          a->hbm_bps * a->hbm_frac, a->kernel_s, 16384, 16384,
                          16384, 1, 2);
    ck_assert_rel(
        big,
        flops / (peak * a->gemm_frac * flops / (flops + a->gemm_half_flops)) +
            a->kernel_s,
        1e-12);
    /* a skinny GEMM (K = 8) is limited by memory traffic */
    ck_assert(steptime_gemm_s(peak * a->gemm_frac, a->gemm_half_flops,
                              a->hbm_bps * a->hbm_frac, a->kernel_s, 65536,
                              65536, 8, 1, 2) >=
              2.0 * 65536 * 65536 / (a->hbm_bps * a->hbm_frac));
}
END_TEST

static void check_time_sane(const struct result *r)
{
    const struct time_result *t = &r->time;
    double parts = t->compute_s + t->bubble_s + t->tp_comm_s + t->pp_comm_s +
                   t->dp_comm_s + t->cp_comm_s + t->ep_comm_s;

    ck_assert_finite_nonneg(t->step_s);
    ck_assert(t->step_s > 0);
    ck_assert_rel(parts, t->step_s, 1e-9);
    ck_assert_finite_nonneg(t->tokens_per_s);
    ck_assert_finite_nonneg(t->mfu);
    ck_assert(t->mfu <= 1);
    ck_assert(t->hfu >= t->mfu * (1 - 1e-12));
    ck_assert_finite_nonneg(t->train_days);
    ck_assert_finite_nonneg(t->gpu_hours);
}

/* Every layout of a grid evaluates to finite, consistent times. */
START_TEST(test_layout_grid)
{
    static const uint64_t tps[] = {1, 2, 4, 8, 16};
    static const uint64_t pps[] = {1, 2, 4, 8};
    struct scenario sc;
    struct result r;
    size_t i, j;
    int rc, z;

    for (i = 0; i < 5; i++)
        for (j = 0; j < 4; j++)
            for (rc = 0; rc <= 2; rc++)
                for (z = 0; z <= 3; z++) {
                    fixture_scenario(&sc, "h100-sxm");
                    fixture_gpt(&sc, 32, 4096, 32, 32000);
                    sc.gpus = 128;
                    sc.layout.tp = tps[i];
                    sc.layout.pp = pps[j];
                    sc.layout.dp = 128 / (tps[i] * pps[j]);
                    sc.layout.microbatch = 1;
                    sc.train.global_batch = 512;
                    sc.layout.recompute = (enum recompute)rc;
                    sc.layout.zero = z;
                    sc.layout.sequence_parallel = tps[i] > 1;
                    ck_assert_int_eq(scenario_validate(&sc, NULL), CP_OK);
                    scenario_eval(&sc, &r);
                    check_time_sane(&r);
                }
}
END_TEST

/* Time to train is linear in tokens; GPU-hours = GPUs x hours. */
START_TEST(test_linear_in_tokens)
{
    struct scenario sc;
    struct result a, b;

    fixture_scenario(&sc, "a100-80gb");
    scenario_eval(&sc, &a);
    sc.train.tokens *= 3;
    scenario_eval(&sc, &b);
    ck_assert_rel(b.time.train_days, 3 * a.time.train_days, 1e-12);
    ck_assert_rel(b.time.gpu_hours, b.time.train_days * 24 * 8, 1e-12);
}
END_TEST

/* Full recomputation costs time; selective costs less than full. */
START_TEST(test_recompute_order)
{
    struct scenario sc;
    struct result none, sel, full;

    fixture_scenario(&sc, "a100-80gb");
    sc.train.attention = ATTN_STANDARD;
    sc.layout.recompute = RECOMPUTE_NONE;
    scenario_eval(&sc, &none);
    sc.layout.recompute = RECOMPUTE_SELECTIVE;
    scenario_eval(&sc, &sel);
    sc.layout.recompute = RECOMPUTE_FULL;
    scenario_eval(&sc, &full);
    ck_assert(none.time.step_s < sel.time.step_s);
    ck_assert(sel.time.step_s < full.time.step_s);
    ck_assert(full.time.hfu > full.time.mfu);
}
END_TEST

/* NVFP4 training GEMMs at the accelerator's measured 4-bit share when the
 * row has one, else the 8-bit share: a lower ceiling, a slower step. */
START_TEST(test_fp4_ceiling)
{
    struct scenario sc;
    struct result a, b, c;

    fixture_scenario(&sc, "h100-sxm");
    sc.accel.peak_flops[PREC_FP4] = 2 * sc.accel.peak_flops[PREC_FP8];
    sc.accel.fp8_gemm_frac = 0.7;
    sc.train.precision = PREC_FP4;
    scenario_eval(&sc, &a);
    sc.accel.fp4_gemm_frac = 0.35;
    scenario_eval(&sc, &b);
    sc.accel.fp4_gemm_frac = 0.7;
    scenario_eval(&sc, &c);
    ck_assert(b.time.step_s > a.time.step_s);
    ck_assert_double_eq(c.time.step_s, a.time.step_s);
    ck_assert(b.time.mfu <= 1 && b.time.mfu > 0);
}
END_TEST

/* Overlap is not free: a gradient all-reduce that the backward pass
 * fully hides still costs more than its last bucket (NCCL's kernels slow
 * the compute beside them), and never more than the whole reduction. */
START_TEST(test_overlap_not_free)
{
    struct scenario sc;
    struct model_shape m;
    struct result r;
    double grad, ar, tail;

    fixture_scenario(&sc, "a100-80gb");
    sc.layout.tp = 1;
    sc.layout.dp = 8;
    sc.layout.zero = 0;
    sc.layout.microbatch = 4;
    sc.train.global_batch = 32; /* one microbatch per step */
    ck_assert_int_eq(scenario_validate(&sc, NULL), CP_OK);
    scenario_eval(&sc, &r);
    model_shape_derive(&sc.model, (double)sc.train.seq_len, &m);
    grad = m.params * 4; /* fp32 gradients, every layer on every GPU */
    ar = comm_allreduce_s(grad, 8, 300e9 * 0.78, 3e-6);
    tail = ar / m.L;
    ck_assert(ar < r.time.compute_s); /* hidden under the backward */
    ck_assert(r.time.dp_comm_s > tail + 0.1 * ar);
    ck_assert(r.time.dp_comm_s < ar);
}
END_TEST

/* ZeRO-3 at scale, fixed global batch (issue 19): 2048 sequences of 2048
 * tokens on 128..2048 A100 (DGX, HDR), the micro-batch shrinking to
 * 2048/N as the GPUs double, no accumulation.  Every microbatch gathers
 * each layer's weights twice and reduce-scatters its gradients: bytes per
 * GPU that do not shrink with N, over a flat ring whose n - 1 steps grow
 * with it.  Published comparisons of DeepSpeed ZeRO-3 and FSDP on
 * hundreds to thousands of A100 (MiCS, Zhang et al. 2022, section 2;
 * AMSP, Chen et al. 2023, section 5) show the shape: per-GPU throughput
 * falls with every doubling and collapses toward halving once the
 * per-layer shard is latency-bound.  A hierarchical stack (Megatron-Core)
 * keeps more of it; inside one scale-up domain the two are the same. */
static double zero3_tokens_per_gpu(uint64_t layers, uint64_t hidden,
                                   uint64_t gpus, bool flat)
{
    struct scenario sc;
    struct result r;

    fixture_scenario(&sc, "a100-80gb");
    fixture_gpt(&sc, layers, hidden, hidden / 128, 32000);
    sc.gpus = gpus;
    sc.layout.tp = 1;
    sc.layout.dp = gpus;
    sc.layout.zero = 3;
    sc.layout.recompute = RECOMPUTE_FULL;
    sc.layout.microbatch = 2048 / gpus;
    sc.train.seq_len = 2048;
    sc.train.global_batch = 2048;
    sc.stack.dp_flat = flat ? 1 : 0;
    ck_assert_int_eq(scenario_validate(&sc, NULL), CP_OK);
    scenario_eval(&sc, &r);
    check_time_sane(&r);
    ck_assert_double_eq(r.time.microbatches, 1);
    return r.time.tokens_per_s / (double)gpus;
}

START_TEST(test_zero3_at_scale)
{
    static const struct {
        uint64_t layers, hidden;
        double last_doubling; /* most per-GPU throughput kept, 1024 -> 2048 */
    } models[] = {
        {32, 4096, 0.8}, /* ~7B */
        {40, 5120, 0.8}, /* ~13B */
        {80, 8192, 1.0}, /* ~65B: more compute per gathered byte */
    };
    size_t i;
    uint64_t n;

    for (i = 0; i < sizeof(models) / sizeof(models[0]); i++) {
        double prev = 0, kept = 1, flat = 0, hier = 0;

        for (n = 128; n <= 2048; n *= 2) {
            flat = zero3_tokens_per_gpu(models[i].layers, models[i].hidden, n,
                                        true);
            hier = zero3_tokens_per_gpu(models[i].layers, models[i].hidden, n,
                                        false);
            if (prev > 0) {
                /* it falls, and each doubling costs more than the last */
                ck_assert_msg(flat / prev < kept, "%zu: %llu GPUs keep %g",
                              i, (unsigned long long)n, flat / prev);
                kept = flat / prev;
            }
            prev = flat;
        }
        /* at 2048 ranks the flat ring's latency shows where the layers
         * are small (a large layer's one-pass ring can still win) */
        ck_assert_msg(models[i].last_doubling >= 1 || flat < hier,
                      "%zu: flat %g, hierarchical %g", i, flat, hier);
        ck_assert_msg(kept <= models[i].last_doubling && kept >= 0.4,
                      "%zu: the last doubling keeps %g", i, kept);
    }
    /* one DGX: the ring never leaves the domain, flat is hierarchical */
    ck_assert_double_eq(zero3_tokens_per_gpu(32, 4096, 8, true),
                        zero3_tokens_per_gpu(32, 4096, 8, false));
}
END_TEST

/* ZeRO-3 under DeepSpeed's live-parameter cap (stage3_max_live_parameters;
 * partitioned_param_coordinator.py fetch_sub_module, v0.6): after
 * fetching a module the coordinator prefetches what follows only while
 * fewer than the cap are live, so a module at least as large as the cap
 * leaves the next one's all-gather exposed.  The DeepSpeed-Azure blog's
 * (2022-07) runs: the 1T (h 25600: QKV 2.0e9, FFN 2.6e9 parameters) over
 * 1,024 A100 under the default 1e9 cap gathers three of its four modules
 * on demand; the 175B (h 12288: every module under 6.1e8) prefetches all
 * of them, so its cap costs nothing. */
static double ds_zero3_dp_s(uint64_t layers, uint64_t hidden, uint64_t heads,
                            uint64_t gpus, uint64_t mbs, uint64_t seq,
                            double cap)
{
    struct scenario sc;
    struct result r;

    fixture_scenario(&sc, "a100-80gb");
    fixture_gpt(&sc, layers, hidden, heads, 50257);
    sc.gpus = gpus;
    sc.layout.tp = 1;
    sc.layout.dp = gpus;
    sc.layout.zero = 3;
    sc.layout.recompute = RECOMPUTE_FULL;
    sc.layout.sequence_parallel = false;
    sc.layout.microbatch = mbs;
    sc.train.seq_len = seq;
    sc.train.global_batch = mbs * gpus;
    sc.train.precision = PREC_FP16;
    sc.stack.dp_flat = 1;
    sc.stack.zero3_prefetch = 1;
    sc.stack.zero3_live_params = cap;
    ck_assert_int_eq(scenario_validate(&sc, NULL), CP_OK);
    scenario_eval(&sc, &r);
    check_time_sane(&r);
    return r.time.dp_comm_s;
}

START_TEST(test_zero3_live_cap_time)
{
    static const double caps[] = {1e8, 1e9, 3e9, 1e10, 1e13};
    double prev = INFINITY, t1t[5];
    size_t i;

    for (i = 0; i < 5; i++) {
        t1t[i] = ds_zero3_dp_s(128, 25600, 160, 1024, 8, 1024, caps[i]);
        /* a larger cap never exposes more */
        ck_assert_msg(t1t[i] <= prev, "cap %g: %g s > %g s", caps[i], t1t[i],
                      prev);
        prev = t1t[i];
    }
    /* 1T at the default cap: the on-demand gathers cost seconds a step */
    ck_assert_msg(t1t[1] > 1.5 * t1t[4], "1T: %g s at 1e9, %g s uncapped",
                  t1t[1], t1t[4]);
    /* 175B: every module under the cap, nothing exposed by it */
    ck_assert_rel(ds_zero3_dp_s(96, 12288, 96, 256, 32, 512, 1e9),
                  ds_zero3_dp_s(96, 12288, 96, 256, 32, 512, 1e13), 1e-12);
}
END_TEST

/* DeepSpeed cpu_checkpointing (software.offload=optimizer_activations):
 * the 2T run's full-recompute checkpoints, 2 s b h bytes a layer (160 x
 * 2 x 1024 x 8 x 32768 = 86 GB a step each way), go to the host in the
 * forward and come back in the backward over a 25 GB/s host link beside
 * 13 minutes of compute: the step grows, by less than the two copies. */
START_TEST(test_checkpoint_offload_time)
{
    struct scenario sc;
    struct result opt, act;
    double copy = 160 * 2 * 1024 * 8 * 32768.0 / 25e9;

    fixture_scenario(&sc, "a100-80gb");
    fixture_gpt(&sc, 160, 32768, 128, 50257);
    sc.gpus = 1024;
    sc.layout.tp = 1;
    sc.layout.dp = 1024;
    sc.layout.zero = 3;
    sc.layout.recompute = RECOMPUTE_FULL;
    sc.layout.sequence_parallel = false;
    sc.layout.microbatch = 8;
    sc.train.seq_len = 1024;
    sc.train.global_batch = 8192;
    sc.train.precision = PREC_FP16;
    sc.system.host_link_bps = 25e9;
    sc.system.host_cores = 128;
    sc.recipe.offload = OFFLOAD_OPTIMIZER;
    ck_assert_int_eq(scenario_validate(&sc, NULL), CP_OK);
    scenario_eval(&sc, &opt);
    sc.recipe.offload = OFFLOAD_OPTIMIZER_ACTIVATIONS;
    ck_assert_int_eq(scenario_validate(&sc, NULL), CP_OK);
    scenario_eval(&sc, &act);
    check_time_sane(&act);
    ck_assert(act.time.step_s > opt.time.step_s);
    ck_assert_msg(act.time.step_s - opt.time.step_s < 2 * copy,
                  "%g s more, copies %g s", act.time.step_s - opt.time.step_s,
                  2 * copy);
    /* without full recompute there are no checkpoints to move */
    sc.layout.recompute = RECOMPUTE_SELECTIVE;
    scenario_eval(&sc, &act);
    sc.recipe.offload = OFFLOAD_OPTIMIZER;
    scenario_eval(&sc, &opt);
    ck_assert_double_eq(act.time.step_s, opt.time.step_s);
}
END_TEST

/* Data-parallel replicas across scale-up domains (stack dp_shard_domain:
 * MaxText's ici_fsdp inside a v5e-256 slice, dcn_data across slices;
 * base.yml and configs/v5e/128b.sh @76bd53b0f: ici_fsdp 16 x ici_tensor
 * 16, one 2048-token sequence per chip): ZeRO-3 stays inside the slice,
 * and each chip all-reduces its 1/16 of the fp32 gradient with its peers
 * in the other slices, layer by layer, over the DCN (v5e: 2 x 100 Gbps
 * per 8-chip host, 25 Gbps per chip, GCP TPU v5e docs).  With nothing
 * hidden (dp_overlap 0) the slices add exactly that ring; the bytes per
 * chip do not shrink with more slices. */
static double slices_dp_s(uint64_t slices, double overlap, double alpha,
                          double *params)
{
    struct scenario sc;
    struct result r;
    struct model_shape m;

    fixture_scenario(&sc, "a100-80gb");
    fixture_gpt(&sc, 64, 10240, 64, 32768);
    sc.system.scaleup_domain = 256;
    sc.system.gpus_per_node = 8;
    sc.fabric.gbps_per_gpu = 25;
    sc.fabric.bw_frac = 0.8;
    sc.fabric.latency_s = alpha;
    sc.gpus = 256 * slices;
    sc.layout.tp = 16;
    sc.layout.dp = 16 * slices;
    sc.layout.zero = 3;
    sc.layout.microbatch = 1;
    sc.layout.recompute = RECOMPUTE_FULL;
    sc.train.seq_len = 2048;
    sc.train.global_batch = 16 * slices;
    sc.train.grad_dtype = PREC_FP32;
    sc.stack.dp_shard_domain = 1;
    sc.stack.dp_overlap = overlap;
    ck_assert_int_eq(scenario_validate(&sc, NULL), CP_OK);
    model_shape_derive(&sc.model, (double)sc.train.seq_len, &m);
    *params =
        (m.L * m.dense_layer_params + m.embed_params + m.output_params + m.h) /
        16;
    scenario_eval(&sc, &r);
    check_time_sane(&r);
    return r.time.dp_comm_s;
}

START_TEST(test_replica_allreduce)
{
    double params, one = slices_dp_s(1, 0, 20e-6, &params), prev = one;
    double beta = 25e9 / 8 * 0.8;
    uint64_t d;

    for (d = 2; d <= 32; d *= 2) {
        double t = slices_dp_s(d, 0, 20e-6, &params);
        double want =
            64 * comm_allreduce_s(params * 4 / 16 / 64, (double)d, beta, 0) +
            64 * 2 * (double)(d - 1) * 20e-6;

        ck_assert_rel(t - one, want, 1e-6);
        ck_assert(t > prev);
        prev = t;
        /* overlapped under the backward it costs less, never nothing */
        ck_assert(slices_dp_s(d, 1, 20e-6, &params) < t);
        ck_assert(slices_dp_s(d, 1, 20e-6, &params) >
                  slices_dp_s(1, 1, 20e-6, &params));
    }
}
END_TEST

/* The slices' ring steps stall the program (dcn_ring_stall_s): a step is
 * a host round trip the TPU waits on at its recv-done (XProf Megascale
 * stats), so even a stack that hides the whole transfer (dp_overlap 1)
 * pays 2 (D - 1) fabric latencies per layer on top of what the transfer
 * alone costs it, and the overlapped transfer costs less than the whole
 * transfer.  Case table: v5e-dcn latency 650 us (data/fabrics.csv), 64
 * layers. */
START_TEST(test_dcn_ring_stall)
{
    static const struct {
        uint64_t slices;
        double stall_s; /* 64 layers x 2 (D - 1) x 650 us */
    } cases[] = {
        {2, 0.0832},
        {4, 0.2496},
        {8, 0.5824},
        {32, 2.5792},
    };
    double params, one = slices_dp_s(1, 1, 650e-6, &params);
    double free1 = slices_dp_s(1, 1, 0, &params);

    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        double t = slices_dp_s(cases[i].slices, 1, 650e-6, &params);
        double hidden = slices_dp_s(cases[i].slices, 1, 0, &params) - free1;
        double ar =
            64 * comm_allreduce_s(params * 4 / 16 / 64, (double)cases[i].slices,
                                  25e9 / 8 * 0.8, 0);

        ck_assert_rel(t - one, cases[i].stall_s + hidden, 1e-6);
        ck_assert(hidden >= 0);
        ck_assert(hidden < ar);
    }
    /* one slice: no ring, nothing to stall */
    ck_assert_rel(one, free1, 1e-9);
}
END_TEST

/* MoE routing load: token drop pads every expert to its capacity, dropless
 * routing leaves the busiest expert-parallel rank its stack's imbalance;
 * either way the rank with more tokens sets the pace and holds more
 * activations, while the model FLOPs (and so what MFU counts) stay. */
START_TEST(test_moe_load)
{
    struct scenario sc;
    struct result even, drop, dropless, pad;
    struct diag d;

    fixture_scenario(&sc, "h100-sxm");
    fixture_gpt(&sc, 16, 4096, 32, 32000);
    sc.model.experts = 64;
    sc.model.experts_active = 8;
    sc.model.expert_ffn = 1024;
    sc.layout.tp = 1;
    sc.layout.dp = 8;
    sc.layout.ep = 8;
    sc.layout.microbatch = 1;
    sc.train.global_batch = 64;
    sc.train.moe_capacity = 1;
    ck_assert_msg(scenario_validate(&sc, &d) == CP_OK, "%s: %s", d.where,
                  d.msg);
    scenario_eval(&sc, &drop);
    sc.train.moe_capacity = 0;
    sc.stack.moe_imbalance = 1;
    scenario_eval(&sc, &even);
    sc.stack.moe_imbalance = 1.5;
    scenario_eval(&sc, &dropless);
    sc.train.moe_capacity = 1.5;
    sc.stack.moe_imbalance = 3;
    scenario_eval(&sc, &pad);

    /* capacity 1 is the even split; the capacity overrides the stack */
    ck_assert_rel(drop.time.step_s, even.time.step_s, 1e-12);
    ck_assert_rel(pad.time.step_s, dropless.time.step_s, 1e-12);
    ck_assert(dropless.time.step_s > even.time.step_s * 1.05);
    ck_assert(dropless.time.ep_comm_s > even.time.ep_comm_s);
    ck_assert(dropless.memory.activations_bytes >
              even.memory.activations_bytes);
    ck_assert_rel(dropless.model.flops_per_token, even.model.flops_per_token,
                  1e-12);
    ck_assert(dropless.time.mfu < even.time.mfu);

    /* no routing makes a rank busier when every rank holds every expert;
     * no capacity pads an expert beyond every token (E/k = 8 here) */
    {
        struct result a, b;

        sc.train.moe_capacity = 0;
        sc.stack.moe_imbalance = 1.5;
        sc.layout.ep = 1;
        scenario_eval(&sc, &a);
        sc.stack.moe_imbalance = 1;
        scenario_eval(&sc, &b);
        ck_assert_rel(a.time.step_s, b.time.step_s, 1e-12);
        sc.layout.ep = 8;
        sc.train.moe_capacity = 16;
        scenario_eval(&sc, &a);
        sc.train.moe_capacity = 8;
        scenario_eval(&sc, &b);
        ck_assert_rel(a.time.step_s, b.time.step_s, 1e-12);
        ck_assert_rel(spec_moe_load(0, 100, 64, 8, 8), 8, 1e-12);
        ck_assert_rel(spec_moe_load(0, 100, 8, 2, 8), 4, 1e-12);
    }

    /* a capacity below the even share would drop tokens the model counts */
    sc.train.moe_capacity = 0.5;
    ck_assert_int_eq(scenario_validate(&sc, &d), CP_ERR_RANGE);
    ck_assert_str_eq(d.where, "train.moe_capacity");
    sc.train.moe_capacity = 0;
    sc.stack.moe_imbalance = 0.5;
    ck_assert_int_eq(scenario_validate(&sc, &d), CP_ERR_RANGE);
    ck_assert_str_eq(d.where, "software.stack");
    ck_assert_ptr_nonnull(strstr(d.msg, "moe_imbalance"));
}
END_TEST

/* A stack that issues its grouped expert GEMM one GEMM per local expert
 * (Transformer Engine GroupedLinear: moe_gemm_per_expert 1) pays a
 * dispatch for each further expert of fc1 and fc2, forward (2) and
 * backward (data and weight gradients, 4): with 8 local experts, 6 x 7
 * kernels more per MoE layer per microbatch than one grouped kernel; none
 * with one expert per rank; a full-layer CUDA graph replays them at
 * launch cost.  The model FLOPs stay. */
START_TEST(test_moe_gemm_per_expert)
{
    struct scenario sc;
    struct result one, each;
    struct diag d;
    double kern, launch, mbs = 8, layers = 16;

    fixture_scenario(&sc, "h100-sxm");
    fixture_gpt(&sc, 16, 4096, 32, 32000);
    sc.model.experts = 64;
    sc.model.experts_active = 8;
    sc.model.expert_ffn = 1024;
    sc.layout.tp = 1;
    sc.layout.dp = 8;
    sc.layout.ep = 8;
    sc.layout.microbatch = 1;
    sc.train.global_batch = 64;
    sc.stack.kernel_s = 20e-6;
    ck_assert_msg(scenario_validate(&sc, &d) == CP_OK, "%s: %s", d.where,
                  d.msg);
    launch = sc.accel.kernel_s;
    kern = launch + sc.stack.kernel_s;
    sc.stack.moe_gemm_per_expert = 0;
    scenario_eval(&sc, &one);
    sc.stack.moe_gemm_per_expert = 1;
    scenario_eval(&sc, &each);
    ck_assert_rel(each.time.compute_s - one.time.compute_s,
                  mbs * layers * 6 * 7 * kern, 1e-6);
    ck_assert_rel(each.model.flops_per_token, one.model.flops_per_token, 1e-12);
    ck_assert(each.time.mfu < one.time.mfu);

    sc.recipe.graphs = GRAPHS_FULL;
    sc.stack.moe_gemm_per_expert = 0;
    scenario_eval(&sc, &one);
    sc.stack.moe_gemm_per_expert = 1;
    scenario_eval(&sc, &each);
    ck_assert_rel(each.time.compute_s - one.time.compute_s,
                  mbs * layers * 6 * 7 * launch, 1e-6);

    sc.recipe.graphs = GRAPHS_STACK;
    sc.layout.ep = 64 / 8 * 8; /* 64: one expert per rank */
    sc.layout.dp = 64;
    sc.gpus = 64;
    sc.train.global_batch = 512;
    ck_assert_msg(scenario_validate(&sc, &d) == CP_OK, "%s: %s", d.where,
                  d.msg);
    sc.stack.moe_gemm_per_expert = 0;
    scenario_eval(&sc, &one);
    sc.stack.moe_gemm_per_expert = 1;
    scenario_eval(&sc, &each);
    ck_assert_rel(each.time.step_s, one.time.step_s, 1e-12);

    sc.stack.moe_gemm_per_expert = 2;
    ck_assert_int_eq(scenario_validate(&sc, &d), CP_ERR_RANGE);
    ck_assert_ptr_nonnull(strstr(d.msg, "moe_gemm_per_expert"));
}
END_TEST

/* software.moe_force_balance=yes (Megatron-Core --moe-router-force-load-
 * balancing, set by benchmark recipes): dropless routing then leaves no
 * rank busier than its even share, whatever the stack's imbalance: the
 * step and the activations are those of an even split; stack and no keep
 * the stack's imbalance; token drop pads to its capacity either way. */
START_TEST(test_moe_force_balance)
{
    struct scenario sc;
    struct result even, forced, natural, no;
    struct diag d;

    fixture_scenario(&sc, "h100-sxm");
    fixture_gpt(&sc, 16, 4096, 32, 32000);
    sc.model.experts = 64;
    sc.model.experts_active = 8;
    sc.model.expert_ffn = 1024;
    sc.layout.tp = 1;
    sc.layout.dp = 8;
    sc.layout.ep = 8;
    sc.layout.microbatch = 1;
    sc.train.global_batch = 64;
    sc.stack.moe_imbalance = 1;
    ck_assert_msg(scenario_validate(&sc, &d) == CP_OK, "%s: %s", d.where,
                  d.msg);
    scenario_eval(&sc, &even);
    sc.stack.moe_imbalance = 1.5;
    scenario_eval(&sc, &natural);
    sc.recipe.force_balance = RECIPE_YES;
    scenario_eval(&sc, &forced);
    sc.recipe.force_balance = RECIPE_NO;
    scenario_eval(&sc, &no);
    ck_assert_rel(forced.time.step_s, even.time.step_s, 1e-12);
    ck_assert_rel(forced.memory.activations_bytes,
                  even.memory.activations_bytes, 1e-12);
    ck_assert_rel(no.time.step_s, natural.time.step_s, 1e-12);
    ck_assert(natural.time.step_s > forced.time.step_s * 1.05);
    /* token drop: the capacity sets the load, forced or not */
    sc.train.moe_capacity = 1.5;
    scenario_eval(&sc, &no);
    sc.recipe.force_balance = RECIPE_YES;
    scenario_eval(&sc, &forced);
    ck_assert_rel(forced.time.step_s, no.time.step_s, 1e-12);
    sc.recipe.force_balance = (enum recipe_switch)3;
    ck_assert_int_eq(scenario_validate(&sc, &d), CP_ERR_RANGE);
    ck_assert_str_eq(d.where, "software.moe_force_balance");
}
END_TEST

/* Recipe facts (software.*): each "stack" value is the stack's own fitted
 * behaviour; yes/no turn the effect on or off whole; CUDA graphs take host
 * dispatch off the kernels of their scope; a forwarding dispatcher (DeepEP)
 * sends fewer bytes over the fabric only when EP spans scale-up domains.
 * None of them changes what the model computes. */
static void recipe_moe(struct scenario *sc, uint64_t ep)
{
    fixture_scenario(sc, "h100-sxm");
    fixture_gpt(sc, 8, 4096, 32, 32000);
    sc->model.experts = 64;
    sc->model.experts_active = 8;
    sc->model.expert_ffn = 1024;
    sc->gpus = 2 * ep;
    sc->layout.tp = 2;
    sc->layout.dp = ep;
    sc->layout.ep = ep;
    sc->layout.microbatch = 1;
    sc->layout.sequence_parallel = true;
    sc->train.global_batch = 4 * ep;
    sc->stack.kernel_s = 10e-6;
    sc->stack.ep_overlap = 0.5;
    sc->stack.tp_overlap = 0.5;
}

static double recipe_step(struct scenario *sc, struct result *r)
{
    struct diag d;

    ck_assert_msg(scenario_validate(sc, &d) == CP_OK, "%s: %s", d.where, d.msg);
    scenario_eval(sc, r);
    ck_assert(r->time.mfu > 0 && r->time.mfu <= 1);
    return r->time.step_s;
}

START_TEST(test_recipe_facts)
{
    struct scenario sc;
    struct result r, base;
    double stack, yes, no, none, router, attn, full, a2a, deepep;
    struct diag d;

    /* all-to-all overlap: yes <= stack (half) <= no; the stack's 1 is yes */
    recipe_moe(&sc, 16);
    stack = recipe_step(&sc, &base);
    sc.recipe.a2a_overlap = RECIPE_YES;
    yes = recipe_step(&sc, &r);
    sc.recipe.a2a_overlap = RECIPE_NO;
    no = recipe_step(&sc, &r);
    ck_assert(yes < stack && stack < no);
    ck_assert(r.time.ep_comm_s > base.time.ep_comm_s);
    ck_assert_rel(r.model.flops_per_token, base.model.flops_per_token, 1e-12);
    sc.recipe.a2a_overlap = RECIPE_STACK;
    sc.stack.ep_overlap = 1;
    ck_assert_rel(recipe_step(&sc, &r), yes, 1e-12);

    /* TP overlap the same way */
    recipe_moe(&sc, 16);
    sc.recipe.tp_overlap = RECIPE_YES;
    yes = recipe_step(&sc, &r);
    sc.recipe.tp_overlap = RECIPE_NO;
    no = recipe_step(&sc, &r);
    ck_assert(yes < stack && stack < no);
    sc.recipe.tp_overlap = RECIPE_STACK;
    sc.stack.tp_overlap = 0;
    ck_assert_rel(recipe_step(&sc, &r), no, 1e-12);

    /* CUDA graphs: the wider the scope, the less host dispatch */
    recipe_moe(&sc, 16);
    sc.recipe.graphs = GRAPHS_NONE;
    none = recipe_step(&sc, &r);
    ck_assert_rel(none, stack, 1e-12);
    sc.recipe.graphs = GRAPHS_ROUTER;
    router = recipe_step(&sc, &r);
    sc.recipe.graphs = GRAPHS_ATTN;
    attn = recipe_step(&sc, &r);
    sc.recipe.graphs = GRAPHS_FULL;
    full = recipe_step(&sc, &r);
    ck_assert(full < attn && attn < router && router < none);
    /* with no host dispatch to save, graphs change nothing */
    sc.stack.kernel_s = 0;
    full = recipe_step(&sc, &r);
    sc.recipe.graphs = GRAPHS_NONE;
    ck_assert_rel(recipe_step(&sc, &r), full, 1e-12);

    /* DeepEP: EP 16 over two 8-GPU domains sends less over the fabric;
     * EP 4 inside one domain is the all-to-all */
    recipe_moe(&sc, 16);
    a2a = recipe_step(&sc, &base);
    sc.recipe.dispatcher = DISPATCH_DEEPEP;
    deepep = recipe_step(&sc, &r);
    ck_assert(deepep < a2a);
    ck_assert(r.time.ep_comm_s < base.time.ep_comm_s);
    recipe_moe(&sc, 4);
    a2a = recipe_step(&sc, &r);
    sc.recipe.dispatcher = DISPATCH_HYBRIDEP;
    ck_assert_rel(recipe_step(&sc, &r), a2a, 1e-12);

    /* out-of-range values name their key */
    sc.recipe.graphs = (enum cuda_graphs)9;
    ck_assert_int_eq(scenario_validate(&sc, &d), CP_ERR_RANGE);
    ck_assert_str_eq(d.where, "software.cuda_graphs");
}
END_TEST

/* Fused attention at another head dimension, against its rate at 128 (the
 * ceilings attn_frac holds): each score element costs its matmul FLOPs
 * (4d forward, 10d backward) plus one exponential, which the special
 * function units take as long as the tensor cores take for 989 / 3.9
 * FLOPs.  The cases are FlashAttention-3's measured BF16 rates on H100
 * (../shared/reference/ceilings.csv attn_fwd_tflops / attn_bwd_tflops,
 * seqlen 16k): the time at d over the time at 128, per FLOP, is the rate
 * at 128 over the rate at d. */
struct attn_dim_case {
    double d_qk, d_v;
    bool backward;
    double expected; /* time per FLOP against head dim 128 */
    const char *source;
};

static const struct attn_dim_case attn_dim_cases[] = {
    {128, 128, false, 1.0, "the reference itself"},
    {128, 128, true, 1.0, "the reference itself"},
    {64, 64, false, 648.0 / 497.0, "FA3 README fwd, 16k: 497 vs 648"},
    {256, 256, false, 648.0 / 756.0, "FA3 README fwd, 16k: 756 vs 648"},
    {64, 64, true, 561.0 / 474.0, "FA3 paper bwd, 16k: 474 vs 561"},
    {64, 64, true, 516.0 / 433.0, "FA3 paper bwd, cuDNN, 16k: 433 vs 516"},
};

START_TEST(test_attn_head_dim)
{
    const struct attn_dim_case *c = &attn_dim_cases[_i];
    double got = steptime_attn_dim_scale(c->d_qk, c->d_v, c->backward);

    ck_assert_msg(fabs(got / c->expected - 1) < 0.03,
                  "d %g/%g %s: %g vs %g (%s)", c->d_qk, c->d_v,
                  c->backward ? "bwd" : "fwd", got, c->expected, c->source);
}
END_TEST

/* Invariants: positive, falling with the head dimension towards the pure
 * matmul share of the reference; the forward (fewer FLOPs per score)
 * feels it more than the backward.  In a step: the same attention FLOPs
 * in 64 heads of 64 take longer than in 32 heads of 128, and MLA's
 * 192/128 heads shorter. */
START_TEST(test_attn_head_dim_rules)
{
    struct scenario sc;
    struct result r128, r64;
    double d, prev = INFINITY;
    int b;

    for (b = 0; b < 2; b++)
        for (d = 16, prev = INFINITY; d <= 1024; d *= 2) {
            double k = steptime_attn_dim_scale(d, d, b == 1);

            ck_assert(isfinite(k) && k > 0 && k < prev);
            prev = k;
        }
    ck_assert(steptime_attn_dim_scale(64, 64, false) >
              steptime_attn_dim_scale(64, 64, true));
    ck_assert(steptime_attn_dim_scale(192, 128, false) < 1);

    fixture_scenario(&sc, "h100-sxm");
    sc.train.attention = ATTN_FLASH;
    fixture_gpt(&sc, 8, 4096, 32, 32000);
    scenario_eval(&sc, &r128);
    fixture_gpt(&sc, 8, 4096, 64, 32000);
    scenario_eval(&sc, &r64);
    ck_assert_rel(r64.model.flops_per_token, r128.model.flops_per_token, 1e-12);
    ck_assert(r64.time.step_s > r128.time.step_s);
}
END_TEST

/* gpt-oss's experts in Megatron-Core (@92c8482, the 25.11 Megatron-Bridge
 * pin): the clamp before the gated activation is two clamps and a cat
 * (fused_bias_geglu.py weighted_bias_quick_geglu_impl), the second
 * layer's bias a per-expert loop of bias x probability, add and cat
 * (experts.py TEGroupedMLP._apply_bias).  Bytes over `copies` routed
 * token copies of width f (activation halves) and h, 2-byte elements. */
struct moe_eager_case {
    bool clamp, bias, backward;
    double copies, f, h, local;
    double bytes, kernels;
    const char *source;
};

static const struct moe_eager_case moe_eager_cases[] = {
    {false, false, false, 65536, 2880, 2880, 2, 0, 0, "neither"},
    {true, false, false, 65536, 2880, 2880, 2, 8.0 * 2880 * 65536 * 2, 3,
     "clamp each half (read, write 2f) and cat (read, write 2f)"},
    {true, false, true, 65536, 2880, 2880, 2, 10.0 * 2880 * 65536 * 2, 3,
     "clamp backward per half (grad, input in, grad out: 6f), the chunk's "
     "backward cat (4f)"},
    {false, true, false, 65536, 2880, 2880, 2, 6.0 * 2880 * 65536 * 2, 5,
     "b x p (write h), t + bp (read 2h, write h), cat (read, write h); "
     "2 kernels per local expert and the cat"},
    {false, true, true, 65536, 2880, 2880, 2, 6.0 * 2880 * 65536 * 2, 8,
     "bias grad g x p summed (3h), probability grad g x b summed (3h); 4 "
     "kernels per local expert"},
    {true, true, false, 1000, 100, 50, 16, (8.0 * 100 + 6.0 * 50) * 1000 * 2,
     3 + 2 * 16 + 1, "both add up"},
};

START_TEST(test_moe_eager_bytes)
{
    const struct moe_eager_case *c = &moe_eager_cases[_i];
    struct model_spec ms;
    double kernels = -1, got;

    memset(&ms, 0, sizeof(ms));
    ms.act_clamp = c->clamp;
    ms.expert_bias = c->bias;
    got = steptime_moe_eager_bytes(&ms, c->copies, c->f, c->h, 2, c->local,
                                   c->backward, &kernels);
    ck_assert_msg(fabs(got - c->bytes) <= 1e-9 * c->bytes, "%d: %g vs %g (%s)",
                  _i, got, c->bytes, c->source);
    ck_assert_msg(kernels == c->kernels, "%d: %g kernels vs %g", _i, kernels,
                  c->kernels);
}
END_TEST

/* In a step: each adds time, neither FLOPs; a dense model or an ungated
 * activation refuses them by name. */
START_TEST(test_moe_eager_step)
{
    struct scenario sc;
    struct result base, bias, both;
    struct diag d;

    recipe_moe(&sc, 16);
    sc.model.gated_ffn = true;
    recipe_step(&sc, &base);
    sc.model.expert_bias = true;
    recipe_step(&sc, &bias);
    sc.model.act_clamp = true;
    recipe_step(&sc, &both);
    ck_assert(base.time.step_s < bias.time.step_s);
    ck_assert(bias.time.step_s < both.time.step_s);
    ck_assert_rel(both.model.flops_per_token, base.model.flops_per_token,
                  1e-12);
    sc.model.gated_ffn = false;
    ck_assert_int_eq(scenario_validate(&sc, &d), CP_ERR_RANGE);
    ck_assert_str_eq(d.where, "model.act_clamp");
    sc.model.gated_ffn = true;
    sc.model.experts = 0;
    ck_assert_int_eq(scenario_validate(&sc, &d), CP_ERR_RANGE);
    ck_assert_str_eq(d.where, "model.expert_bias");
}
END_TEST

/* DualPipe (DeepSeek-V3 report section 3.2.1, table 2): the bubble is
 * (pp/2 - 1)(F&B + B - 3W) against 1F1B's (pp - 1)(F + B); with W = B/2
 * and F&B = F + B that is (pp/2 - 1)(F + B/2), so against 1F1B it is
 * (pp/2 - 1)/(pp - 1) times (F + B/2)/(F + B), a factor in [1/2, 1]. */
struct dualpipe_case {
    uint64_t pp;
    double lo, hi; /* bubble over the 1F1B bubble */
    const char *source;
};

static const struct dualpipe_case dualpipe_cases[] = {
    {2, 0, 0, "table 2: (2/2 - 1) = 0, no bubble on two ranks"},
    {4, 1.0 / 6, 1.0 / 3, "(4/2 - 1)/(4 - 1) = 1/3, times [1/2, 1]"},
    {8, 3.0 / 14, 3.0 / 7, "(8/2 - 1)/(8 - 1) = 3/7, times [1/2, 1]"},
    {16, 7.0 / 30, 7.0 / 15, "(16/2 - 1)/(16 - 1) = 7/15, times [1/2, 1]"},
};

static void dualpipe_dense(struct scenario *sc, uint64_t pp)
{
    fixture_scenario(sc, "h100-sxm");
    fixture_gpt(sc, 32, 4096, 32, 32000);
    sc->gpus = 8 * pp;
    sc->layout.tp = 1;
    sc->layout.pp = pp;
    sc->layout.dp = 8;
    sc->layout.microbatch = 1;
    sc->train.global_batch = 8 * 4 * pp;
}

START_TEST(test_dualpipe_bubble)
{
    const struct dualpipe_case *c = &dualpipe_cases[_i];
    struct scenario sc;
    struct result one, dual;
    double ratio;

    dualpipe_dense(&sc, c->pp);
    recipe_step(&sc, &one);
    sc.recipe.schedule = SCHED_DUALPIPE;
    recipe_step(&sc, &dual);
    ratio = one.time.bubble_s > 0 ? dual.time.bubble_s / one.time.bubble_s : 0;
    ck_assert_msg(ratio >= c->lo - 1e-12 && ratio <= c->hi + 1e-12,
                  "pp %llu: %g not in [%g, %g] (%s)", (unsigned long long)c->pp,
                  ratio, c->lo, c->hi, c->source);
    /* the same work; two copies of the parameters (table 2: 2x) */
    ck_assert_rel(dual.model.flops_per_token, one.model.flops_per_token, 1e-12);
    ck_assert_rel(dual.memory.weights_bytes, 2 * one.memory.weights_bytes,
                  1e-12);
    ck_assert_rel(dual.memory.optimizer_bytes, 2 * one.memory.optimizer_bytes,
                  1e-12);
    ck_assert(dual.time.pp_comm_s <= one.time.pp_comm_s);
}
END_TEST

/* DualPipe hides the MoE all-to-all like --overlap-moe-expert-parallel-
 * comm (yes), unless the recipe says no; its layout rules name the key. */
START_TEST(test_dualpipe_rules)
{
    struct scenario sc;
    struct result r;
    struct diag d;
    double yes, dual;

    recipe_moe(&sc, 16);
    sc.gpus = 64;
    sc.layout.pp = 2;
    sc.train.global_batch = 4 * 16 * 2;
    sc.recipe.a2a_overlap = RECIPE_YES;
    yes = recipe_step(&sc, &r);
    ck_assert(r.time.ep_comm_s > 0);
    sc.recipe.a2a_overlap = RECIPE_STACK;
    sc.recipe.schedule = SCHED_DUALPIPE;
    dual = recipe_step(&sc, &r);
    ck_assert(dual < yes); /* the same overlap and no bubble at pp 2 */
    ck_assert_double_eq(r.time.bubble_s, 0);

    dualpipe_dense(&sc, 4);
    sc.recipe.schedule = SCHED_DUALPIPE;
    sc.layout.interleave = 2;
    ck_assert_int_eq(scenario_validate(&sc, &d), CP_ERR_LAYOUT);
    ck_assert_str_eq(d.where, "software.pp_schedule");
    dualpipe_dense(&sc, 4);
    sc.recipe.schedule = SCHED_DUALPIPE;
    sc.train.global_batch = 8 * 6; /* 6 microbatches < 2 * pp */
    ck_assert_int_eq(scenario_validate(&sc, &d), CP_ERR_LAYOUT);
    ck_assert_str_eq(d.where, "software.pp_schedule");
    dualpipe_dense(&sc, 1);
    sc.recipe.schedule = SCHED_DUALPIPE;
    ck_assert_int_eq(scenario_validate(&sc, &d), CP_ERR_LAYOUT);
    sc.recipe.schedule = (enum pp_schedule)7;
    ck_assert_int_eq(scenario_validate(&sc, &d), CP_ERR_RANGE);
    ck_assert_str_eq(d.where, "software.pp_schedule");
}
END_TEST

/* MTP modules (DeepSeek-V3 section 2.2) run on the last pipeline stage:
 * without pipelining they add their layer and head to the step; with 16
 * stages of 61 layers the last stage has 3 decoder slots spare and the
 * busiest stage does not change (Megatron-Bridge's DeepSeek-V3 layout). */
START_TEST(test_mtp_stage)
{
    struct scenario sc;
    struct result r0, r1;

    fixture_scenario(&sc, "h100-sxm");
    fixture_gpt(&sc, 61, 2048, 16, 32000);
    sc.gpus = 8;
    sc.layout.tp = 1;
    sc.layout.dp = 8;
    sc.train.global_batch = 64;
    recipe_step(&sc, &r0);
    sc.model.mtp_layers = 1;
    recipe_step(&sc, &r1);
    ck_assert(r1.time.step_s > r0.time.step_s);
    /* one more layer and one more head: above 1/61 of the step */
    ck_assert(r1.time.step_s / r0.time.step_s > 1 + 1.0 / 61);
    ck_assert(r1.model.flops_per_token > r0.model.flops_per_token);

    fixture_scenario(&sc, "h100-sxm");
    fixture_gpt(&sc, 61, 2048, 16, 32000);
    sc.gpus = 16;
    sc.layout.tp = 1;
    sc.layout.pp = 16;
    sc.layout.dp = 1;
    sc.train.global_batch = 64;
    recipe_step(&sc, &r0);
    sc.model.mtp_layers = 1;
    recipe_step(&sc, &r1);
    ck_assert_rel(r1.time.step_s, r0.time.step_s, 1e-12);
    ck_assert(r1.time.mfu > r0.time.mfu); /* more model FLOPs, same time */
}
END_TEST

/* Group-limited routing (model.moe_groups / moe_group_topk) shortens a
 * forwarding dispatcher's cross-domain traffic only: not the all-to-all's
 * (every copy goes anyway), not inside one domain; bad groups name their
 * key. */
START_TEST(test_moe_groups)
{
    struct scenario sc;
    struct result r;
    struct diag d;
    double free_ep, limited;

    recipe_moe(&sc, 16); /* 64 experts, top 8, EP 16 over 2 domains */
    sc.recipe.dispatcher = DISPATCH_DEEPEP;
    recipe_step(&sc, &r);
    free_ep = r.time.ep_comm_s;
    sc.model.moe_groups = 8;
    sc.model.moe_group_topk = 1; /* 8 experts of one group, one domain */
    recipe_step(&sc, &r);
    limited = r.time.ep_comm_s;
    ck_assert(limited < free_ep);
    sc.recipe.dispatcher = DISPATCH_ALLTOALL;
    recipe_step(&sc, &r);
    limited = r.time.ep_comm_s;
    sc.model.moe_groups = sc.model.moe_group_topk = 0;
    recipe_step(&sc, &r);
    ck_assert_rel(limited, r.time.ep_comm_s, 1e-12);

    sc.model.moe_groups = 6; /* does not divide 64 */
    sc.model.moe_group_topk = 1;
    ck_assert_int_eq(scenario_validate(&sc, &d), CP_ERR_RANGE);
    ck_assert_str_eq(d.where, "model.moe_groups");
    sc.model.moe_groups = 16; /* 4 experts a group, top 8 needs 2 */
    ck_assert_int_eq(scenario_validate(&sc, &d), CP_ERR_RANGE);
    ck_assert_str_eq(d.where, "model.moe_group_topk");
    sc.model.moe_group_topk = 2;
    ck_assert_int_eq(scenario_validate(&sc, &d), CP_OK);
}
END_TEST

/* model.mtp_layers are trained beside the model: a serving plan of the
 * same model runs without them (its throughput and FLOPs do not move). */
START_TEST(test_mtp_not_served)
{
    struct scenario sc;
    struct result r0, r1;
    struct diag d;

    fixture_scenario(&sc, "h100-sxm");
    fixture_gpt(&sc, 32, 4096, 32, 32000);
    sc.workload = WORKLOAD_SERVE;
    sc.gpus = 1;
    sc.layout.tp = sc.layout.pp = sc.layout.dp = 1;
    sc.stack.mbu = 0.8;
    sc.stack.kv_mem_frac = 0.9;
    sc.stack.max_seqs = 256;
    sc.serve.input_tokens = sc.serve.output_tokens = 1000;
    ck_assert_msg(scenario_validate(&sc, &d) == CP_OK, "%s: %s", d.where,
                  d.msg);
    scenario_eval(&sc, &r0);
    sc.model.mtp_layers = 1;
    ck_assert_int_eq(scenario_validate(&sc, &d), CP_OK);
    scenario_eval(&sc, &r1);
    ck_assert(r0.serve.output_tokens_per_s > 0);
    ck_assert_double_eq(r1.serve.output_tokens_per_s,
                        r0.serve.output_tokens_per_s);
    ck_assert_double_eq(r1.model.flops_per_token, r0.model.flops_per_token);
}
END_TEST

/* software.fp8_scaling: the bytes a cast to 8 bits moves per element, per
 * recipe (torchao testing/training/roofline_utils.py, get_tensor_memory_
 * traffic_ovhd_s for an activation or gradient with its read fused into
 * the op before), and the step it costs: tensorwise re-reads the 16-bit
 * tensor after its amax, rowwise quantizes along each axis in two
 * kernels.  "stack" keeps the stack's own casts: Transformer Engine's, or
 * on a stack whose cast_kernel is torchao (torchtitan) torchao's default
 * recipe, tensorwise, and its two MXFP8 casts. */
START_TEST(test_fp8_scaling)
{
    static const struct {
        const char *accel;
        enum precision prec;
        enum fp8_scaling scaling;
        const char *cast_kernel;
        double bytes, kernels;
        const char *source;
    } cases[] = {
        {"h100-sxm", PREC_FP8, FP8_SCALING_STACK, "", 2, 1,
         "TE: 8-bit copy + transpose written, read fused"},
        {"b200", PREC_FP8, FP8_SCALING_STACK, "", 1, 1,
         "TE on Blackwell: one 8-bit copy serves every layout"},
        {"h100-sxm", PREC_FP8, FP8_SCALING_TENSOR, "", 4, 1,
         "torchao tensorwise: read 2 + write 2 x 1"},
        {"b200", PREC_FP8, FP8_SCALING_TENSOR, "", 4, 1,
         "torchao tensorwise writes both layouts on Blackwell too"},
        {"h100-sxm", PREC_FP8, FP8_SCALING_ROW, "", 6, 2,
         "torchao rowwise: (1 + 2) + (2 + 1), two kernels"},
        {"b200", PREC_MXFP8, FP8_SCALING_ROW, "", 2 + 2.0 / 32, 1,
         "MXFP8 keeps its own two quantizations"},
        {"b200", PREC_MXFP8, FP8_SCALING_STACK, "te", 2 + 2.0 / 32, 1,
         "TE MXFP8: both quantizations fused into the op before"},
        {"h100-sxm", PREC_FP8, FP8_SCALING_STACK, "torchao", 4, 1,
         "torchtitan @6fc499f float8.py: no recipe_name is "
         "Float8LinearConfig(), tensorwise"},
        {"b200", PREC_FP8, FP8_SCALING_STACK, "torchao", 4, 1,
         "torchao's tensorwise default on Blackwell"},
        {"b200", PREC_FP8, FP8_SCALING_ROW, "torchao", 6, 2,
         "the run's recipe over the stack's default"},
        {"b200", PREC_MXFP8, FP8_SCALING_STACK, "torchao", 4 + 2.0 / 32, 2,
         "torchao roofline mxfp8_cublas: dim0 cast fused (write 1 + 1/32), "
         "dim1 cast read 2 + write 1 + 1/32 (torchtitan MX "
         "mxfp8_dim1_cast_kernel_choice triton)"},
    };
    struct scenario sc;
    struct result r;
    double kernels, step[3];
    size_t i;

    for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        fixture_scenario(&sc, cases[i].accel);
        /* Blackwell: NVIDIA with MX tensor cores */
        snprintf(sc.accel.vendor, sizeof(sc.accel.vendor), "NVIDIA");
        if (strcmp(cases[i].accel, "b200") == 0)
            sc.accel.peak_flops[PREC_MXFP8] = 4500e12;
        sc.recipe.fp8_scaling = cases[i].scaling;
        snprintf(sc.stack.cast_kernel, sizeof(sc.stack.cast_kernel), "%s",
                 cases[i].cast_kernel);
        ck_assert_msg(
            fabs(steptime_cast_bytes(&sc, cases[i].prec, &kernels) -
                 cases[i].bytes) < 1e-12,
            "%s", cases[i].source);
        ck_assert_msg(kernels == cases[i].kernels, "%s", cases[i].source);
    }

    /* at FP8 the step follows the cast traffic: stack < tensor < row */
    fixture_scenario(&sc, "h100-sxm");
    sc.train.precision = PREC_FP8;
    for (i = 0; i < 3; i++) {
        sc.recipe.fp8_scaling = (enum fp8_scaling)i;
        step[i] = recipe_step(&sc, &r);
    }
    ck_assert(step[FP8_SCALING_STACK] < step[FP8_SCALING_TENSOR]);
    ck_assert(step[FP8_SCALING_TENSOR] < step[FP8_SCALING_ROW]);
    /* in 16 bits nothing is cast, so the recipe changes nothing */
    sc.train.precision = PREC_BF16;
    sc.recipe.fp8_scaling = FP8_SCALING_STACK;
    step[0] = recipe_step(&sc, &r);
    sc.recipe.fp8_scaling = FP8_SCALING_ROW;
    ck_assert_double_eq(recipe_step(&sc, &r), step[0]);

    /* out of range names its key */
    {
        struct diag d;

        sc.recipe.fp8_scaling = (enum fp8_scaling)7;
        ck_assert_int_eq(scenario_validate(&sc, &d), CP_ERR_RANGE);
        ck_assert_str_eq(d.where, "software.fp8_scaling");
    }
}
END_TEST

/* torchao's rowwise float8 runs its two backward GEMMs (the input and the
 * weight gradients, use_fast_accum off: torchao float8/config.py
 * gemm_config_grad_input, gemm_config_grad_weight) as the tensorwise
 * cuBLAS GEMM with unit scales and rescales each 16-bit output apart
 * (float8_ops.py addmm_float8_unwrapped: "the rowwise CUTLASS-based kernel
 * is so slow without fast-accum that we'd rather use the tensorwise
 * cuBLAS-based kernel and do the scaling manually afterwards"; torchao
 * issue #2184: under torch.compile at least one extra kernel per GEMM):
 * a read and a write of 2 bytes over M x K and K x N, two kernels.  No
 * other recipe has them. */
START_TEST(test_rowwise_rescale)
{
    static const struct {
        enum precision prec;
        enum fp8_scaling scaling;
        const char *cast_kernel;
        double bytes, kernels;
        const char *source;
    } cases[] = {
        {PREC_FP8, FP8_SCALING_ROW, "", 4.0 * (8192.0 * 4096 + 4096.0 * 14336),
         2, "rowwise: dgrad 8192 x 4096 and wgrad 4096 x 14336, 2 + 2 B"},
        {PREC_FP8, FP8_SCALING_ROW, "torchao",
         4.0 * (8192.0 * 4096 + 4096.0 * 14336), 2,
         "rowwise named by the run on a torchao stack"},
        {PREC_FP8, FP8_SCALING_TENSOR, "", 0, 0,
         "tensorwise: the scale rides cuBLAS's epilogue"},
        {PREC_FP8, FP8_SCALING_STACK, "torchao", 0, 0,
         "torchao's default is tensorwise"},
        {PREC_FP8, FP8_SCALING_STACK, "", 0, 0, "Transformer Engine"},
        {PREC_MXFP8, FP8_SCALING_ROW, "", 0, 0, "MX scales ride the GEMM"},
        {PREC_BF16, FP8_SCALING_ROW, "", 0, 0, "nothing cast in 16 bits"},
    };
    struct scenario sc;
    struct result r;
    double kernels, tensor, stack;
    size_t i;

    for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        fixture_scenario(&sc, "b200");
        sc.recipe.fp8_scaling = cases[i].scaling;
        snprintf(sc.stack.cast_kernel, sizeof(sc.stack.cast_kernel), "%s",
                 cases[i].cast_kernel);
        ck_assert_msg(fabs(steptime_rescale_bytes(&sc, cases[i].prec, 8192,
                                                  14336, 4096, &kernels) -
                           cases[i].bytes) < 1e-3,
                      "%s", cases[i].source);
        ck_assert_msg(kernels == cases[i].kernels, "%s", cases[i].source);
    }

    /* a torchao stack's default is the tensorwise recipe, step for step */
    fixture_scenario(&sc, "h100-sxm");
    sc.train.precision = PREC_FP8;
    snprintf(sc.stack.cast_kernel, sizeof(sc.stack.cast_kernel), "torchao");
    stack = recipe_step(&sc, &r);
    sc.recipe.fp8_scaling = FP8_SCALING_TENSOR;
    tensor = recipe_step(&sc, &r);
    ck_assert_double_eq(stack, tensor);
    /* rowwise costs more than its casts alone: the rescale passes */
    sc.recipe.fp8_scaling = FP8_SCALING_ROW;
    ck_assert(recipe_step(&sc, &r) > tensor);
}
END_TEST

/* stack tp_bwd_exposed: Megatron hides each backward TP reduction under
 * the weight-gradient GEMM beside it (Korthikanti et al. 2022 section 4:
 * backward ~1.55x forward), PyTorch DTensor TP waits on every collective
 * in order (1): the backward then exposes all of the forward's TP volume
 * again, more TP time and a longer step than with the overlap; without TP
 * it changes nothing; beyond [0, 1] it is refused. */
START_TEST(test_tp_bwd_exposed)
{
    static const struct {
        uint64_t tp;
        double exposed;
        const char *source;
    } cases[] = {
        {8, 0, "Megatron: backward reduction under the wgrad GEMM"},
        {8, 1, "DTensor TP: every backward collective in order"},
        {1, 1, "no TP: nothing to expose"},
    };
    struct scenario sc;
    struct result r[3];
    struct diag d;
    size_t i;

    for (i = 0; i < 3; i++) {
        fixture_scenario(&sc, "h100-sxm");
        fixture_gpt(&sc, 8, 4096, 32, 32000);
        sc.gpus = 8;
        sc.layout.tp = cases[i].tp;
        sc.layout.dp = 8 / cases[i].tp;
        sc.layout.microbatch = 1;
        sc.layout.sequence_parallel = cases[i].tp > 1;
        sc.train.global_batch = 8;
        sc.stack.tp_overlap = 0;
        sc.stack.tp_bwd_exposed = cases[i].exposed;
        ck_assert_msg(scenario_validate(&sc, &d) == CP_OK, "%s: %s", d.where,
                      d.msg);
        scenario_eval(&sc, &r[i]);
        ck_assert_msg(r[i].time.mfu > 0 && r[i].time.mfu <= 1, "%s",
                      cases[i].source);
    }
    ck_assert(r[1].time.tp_comm_s > r[0].time.tp_comm_s);
    ck_assert(r[1].time.step_s > r[0].time.step_s);
    /* without TP the column changes nothing (sc is still the tp 1 case) */
    ck_assert_double_eq(r[2].time.tp_comm_s, 0);
    sc.stack.tp_bwd_exposed = 0;
    scenario_eval(&sc, &r[0]);
    ck_assert_double_eq(r[0].time.step_s, r[2].time.step_s);

    sc.stack.tp_bwd_exposed = 1.5;
    ck_assert_int_eq(scenario_validate(&sc, &d), CP_ERR_RANGE);
}
END_TEST

/* Checkpoint early stop (stack ckpt_early_stop, software.ckpt_early_stop):
 * PyTorch's non-reentrant activation checkpointing (torch >= 2.1,
 * torch.utils.checkpoint set_checkpoint_early_stop, on by default) stops
 * recomputing a block as soon as every tensor its backward saved is back.
 * Autograd saves an op's inputs before it runs, so the block's last GEMM
 * (the FFN down projection, which saves its input and weight) and what
 * follows it are never recomputed.  Case table on one GPU (no
 * communication), a dense GPT layer with the FFN at 4h: the recompute of
 * each layer and microbatch is shorter by exactly that GEMM's forward
 * time; with recompute none or selective, or the switch off, nothing
 * changes; the recipe overrides the stack either way. */
START_TEST(test_ckpt_early_stop)
{
    static const struct {
        enum recompute rc;
        double stack;
        enum recipe_switch recipe;
        bool skips;
        const char *source;
    } cases[] = {
        {RECOMPUTE_FULL, 1, RECIPE_STACK, true,
         "torch >= 2.1 non-reentrant checkpoint: early stop"},
        {RECOMPUTE_FULL, 0, RECIPE_YES, true, "recipe turns it on"},
        {RECOMPUTE_FULL, 1, RECIPE_NO, false,
         "recipe off (torch 1.13: the whole block again)"},
        {RECOMPUTE_FULL, 0, RECIPE_STACK, false, "Megatron: whole layer"},
        {RECOMPUTE_NONE, 1, RECIPE_STACK, false, "nothing recomputed"},
        {RECOMPUTE_SELECTIVE, 1, RECIPE_STACK, false,
         "selective: the stack's own policy"},
    };
    struct scenario sc;
    struct result on, off;
    struct diag d;
    size_t i;
    double layers = 16, h = 8192, mb = 2, s = 2048, down, rate;

    for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        fixture_scenario(&sc, "h100-sxm");
        fixture_gpt(&sc, (uint64_t)layers, (uint64_t)h, 64, 32000);
        sc.gpus = 1;
        sc.layout.tp = sc.layout.pp = sc.layout.dp = 1;
        sc.layout.sequence_parallel = false;
        sc.layout.zero = 0;
        sc.layout.microbatch = (uint64_t)mb;
        sc.train.seq_len = (uint64_t)s;
        sc.train.global_batch = 4 * (uint64_t)mb;
        sc.layout.recompute = cases[i].rc;
        sc.stack.ckpt_early_stop = 0;
        sc.recipe.ckpt_early_stop = RECIPE_STACK;
        ck_assert_msg(scenario_validate(&sc, &d) == CP_OK, "%s: %s", d.where,
                      d.msg);
        scenario_eval(&sc, &off);
        sc.stack.ckpt_early_stop = cases[i].stack;
        sc.recipe.ckpt_early_stop = cases[i].recipe;
        ck_assert_int_eq(scenario_validate(&sc, NULL), CP_OK);
        scenario_eval(&sc, &on);
        check_time_sane(&on);
        if (!cases[i].skips) {
            ck_assert_msg(on.time.step_s == off.time.step_s, "%s",
                          cases[i].source);
            continue;
        }
        /* the down projection: T x ffn -> h, at the stack's GEMM rate */
        rate = sc.accel.peak_flops[PREC_BF16] * sc.accel.gemm_frac *
               sc.stack.gemm_eff;
        down = steptime_gemm_s(rate, sc.accel.gemm_half_flops,
                               sc.accel.hbm_bps * sc.accel.hbm_frac,
                               sc.accel.kernel_s + sc.stack.kernel_s, mb * s, h,
                               4 * h, 1, 2);
        ck_assert_msg(fabs((off.time.compute_s - on.time.compute_s) -
                           4 * layers * down) < 1e-9 * off.time.compute_s,
                      "%s: saved %g s, want %g s", cases[i].source,
                      off.time.compute_s - on.time.compute_s,
                      4 * layers * down);
        ck_assert(on.time.step_s < off.time.step_s);
        ck_assert(on.time.mfu > off.time.mfu);
        /* the hardware FLOPs lose the down projection's forward, 2 h 4h
         * per token and layer: the recompute is 2/3 of the forward's
         * GEMM FLOPs (8h^2 of 24h^2 per token) */
        ck_assert_msg(fabs((off.time.hw_tflops_per_gpu * off.time.step_s -
                            on.time.hw_tflops_per_gpu * on.time.step_s) *
                               1e12 -
                           layers * 2 * h * 4 * h * 4 * mb * s) <
                          1e-9 * off.time.hw_tflops_per_gpu * 1e12 *
                              off.time.step_s,
                      "%s: hardware FLOPs", cases[i].source);
    }
    sc.stack.ckpt_early_stop = 2;
    ck_assert_int_eq(scenario_validate(&sc, &d), CP_ERR_RANGE);
    ck_assert_msg(strstr(d.msg, "ckpt_early_stop") != NULL, "%s", d.msg);
}
END_TEST

/* ZeRO-Offload (software.offload=optimizer; Ren et al. 2021 section 4):
 * the update leaves the GPU.  Instead of its bandwidth-bound Adam step
 * (gradient fp32 4 + master 8 + moments 16 + 16-bit weight 2 bytes per
 * parameter of the ZeRO shard, at hbm_bps x hbm_frac) the step pays the
 * 16-bit gradient copy to the host (2 bytes per shard parameter at
 * 25 GB/s, PCIe Gen4 x16 achieved; hidden under the backward but for its
 * last of 8 layers' buckets plus the overlap tax 0.28, once per step under
 * ZeRO 1 and per microbatch under ZeRO 3), CPU-Adam on the host (1e9
 * parameters in 0.22 s on the paper's 48-core DGX-2 host, table 3; here
 * 128 cores over 8 GPUs) and the 16-bit weights back (2 bytes at 25 GB/s,
 * exposed). */
/* DGX A100's host (data/systems.csv): PCIe Gen4 x16, ~25 GB/s achieved;
 * 2 x AMD EPYC 7742, 128 cores for 8 GPUs */
static void dgx_a100_host(struct scenario *sc)
{
    sc->system.gpus_per_node = 8;
    sc->system.host_link_bps = 25e9;
    sc->system.host_cores = 128;
}

static void offload_pair(int zero, uint64_t batch, struct result *none,
                         struct result *off)
{
    struct scenario sc;
    struct diag d;

    fixture_scenario(&sc, "a100-80gb");
    fixture_gpt(&sc, 8, 4096, 32, 32000);
    dgx_a100_host(&sc);
    sc.gpus = 8;
    sc.layout.tp = 1;
    sc.layout.dp = 8;
    sc.layout.microbatch = 1;
    sc.layout.zero = zero;
    sc.train.global_batch = batch;
    ck_assert_msg(scenario_validate(&sc, &d) == CP_OK, "%s: %s", d.where,
                  d.msg);
    scenario_eval(&sc, none);
    sc.recipe.offload = OFFLOAD_OPTIMIZER;
    ck_assert_msg(scenario_validate(&sc, &d) == CP_OK, "%s: %s", d.where,
                  d.msg);
    scenario_eval(&sc, off);
}

START_TEST(test_offload_time)
{
    static const struct {
        int zero;
        uint64_t batch;
        double copies; /* gradient copies to the host per step */
        const char *source;
    } cases[] = {
        {1, 8, 1, "ZeRO-Offload stage 1: one gradient copy per step"},
        {3, 32, 4, "DeepSpeed stage 3 offload: a copy per microbatch"},
    };
    struct result none, off, z1;
    size_t i;

    /* the ZeRO-1 run holds every parameter in 16 bits: the shard's size
     * (less the final norm, which the step's count leaves out) */
    offload_pair(1, 8, &none, &z1);
    for (i = 0; i < 2; i++) {
        double params = z1.memory.weights_bytes / 2 - 4096;
        double shard = params / 8, link = shard * 2 / 25e9;
        double gpu = shard * (4 + 8 + 16 + 2) / (2.039e12 * 0.85);
        double host = cases[i].copies * (link / 8 + 0.28 * link) +
                      shard / (1e9 / 0.22 / 48 * 128 / 8) + link;

        offload_pair(cases[i].zero, cases[i].batch, &none, &off);
        ck_assert_msg(fabs((off.time.optimizer_s - none.time.optimizer_s) -
                           (host - gpu)) <= 1e-9 * host,
                      "%s: %g, want %g", cases[i].source,
                      off.time.optimizer_s - none.time.optimizer_s, host - gpu);
        ck_assert_double_eq_tol(off.time.step_s - none.time.step_s, host - gpu,
                                1e-9 * host);
    }
}
END_TEST

/* Memory: the optimizer's 12 bytes per parameter (fp32 master 4, Adam
 * moments 8; ZeRO Table 1's K = 12), sharded over DP under ZeRO >= 1,
 * leave the GPU (ZeRO-Offload section 4.1); nothing else moves. */
START_TEST(test_offload_memory)
{
    static const struct {
        int zero;
        double bytes_per_param_dp8; /* optimizer bytes / param on the GPU */
        const char *source;
    } cases[] = {
        {1, 12.0 / 8, "ZeRO Table 1: K / Nd"},
        {3, 12.0 / 8, "ZeRO Table 1: K / Nd"},
    };
    struct result none, off, z1;
    size_t i;

    offload_pair(1, 8, &none, &z1);
    for (i = 0; i < 2; i++) {
        double params = z1.memory.weights_bytes / 2;

        offload_pair(cases[i].zero, 8, &none, &off);
        ck_assert_double_eq_tol(none.memory.optimizer_bytes,
                                params * cases[i].bytes_per_param_dp8,
                                1e-9 * none.memory.optimizer_bytes);
        ck_assert_double_eq(off.memory.optimizer_bytes, 0);
        /* what left the GPU is reported as held by the host */
        ck_assert_double_eq(none.memory.host_bytes, 0);
        ck_assert_double_eq(off.memory.host_bytes, none.memory.optimizer_bytes);
        ck_assert_double_eq_tol(off.memory.total_bytes,
                                none.memory.total_bytes -
                                    none.memory.optimizer_bytes,
                                1e-6 * none.memory.total_bytes);
    }
}
END_TEST

/* Invariants over ZeRO stages, DP and precision: offloading never grows
 * GPU memory, never shortens the step; the run stays physical (MFU in
 * (0, 1], finite GPU-hours and energy).  CPU-Adam is Adam: another
 * optimizer, a system without host figures, or an out-of-range value, is
 * refused. */
START_TEST(test_offload_invariants)
{
    static const enum precision precs[] = {PREC_BF16, PREC_FP32};
    static const uint64_t dps[] = {1, 2, 8};
    struct scenario sc;
    struct result none, off;
    struct diag d;
    size_t z, i, k;

    for (z = 0; z <= 3; z++)
        for (i = 0; i < 3; i++)
            for (k = 0; k < 2; k++) {
                fixture_scenario(&sc, "a100-80gb");
                fixture_gpt(&sc, 8, 4096, 32, 32000);
                dgx_a100_host(&sc);
                sc.gpus = 8;
                sc.layout.tp = 8 / dps[i];
                sc.layout.dp = dps[i];
                sc.layout.microbatch = 1;
                sc.layout.zero = (int)z;
                sc.layout.sequence_parallel = sc.layout.tp > 1;
                sc.train.global_batch = 4 * dps[i];
                sc.train.precision = precs[k];
                ck_assert_msg(scenario_validate(&sc, &d) == CP_OK, "%s: %s",
                              d.where, d.msg);
                scenario_eval(&sc, &none);
                sc.recipe.offload = OFFLOAD_OPTIMIZER;
                ck_assert_int_eq(scenario_validate(&sc, &d), CP_OK);
                scenario_eval(&sc, &off);
                ck_assert(off.memory.total_bytes <= none.memory.total_bytes);
                ck_assert(off.time.step_s >= none.time.step_s);
                ck_assert(off.time.mfu > 0 && off.time.mfu <= 1);
                ck_assert(isfinite(off.time.gpu_hours) &&
                          off.time.gpu_hours >= 0);
                ck_assert(isfinite(off.energy.facility_mwh) &&
                          off.energy.facility_mwh >= 0);
                ck_assert(isfinite(off.cost.build.capex_usd));
            }
    sc.train.optimizer = OPT_SGD;
    ck_assert_int_eq(scenario_validate(&sc, &d), CP_ERR_RANGE);
    ck_assert_str_eq(d.where, "software.offload");
    sc.train.optimizer = OPT_ADAM;
    /* a system that states no host link or cores cannot price it */
    sc.system.host_link_bps = 0;
    ck_assert_int_eq(scenario_validate(&sc, &d), CP_ERR_RANGE);
    ck_assert_str_eq(d.where, "software.offload");
    sc.system.host_link_bps = 25e9;
    sc.system.host_cores = 0;
    ck_assert_int_eq(scenario_validate(&sc, &d), CP_ERR_RANGE);
    sc.system.host_cores = 128;
    ck_assert_int_eq(scenario_validate(&sc, &d), CP_OK);
    sc.recipe.offload = (enum offload)(OFFLOAD_OPTIMIZER_ACTIVATIONS + 1);
    ck_assert_int_eq(scenario_validate(&sc, &d), CP_ERR_RANGE);
}
END_TEST

/* software.recompute_modules (Megatron-Core --recompute-modules,
 * transformer_config.py): selective recomputation repeats the forward of
 * the named modules only.  A small MLA MoE model with one dense layer
 * first, on one GPU (no communication, no bubble), so the step grows by
 * microbatches x the modules' forward per layer over recompute=none:
 * mla_up_proj the query and key-value up projections plus RoPE on the
 * positional parts (every layer), moe_act the routed activation (read the
 * gated 2f, write f per routed copy; MoE layers), mlp the dense layer's
 * MLP (two GEMMs and the activation). */
static void recmod_model(struct scenario *sc)
{
    fixture_scenario(sc, "h100-sxm");
    fixture_gpt(sc, 4, 2048, 16, 32000);
    sc->model.attention = MATTN_MLA;
    sc->model.kv_lora_rank = 256;
    sc->model.q_lora_rank = 512;
    sc->model.rope_head_dim = 32;
    sc->model.head_dim = 64;
    sc->model.gated_ffn = true;
    sc->model.experts = 16;
    sc->model.experts_active = 4;
    sc->model.expert_ffn = 512;
    sc->model.moe_every = 1;
    sc->model.first_dense_layers = 1;
    sc->gpus = 1;
    sc->layout.tp = sc->layout.pp = sc->layout.dp = sc->layout.ep = 1;
    sc->layout.microbatch = 1;
    sc->train.global_batch = 4;
    sc->layout.recompute = RECOMPUTE_SELECTIVE;
    sc->stack.kernel_s = 10e-6;
}

/* forward GEMM of the fixture at 16 bits (steptime_gemm_s) */
static double recmod_gemm(const struct scenario *sc, double M, double N,
                          double K)
{
    const struct accel_spec *a = &sc->accel;

    return steptime_gemm_s(
        a->peak_flops[PREC_BF16] *
            spec_scaled_eff(a->gemm_frac * sc->stack.gemm_eff,
                            sc->efficiency_scale),
        a->gemm_half_flops, a->hbm_bps * a->hbm_frac,
        a->kernel_s + sc->stack.kernel_s, M, N, K, 1, 2);
}

START_TEST(test_recompute_modules)
{
    static const struct {
        enum recompute_modules set;
        unsigned mla, act, mlp; /* which terms the expected step adds */
        const char *source;
    } cases[] = {
        {RECMOD_MLA_UP, 1, 0, 0,
         "Megatron-Bridge 25.11 GB200/B200 DeepSeek-V3: [mla_up_proj]"},
        {RECMOD_MOE_ACT, 0, 1, 0,
         "Megatron-Bridge 25.11 GB300 DeepSeek-V3: [moe_act]"},
        {RECMOD_MLA_UP_MLP, 1, 0, 1,
         "Megatron-Bridge 25.09 H100 DeepSeek-V3: [mla_up_proj, mlp]"},
        {RECMOD_MLA_UP_MLP_MOE_ACT, 1, 1, 1,
         "Megatron-Bridge 25.09 GB200 DeepSeek-V3: [mla_up_proj, mlp, "
         "moe_act]"},
    };
    struct scenario sc;
    struct model_shape m;
    struct result none, r;
    double T, kern, bw, mbs, mla, act, mlp, expect;
    size_t i;

    recmod_model(&sc);
    model_shape_derive(&sc.model, (double)sc.train.seq_len, &m);
    T = (double)sc.train.seq_len;
    kern = sc.accel.kernel_s + sc.stack.kernel_s;
    bw = sc.accel.hbm_bps * sc.accel.hbm_frac;
    mbs = 4;
    mla = recmod_gemm(&sc, T, m.a * m.d_qk, m.q_lora) +
          recmod_gemm(&sc, T, m.a * (m.d + m.d_v), m.kv_lora) +
          2 * T * (m.a + 1) * m.rope * 2 / bw + kern;
    act = 3 * T * m.top_k * m.f_expert * 2 / bw + kern;
    mlp = recmod_gemm(&sc, T, 2 * m.f, m.h) + recmod_gemm(&sc, T, m.h, m.f) +
          3 * T * m.f * 2 / bw + kern;
    ck_assert_double_eq(m.moe_layers, 3);
    sc.layout.recompute = RECOMPUTE_NONE;
    recipe_step(&sc, &none);
    for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        recmod_model(&sc);
        sc.recipe.recompute_modules = cases[i].set;
        recipe_step(&sc, &r);
        check_time_sane(&r);
        expect = mbs *
                 (cases[i].mla * m.L * mla + cases[i].act * m.moe_layers * act +
                  cases[i].mlp * m.dense_layers * mlp);
        ck_assert_msg(fabs(r.time.step_s - none.time.step_s - expect) <=
                          1e-9 * none.time.step_s,
                      "%s: step +%g s, expected +%g s", cases[i].source,
                      r.time.step_s - none.time.step_s, expect);
        /* fewer activations kept than without recomputation */
        ck_assert_msg(r.memory.activations_bytes <
                          none.memory.activations_bytes,
                      "%s", cases[i].source);
        ck_assert(r.time.hfu >= r.time.mfu);
    }
}
END_TEST

/* Invariants: core_attn is the stack's selective policy when the stack
 * keeps the rest (Megatron-Core's default set); recompute=none and full
 * ignore the set; each module set lies between none and full in time and
 * in memory; mla_up_proj needs MLA and says so. */
START_TEST(test_recompute_modules_invariants)
{
    struct scenario sc;
    struct result stack, r, none, full;
    struct diag d;
    enum recompute_modules set;

    recmod_model(&sc);
    sc.stack.selective_keep = 1;
    recipe_step(&sc, &stack);
    sc.recipe.recompute_modules = RECMOD_CORE_ATTN;
    recipe_step(&sc, &r);
    ck_assert_double_eq(r.time.step_s, stack.time.step_s);
    ck_assert_double_eq(r.memory.activations_bytes,
                        stack.memory.activations_bytes);
    ck_assert_double_eq(r.time.hfu, stack.time.hfu);

    for (set = RECMOD_STACK; set <= RECMOD_MLA_UP_MLP_MOE_ACT; set++) {
        recmod_model(&sc);
        sc.layout.recompute = RECOMPUTE_NONE;
        recipe_step(&sc, &none);
        sc.layout.recompute = RECOMPUTE_FULL;
        recipe_step(&sc, &full);
        sc.recipe.recompute_modules = set;
        recipe_step(&sc, &r);
        ck_assert_double_eq(r.time.step_s, full.time.step_s);
        sc.layout.recompute = RECOMPUTE_NONE;
        recipe_step(&sc, &r);
        ck_assert_double_eq(r.time.step_s, none.time.step_s);
        ck_assert_double_eq(r.memory.activations_bytes,
                            none.memory.activations_bytes);
        sc.layout.recompute = RECOMPUTE_SELECTIVE;
        recipe_step(&sc, &r);
        ck_assert(r.time.step_s >= none.time.step_s);
        ck_assert(r.time.step_s < full.time.step_s);
        ck_assert(r.memory.activations_bytes <= none.memory.activations_bytes);
        ck_assert(r.memory.activations_bytes > full.memory.activations_bytes);
    }

    recmod_model(&sc);
    sc.model.attention = MATTN_MHA;
    sc.recipe.recompute_modules = RECMOD_MLA_UP;
    ck_assert_int_eq(scenario_validate(&sc, &d), CP_ERR_RANGE);
    ck_assert_str_eq(d.where, "software.recompute_modules");
    sc.recipe.recompute_modules = RECMOD_MOE_ACT;
    ck_assert_int_eq(scenario_validate(&sc, &d), CP_OK);
    sc.recipe.recompute_modules = (enum recompute_modules)6;
    ck_assert_int_eq(scenario_validate(&sc, &d), CP_ERR_RANGE);
    ck_assert_str_eq(d.where, "software.recompute_modules");
}
END_TEST

/* stack pp_overlap: Megatron-Core's interleaved schedule posts each
 * virtual stage's sends beside the next chunk's compute
 * (--overlap-p2p-communication; Megatron-Bridge comm_overlap.py sets it
 * whenever vp > 1, and batch_p2p_comm without virtual stages).  Sends
 * shorter than the compute: what stays exposed is the pipeline's fill,
 * (p - 1) / (v (m + p - 1)) of them, plus the overlap tax on the rest, a
 * fixed share of the sends; without virtual stages nothing changes. */
static void pp_sends(uint64_t pp, uint64_t v, double o, struct result *r)
{
    struct scenario sc;

    fixture_scenario(&sc, "h100-sxm");
    fixture_gpt(&sc, 48, 4096, 32, 32000);
    sc.gpus = 8 * pp;
    sc.layout.tp = 8; /* one stage a node: the sends cross the fabric */
    sc.layout.pp = pp;
    sc.layout.dp = 1;
    sc.layout.interleave = v;
    sc.layout.microbatch = 1;
    sc.train.global_batch = 32;
    sc.stack.pp_overlap = o;
    recipe_step(&sc, r);
    check_time_sane(r);
}

START_TEST(test_pp_overlap)
{
    static const struct {
        uint64_t pp, v;
        const char *source;
    } cases[] = {
        {4, 2, "Megatron-Bridge: pp 4, vp 2"},
        {8, 3, "Megatron-Bridge 25.11 GB200 Qwen3-235B: pp 8, vp 3"},
        {4, 12, "Megatron-Bridge 25.11 GB300 Qwen3-235B: pp 4, vp 12"},
    };
    struct result r0, r1, rh, rv;
    double tax = -1, fill, m = 32;
    size_t i;

    for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        double p = (double)cases[i].pp, v = (double)cases[i].v;

        pp_sends(cases[i].pp, cases[i].v, 0, &r0);
        pp_sends(cases[i].pp, cases[i].v, 1, &r1);
        pp_sends(cases[i].pp, cases[i].v, 0.5, &rh);
        fill = r0.time.pp_comm_s * (p - 1) / (v * (m + p - 1));
        ck_assert_msg(r0.time.pp_comm_s < r0.time.compute_s, "%s",
                      cases[i].source);
        ck_assert_msg(r1.time.pp_comm_s < r0.time.pp_comm_s, "%s",
                      cases[i].source);
        ck_assert_msg(r1.time.pp_comm_s > fill, "%s", cases[i].source);
        /* the tax is one share of the hidden sends, whatever the layout */
        if (tax < 0)
            tax = (r1.time.pp_comm_s - fill) / r0.time.pp_comm_s;
        ck_assert_msg(
            fabs((r1.time.pp_comm_s - fill) / r0.time.pp_comm_s - tax) < 1e-9,
            "%s: fill not (p-1)/(v(m+p-1)) of the sends", cases[i].source);
        ck_assert(tax > 0 && tax < 1);
        ck_assert_rel(rh.time.pp_comm_s,
                      (r0.time.pp_comm_s + r1.time.pp_comm_s) / 2, 1e-12);
        /* only the sends change */
        ck_assert_rel(r0.time.step_s - r1.time.step_s,
                      r0.time.pp_comm_s - r1.time.pp_comm_s, 1e-9);
        ck_assert_double_eq(r1.time.compute_s, r0.time.compute_s);
    }
    /* no virtual stages: sends batched in line (batch_p2p_comm) */
    pp_sends(4, 1, 0, &r0);
    pp_sends(4, 1, 1, &rv);
    ck_assert_double_eq(rv.time.pp_comm_s, r0.time.pp_comm_s);
    ck_assert_double_eq(rv.time.step_s, r0.time.step_s);
}
END_TEST

/* The pipeline split counts the embedding and the output layer with its
 * loss as layers (Megatron-Core account_for_embedding_in_pipeline_split /
 * account_for_loss_in_pipeline_split, which Megatron-Bridge's Llama 3.1
 * 405B and Qwen3-235B recipes set): when L + 2, not L, splits evenly over
 * pp x interleave chunks, or there are more chunks than layers.  Then the
 * GPU holding the output runs one layer fewer: a small output layer (a
 * vocabulary of 1-2k) hides in the layer it replaces, and the busiest
 * stage's compute does not grow with the vocabulary; otherwise it does. */
static double head_compute(uint64_t layers, uint64_t pp, uint64_t v,
                           uint64_t vocab)
{
    struct scenario sc;
    struct result r;

    fixture_scenario(&sc, "h100-sxm");
    fixture_gpt(&sc, layers, 4096, 32, vocab);
    sc.gpus = 8 * pp;
    sc.layout.tp = 8;
    sc.layout.pp = pp;
    sc.layout.dp = 1;
    sc.layout.interleave = v;
    sc.layout.microbatch = 1;
    sc.train.global_batch = 32;
    recipe_step(&sc, &r);
    check_time_sane(&r);
    return r.time.compute_s - r.time.optimizer_s;
}

START_TEST(test_head_in_split)
{
    static const struct {
        uint64_t layers, pp, v;
        bool in_split;
        const char *source;
    } cases[] = {
        {94, 4, 12, true, "Megatron-Bridge 25.11 GB300 Qwen3-235B: 96 slots"},
        {94, 8, 3, true, "Megatron-Bridge 25.11 GB200 Qwen3-235B: 96 slots"},
        {126, 8, 8, true, "Megatron-Bridge B200 Llama 3.1 405B: 128 slots"},
        {126, 16, 8, true, "more chunks than layers (Dubey et al. 2024)"},
        {93, 8, 3, false, "neither 93 nor 95 splits over 24 chunks"},
        {96, 8, 3, false, "96 layers split evenly: no slot to spare"},
        {61, 4, 4, false, "DeepSeek-V3 61 layers: a layout, not the rule"},
    };
    size_t i;

    for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        double small =
            head_compute(cases[i].layers, cases[i].pp, cases[i].v, 1024);
        double large =
            head_compute(cases[i].layers, cases[i].pp, cases[i].v, 2048);

        if (cases[i].in_split)
            ck_assert_msg(fabs(large - small) <= 1e-12 * small, "%s: %g %g",
                          cases[i].source, small, large);
        else
            ck_assert_msg(large > small, "%s", cases[i].source);
    }
}
END_TEST

/* torchtitan's per-op selective recompute (stack per_op_sac) saves the
 * fused attention output: torchtitan @e7c0cae parallelize_llama.py
 * _save_list names the flash and efficient SDPA ops, so the attention core
 * is not run again; on Blackwell torchtitan puts cuDNN SDPA first
 * (models/attention.py, has_cuda_capability(10, 0)), which the list does
 * not name, and it is.  The step differs by exactly the attention core's
 * forward, once per layer and microbatch; the hardware FLOPs by a third
 * of its forward-and-backward FLOPs. */
static double sac_attn_f(const struct scenario *sc)
{
    double s = (double)sc->train.seq_len, b = (double)sc->layout.microbatch;
    double a = (double)sc->model.heads, d = (double)sc->model.hidden / a;
    double flops = 2 * b * a * s * s * (d + d) * 0.5; /* causal */
    double rate = sc->accel.peak_flops[PREC_BF16] * sc->accel.attn_frac *
                  sc->stack.attn_eff;

    return flops / rate + sc->accel.kernel_s + sc->stack.kernel_s;
}

static void sac_model(struct scenario *sc)
{
    fixture_scenario(sc, "h100-sxm");
    fixture_gpt(sc, 8, 4096, 32, 32000); /* head dim 128 */
    sc->train.seq_len = 8192;
    sc->gpus = 1;
    sc->layout.tp = sc->layout.pp = sc->layout.dp = 1;
    sc->layout.microbatch = 1;
    sc->train.global_batch = 2;
    sc->layout.recompute = RECOMPUTE_SELECTIVE;
    sc->stack.selective_keep = 0.3;
}

START_TEST(test_per_op_sac)
{
    static const struct {
        enum recompute mode;
        enum recompute_modules set;
        bool blackwell;
        bool saved; /* the attention core leaves the recompute */
        const char *source;
    } cases[] = {
        {RECOMPUTE_SELECTIVE, RECMOD_STACK, false, true,
         "torchtitan _save_list: flash SDPA saved (Hopper)"},
        {RECOMPUTE_SELECTIVE, RECMOD_STACK, true, false,
         "torchtitan attention.py: cuDNN SDPA on sm100, not in _save_list"},
        {RECOMPUTE_SELECTIVE, RECMOD_CORE_ATTN, false, false,
         "software.recompute_modules=core_attn names the attention core"},
        {RECOMPUTE_FULL, RECMOD_STACK, false, false,
         "full recompute runs the whole forward again"},
        {RECOMPUTE_NONE, RECMOD_STACK, false, false, "nothing recomputed"},
    };
    struct scenario sc;
    struct result off, on;
    double attn, mbs, L, tok, dflops;
    size_t i;

    for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        sac_model(&sc);
        sc.layout.recompute = cases[i].mode;
        sc.recipe.recompute_modules = cases[i].set;
        if (cases[i].blackwell) {
            snprintf(sc.accel.vendor, sizeof(sc.accel.vendor), "NVIDIA");
            sc.accel.peak_flops[PREC_MXFP8] = 1979e12;
        }
        sc.stack.per_op_sac = 0;
        recipe_step(&sc, &off);
        sc.stack.per_op_sac = 1;
        ck_assert(spec_selective_saves_attention(&sc) == cases[i].saved);
        recipe_step(&sc, &on);
        check_time_sane(&on);
        attn = sac_attn_f(&sc);
        mbs = 2;
        L = 8;
        tok = 2 * 8192.0;
        /* PaLM's 12 L a d s per token, as the model FLOPs count it */
        dflops = 12.0 * L * 4096 * 8192 * tok / 3;
        if (!cases[i].saved) {
            ck_assert_msg(on.time.step_s == off.time.step_s, "%s",
                          cases[i].source);
            ck_assert_msg(on.time.hfu == off.time.hfu, "%s", cases[i].source);
            continue;
        }
        ck_assert_msg(fabs(off.time.step_s - on.time.step_s - mbs * L * attn) <=
                          1e-9 * off.time.step_s,
                      "%s: step -%g s, expected -%g s", cases[i].source,
                      off.time.step_s - on.time.step_s, mbs * L * attn);
        ck_assert_rel(off.time.hw_tflops_per_gpu * off.time.step_s -
                          on.time.hw_tflops_per_gpu * on.time.step_s,
                      dflops / 1e12, 1e-9);
        ck_assert(on.time.hfu >= on.time.mfu);
        /* the model FLOPs are the same: MFU rises with the shorter step */
        ck_assert(on.time.mfu > off.time.mfu);
    }
}
END_TEST

/* torchtitan's _save_list names reduce_scatter_tensor, not the
 * all-gather: under TP its per-op selective recompute runs the forward's
 * all-gathers again (sequence parallel: half the forward TP traffic),
 * the all-reduces without SP (all of it).  On Blackwell (attention
 * recomputed either way) the step grows by exactly that TP time. */
START_TEST(test_per_op_sac_regather)
{
    static const struct {
        uint64_t tp;
        bool sp;
        enum recompute_modules set;
        double share; /* of the forward TP time, relative to SP's */
    } cases[] = {
        {8, true, RECMOD_STACK, 1},
        {8, false, RECMOD_STACK, 2},
        {1, true, RECMOD_STACK, 0},
        {8, true, RECMOD_CORE_ATTN, 0},
    };
    struct scenario sc;
    struct result off, on;
    double d, d_sp = 0;
    size_t i;

    for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        sac_model(&sc);
        snprintf(sc.accel.vendor, sizeof(sc.accel.vendor), "NVIDIA");
        sc.accel.peak_flops[PREC_MXFP8] = 1979e12;
        sc.gpus = cases[i].tp;
        sc.layout.tp = cases[i].tp;
        sc.layout.sequence_parallel = cases[i].sp;
        sc.recipe.recompute_modules = cases[i].set;
        sc.stack.tp_overlap = 0;
        sc.stack.per_op_sac = 0;
        recipe_step(&sc, &off);
        sc.stack.per_op_sac = 1;
        ck_assert(!spec_selective_saves_attention(&sc));
        recipe_step(&sc, &on);
        check_time_sane(&on);
        d = on.time.step_s - off.time.step_s;
        ck_assert_rel(on.time.tp_comm_s - off.time.tp_comm_s + 1, d + 1,
                      1e-12);
        if (i == 0)
            d_sp = d;
        ck_assert_msg(d_sp > 0, "SP all-gathers: +%g s", d_sp);
        ck_assert_msg(fabs(d - cases[i].share * d_sp) <= 1e-9 * d_sp,
                      "tp %llu sp %d: +%g s, SP's %g s",
                      (unsigned long long)cases[i].tp, (int)cases[i].sp, d,
                      d_sp);
    }
}
END_TEST

/* A power cap below TDP (hardware.power_limit_w; nvidia-smi -pl) lowers
 * the clock as the cube root of cap / TDP (dynamic power C V^2 f with the
 * voltage following the clock: Hennessy & Patterson 6th ed. 1.5): torchao
 * ran its B200 table "limited to 750W" (mx_formats README @d8bb51f), the
 * async-TP bench its 700 W H100s at "the default 500W power limit".  The
 * FLOPs stay, the step grows by at most 1/clock (HBM and links keep their
 * clocks), MFU keeps the nominal peak as its denominator, and the boards
 * draw at most the cap. */
START_TEST(test_power_limit)
{
    static const struct {
        double cap, tdp, clock;
        const char *source;
    } cases[] = {
        {0, 700, 1, "no cap: the TDP"},
        {750, 1000, 0.908560296416, "torchao B200 table: 750 W of 1000"},
        {500, 700, 0.893903535097, "async-TP bench: 500 W of 700"},
        {700, 700, 1, "cap at TDP"},
    };
    struct scenario sc;
    struct result free_r, capped;
    size_t i;

    for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        sac_model(&sc);
        sc.accel.tdp_w = cases[i].tdp;
        recipe_step(&sc, &free_r);
        sc.power_limit_w = cases[i].cap;
        ck_assert_msg(fabs(spec_power_clock(&sc) - cases[i].clock) < 1e-9,
                      "%s: clock %g", cases[i].source, spec_power_clock(&sc));
        recipe_step(&sc, &capped);
        check_time_sane(&capped);
        ck_assert_rel(capped.time.hw_tflops_per_gpu * capped.time.step_s,
                      free_r.time.hw_tflops_per_gpu * free_r.time.step_s,
                      1e-9);
        ck_assert_rel(capped.time.mfu * capped.time.step_s,
                      free_r.time.mfu * free_r.time.step_s, 1e-9);
        ck_assert_msg(capped.time.step_s <=
                          free_r.time.step_s / cases[i].clock * (1 + 1e-12),
                      "%s", cases[i].source);
        if (cases[i].clock < 1) {
            ck_assert_msg(capped.time.step_s > free_r.time.step_s, "%s",
                          cases[i].source);
            ck_assert_rel(capped.energy.gpu_kw / free_r.energy.gpu_kw,
                          cases[i].cap / cases[i].tdp, 1e-9);
        } else {
            ck_assert(capped.time.step_s == free_r.time.step_s);
            ck_assert(capped.energy.gpu_kw == free_r.energy.gpu_kw);
        }
    }
    /* below the field's floor, above the board's TDP (nvidia-smi -pl
     * refuses a limit above the board's maximum), or on an accelerator
     * whose TDP the catalog does not state: refused, naming the key */
    {
        static const struct {
            double cap, tdp;
        } bad[] = {{10, 700}, {900, 700}, {700.5, 700}, {500, 0}};
        struct diag d;

        for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
            sac_model(&sc);
            sc.accel.tdp_w = bad[i].tdp;
            sc.power_limit_w = bad[i].cap;
            ck_assert_int_ne(scenario_validate(&sc, &d), CP_OK);
            ck_assert_msg(strstr(d.where, "power_limit_w") != NULL,
                          "cap %g tdp %g: %s: %s", bad[i].cap, bad[i].tdp,
                          d.where, d.msg);
        }
        /* at the TDP, and no cap without a TDP: accepted */
        sac_model(&sc);
        sc.accel.tdp_w = 700;
        sc.power_limit_w = 700;
        ck_assert_int_eq(scenario_validate(&sc, &d), CP_OK);
        sc.accel.tdp_w = 0;
        sc.power_limit_w = 0;
        ck_assert_int_eq(scenario_validate(&sc, &d), CP_OK);
        /* the clock itself stays whole above the TDP (no faster) */
        sc.accel.tdp_w = 700;
        sc.power_limit_w = 900;
        ck_assert(spec_power_clock(&sc) == 1);
    }
}
END_TEST

Suite *suite_steptime(void)
{
    Suite *s = suite_create("steptime");
    TCase *tc = tcase_create("core");

    tcase_add_test(tc, test_gemm_roofline);
    tcase_add_test(tc, test_linear_in_tokens);
    tcase_add_test(tc, test_recompute_order);
    tcase_add_test(tc, test_overlap_not_free);
    tcase_add_test(tc, test_zero3_at_scale);
    tcase_add_test(tc, test_moe_load);
    tcase_add_test(tc, test_moe_gemm_per_expert);
    tcase_add_test(tc, test_moe_force_balance);
    tcase_add_test(tc, test_recipe_facts);
    tcase_add_loop_test(tc, test_dualpipe_bubble, 0,
                        sizeof(dualpipe_cases) / sizeof(dualpipe_cases[0]));
    tcase_add_test(tc, test_dualpipe_rules);
    tcase_add_test(tc, test_mtp_stage);
    tcase_add_test(tc, test_mtp_not_served);
    tcase_add_test(tc, test_moe_groups);
    tcase_add_test(tc, test_fp8_scaling);
    tcase_add_test(tc, test_rowwise_rescale);
    tcase_add_test(tc, test_tp_bwd_exposed);
    tcase_add_test(tc, test_ckpt_early_stop);
    tcase_add_test(tc, test_offload_time);
    tcase_add_test(tc, test_zero3_live_cap_time);
    tcase_add_test(tc, test_replica_allreduce);
    tcase_add_test(tc, test_dcn_ring_stall);
    tcase_add_test(tc, test_checkpoint_offload_time);
    tcase_add_test(tc, test_offload_memory);
    tcase_add_test(tc, test_offload_invariants);
    tcase_add_test(tc, test_recompute_modules);
    tcase_add_test(tc, test_recompute_modules_invariants);
    tcase_add_test(tc, test_per_op_sac);
    tcase_add_test(tc, test_per_op_sac_regather);
    tcase_add_test(tc, test_power_limit);
    tcase_add_test(tc, test_pp_overlap);
    tcase_add_test(tc, test_head_in_split);
    tcase_add_test(tc, test_fp4_ceiling);
    tcase_add_loop_test(tc, test_attn_head_dim, 0,
                        sizeof(attn_dim_cases) / sizeof(attn_dim_cases[0]));
    tcase_add_test(tc, test_attn_head_dim_rules);
    tcase_add_loop_test(tc, test_moe_eager_bytes, 0,
                        sizeof(moe_eager_cases) / sizeof(moe_eager_cases[0]));
    tcase_add_test(tc, test_moe_eager_step);
    suite_add_tcase(s, tc);
    tc = tcase_create("invariants");
    tcase_add_test(tc, test_layout_grid);
    suite_add_tcase(s, tc);
    return s;
}
