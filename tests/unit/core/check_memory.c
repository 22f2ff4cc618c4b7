/* check_memory.c - per-accelerator memory (core/memory.c). */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "check_helpers.h"
#include "core/memory.h"
#include "core/scenario.h"
#include "fixture.h"

#define GIB (1024.0 * 1024 * 1024)

static double states(const struct memory_result *m)
{
    return m->weights_bytes + m->gradients_bytes + m->optimizer_bytes;
}

static void eval_mem(const struct scenario *sc, struct memory_result *out)
{
    struct model_shape m;

    ck_assert_int_eq(scenario_validate(sc, NULL), CP_OK);
    model_shape_derive(&sc->model, (double)sc->train.seq_len, &m);
    memory_estimate(sc, &m, out);
}

/* ZeRO Table 1 (Rajbhandari et al. 2020): model states in GB for Psi
 * parameters, K = 12 optimizer bytes, fp16 gradients, DP degree Nd. */
struct zero_case {
    double params;
    uint64_t dp;
    int stage;
    double want_gb;
};

/* clang-format off */
static const struct zero_case zero_cases[] = {
    {7.5e9, 1, 0, 120},    {7.5e9, 4, 1, 52.5},   {7.5e9, 4, 2, 41.3},
    {7.5e9, 4, 3, 30},     {7.5e9, 16, 1, 35.6},  {7.5e9, 16, 2, 21.6},
    {7.5e9, 16, 3, 7.5},   {7.5e9, 64, 1, 31.4},  {7.5e9, 64, 2, 16.6},
    {7.5e9, 64, 3, 1.88},  {7.5e9, 256, 1, 30.4}, {7.5e9, 256, 2, 15.4},
    {7.5e9, 256, 3, 0.47}, {7.5e9, 1024, 1, 30.1}, {7.5e9, 1024, 2, 15.1},
    {128e9, 64, 1, 536},   {128e9, 64, 2, 284},   {128e9, 64, 3, 32},
    {1e12, 1024, 1, 4011}, {1e12, 1024, 2, 2013}, {1e12, 1024, 3, 15.6},
};
/* clang-format on */

START_TEST(test_zero_table1)
{
    const struct zero_case *c = &zero_cases[_i];
    struct scenario sc;
    struct memory_result mem;

    fixture_scenario(&sc, "a100-80gb");
    memset(&sc.model, 0, sizeof(sc.model));
    sc.model.params = (uint64_t)c->params;
    sc.model.layers = 48;
    sc.train.precision = PREC_FP16;
    sc.train.grad_dtype = PREC_FP16;
    sc.train.seq_len = 1024;
    sc.train.global_batch = c->dp;
    sc.gpus = c->dp;
    sc.layout.tp = 1;
    sc.layout.dp = c->dp;
    sc.layout.microbatch = 1;
    sc.layout.zero = c->stage;
    sc.layout.recompute = RECOMPUTE_FULL;
    eval_mem(&sc, &mem);
    ck_assert_rel(states(&mem) / 1e9, c->want_gb, 0.02);
}
END_TEST

/* Korthikanti et al. 2022, Figure 1 (values of its Table 2 formulas for
 * the Table 3 configurations): parameters + optimizer state at 18 bytes
 * per parameter, activations without recomputation and with sequence
 * parallelism + selective recomputation, GiB per GPU. */
struct k22_case {
    const char *name;
    uint64_t L, h, a, gpus, pp, batch, mb, v;
    double states_gib, act_none_gib, act_seqsel_gib;
};

/* clang-format off */
static const struct k22_case k22_cases[] = {
    {"22B", 48, 6144, 64, 8, 1, 4, 4, 1, 45.5625, 59.25, 9.5625},
    {"175B", 96, 12288, 96, 64, 8, 64, 1, 3, 45.5625, 66.84375, 12.3515625},
    {"530B", 105, 20480, 128, 280, 35, 280, 1, 3, 31.640625, 114.0234375,
     23.076171875},
    {"1T", 128, 25600, 160, 512, 64, 512, 1, 1, 32.958984375, 131.25, 26.5625},
};
/* clang-format on */

static void k22_scenario(struct scenario *sc, const struct k22_case *c)
{
    fixture_scenario(sc, "a100-80gb");
    fixture_gpt(sc, c->L, c->h, c->a, 51200);
    /* Megatron-LM 2022: the scores are materialised */
    snprintf(sc->stack.attn_kernel, sizeof(sc->stack.attn_kernel), "unfused");
    sc->train.seq_len = 2048;
    sc->train.global_batch = c->batch;
    sc->train.grad_dtype = PREC_FP32;
    sc->gpus = c->gpus;
    sc->layout.tp = 8;
    sc->layout.pp = c->pp;
    sc->layout.dp = 1;
    sc->layout.microbatch = c->mb;
    sc->layout.interleave = c->v;
}

START_TEST(test_k22_figure1)
{
    const struct k22_case *c = &k22_cases[_i];
    struct scenario sc;
    struct memory_result mem;

    k22_scenario(&sc, c);
    sc.layout.recompute = RECOMPUTE_NONE;
    sc.layout.sequence_parallel = false;
    eval_mem(&sc, &mem);
    /* the busiest GPU also holds the embedding: within Figure 1's 12% */
    ck_assert_rel(states(&mem) / GIB, c->states_gib, 0.12);
    ck_assert_rel(mem.activations_bytes / GIB, c->act_none_gib, 0.03);

    sc.layout.recompute = RECOMPUTE_SELECTIVE;
    sc.layout.sequence_parallel = true;
    eval_mem(&sc, &mem);
    ck_assert_rel(mem.activations_bytes / GIB, c->act_seqsel_gib, 0.03);
}
END_TEST

/* Flash attention keeps no scores: no 5as/h term (models.md section 2). */
START_TEST(test_flash_drops_scores)
{
    struct scenario sc;
    struct memory_result std_mem, flash_mem;

    k22_scenario(&sc, &k22_cases[0]);
    sc.layout.recompute = RECOMPUTE_NONE;
    sc.train.attention = ATTN_STANDARD;
    eval_mem(&sc, &std_mem);
    sc.train.attention = ATTN_FLASH;
    eval_mem(&sc, &flash_mem);
    /* 22B: sbh(10 + 24/t) only, 26.3 of 59.3 GiB */
    ck_assert(flash_mem.activations_bytes < 0.5 * std_mem.activations_bytes);
}
END_TEST

/* attention=auto follows the stack's kernel: Megatron-LM 2022 (unfused)
 * keeps the scores without recompute (Figure 1), a fused kernel does not
 * - MosaicML's MPT-7B ran without recompute, 6 x 2048 tokens per GPU, on
 * 8 x A100 80GB with FlashAttention (llm-foundry benchmarking README), so
 * it must fit. */
START_TEST(test_auto_follows_stack)
{
    struct scenario sc;
    struct memory_result mem, flash_mem;

    fixture_scenario(&sc, "a100-80gb");
    fixture_gpt(&sc, 32, 4096, 32, 50368);
    sc.train.seq_len = 2048;
    sc.train.global_batch = 96;
    sc.layout.tp = 1;
    sc.layout.dp = 8;
    sc.layout.microbatch = 6;
    sc.layout.recompute = RECOMPUTE_NONE;
    sc.layout.zero = 3;
    snprintf(sc.stack.attn_kernel, sizeof(sc.stack.attn_kernel), "fa2");
    sc.train.attention = ATTN_AUTO;
    eval_mem(&sc, &mem);
    sc.train.attention = ATTN_FLASH;
    eval_mem(&sc, &flash_mem);
    ck_assert_double_eq(mem.activations_bytes, flash_mem.activations_bytes);
    ck_assert(mem.fits);

    snprintf(sc.stack.attn_kernel, sizeof(sc.stack.attn_kernel), "unfused");
    sc.train.attention = ATTN_AUTO;
    eval_mem(&sc, &mem);
    ck_assert(mem.activations_bytes > 2 * flash_mem.activations_bytes);
}
END_TEST

START_TEST(test_components_sum)
{
    struct scenario sc;
    struct memory_result mem;
    int rc, z;

    for (rc = RECOMPUTE_NONE; rc <= RECOMPUTE_FULL; rc++) {
        for (z = 0; z <= 3; z++) {
            fixture_scenario(&sc, "h100-sxm");
            sc.gpus = 64;
            sc.layout.dp = 8;
            sc.train.global_batch = 64;
            sc.layout.microbatch = 2;
            sc.layout.zero = z;
            sc.layout.recompute = (enum recompute)rc;
            eval_mem(&sc, &mem);
            ck_assert_rel(mem.total_bytes,
                          states(&mem) + mem.activations_bytes +
                              mem.overhead_bytes,
                          1e-12);
            ck_assert_rel(mem.overhead_bytes,
                          mem.allocator_bytes + mem.buffers_bytes, 1e-12);
            ck_assert(z == 3 ? mem.buffers_bytes > 0
                             : mem.buffers_bytes == 0);
            ck_assert_finite_nonneg(mem.total_bytes);
            ck_assert(mem.fits == (mem.total_bytes <= mem.capacity_bytes));
        }
    }
}
END_TEST

/* Per-GPU memory never grows as a parallel degree grows.  Each step keeps
 * the other degrees and sets hardware.gpus to the product. */
static double total_for(struct scenario sc, uint64_t tp, uint64_t pp,
                        uint64_t dp, uint64_t cp, uint64_t ep, int zero)
{
    struct memory_result mem;

    sc.layout.tp = tp;
    sc.layout.pp = pp;
    sc.layout.dp = dp;
    sc.layout.cp = cp;
    sc.layout.ep = ep;
    sc.layout.zero = zero;
    sc.gpus = tp * pp * dp * cp;
    eval_mem(&sc, &mem);
    return mem.total_bytes;
}

START_TEST(test_monotone_sharding)
{
    struct scenario sc;
    uint64_t k;
    int zero;
    double prev;

    fixture_scenario(&sc, "h100-sxm");
    /* a 64-layer MoE: 64 heads, 8 experts */
    fixture_gpt(&sc, 64, 8192, 64, 32000);
    sc.model.experts = 8;
    sc.model.experts_active = 2;
    sc.model.moe_every = 2;
    sc.train.seq_len = 8192;
    sc.train.global_batch = 1024;
    sc.layout.microbatch = 1;
    sc.layout.sequence_parallel = true;

    for (zero = 0; zero <= 3; zero++) {
        prev = 1e300;
        for (k = 1; k <= 64; k *= 2) { /* TP */
            double t = total_for(sc, k, 1, 8, 1, 1, zero);
            ck_assert_msg(t <= prev * (1 + 1e-12), "tp %llu grew (zero %d, %g > %g)",
                          (unsigned long long)k, zero, t, prev);
            prev = t;
        }
        prev = 1e300;
        for (k = 1; k <= 64; k *= 2) { /* PP */
            double t = total_for(sc, 8, k, 8, 1, 1, zero);
            ck_assert_msg(t <= prev * (1 + 1e-12), "pp %llu grew",
                          (unsigned long long)k);
            prev = t;
        }
        prev = 1e300;
        for (k = 1; k <= 32; k *= 2) { /* CP */
            double t = total_for(sc, 8, 1, 8, k, 1, zero);
            ck_assert_msg(t <= prev * (1 + 1e-12), "cp %llu grew",
                          (unsigned long long)k);
            prev = t;
        }
        prev = 1e300;
        for (k = 1; k <= 8; k *= 2) { /* EP */
            double t = total_for(sc, 8, 1, 8, 1, k, zero);
            ck_assert_msg(t <= prev * (1 + 1e-12), "ep %llu grew",
                          (unsigned long long)k);
            prev = t;
        }
        if (zero == 0)
            continue;
        prev = 1e300;
        for (k = 1; k <= 1024; k *= 2) { /* DP with ZeRO */
            double t = total_for(sc, 8, 1, k, 1, 1, zero);
            ck_assert_msg(t <= prev * (1 + 1e-12), "dp %llu grew (zero %d)",
                          (unsigned long long)k, zero);
            prev = t;
        }
    }
}
END_TEST

/* ZeRO-3 / FSDP working buffers (FSDP2 fully_shard): the layer in use and
 * the zero3_prefetch layers gathered ahead of it, 16-bit, plus one layer's
 * unsharded gradient before its reduce-scatter; they sit in the overhead
 * beside the allocator's reserve and slack, and the parts still sum. */
START_TEST(test_zero3_buffers)
{
    struct scenario sc;
    struct model_shape m;
    struct memory_result none, one, two;
    double layer, grad_b = 4; /* fp32 gradients: scenario default */

    fixture_scenario(&sc, "a100-80gb");
    fixture_gpt(&sc, 32, 4096, 32, 32000);
    sc.gpus = 64;
    sc.layout.tp = 1;
    sc.layout.dp = 64;
    sc.layout.zero = 3;
    sc.layout.microbatch = 1;
    sc.train.global_batch = 64;
    sc.train.grad_dtype = PREC_FP32;
    ck_assert_int_eq(scenario_validate(&sc, NULL), CP_OK);
    model_shape_derive(&sc.model, (double)sc.train.seq_len, &m);
    layer = m.dense_layer_params * m.param_scale;
    sc.stack.zero3_prefetch = 0;
    eval_mem(&sc, &none);
    sc.stack.zero3_prefetch = 1;
    eval_mem(&sc, &one);
    sc.stack.zero3_prefetch = 2;
    eval_mem(&sc, &two);
    /* each layer prefetched holds its 16-bit weights */
    ck_assert_rel(one.overhead_bytes - none.overhead_bytes, 2 * layer, 1e-9);
    ck_assert_rel(two.overhead_bytes - one.overhead_bytes, 2 * layer, 1e-9);
    /* without prefetch: one gathered layer and its unsharded gradient */
    ck_assert_rel(none.overhead_bytes - sc.stack.mem_reserve_bytes -
                      sc.stack.mem_frag_frac * none.activations_bytes,
                  (2 + grad_b) * layer, 1e-9);
    /* the overhead's two parts, as the breakdown shows them */
    ck_assert_rel(two.allocator_bytes + two.buffers_bytes,
                  two.overhead_bytes, 1e-12);
    ck_assert_rel(two.buffers_bytes, (3 * 2 + grad_b) * layer, 1e-9);
    ck_assert_rel(two.weights_bytes + two.gradients_bytes +
                      two.optimizer_bytes + two.activations_bytes +
                      two.overhead_bytes,
                  two.total_bytes, 1e-12);
}
END_TEST

/* ZeRO-3 under DeepSpeed's live-parameter cap (stage3_max_live_parameters,
 * default 1e9: deepspeed/runtime/zero/constants.py @v0.6.2; the
 * coordinator prefetches only while fewer are live, a module larger than
 * the cap is gathered whole, gradients are reduced module by module).
 * The DeepSpeed-Azure blog's (2022-07) 1T and 2T GPT runs: 128 x 25600
 * and 160 x 32768, ZeRO-3 over 1,024 A100 80GB, micro-batch 8 of 1,024
 * tokens, fp16, CPU optimizer offload, "the activation and optimizer
 * states are allocated in the main memory" (full recompute, the
 * checkpoints on the host).  They ran, so they fit; whole-layer buffers
 * (63 GB of 1T's 7.9e9-parameter layers) would not. */
struct live_case {
    uint64_t layers, hidden, heads;
    double cap;      /* stage3_max_live_parameters; 0: whole layers */
    double want_buf; /* bytes: (cap + 4h^2) x 2 + 4h^2 x 2, FFN the largest
                        (within 1e-4: biases and norms) */
    bool fits;
    const char *source;
};

/* clang-format off */
static const struct live_case live_cases[] = {
    {128, 25600, 160, 1e9, (1e9 + 4 * 25600.0 * 25600) * 2 +
                           4 * 25600.0 * 25600 * 2, true,
     "DeepSpeed-Azure 1T on 1024 A100, DeepSpeed default cap"},
    {160, 32768, 128, 1e9, (1e9 + 4 * 32768.0 * 32768) * 2 +
                           4 * 32768.0 * 32768 * 2, true,
     "DeepSpeed-Azure 2T on 1024 A100, DeepSpeed default cap"},
    {128, 25600, 160, 3e9, (3e9 + 4 * 25600.0 * 25600) * 2 +
                           4 * 25600.0 * 25600 * 2, true,
     "Megatron-DeepSpeed examples_deepspeed/azure/run-1t.sh (3e9)"},
    {160, 32768, 128, 0, (2 * 2 + 2) * 12 * 32768.0 * 32768, false,
     "no cap: whole layers, one prefetched (FSDP)"},
};
/* clang-format on */

static void ds_azure(struct scenario *sc, const struct live_case *c,
                     uint64_t dp)
{
    fixture_scenario(sc, "a100-80gb");
    fixture_gpt(sc, c->layers, c->hidden, c->heads, 50257);
    sc->gpus = dp;
    sc->layout.tp = 1;
    sc->layout.dp = dp;
    sc->layout.zero = 3;
    sc->layout.microbatch = 8;
    sc->layout.recompute = RECOMPUTE_FULL;
    sc->layout.sequence_parallel = false;
    sc->train.seq_len = 1024;
    sc->train.global_batch = 8 * dp;
    sc->train.precision = PREC_FP16;
    sc->train.grad_dtype = PREC_FP16;
    sc->recipe.offload = OFFLOAD_OPTIMIZER_ACTIVATIONS;
    sc->system.host_link_bps = 25e9;
    sc->system.host_cores = 128;
    sc->stack.zero3_prefetch = 1;
    sc->stack.zero3_live_params = c->cap;
}

START_TEST(test_zero3_live_cap)
{
    const struct live_case *c = &live_cases[_i];
    struct scenario sc;
    struct memory_result mem, prev;
    uint64_t dp;

    ds_azure(&sc, c, 1024);
    eval_mem(&sc, &mem);
    ck_assert_msg(fabs(mem.buffers_bytes - c->want_buf) <= 1e-4 * c->want_buf,
                  "%s: buffers %g, want %g", c->source, mem.buffers_bytes,
                  c->want_buf);
    ck_assert_msg(mem.fits == c->fits, "%s: %.1f GiB", c->source,
                  mem.total_bytes / GIB);
    /* more sharding never adds memory; the gathered buffers stay */
    for (dp = 64; dp <= 4096; dp *= 4) {
        ds_azure(&sc, c, dp);
        eval_mem(&sc, &mem);
        if (dp > 64) {
            ck_assert(mem.total_bytes <= prev.total_bytes);
            ck_assert_double_eq(mem.buffers_bytes, prev.buffers_bytes);
        }
        prev = mem;
    }
}
END_TEST

/* DeepSpeed's cpu_checkpointing: the checkpoints of full recompute (2 s b
 * h bytes per layer, Korthikanti 2022) leave the accelerator; the 2T
 * run's alone are 160 x 2 x 1024 x 8 x 32768 bytes = 80 GiB, more than
 * an A100 80GB holds. */
START_TEST(test_checkpoint_offload)
{
    struct scenario sc;
    struct memory_result on, off;
    double ckpt = 160 * 2 * 1024 * 8 * 32768.0;

    ds_azure(&sc, &live_cases[1], 1024);
    eval_mem(&sc, &on);
    sc.recipe.offload = OFFLOAD_OPTIMIZER;
    eval_mem(&sc, &off);
    ck_assert_rel(off.activations_bytes - on.activations_bytes, ckpt, 1e-9);
    ck_assert(!off.fits && on.fits);
    ck_assert_rel(on.host_bytes, off.host_bytes, 1e-12);
}
END_TEST

/* MaxText shards inside a slice (ici_fsdp_parallelism) and keeps a replica
 * per slice (dcn_data_parallelism; base.yml @76bd53b0f): the v5e 128B
 * config (ici_fsdp 16 x ici_tensor 16 on v5e-256) over 32 slices shards
 * its weights 16 ways, as on one slice, not 512. */
START_TEST(test_zero_shard_domain)
{
    struct scenario sc;
    struct memory_result one, many;

    fixture_scenario(&sc, "a100-80gb");
    fixture_gpt(&sc, 64, 10240, 64, 32768);
    sc.system.scaleup_domain = 256;
    sc.layout.tp = 16;
    sc.layout.zero = 3;
    sc.layout.microbatch = 1;
    sc.layout.recompute = RECOMPUTE_FULL;
    sc.stack.dp_shard_domain = 1;
    sc.gpus = 256;
    sc.layout.dp = 16;
    sc.train.global_batch = 16;
    ck_assert_double_eq(memory_zero_shard(&sc), 16);
    eval_mem(&sc, &one);
    sc.gpus = 8192;
    sc.layout.dp = 512;
    sc.train.global_batch = 512;
    ck_assert_double_eq(memory_zero_shard(&sc), 16);
    eval_mem(&sc, &many);
    ck_assert_rel(many.weights_bytes, one.weights_bytes, 1e-12);
    ck_assert_rel(many.total_bytes, one.total_bytes, 1e-12);
    /* ZeRO-1 and 2 keep the whole group, as their collectives do */
    sc.layout.zero = 1;
    ck_assert_double_eq(memory_zero_shard(&sc), 512);
    sc.layout.zero = 3;
    /* sharded over the whole group without it */
    sc.stack.dp_shard_domain = 0;
    ck_assert_double_eq(memory_zero_shard(&sc), 512);
    eval_mem(&sc, &many);
    ck_assert(many.weights_bytes < one.weights_bytes);
}
END_TEST

/* torchtitan's per-op selective recompute keeps the fused attention output
 * whole (stack per_op_sac; torchtitan _save_list names the flash and
 * efficient SDPA ops) beside its selective_keep share of the rest: a d_v
 * per token in 16 bits, per layer.  Not on Blackwell (cuDNN SDPA, not in
 * the list), not under full or no recompute. */
START_TEST(test_per_op_sac_memory)
{
    static const struct {
        enum recompute mode;
        bool blackwell;
        double keep;
        double extra; /* bytes over sbh, all layers */
        const char *source;
    } cases[] = {
        {RECOMPUTE_SELECTIVE, false, 0.3, 8 * 0.7 * 2, "flash SDPA saved"},
        {RECOMPUTE_SELECTIVE, false, 1.0, 0, "keep 1: everything kept"},
        {RECOMPUTE_SELECTIVE, true, 0.3, 0, "cuDNN SDPA on Blackwell"},
        /* the checkpoints are layer inputs; the one layer in backward
         * holds its selective set, the attention output with it */
        {RECOMPUTE_FULL, false, 0.3, 0.7 * 2, "full: the working layer"},
        {RECOMPUTE_NONE, false, 0.3, 0, "none: everything kept"},
    };
    struct scenario sc;
    struct memory_result off, on;
    double sbh = 8192.0 * 2 * 4096;
    size_t i;

    for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        fixture_scenario(&sc, "h100-sxm");
        fixture_gpt(&sc, 8, 4096, 32, 32000);
        sc.train.seq_len = 8192;
        sc.gpus = 1;
        sc.layout.tp = sc.layout.pp = sc.layout.dp = 1;
        sc.layout.microbatch = 2;
        sc.train.global_batch = 2;
        sc.layout.recompute = cases[i].mode;
        sc.stack.selective_keep = cases[i].keep;
        if (cases[i].blackwell) {
            snprintf(sc.accel.vendor, sizeof(sc.accel.vendor), "NVIDIA");
            sc.accel.peak_flops[PREC_MXFP8] = 1979e12;
        }
        sc.stack.per_op_sac = 0;
        eval_mem(&sc, &off);
        sc.stack.per_op_sac = 1;
        eval_mem(&sc, &on);
        ck_assert_msg(fabs(on.activations_bytes - off.activations_bytes -
                           sbh * cases[i].extra) <=
                          1e-12 * off.activations_bytes,
                      "%s: +%g bytes", cases[i].source,
                      on.activations_bytes - off.activations_bytes);
        ck_assert(on.activations_bytes >= off.activations_bytes);
    }
}
END_TEST

/* FSDP2 (stack fp32_params) keeps the sharded parameter in fp32 and casts
 * to bf16 for the all-gather only (torch.distributed.fsdp
 * MixedPrecisionPolicy param_dtype): under ZeRO-3 the weights are 4
 * bytes per parameter and the optimizer 8 (Adam's moments), 2 bytes less
 * than ZeRO's 2 + 4 + 12 with fp32 gradients.  ZeRO-1/2 keep the whole
 * 16-bit copy; fp32 training has none to drop; the gathered 16-bit
 * buffers do not change. */
START_TEST(test_fp32_params)
{
    static const struct {
        int zero;
        enum precision prec;
        double weights_b, optimizer_b; /* with fp32_params, per param */
        double saved_b;                /* model states, per param */
    } cases[] = {
        {3, PREC_BF16, 4, 8, 2},
        {2, PREC_BF16, 2, 12, 0},
        {1, PREC_BF16, 2, 12, 0},
        {3, PREC_FP32, 4, 8, 0},
    };
    struct scenario sc;
    struct memory_result off, on;
    double params, dp = 8;
    size_t i;

    for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        fixture_scenario(&sc, "h100-sxm");
        fixture_gpt(&sc, 8, 4096, 32, 32000);
        sc.gpus = 8;
        sc.layout.tp = sc.layout.pp = sc.layout.microbatch = 1;
        sc.layout.dp = 8;
        sc.train.global_batch = 8;
        sc.layout.zero = cases[i].zero;
        sc.train.precision = cases[i].prec;
        sc.train.grad_dtype = PREC_FP32;
        sc.stack.fp32_params = 0;
        eval_mem(&sc, &off);
        sc.stack.fp32_params = 1;
        eval_mem(&sc, &on);
        /* fp32 gradients, sharded from ZeRO-2 */
        params = off.gradients_bytes / 4 * (cases[i].zero >= 2 ? dp : 1);
        ck_assert_msg(fabs(states(&off) - states(&on) -
                           cases[i].saved_b * params / dp) <=
                          1e-9 * states(&off),
                      "zero %d: %g bytes less", cases[i].zero,
                      states(&off) - states(&on));
        if (cases[i].zero == 3)
            ck_assert_rel(on.weights_bytes,
                          cases[i].weights_b * params / dp, 1e-9);
        ck_assert_rel(on.optimizer_bytes, cases[i].optimizer_b * params / dp,
                      1e-9);
        if (cases[i].saved_b > 0)
            ck_assert_rel(off.optimizer_bytes, 12 * params / dp, 1e-9);
        ck_assert_rel(on.buffers_bytes, off.buffers_bytes, 1e-12);
        ck_assert_rel(on.activations_bytes, off.activations_bytes, 1e-12);
    }
}
END_TEST

/* per_op_sac and fp32_params are facts about a stack, on or off: the
 * code reads one at > 0.5 and the other side at < 0.5, so a value
 * between (0.5 recomputed the attention core and still re-gathered)
 * would be half of each.  Refused, naming the column; 0 and 1 pass. */
START_TEST(test_stack_flags_whole)
{
    static const double bad[] = {0.5, 0.3, 0.999};
    struct scenario sc;
    struct diag d;
    size_t i;

    for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        fixture_scenario(&sc, "h100-sxm");
        sc.stack.per_op_sac = bad[i];
        ck_assert_int_ne(scenario_validate(&sc, &d), CP_OK);
        ck_assert_msg(strstr(d.msg, "per_op_sac") != NULL, "%g: %s", bad[i],
                      d.msg);
        fixture_scenario(&sc, "h100-sxm");
        sc.stack.fp32_params = bad[i];
        ck_assert_int_ne(scenario_validate(&sc, &d), CP_OK);
        ck_assert_msg(strstr(d.msg, "fp32_params") != NULL, "%g: %s", bad[i],
                      d.msg);
    }
    fixture_scenario(&sc, "h100-sxm");
    sc.stack.per_op_sac = 1;
    sc.stack.fp32_params = 1;
    ck_assert_int_eq(scenario_validate(&sc, &d), CP_OK);
}
END_TEST

Suite *suite_memory(void)
{
    Suite *s = suite_create("memory");
    TCase *tc = tcase_create("core");

    tcase_add_loop_test(tc, test_zero_table1, 0,
                        sizeof(zero_cases) / sizeof(zero_cases[0]));
    tcase_add_loop_test(tc, test_k22_figure1, 0,
                        sizeof(k22_cases) / sizeof(k22_cases[0]));
    tcase_add_test(tc, test_flash_drops_scores);
    tcase_add_test(tc, test_auto_follows_stack);
    tcase_add_test(tc, test_zero3_buffers);
    tcase_add_loop_test(tc, test_zero3_live_cap, 0,
                        sizeof(live_cases) / sizeof(live_cases[0]));
    tcase_add_test(tc, test_checkpoint_offload);
    tcase_add_test(tc, test_zero_shard_domain);
    tcase_add_test(tc, test_per_op_sac_memory);
    tcase_add_test(tc, test_fp32_params);
    tcase_add_test(tc, test_stack_flags_whole);
    suite_add_tcase(s, tc);
    tc = tcase_create("invariants");
    tcase_add_test(tc, test_components_sum);
    tcase_add_test(tc, test_monotone_sharding);
    suite_add_tcase(s, tc);
    return s;
}
