/*
 * check_serve.c - the serving workload: KV bytes, speculative decoding,
 * MoE expert reads, the daily profile, and whole serving scenarios
 * (memory, latency, fleet sizing, hybrid burst, bad input).
 */
#include <math.h>
#include <string.h>

#include "check_helpers.h"
#include "core/model.h"
#include "core/scenario.h"
#include "core/serve.h"
#include "core/serve_pool.h"
#include "fixture.h"

/* clang-format off */
static const struct kv_case {
    const char *name;
    uint64_t layers, hidden, heads, kv_heads, kv_lora, rope;
    enum serve_dtype kv;
    double tp, bytes, bytes_gpu;
    const char *source;
} kvs[] = {
    /* 2 x 32 x 8 x 128 x 2 B = 131,072 B: the "128 KiB per token" of
     * Llama 3 8B in bf16. */
    {"llama3-8b bf16", 32, 4096, 32, 8, 0, 0, SD_BF16, 1, 131072, 131072,
     "derived from config.json: 2 L a_kv d bytes"},
    /* fp8 halves it; tp 8 = kv_heads leaves one head per GPU. */
    {"llama3-8b fp8 tp8", 32, 4096, 32, 8, 0, 0, SD_FP8, 8, 65536, 8192,
     "derived: 1 byte; a_kv / tp heads per GPU"},
    /* Past kv_heads the heads are duplicated, not split further. */
    {"llama3-70b fp8 tp16", 80, 8192, 64, 8, 0, 0, SD_FP8, 16, 163840,
     20480, "derived: at tp > a_kv each rank keeps one head"},
    /* GPT-3-style 13B MHA in fp16: 2 x 40 x 40 x 128 x 2 = 819,200 B. */
    {"13b mha fp16", 40, 5120, 40, 40, 0, 0, SD_FP16, 2, 819200, 409600,
     "kipply, Transformer Inference Arithmetic: 2 n_layers d_model bytes"},
    /* DeepSeek-V3 MLA: 61 x (512 + 64) x 2 B = 70,272 B, every TP rank
     * holds the whole latent. */
    {"deepseek-v3 mla bf16", 61, 7168, 128, 128, 512, 64, SD_BF16, 8, 70272,
     70272, "DeepSeek-V2 (arXiv 2405.04434) Table 1: (d_c + d_h^R) l"},
};
/* clang-format on */

START_TEST(test_kv_bytes)
{
    const struct kv_case *c = &kvs[_i];
    struct model_spec ms;
    struct model_shape m;

    memset(&ms, 0, sizeof(ms));
    ms.layers = c->layers;
    ms.hidden = c->hidden;
    ms.heads = c->heads;
    ms.kv_heads = c->kv_heads;
    ms.vocab = 32000;
    if (c->kv_lora) {
        ms.attention = MATTN_MLA;
        ms.kv_lora_rank = c->kv_lora;
        ms.rope_head_dim = c->rope;
    }
    model_shape_derive(&ms, 1, &m);
    ck_assert_msg(fabs(serve_kv_bytes_per_token(&m, c->kv) - c->bytes) < 1e-6,
                  "%s: %g, want %g (%s)", c->name,
                  serve_kv_bytes_per_token(&m, c->kv), c->bytes, c->source);
    ck_assert_msg(fabs(serve_kv_bytes_per_token_gpu(&m, c->kv, c->tp, 1) -
                       c->bytes_gpu) < 1e-6,
                  "%s per GPU: %g, want %g (%s)", c->name,
                  serve_kv_bytes_per_token_gpu(&m, c->kv, c->tp, 1),
                  c->bytes_gpu, c->source);
}
END_TEST

/* Leviathan et al. 2023, eq. 1: E[tokens] = (1 - a^(g+1)) / (1 - a). */
START_TEST(test_speculative)
{
    ck_assert_rel(serve_tokens_per_step(0.8, 4), (1 - pow(0.8, 5)) / 0.2,
                  1e-12);
    ck_assert_rel(serve_tokens_per_step(0.8, 4), 3.3616, 1e-12);
    ck_assert_rel(serve_tokens_per_step(0.5, 1), 1.5, 1e-12);
    ck_assert_rel(serve_tokens_per_step(0.9, 0), 1, 0);
    ck_assert_rel(serve_tokens_per_step(1, 3), 4, 0);
    ck_assert_rel(serve_tokens_per_step(0, 3), 1, 0);
}
END_TEST

/* Uniform top-k routing: E (1 - (1 - k/E)^B) distinct experts. */
START_TEST(test_experts_touched)
{
    ck_assert_rel(serve_experts_touched(8, 2, 1), 2, 1e-12);
    ck_assert_rel(serve_experts_touched(128, 8, 16),
                  128 * (1 - pow(1 - 8.0 / 128, 16)), 1e-12);
    ck_assert_rel(serve_experts_touched(128, 8, 16), 82.4229, 1e-5);
    ck_assert(serve_experts_touched(256, 8, 1e6) <= 256);
    ck_assert_rel(serve_experts_touched(256, 8, 1e6), 256, 1e-9);
    ck_assert_rel(serve_experts_touched(256, 8, 0), 0, 0);
}
END_TEST

START_TEST(test_daily_profile)
{
    double f[SERVE_PROFILE_STEPS], r[] = {1, 1.5, 2, 3, 10};
    size_t k;
    int i;

    for (k = 0; k < sizeof(r) / sizeof(r[0]); k++) {
        double mean = 0, max = 0;

        serve_daily_profile(r[k], f, SERVE_PROFILE_STEPS);
        for (i = 0; i < SERVE_PROFILE_STEPS; i++) {
            ck_assert_finite_nonneg(f[i]);
            mean += f[i] / SERVE_PROFILE_STEPS;
            if (f[i] > max)
                max = f[i];
        }
        ck_assert_rel(mean, 1, 1e-9);
        ck_assert_rel(max, r[k], 1e-6);
    }
}
END_TEST

/* One request at a time (NIM's concurrency 1): TTFT is the prefill, TPOT
 * the decode step, e2e = TTFT + (O - 1) TPOT, throughput O / e2e. */
START_TEST(test_single_request)
{
    struct scenario sc;
    struct result r;
    const struct serve_result *s = &r.serve;

    fixture_serving(&sc, 2);
    sc.serve.concurrency = 1;
    sc.serve.input_tokens = 500;
    sc.serve.output_tokens = 2000;
    fixture_eval_ok(&sc, &r);
    ck_assert(s->fits);
    ck_assert_rel(s->batch, 1, 0);
    ck_assert_rel(s->ttft_ms, s->prefill_ms, 1e-12);
    ck_assert_rel(s->tpot_ms, s->decode_step_ms, 1e-9);
    ck_assert_rel(s->e2e_s, (s->ttft_ms + 1999 * s->tpot_ms) / 1e3, 1e-9);
    ck_assert_rel(s->output_tokens_per_s, 2000 / s->e2e_s, 1e-9);
    /* A decode step reads at least the weights of one GPU. */
    ck_assert(s->decode_step_ms / 1e3 >
              s->weights_bytes / (sc.accel.hbm_bps * sc.accel.hbm_frac));
    ck_assert_rel(s->gpus, 2, 0);
    ck_assert_rel(s->replicas, 1, 0);
}
END_TEST

/* A power cap (hardware.power_limit_w) slows the compute-bound prefill by
 * at most 1/clock (spec_power_clock: the cube root of cap / TDP); the
 * decode step, bound by HBM on its own clock, by less. */
START_TEST(test_power_limit_serving)
{
    struct scenario sc;
    struct result free_r, capped;
    double clock;

    fixture_serving(&sc, 2);
    sc.serve.concurrency = 1;
    sc.serve.input_tokens = 8000;
    sc.serve.output_tokens = 100;
    fixture_eval_ok(&sc, &free_r);
    sc.power_limit_w = sc.accel.tdp_w / 2;
    clock = spec_power_clock(&sc);
    ck_assert_rel(clock, cbrt(0.5), 1e-12);
    fixture_eval_ok(&sc, &capped);
    ck_assert(capped.serve.prefill_ms > free_r.serve.prefill_ms);
    ck_assert(capped.serve.prefill_ms <=
              free_r.serve.prefill_ms / clock * (1 + 1e-12));
    ck_assert(capped.serve.decode_step_ms >= free_r.serve.decode_step_ms);
    ck_assert(capped.serve.decode_step_ms - free_r.serve.decode_step_ms <
              capped.serve.prefill_ms - free_r.serve.prefill_ms);
}
END_TEST

/* Per-GPU memory never grows with TP; the batch that fits never shrinks. */
START_TEST(test_tp_invariants)
{
    struct scenario sc;
    struct result r;
    double w = 1e300, b = 0;
    uint64_t tp;

    for (tp = 1; tp <= 8; tp *= 2) {
        fixture_serving(&sc, tp);
        sc.serve.mode = SERVE_OFFLINE;
        fixture_eval_ok(&sc, &r);
        ck_assert(r.serve.weights_bytes <= w);
        ck_assert(r.serve.max_batch >= b);
        ck_assert_finite_nonneg(r.serve.output_tokens_per_s);
        w = r.serve.weights_bytes;
        b = r.serve.max_batch;
    }
}
END_TEST

/* gpus = auto: the fleet covers the peak, and a replica fewer would not;
 * the targets hold at the operating point. */
START_TEST(test_sizing)
{
    struct scenario sc;
    struct result r, fewer;
    const struct serve_result *s = &r.serve;

    fixture_serving(&sc, 4);
    sc.serve.gpus_auto = true;
    sc.serve.tokens_per_day = 2e10;
    sc.serve.peak_to_avg = 2;
    sc.serve.ttft_ms = 1000;
    sc.serve.tpot_ms = 50;
    sc.serve.input_tokens = 1024;
    sc.serve.output_tokens = 256;
    fixture_eval_ok(&sc, &r);
    ck_assert(s->fits);
    ck_assert_rel(s->demand_requests_per_s, 2e10 / 256 / 86400 * 2, 1e-12);
    ck_assert_rel(s->requests_per_s, s->demand_requests_per_s, 1e-12);
    ck_assert(s->ttft_ms <= 1000 && s->tpot_ms <= 50);
    ck_assert(s->utilization > 0 && s->utilization <= 1);
    ck_assert_rel(s->gpus, s->replicas * 4, 0);
    /* The same demand on one replica fewer misses the targets. */
    sc.serve.gpus_auto = false;
    sc.gpus = (uint64_t)(s->gpus - 4);
    sc.layout.dp = sc.gpus / 4;
    fixture_eval_ok(&sc, &fewer);
    ck_assert(!fewer.serve.fits);
    ck_assert_ptr_nonnull(strstr(fewer.serve.reason, "exceeds"));
    ck_assert_int_eq(fewer.serve.miss, SERVE_MISS_CAPACITY);
    /* Money and energy per token are there and finite. */
    ck_assert(s->usd_per_mtok_build > 0 && s->usd_per_mtok_cloud > 0);
    ck_assert(s->usd_per_mtok_input_build > 0 && s->wh_per_mtok > 0);
    ck_assert(s->usd_per_mtok_input_build < s->usd_per_mtok_build * 1024);
}
END_TEST

/* Hybrid: owned GPU-hours used + burst = the profile's GPU-hours, the
 * burst rented in whole instances (issue 18: each of the profile's steps
 * rounds up by less than one instance); idle owned hours are the rest of
 * the owned day. */
START_TEST(test_hybrid)
{
    struct scenario sc;
    struct result r, all;
    const struct serve_result *s = &r.serve;
    double owned, over;

    fixture_serving(&sc, 4);
    sc.serve.gpus_auto = true;
    sc.serve.tokens_per_day = 2e10;
    sc.serve.peak_to_avg = 2;
    sc.serve.ttft_ms = 1000;
    sc.serve.tpot_ms = 50;
    fixture_eval_ok(&sc, &all);
    owned = 4 * floor(all.serve.gpus / 8);
    sc.serve.owned_gpus = (uint64_t)owned;
    fixture_eval_ok(&sc, &r);
    ck_assert(s->burst_gpu_hours_per_day > 0);
    ck_assert(s->owned_idle_gpu_hours_per_day > 0);
    over = owned * 24 - s->owned_idle_gpu_hours_per_day +
           s->burst_gpu_hours_per_day - s->fleet_gpu_hours_per_day;
    ck_assert_double_ge(over, -1e-9);
    /* no instance size: whole GPUs */
    ck_assert_int_eq(sc.cloud.gpus_per_instance, 0);
    ck_assert_double_lt(over, 24);
    ck_assert_rel(s->burst_usd_per_day, s->burst_gpu_hours_per_day * 2.5,
                  1e-12);
    ck_assert(s->usd_per_day_hybrid > s->burst_usd_per_day);
    /* Below the owned base the fleet is whole: nothing bursts. */
    sc.serve.owned_gpus = (uint64_t)all.serve.gpus;
    fixture_eval_ok(&sc, &r);
    ck_assert_rel(s->burst_gpu_hours_per_day, 0, 0);
}
END_TEST

/* Disaggregated pools meet the targets on their own and add up; auto
 * takes them only when they need fewer GPUs. */
START_TEST(test_disaggregated)
{
    struct scenario sc;
    struct result co, split, any;
    const struct serve_result *s = &split.serve;

    fixture_serving(&sc, 2);
    sc.serve.gpus_auto = true;
    sc.serve.tokens_per_day = 2e10;
    sc.serve.peak_to_avg = 2;
    sc.serve.ttft_ms = 1000;
    sc.serve.tpot_ms = 50;
    sc.serve.input_tokens = 1024;
    sc.serve.output_tokens = 256;
    fixture_eval_ok(&sc, &co);
    sc.serve.disaggregated = DISAGG_YES;
    fixture_eval_ok(&sc, &split);
    ck_assert(s->fits && s->disaggregated);
    ck_assert(s->prefill_gpus >= 2 && s->decode_gpus >= 2);
    ck_assert_rel(s->gpus, s->prefill_gpus + s->decode_gpus, 0);
    ck_assert(s->ttft_ms <= 1000 && s->tpot_ms <= 50);
    ck_assert(s->batch <= s->max_batch);
    sc.serve.disaggregated = DISAGG_AUTO;
    fixture_eval_ok(&sc, &any);
    ck_assert_rel(any.serve.gpus, fmin(co.serve.gpus, s->gpus), 0);
    /* A fixed fleet has no pools to size: a result with the reason. */
    sc.serve.gpus_auto = false;
    sc.serve.disaggregated = DISAGG_YES;
    sc.gpus = 8;
    fixture_eval_ok(&sc, &split);
    ck_assert(!s->fits);
    ck_assert_ptr_nonnull(strstr(s->reason, "hardware.gpus = auto"));
}
END_TEST

/* Each knob moves the numbers the way physics says. */
/* Weight formats as engines ship them, scales included (bytes per
 * weight). */
/* clang-format off */
static const struct dtype_case {
    enum serve_dtype t;
    double bytes;
    const char *source;
} dtypes[] = {
    {SD_BF16, 2, "16 bits"},
    {SD_FP8, 1, "FP8 E4M3, per-tensor (or 128x128-block: 4 B per 16 Ki "
     "weights, under 0.03%) scales"},
    {SD_INT4, 0.5 + 2.0 / 128, "AWQ/GPTQ int4, group 128 with a 16-bit "
     "scale (Lin et al. 2024, arXiv 2306.00978)"},
    {SD_FP4, 0.5 + 1.0 / 16, "NVFP4: E2M1 with an FP8 E4M3 scale per 16 "
     "(NVIDIA, Introducing NVFP4, 2025)"},
    {SD_MXFP4, 0.5 + 1.0 / 32, "MXFP4: E2M1 with an E8M0 scale per 32 "
     "(OCP Microscaling Formats spec v1.0, 2023, section 5)"},
};
/* clang-format on */

START_TEST(test_dtype_bytes)
{
    ck_assert_msg(serve_dtype_bytes(dtypes[_i].t) == dtypes[_i].bytes,
                  "%s: %g, want %g (%s)", serve_dtype_name(dtypes[_i].t),
                  serve_dtype_bytes(dtypes[_i].t), dtypes[_i].bytes,
                  dtypes[_i].source);
}
END_TEST

/* Attention-DP ranks wait for the slowest (TensorRT-LLM tech blog 10,
 * "ADP Balance Strategy": the iteration time is the maximum over the
 * ranks): with n ranks each holding a whole prompt in an iteration with
 * probability p, the prompt time per rank is stretched by
 * (1 - (1 - p)^n) / p. */
/* clang-format off */
static const struct adp_case {
    double p, n, want;
    const char *source;
} adp_cases[] = {
    {384.0 / 2047, 8, 4.31919, "TensorRT-LLM Best_perf_practice_on_DeepSeek-R1 B200 max-throughput: 384 per rank, 1K/2K, ADP8: 1 - (1 - 384/2047)^8 over 384/2047"},
    {0.5, 2, 1.5, "two ranks, each in a prompt half the iterations: 3/4 of them wait, over 1/2"},
    {0.3, 1, 1, "one rank waits for no other"},
    {1, 8, 1, "every rank in a prompt every iteration: balanced"},
    {1e-9, 8, 8, "rare prompts: each one stalls all n ranks"},
};
/* clang-format on */

START_TEST(test_adp_wait_table)
{
    const struct adp_case *c = &adp_cases[_i];
    double g = serve_adp_wait_factor(c->p, c->n);

    ck_assert_msg(fabs(g - c->want) <= 1e-5 * c->want, "%s: %g, want %g",
                  c->source, g, c->want);
}
END_TEST

START_TEST(test_adp_wait_invariants)
{
    double p, n;

    for (n = 1; n <= 64; n *= 2)
        for (p = 1e-4; p <= 1; p *= 1.7) {
            double g = serve_adp_wait_factor(p, n);

            ck_assert(g >= 1 - 1e-12 && g <= n + 1e-9);
            ck_assert(serve_adp_wait_factor(p * 1.7 > 1 ? 1 : p * 1.7, n) <=
                      g + 1e-12);
            ck_assert(serve_adp_wait_factor(p, 2 * n) >= g - 1e-12);
        }
    ck_assert_double_eq(serve_adp_wait_factor(0, 8), 8);
    ck_assert_double_eq(serve_adp_wait_factor(2, 8), 1);
    ck_assert_double_eq(serve_adp_wait_factor(0.2, 0), 1);
    ck_assert(isfinite(serve_adp_wait_factor(NAN, 8)));
}
END_TEST

/* Aggregated attention DP beside MoE EP (TensorRT-LLM tech blog 3's B200
 * max-throughput layout, on this fixture's H100): offline, each rank's
 * cycle of b requests is its decode steps plus b prompts stretched by
 * the wait for the slowest rank; one rank alone (no attention DP) has no
 * such wait.  Prompts of one full chunk make the bulk prefill the
 * prompt alone (prefill_ms). */
START_TEST(test_adp_aggregated)
{
    struct scenario sc;
    struct result r;
    double b, cycle, decode, p, g, rank_rps;
    int adp;

    for (adp = 1; adp <= 8; adp *= 8) {
        fixture_serving(&sc, 1);
        fixture_llama8b(&sc.model);
        sc.model.experts = 64;
        sc.model.experts_active = 4;
        sc.model.expert_ffn = 1408;
        sc.model.moe_every = 1;
        sc.gpus = 8;
        sc.layout.ep = (uint64_t)adp;
        sc.serve.attention_dp = (uint64_t)adp;
        sc.serve.mode = SERVE_OFFLINE;
        sc.serve.input_tokens = 1024;
        sc.serve.output_tokens = 2048;
        sc.serve.max_batch = 384 * (uint64_t)adp; /* per replica */
        sc.stack.prefill_chunk = 1024;
        fixture_eval_ok(&sc, &r);
        ck_assert(r.serve.fits);
        b = r.serve.batch; /* per rank: 384, or what its KV holds */
        ck_assert(b >= 100 && b <= 384);
        rank_rps = r.serve.requests_per_s / r.serve.replicas;
        cycle = b / rank_rps;
        decode = 2047 * r.serve.decode_step_ms / 1e3;
        p = b / 2047; /* one pass per prompt among 2047 iterations */
        g = adp > 1 ? (1 - pow(1 - p, adp)) / p : 1;
        ck_assert_rel(cycle - decode, b * r.serve.prefill_ms / 1e3 * g, 1e-9);
        /* closed loop at the same users: the same cycle */
        ck_assert(r.serve.tpot_ms >= r.serve.decode_step_ms - 1e-9);
    }
}
END_TEST

/* software.prefill_chunk is the recipe's token budget of one iteration
 * (TensorRT-LLM --max_num_tokens 1536 in its DeepSeek-R1 B200
 * max-throughput recipe; SGLang's 32K chunks in the GB300 long-context
 * post): the same engine as a stack whose prefill_chunk it is, and a
 * prompt longer than it takes more passes, each with its fixed costs. */
START_TEST(test_recipe_prefill_chunk)
{
    struct scenario sc;
    struct result a, b, c;

    fixture_serving(&sc, 4);
    sc.serve.mode = SERVE_OFFLINE;
    sc.recipe.prefill_chunk = 512;
    fixture_eval_ok(&sc, &a);
    fixture_serving(&sc, 4);
    sc.serve.mode = SERVE_OFFLINE;
    sc.stack.prefill_chunk = 512;
    fixture_eval_ok(&sc, &b);
    fixture_serving(&sc, 4);
    sc.serve.mode = SERVE_OFFLINE;
    fixture_eval_ok(&sc, &c);
    ck_assert_double_eq(a.serve.prefill_ms, b.serve.prefill_ms);
    ck_assert_double_eq(a.serve.output_tokens_per_s,
                        b.serve.output_tokens_per_s);
    ck_assert_double_eq(a.serve.ttft_ms, b.serve.ttft_ms);
    ck_assert(c.serve.prefill_ms < a.serve.prefill_ms);
    /* beyond its bounds: refused, naming the key */
    fixture_serving(&sc, 4);
    sc.recipe.prefill_chunk = (uint64_t)2e9;
    {
        struct diag d;

        diag_clear(&d);
        ck_assert(scenario_validate(&sc, &d) != CP_OK);
        ck_assert_str_eq(d.where, "software.prefill_chunk");
    }
}
END_TEST

/* Experts-only quantization: the routed experts at serve.expert_weights,
 * the rest (attention, shared parts, embedding) as before. */
START_TEST(test_expert_weights)
{
    struct scenario sc;
    struct model_shape m;
    struct result a, b;
    double experts;

    fixture_serving(&sc, 2);
    fixture_llama8b(&sc.model); /* Mixtral 8x7B's shape, 47B in bf16 on 2 GPUs */
    sc.model.experts = 8;
    sc.model.experts_active = 2;
    sc.model.expert_ffn = 14336;
    sc.model.moe_every = 1;
    sc.serve.weights = SD_BF16;
    sc.serve.concurrency = 1; /* one stream: the step is the weight read */
    fixture_eval_ok(&sc, &a);
    sc.serve.expert_weights = 1 + SD_MXFP4;
    fixture_eval_ok(&sc, &b);
    model_shape_derive(&sc.model, 2000, &m);
    experts = m.moe_layers * m.experts * m.expert_params;
    ck_assert_rel(a.serve.weights_bytes - b.serve.weights_bytes,
                  experts * (2 - serve_dtype_bytes(SD_MXFP4)) / 2, 1e-9);
    ck_assert(a.serve.fits && b.serve.fits);
    ck_assert(b.serve.tpot_ms < a.serve.tpot_ms);
    /* same as serve.weights: nothing changes */
    sc.serve.expert_weights = 1 + SD_BF16;
    fixture_eval_ok(&sc, &b);
    ck_assert_double_eq(b.serve.weights_bytes, a.serve.weights_bytes);
    ck_assert_double_eq(b.serve.tpot_ms, a.serve.tpot_ms);
}
END_TEST

/* serve.attention: bf16 slows the prompt that auto (fp8 KV, fp8 weights)
 * runs in fp8; fp8 on a chip without fp8 is refused by name. */
START_TEST(test_attention_precision)
{
    struct scenario sc;
    struct result a, b;
    struct diag d;

    fixture_serving(&sc, 2);
    sc.serve.concurrency = 1;
    sc.serve.input_tokens = 32000;
    fixture_eval_ok(&sc, &a);
    sc.serve.attention = SATTN_BF16;
    fixture_eval_ok(&sc, &b);
    ck_assert(b.serve.prefill_ms > a.serve.prefill_ms);
    sc.serve.attention = SATTN_FP8;
    fixture_eval_ok(&sc, &b);
    ck_assert_double_eq(b.serve.prefill_ms, a.serve.prefill_ms);
    /* bf16 weights: auto runs attention in 16 bits, fp8 asks for 8 */
    sc.serve.weights = SD_BF16;
    sc.serve.attention = SATTN_AUTO;
    fixture_eval_ok(&sc, &a);
    sc.serve.attention = SATTN_FP8;
    fixture_eval_ok(&sc, &b);
    ck_assert(b.serve.prefill_ms < a.serve.prefill_ms);

    fixture_scenario(&sc, "a100-80gb");
    sc.workload = WORKLOAD_SERVE;
    fixture_llama8b(&sc.model);
    sc.serve.attention = SATTN_FP8;
    diag_clear(&d);
    ck_assert_int_eq(scenario_validate(&sc, &d), CP_ERR_RANGE);
    ck_assert_str_eq(d.where, "serve.attention");
}
END_TEST

/* A 4-bit GEMM runs at the accelerator's measured 4-bit share when the
 * row has one (GB300: 8640.3 of 15000 TFLOP/s), else at the 8-bit share;
 * MXFP4 and NVFP4 on a chip without 4-bit tensor cores are dequantised to
 * 16 bits in the GEMM (Marlin W4A16: vLLM PR #17687 / #18000, SGLang PR
 * #19652; TensorRT-LLM has no NVFP4 before Blackwell). */
START_TEST(test_fp4_ceiling)
{
    struct scenario sc;
    struct result a, b, c;

    fixture_serving(&sc, 2);
    sc.accel.peak_flops[PREC_FP4] = 2 * sc.accel.peak_flops[PREC_FP8];
    sc.accel.fp8_gemm_frac = 0.8;
    sc.serve.weights = SD_FP4;
    sc.serve.concurrency = 1;
    sc.serve.input_tokens = 16000;
    fixture_eval_ok(&sc, &a);
    sc.accel.fp4_gemm_frac = 0.4;
    fixture_eval_ok(&sc, &b);
    ck_assert(b.serve.prefill_ms > a.serve.prefill_ms);
    sc.accel.fp4_gemm_frac = 0.8;
    fixture_eval_ok(&sc, &c);
    ck_assert_double_eq(c.serve.prefill_ms, a.serve.prefill_ms);
    /* no fp4 tensor cores: MXFP4 at the 16-bit rate, slower than fp8 */
    sc.accel.peak_flops[PREC_FP4] = 0;
    sc.serve.weights = SD_MXFP4;
    fixture_eval_ok(&sc, &b);
    sc.serve.weights = SD_FP8;
    fixture_eval_ok(&sc, &c);
    ck_assert(b.serve.prefill_ms > c.serve.prefill_ms);
    ck_assert(b.serve.weights_bytes < c.serve.weights_bytes);
    /* ... NVFP4 too: slower than fp8, with fewer bytes than it */
    sc.serve.weights = SD_FP4;
    fixture_eval_ok(&sc, &a);
    ck_assert(a.serve.prefill_ms > c.serve.prefill_ms);
    ck_assert(a.serve.weights_bytes < c.serve.weights_bytes);
}
END_TEST

/* serve.async_scheduling: the host prepares step i + 1 while the GPU runs
 * step i (vLLM --async-scheduling, SGLang's overlap scheduler), so a
 * decode step takes the longer of its host work and its GPU work, not
 * their sum.  Cases {host ms, expected step with it over the GPU step};
 * the GPU step g is measured with no host work at all. */
static const struct {
    const char *name;
    double host_ms;
    int beyond; /* 1: host above the GPU step, the step is the host's */
} async_cases[] = {
    {"2 ms of host under a longer GPU step: hidden", 2, 0},
    {"host 10x the GPU step: the step is the host's", 0, 1},
};

START_TEST(test_async_scheduling)
{
    struct scenario sc;
    struct result none, sync, async;
    double g, host_ms;

    fixture_serving(&sc, 2);
    sc.serve.concurrency = 1;
    sc.stack.step_overhead_s = 0;
    fixture_eval_ok(&sc, &none);
    g = none.serve.decode_step_ms;
    host_ms = async_cases[_i].beyond ? 10 * g : async_cases[_i].host_ms;
    ck_assert(async_cases[_i].beyond || host_ms < g);
    sc.stack.step_overhead_s = host_ms / 1e3;
    fixture_eval_ok(&sc, &sync);
    sc.serve.async_scheduling = 1;
    fixture_eval_ok(&sc, &async);
    /* without it the host's time adds to the GPU's */
    ck_assert_double_eq_tol(sync.serve.decode_step_ms, g + host_ms,
                            1e-9 * (g + host_ms));
    ck_assert_double_eq_tol(async.serve.decode_step_ms,
                            async_cases[_i].beyond ? host_ms : g,
                            1e-9 * (g + host_ms));
}
END_TEST

/* serve.batch_wait_iters k and serve.batch_wait_tokens_frac r: the
 * scheduler holds new prompts until k iterations have passed or the
 * iteration's tokens reach r of its budget (TensorRT-LLM
 * PyExecutor._waiting_requests), so a prompt waits for a release that
 * comes every k + 1 steps: uniform over them, the median half of it where
 * the running step alone is half a step.  Cases {k, r, the median's extra
 * wait in decode steps}: the InferenceX B200 recipe (20, 0.9: 64 users
 * never fill 90% of the budget in 20 steps); r reached before any hold (a
 * budget the decode tokens already fill); k or r 0 (no holding). */
static const struct {
    const char *name;
    uint64_t iters;
    double frac;
    double extra_steps;
} hold_cases[] = {
    {"20 steps, 90% of the budget: the timeout", 20, 0.9, 10},
    {"a budget the decodes fill: no hold", 20, 1e-6, 0},
    {"no timeout: no hold", 0, 0.9, 0},
    {"no ratio: no hold", 20, 0, 0},
};

START_TEST(test_batch_wait)
{
    struct scenario sc;
    struct result none, held;
    double step;

    fixture_serving(&sc, 2);
    sc.serve.concurrency = 64;
    sc.serve.window_requests = 0; /* the steady state, no first burst */
    fixture_eval_ok(&sc, &none);
    sc.serve.batch_wait_iters = hold_cases[_i].iters;
    sc.serve.batch_wait_frac = hold_cases[_i].frac;
    fixture_eval_ok(&sc, &held);
    step = none.serve.decode_step_ms;
    ck_assert_double_eq_tol(held.serve.ttft_p50_ms - none.serve.ttft_p50_ms,
                            hold_cases[_i].extra_steps * step, 1e-6 * step);
}
END_TEST

START_TEST(test_directions)
{
    struct scenario sc;
    struct result a, b;

    fixture_serving(&sc, 2);
    sc.serve.concurrency = 1;
    fixture_eval_ok(&sc, &a);
    sc.serve.prefix_hit_frac = 0.5;
    fixture_eval_ok(&sc, &b);
    ck_assert(b.serve.prefill_ms < a.serve.prefill_ms);
    sc.serve.prefix_hit_frac = 0;
    sc.serve.spec_tokens = 3;
    sc.serve.spec_accept = 0.7;
    fixture_eval_ok(&sc, &b);
    ck_assert(b.serve.tpot_ms < a.serve.tpot_ms);
    ck_assert_rel(b.serve.tokens_per_step, serve_tokens_per_step(0.7, 3),
                  1e-12);
    sc.serve.spec_tokens = 0;
    sc.serve.kv_cache = SD_BF16;
    fixture_eval_ok(&sc, &b);
    ck_assert_rel(b.serve.kv_bytes_per_token, 2 * a.serve.kv_bytes_per_token,
                  1e-12);
    sc.serve.kv_cache = SD_FP8;
    sc.serve.weights = SD_BF16;
    fixture_eval_ok(&sc, &b);
    ck_assert(b.serve.weights_bytes > 1.8 * a.serve.weights_bytes);
    ck_assert(b.serve.tpot_ms > a.serve.tpot_ms);
}
END_TEST

/* Bad input: a result with the reason, or a validation error naming the
 * key - never a NaN. */
START_TEST(test_bad_input)
{
    struct scenario sc;
    struct result r;
    struct diag d;

    /* 70B in bf16 on one 80 GiB GPU: the weights do not fit. */
    fixture_serving(&sc, 1);
    sc.serve.weights = SD_BF16;
    fixture_eval_ok(&sc, &r);
    ck_assert(!r.serve.fits && !r.memory.fits);
    ck_assert_ptr_nonnull(strstr(r.serve.reason, "weights need"));
    ck_assert_int_eq(r.serve.miss, SERVE_MISS_MEMORY);
    ck_assert_ptr_nonnull(strstr(r.warnings[0], "does not fit"));
    /* A million-token request: its KV never fits. */
    fixture_serving(&sc, 2);
    sc.serve.input_tokens = 1000000;
    fixture_eval_ok(&sc, &r);
    ck_assert(!r.serve.fits);
    ck_assert_ptr_nonnull(strstr(r.serve.reason, "never fits"));
    ck_assert_int_eq(r.serve.miss, SERVE_MISS_MEMORY);
    ck_assert_finite_nonneg(r.serve.output_tokens_per_s);
    /* A 1 ms TTFT no batch can meet. */
    fixture_serving(&sc, 2);
    sc.serve.requests_per_s = 10;
    sc.serve.ttft_ms = 1;
    fixture_eval_ok(&sc, &r);
    ck_assert(!r.serve.fits);
    ck_assert_ptr_nonnull(strstr(r.serve.reason, "serve.ttft_ms"));
    ck_assert_int_eq(r.serve.miss, SERVE_MISS_TTFT);
    ck_assert_finite_nonneg(r.serve.ttft_ms);
    /* No demand to size a fleet for. */
    fixture_serving(&sc, 2);
    sc.serve.gpus_auto = true;
    diag_clear(&d);
    ck_assert_int_eq(scenario_validate(&sc, &d), CP_ERR_RANGE);
    ck_assert_str_eq(d.where, "serve.tokens_per_day");
    /* A fleet that is not whole replicas. */
    fixture_serving(&sc, 4);
    sc.gpus = 6;
    diag_clear(&d);
    ck_assert_int_eq(scenario_validate(&sc, &d), CP_ERR_LAYOUT);
    ck_assert_str_eq(d.where, "hardware.gpus");
}
END_TEST

/* Every serve field finite and non-negative over extreme inputs. */
START_TEST(test_extremes)
{
    static const uint64_t lens[] = {1, 7, 4096, 1000000};
    static const double rates[] = {0, 1e-6, 1, 1e6};
    struct scenario sc;
    struct result r;
    size_t i, j, k;

    for (i = 0; i < 4; i++)
        for (j = 0; j < 4; j++)
            for (k = 0; k < 2; k++) {
                fixture_serving(&sc, 8);
                sc.serve.input_tokens = lens[i];
                sc.serve.output_tokens = lens[3 - i];
                sc.serve.requests_per_s = rates[j];
                sc.serve.ttft_ms = k ? 500 : 0;
                sc.serve.tpot_ms = k ? 30 : 0;
                sc.serve.owned_gpus = k ? 8 : 0;
                fixture_eval_ok(&sc, &r);
                ck_assert_finite_nonneg(r.serve.ttft_ms);
                ck_assert_finite_nonneg(r.serve.tpot_ms);
                ck_assert_finite_nonneg(r.serve.e2e_s);
                ck_assert_finite_nonneg(r.serve.output_tokens_per_s);
                ck_assert_finite_nonneg(r.serve.gpus);
                ck_assert_finite_nonneg(r.serve.usd_per_mtok_build);
                ck_assert_finite_nonneg(r.serve.wh_per_mtok);
                ck_assert_finite_nonneg(r.serve.burst_gpu_hours_per_day);
                ck_assert_finite_nonneg(r.energy.facility_kw);
                ck_assert_finite_nonneg(r.cost.build.capex_usd);
            }
}
END_TEST

/* Latency as distributions: percentiles in order, the mean between the
 * median and p99 of an open-loop M/M/1 wait, and one request alone has
 * no spread at all. */
START_TEST(test_distributions)
{
    struct scenario sc;
    struct result r;
    const struct serve_result *s = &r.serve;

    fixture_serving(&sc, 4);
    sc.serve.requests_per_s = 4;
    fixture_eval_ok(&sc, &r);
    ck_assert(s->fits && s->latency_known && !s->saturated);
    ck_assert(s->ttft_p50_ms <= s->ttft_p90_ms);
    ck_assert(s->ttft_p90_ms <= s->ttft_p99_ms);
    ck_assert(s->ttft_p99_ms > s->ttft_ms && s->ttft_ms > s->prefill_ms);
    ck_assert(s->tpot_p50_ms <= s->tpot_p90_ms);
    ck_assert(s->tpot_p90_ms < s->tpot_p99_ms);
    ck_assert_rel(s->tpot_p50_ms, s->tpot_ms, 1e-12);
    /* p99 = mean + 2.326 sd and p90 = mean + 1.2816 sd (normal). */
    ck_assert_rel((s->tpot_p99_ms - s->tpot_ms) / (s->tpot_p90_ms - s->tpot_ms),
                  2.3263478740408408 / 1.2815515655446004, 1e-9);
    ck_assert_rel(serve_ttft_at_ms(s, SERVE_PCT_P90), s->ttft_p90_ms, 0);
    ck_assert_rel(serve_tpot_at_ms(s, SERVE_PCT_MEAN), s->tpot_ms, 0);
    /* One user: nothing to wait for, nothing to stall. */
    sc.serve.requests_per_s = 0;
    sc.serve.concurrency = 1;
    fixture_eval_ok(&sc, &r);
    ck_assert_rel(s->ttft_p99_ms, s->prefill_ms, 1e-12);
    ck_assert_rel(s->ttft_p50_ms, s->ttft_ms, 1e-12);
    ck_assert_rel(s->tpot_p99_ms, s->tpot_ms, 1e-12);
}
END_TEST

/* serve.percentile drives the sizing: a p99 target needs at least the
 * GPUs of the same target on the mean, and here strictly more. */
START_TEST(test_percentile_sizing)
{
    static const enum serve_pct order[] = {SERVE_PCT_MEAN, SERVE_PCT_P50,
                                           SERVE_PCT_P90, SERVE_PCT_P99};
    struct scenario sc;
    struct result r;
    double gpus[4];
    size_t i;

    for (i = 0; i < 4; i++) {
        fixture_serving(&sc, 4);
        sc.serve.gpus_auto = true;
        sc.serve.requests_per_s = 20;
        sc.serve.ttft_ms = 200;
        sc.serve.tpot_ms = 60;
        sc.serve.percentile = order[i];
        fixture_eval_ok(&sc, &r);
        ck_assert(r.serve.fits);
        ck_assert(serve_ttft_at_ms(&r.serve, order[i]) <= 200);
        ck_assert(serve_tpot_at_ms(&r.serve, order[i]) <= 60);
        gpus[i] = r.serve.gpus;
    }
    ck_assert(gpus[2] >= gpus[1] && gpus[3] >= gpus[2]);
    ck_assert(gpus[3] >= gpus[0]);
    ck_assert_msg(gpus[3] > gpus[0], "p99 %g GPUs, mean %g", gpus[3],
                  gpus[0]);
}
END_TEST

/* Offered above capacity: throughput saturates at capacity and TTFT grows
 * with the load test's queue (serve_overload_waits): with fixed lengths
 * request k enters with cohort floor(k / B) and waits floor(k / B) (B /
 * cap - B / lambda), B the batch at capacity; added to the TTFT of a
 * one-request window, within 2% (the fluid steps in time).  With no
 * window it is unbounded (null). */
START_TEST(test_saturation)
{
    struct scenario sc;
    struct result below, r1, r, r2;
    const struct serve_result *s = &r.serve;
    double cap, lambda, gap, mean = 0, k, n = 1000;

    fixture_serving(&sc, 4);
    sc.serve.max_batch = 64; /* the batch cap bounds the capacity */
    sc.serve.requests_per_s = 1;
    fixture_eval_ok(&sc, &below);
    cap = below.serve.capacity_requests_per_s;
    ck_assert(cap > 1 && !below.serve.saturated);
    lambda = 3 * cap;
    sc.serve.requests_per_s = lambda;
    sc.serve.window_requests = 1;
    fixture_eval_ok(&sc, &r1);
    sc.serve.window_requests = (uint64_t)n;
    fixture_eval_ok(&sc, &r);
    ck_assert(s->saturated && !s->fits && s->latency_known);
    ck_assert_ptr_nonnull(strstr(s->reason, "exceeds the capacity"));
    ck_assert_rel(s->requests_per_s, cap, 1e-9);
    ck_assert_rel(s->capacity_requests_per_s, cap, 1e-9);
    ck_assert_rel(s->output_tokens_per_s, cap * 1000, 1e-9);
    /* The one-request window waits for nothing beyond the batch. */
    ck_assert_rel(s->batch, 64, 1e-12);
    gap = s->batch / cap - s->batch / lambda;
    for (k = 1; k <= n; k++)
        mean += floor(k / s->batch) * gap / n;
    ck_assert_rel(s->ttft_ms - r1.serve.ttft_ms, mean * 1e3, 0.02);
    ck_assert_rel(s->ttft_p50_ms - r1.serve.ttft_p50_ms,
                  floor(0.5 * n / s->batch) * gap * 1e3, 0.02);
    ck_assert_rel(s->ttft_p99_ms - r1.serve.ttft_p99_ms,
                  floor(0.99 * n / s->batch) * gap * 1e3, 0.02);
    ck_assert(s->ttft_ms > 10 * below.serve.ttft_ms);
    /* A longer test, a longer queue; the rate served does not move. */
    sc.serve.window_requests = 2000;
    fixture_eval_ok(&sc, &r2);
    ck_assert(r2.serve.ttft_ms > s->ttft_ms);
    ck_assert_rel(r2.serve.requests_per_s, cap, 1e-9);
    /* Steady state: unbounded, no latency, the reason says so. */
    sc.serve.window_requests = 0;
    fixture_eval_ok(&sc, &r2);
    ck_assert(!r2.serve.latency_known && !r2.serve.fits);
    ck_assert_rel(r2.serve.ttft_ms, 0, 0);
    ck_assert_ptr_nonnull(strstr(r2.serve.reason, "without bound"));
    ck_assert_int_eq(r2.serve.miss, SERVE_MISS_CAPACITY);
    ck_assert_rel(r2.serve.requests_per_s, cap, 1e-9);
}
END_TEST

/* A quote that does not fit in memory has no latency (exported null), not
 * a latency of 0. */
START_TEST(test_no_fit_no_latency)
{
    struct scenario sc;
    struct result r;

    fixture_serving(&sc, 1);
    sc.serve.weights = SD_BF16;
    sc.serve.requests_per_s = 1;
    fixture_eval_ok(&sc, &r);
    ck_assert(!r.memory.fits && !r.serve.fits);
    ck_assert(!r.serve.latency_known);
    ck_assert_rel(r.serve.ttft_ms, 0, 0);
    ck_assert_rel(r.serve.tpot_p99_ms, 0, 0);
    /* ... and one that fits has it. */
    fixture_serving(&sc, 4);
    sc.serve.requests_per_s = 1;
    fixture_eval_ok(&sc, &r);
    ck_assert(r.serve.latency_known && r.serve.ttft_ms > 0);
}
END_TEST

/* serve.max_batch is the engine's cap as launched: above the stack's
 * default as well as below, memory still bounding it. */
START_TEST(test_batch_cap_raised)
{
    struct scenario sc;
    struct result r;

    fixture_serving(&sc, 8);
    sc.stack.max_seqs = 256;
    sc.serve.input_tokens = 200;
    sc.serve.output_tokens = 200;
    sc.serve.mode = SERVE_OFFLINE;
    fixture_eval_ok(&sc, &r);
    ck_assert_rel(r.serve.max_batch, 256, 0);
    sc.serve.max_batch = 1024;
    fixture_eval_ok(&sc, &r);
    ck_assert_rel(r.serve.max_batch, 1024, 0);
    sc.serve.max_batch = 64;
    fixture_eval_ok(&sc, &r);
    ck_assert_rel(r.serve.max_batch, 64, 0);
}
END_TEST

/* Closed loop with more users than the engine runs (its batch cap or the
 * KV that fits): the engine runs the cap and the rest wait for a slot.
 * Throughput and TPOT are those at the cap; each request waits for
 * (N - B) requests to finish at the cap's rate (Little's law over the
 * closed system: N = rate x (wait + e2e at B)). */
START_TEST(test_closed_loop_over_cap)
{
    struct scenario sc;
    struct result at, over;
    double b = 64, n = 256, rate, wait_ms;

    fixture_serving(&sc, 4);
    sc.serve.window_requests = 0; /* the steady state: no first burst */
    sc.serve.max_batch = (uint64_t)b;
    sc.serve.concurrency = (uint64_t)b;
    fixture_eval_ok(&sc, &at);
    ck_assert(at.serve.fits && at.serve.latency_known);
    ck_assert_rel(at.serve.batch, b, 0);
    sc.serve.concurrency = (uint64_t)n;
    fixture_eval_ok(&sc, &over);
    ck_assert_msg(over.serve.fits, "%s", over.serve.reason);
    ck_assert(over.serve.latency_known);
    ck_assert_rel(over.serve.batch, b, 0);
    rate = at.serve.requests_per_s;
    ck_assert_rel(over.serve.requests_per_s, rate, 1e-12);
    ck_assert_rel(over.serve.tpot_ms, at.serve.tpot_ms, 1e-12);
    ck_assert_rel(over.serve.tpot_p99_ms, at.serve.tpot_p99_ms, 1e-12);
    wait_ms = (n - b) / rate * 1e3;
    ck_assert_rel(over.serve.ttft_ms, at.serve.ttft_ms + wait_ms, 1e-9);
    ck_assert_rel(over.serve.ttft_p99_ms, at.serve.ttft_p99_ms + wait_ms,
                  1e-9);
    ck_assert_rel(over.serve.queue_ms, at.serve.queue_ms + wait_ms, 1e-9);
    ck_assert_rel(over.serve.e2e_s, at.serve.e2e_s + wait_ms / 1e3, 1e-9);
    /* Little's law over the closed system. */
    ck_assert_rel(over.serve.requests_per_s * over.serve.e2e_s, n, 1e-9);
    /* A TTFT target the wait breaks is missed, with the reason. */
    sc.serve.ttft_ms = at.serve.ttft_p99_ms + wait_ms / 2;
    fixture_eval_ok(&sc, &over);
    ck_assert(!over.serve.fits && over.serve.latency_known);
    ck_assert_ptr_nonnull(strstr(over.serve.reason, "miss the latency"));
}
END_TEST

/* Open-loop TTFT over requests, a case table against the closed forms:
 * the wait for the prefills ahead is M/M/1 at rho = lambda x s (s: one
 * prompt's share of bulk prefill time), P(W > t) = rho exp(-(1 - rho) t /
 * s), so E[W] = rho s / (1 - rho) and the q-quantile is s / (1 - rho)
 * ln(rho / (1 - q)) when rho > 1 - q, else 0 (Kleinrock 1975, vol. 1,
 * 3.2); joining the running batch adds a wait uniform over one decode
 * step (mean step / 2, q-quantile q step).  rho and the step are read
 * back from the result (prefill_time_frac, decode_step_ms). */
START_TEST(test_open_loop_ttft_table)
{
    static const struct {
        double rps; /* offered to one TP4 replica */
        uint64_t out; /* output tokens (1000 input) */
        const char *source;
    } cases[] = {
        {0.5, 1000, "light load: rho < 0.1, only the p99 tail waits"},
        {4, 1000, "moderate load"},
        {14, 16, "prompt-heavy load: the median waits too (rho > 0.5)"},
    };
    static const double q[] = {0.5, 0.9, 0.99};
    size_t i, j;

    for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        struct scenario sc;
        struct result r;
        const struct serve_result *v = &r.serve;
        double lambda = cases[i].rps, rho, svc, step, got[3];

        fixture_serving(&sc, 4);
        sc.serve.requests_per_s = lambda;
        sc.serve.output_tokens = cases[i].out;
        fixture_eval_ok(&sc, &r);
        ck_assert_msg(v->fits && !v->saturated, "%s", cases[i].source);
        rho = v->prefill_time_frac;
        ck_assert(rho > 0 && rho < 1);
        svc = rho / lambda;
        step = v->decode_step_ms / 1e3;
        ck_assert_rel(v->ttft_ms,
                      (v->prefill_ms / 1e3 + rho * svc / (1 - rho) +
                       step / 2) * 1e3,
                      1e-9);
        got[0] = v->ttft_p50_ms;
        got[1] = v->ttft_p90_ms;
        got[2] = v->ttft_p99_ms;
        for (j = 0; j < 3; j++) {
            double tail = 1 - q[j];
            double w = rho > tail ? svc / (1 - rho) * log(rho / tail) : 0;

            ck_assert_msg(fabs(got[j] - (v->prefill_ms / 1e3 + w +
                                         q[j] * step) * 1e3) <=
                              1e-9 * got[j],
                          "%s: q %g got %g", cases[i].source, q[j], got[j]);
        }
        if (i == 2)
            ck_assert(rho > 0.5);
    }
}
END_TEST

/* H_n, the expected maximum of n exponentials of mean 1 (Renyi 1953):
 * exact fractions summed (OEIS A001008 / A002805), and the asymptotic
 * series beyond 64 within 1e-9 of the sum. */
START_TEST(test_harmonic)
{
    static const struct {
        double n, h;
        const char *source;
    } cases[] = {
        {0, 0, "no requests: no drain"},
        {1, 1, "H_1"},
        {2, 1.5, "H_2 = 3/2"},
        {10, 2.9289682539682538, "H_10 = 7381/2520"},
        {64, 4.743890903705769, "H_64, the last exact sum"},
        {65, 4.759275519090385, "H_65, the first from the series"},
        {500, 6.792823429990524, "H_500 (a 500-request burst)"},
        {1000, 7.485470860550345, "H_1000 (1000 prompts)"},
    };
    size_t i;

    for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
        ck_assert_msg(fabs(serve_harmonic(cases[i].n) - cases[i].h) <= 1e-9,
                      "%s: %.12g", cases[i].source,
                      serve_harmonic(cases[i].n));
}
END_TEST

/* The step of a replica whose iteration does not depend on the batch
 * (arg: the seconds), and one that grows with it. */
static double const_step(const void *arg, double b)
{
    (void)b;
    return *(const double *)arg;
}

static double growing_step(const void *arg, double b)
{
    return *(const double *)arg * (1 + b / 64);
}

/* The queue of a load test offered above capacity, against closed forms
 * with a step that does not depend on the batch.  cv = 1 (exponential
 * lengths): the batch fills as M/M/inf, E N(t) = lambda S (1 - exp(-t /
 * S)), until it holds the batch at capacity B = cap S, at t0 = S
 * ln(lambda / (lambda - cap)); then admissions run at cap and request k
 * waits (k - lambda t0)(1 / cap - 1 / lambda).  cv = 0 (fixed lengths):
 * the batch fills at once, completes nothing for S, then frees B slots at
 * the rate they were filled, so request k enters with cohort floor(k /
 * B), at j S + (k - j B) / lambda: its wait is floor(k / B) (S - B /
 * lambda).  Percentiles are the wait of request q n, the mean the average
 * over k = 1..n.  The fluid steps in time, so within 2%. */
START_TEST(test_overload_waits_table)
{
    /* clang-format off */
    static const struct {
        double n, lambda, cap, batch, cv;
        const char *source;
    } cases[] = {
        {1000, 16, 12.82, 184.5, 1, "dstack405 H100 q16 shape: M/M/inf fill"},
        {1000, 32, 12.82, 184.5, 1, "dstack405 H100 q32 shape: M/M/inf fill"},
        {2000, 40, 10, 64, 1, "4x capacity over 2000 requests: M/M/inf fill"},
        {1e7, 40, 8, 256, 1, "1e7 requests: past the stepped horizon at cap"},
        {1e7, 40, 8, 256, 0, "1e7 requests, fixed lengths: cohorts averaged"},
        {1000, 30, 10, 70, 0, "3x capacity, fixed lengths: cohorts of 70"},
        {500, 12, 10, 47, 0, "1.2x capacity, fixed lengths: cohorts of 47"},
    };
    /* clang-format on */
    static const double qs[3] = {0.5, 0.9, 0.99};
    double one = 0.05;
    size_t i;
    int j;

    for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        struct serve_load_test lt = {cases[i].n, cases[i].lambda, cases[i].cap,
                                     cases[i].batch, cases[i].cv, 0};
        double s = lt.batch / lt.cap, a = 1 / lt.cap - 1 / lt.lambda;
        double got[3], want[3],
            mean = 0,
            k0 = lt.lambda * s * log(lt.lambda / (lt.lambda - lt.cap));
        struct serve_waits w;
        double k;

        serve_overload_waits(&lt, const_step, &one, &w);
        got[0] = w.p50;
        got[1] = w.p90;
        got[2] = w.p99;
        for (j = 0; j < 3; j++) {
            k = qs[j] * lt.n;
            want[j] = lt.cv > 0
                          ? fmax(0, a * (k - k0))
                          : floor(k / lt.batch) * (s - lt.batch / lt.lambda);
        }
        for (k = 1; k <= lt.n; k++)
            mean += lt.cv > 0
                        ? fmax(0, a * (k - k0))
                        : floor(k / lt.batch) * (s - lt.batch / lt.lambda);
        mean /= lt.n;
        for (j = 0; j < 3; j++)
            ck_assert_msg(fabs(got[j] - want[j]) <= 0.02 * want[j] + 1e-9,
                          "%s: q %.2f wait %g s, want %g", cases[i].source,
                          qs[j], got[j], want[j]);
        ck_assert_msg(fabs(w.mean - mean) <= 0.02 * mean,
                      "%s: mean %g, want %g", cases[i].source, w.mean, mean);
    }
}
END_TEST

/* A hyperexponential load test's admissions by time t (constant step):
 * all that arrive until the batch is full at t0; then the freed slots,
 * b2 / m1 + (B - b2) / m2 a second, the short phase relaxing to half the
 * batch, b2(t) = B/2 + (b2(t0) - B/2) exp(-kappa (t - t0)) with kappa =
 * 4 p (1 - p) / S and b2(t0) = lambda (S / 2)(1 - exp(-t0 / m1)). */
struct h2_test {
    double lambda, cap, batch, s, m1, m2, kappa, t0;
};

static double h2_admitted(const struct h2_test *h, double t)
{
    double b2_0, tau;

    if (t <= h->t0)
        return h->lambda * t;
    b2_0 = h->lambda * h->s / 2 * (1 - exp(-h->t0 / h->m1));
    tau = t - h->t0;
    return h->lambda * h->t0 + h->cap * tau +
           (1 / h->m1 - 1 / h->m2) * (b2_0 - h->batch / 2) *
               (1 - exp(-h->kappa * tau)) / h->kappa;
}

/* The wait of request k: when the admissions reach it, less its send. */
static double h2_wait(const struct h2_test *h, double k)
{
    double lo = 0, hi = 1e7;
    int it;

    for (it = 0; it < 200; it++) {
        double t = (lo + hi) / 2;

        if (h2_admitted(h, t) < k)
            lo = t;
        else
            hi = t;
    }
    return fmax(0, lo - k / h->lambda);
}

/* Above cv 1 the lengths are a two-phase hyperexponential with balanced
 * means (Whitt 1982): share p of mean m1 = S / 2p, 1 - p of mean m2 =
 * S / 2(1 - p), p = (1 + sqrt((cv^2 - 1) / (cv^2 + 1))) / 2.  With a step
 * that does not depend on the batch each phase fills as M/M/inf, E N(t)
 * = lambda (S / 2)(2 - exp(-t / m1) - exp(-t / m2)), until that reaches
 * the batch at capacity at t0; the batch then holds more short requests
 * than its steady half, so it admits above cap until they relax
 * (h2_admitted).  Request k waits until the admissions reach it (both by
 * bisection here), within 2%.  The wider the spread, the more short
 * requests finish while the batch fills: the later the queue starts. */
START_TEST(test_overload_waits_hyperexponential)
{
    /* clang-format off */
    static const struct {
        double n, lambda, cap, batch, cv;
        const char *source;
    } cases[] = {
        {1000, 16, 12.82, 184.5, 1.36, "dstack405 H100 q16: ShareGPT cv 1.36"},
        {1000, 32, 12.82, 184.5, 1.36, "dstack405 H100 q32: ShareGPT cv 1.36"},
        {2000, 20, 10, 64, 2, "2x capacity, cv 2"},
    };
    /* clang-format on */
    static const double qs[3] = {0.5, 0.9, 0.99};
    double one = 0.05;
    size_t i;
    int j;

    for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        struct serve_load_test lt = {cases[i].n, cases[i].lambda, cases[i].cap,
                                     cases[i].batch, cases[i].cv, 0};
        struct serve_load_test expo = lt;
        double c2 = lt.cv * lt.cv, p = (1 + sqrt((c2 - 1) / (c2 + 1))) / 2;
        struct h2_test h = {lt.lambda, lt.cap, lt.batch, lt.batch / lt.cap,
                            0, 0, 0, 0};
        double lo = 0, hi, got[3], mean = 0, k;
        struct serve_waits w, we;
        int it;

        h.m1 = h.s / (2 * p);
        h.m2 = h.s / (2 * (1 - p));
        h.kappa = 4 * p * (1 - p) / h.s;
        hi = 100 * h.s;
        for (it = 0; it < 200; it++) {
            double t = (lo + hi) / 2;

            if (lt.lambda * h.s / 2 * (2 - exp(-t / h.m1) - exp(-t / h.m2)) <
                lt.batch)
                lo = t;
            else
                hi = t;
        }
        h.t0 = lo;
        serve_overload_waits(&lt, const_step, &one, &w);
        got[0] = w.p50;
        got[1] = w.p90;
        got[2] = w.p99;
        for (j = 0; j < 3; j++) {
            double want = h2_wait(&h, qs[j] * lt.n);

            ck_assert_msg(fabs(got[j] - want) <= 0.02 * want + 1e-9,
                          "%s: q %.2f wait %g s, want %g", cases[i].source,
                          qs[j], got[j], want);
        }
        for (k = 1; k <= lt.n; k++)
            mean += h2_wait(&h, k) / lt.n;
        ck_assert_msg(fabs(w.mean - mean) <= 0.02 * mean, "%s: mean %g, want %g",
                      cases[i].source, w.mean, mean);
        expo.cv = 1;
        serve_overload_waits(&expo, const_step, &one, &we);
        ck_assert_msg(w.mean < we.mean && w.p99 < we.p99, "%s",
                      cases[i].source);
    }
}
END_TEST

/* Invariants of the overload queue over offered rates, windows and
 * spreads: finite, p50 <= p90 <= p99, mean below p99; none below or at
 * capacity; growing with the offered rate and with the window; a batch
 * whose step grows with it completes faster while it is small, so it
 * fills later and queues less than one stepping at its full-batch pace. */
START_TEST(test_overload_waits_invariants)
{
    static const double lambdas[] = {10.5, 12, 16, 32, 100, 1e4};
    static const double cvs[] = {0, 0.5, 1};
    double one = 0.05;
    size_t i, c;

    for (c = 0; c < sizeof(cvs) / sizeof(cvs[0]); c++) {
        struct serve_load_test lt = {1000, 10, 10, 100, cvs[c], 0};
        struct serve_waits w, prev, longer, grows;

        serve_overload_waits(&lt, const_step, &one, &w);
        ck_assert(w.mean == 0 && w.p50 == 0 && w.p99 == 0);
        memset(&prev, 0, sizeof(prev));
        for (i = 0; i < sizeof(lambdas) / sizeof(lambdas[0]); i++) {
            lt.lambda = lambdas[i];
            lt.n = 1000;
            serve_overload_waits(&lt, const_step, &one, &w);
            ck_assert(isfinite(w.mean) && isfinite(w.p99) && w.mean >= 0);
            ck_assert(w.p50 <= w.p90 && w.p90 <= w.p99 && w.mean <= w.p99);
            ck_assert_msg(w.mean >= prev.mean && w.p99 >= prev.p99,
                          "cv %g lambda %g: mean %g p99 %g", cvs[c], lt.lambda,
                          w.mean, w.p99);
            ck_assert(w.p99 <= 0.99 * lt.n * (1 / lt.cap - 1 / lt.lambda));
            prev = w;
            lt.n = 4000;
            serve_overload_waits(&lt, const_step, &one, &longer);
            ck_assert(longer.mean > w.mean && longer.p99 > w.p99);
            lt.n = 1000;
            serve_overload_waits(&lt, growing_step, &one, &grows);
            ck_assert(grows.mean <= w.mean + 1e-9);
        }
    }
}
END_TEST

/* A finite burst whose output lengths spread (serve.output_cv) ends in a
 * drain.  One request with cv = 1: its prefill alone, then its O - 1
 * decode steps at batch 1 (H_1 = 1): read back from the same engine's
 * prefill_ms and the batch-1 step of a one-user closed loop.  Invariants:
 * cv = 0 keeps the steady state whatever the window; the drain never
 * raises the throughput; more spread, lower; a longer burst amortises
 * the drain, higher. */
START_TEST(test_burst_drain)
{
    struct scenario sc;
    struct result one, steady, r, half, longer, at1;
    double want;

    fixture_serving(&sc, 4);
    sc.serve.mode = SERVE_OFFLINE;
    fixture_eval_ok(&sc, &steady);
    sc.serve.window_requests = 1;
    fixture_eval_ok(&sc, &r);
    ck_assert_rel(r.serve.requests_per_s, steady.serve.requests_per_s, 1e-12);
    sc.serve.output_cv = 1;
    fixture_eval_ok(&sc, &one);
    fixture_serving(&sc, 4);
    sc.serve.concurrency = 1;
    fixture_eval_ok(&sc, &at1);
    want = 1 / (one.serve.prefill_ms / 1e3 +
                999 * at1.serve.decode_step_ms / 1e3);
    ck_assert_rel(one.serve.requests_per_s, want, 1e-9);
    /* 500 ShareGPT-like requests (vLLM blog 2024-09-05 burst). */
    fixture_serving(&sc, 4);
    sc.serve.mode = SERVE_OFFLINE;
    sc.serve.window_requests = 500;
    sc.serve.output_cv = 1;
    fixture_eval_ok(&sc, &r);
    sc.serve.output_cv = 0.5;
    fixture_eval_ok(&sc, &half);
    sc.serve.output_cv = 1;
    sc.serve.window_requests = 5000;
    fixture_eval_ok(&sc, &longer);
    ck_assert(r.serve.requests_per_s < half.serve.requests_per_s);
    ck_assert(half.serve.requests_per_s < steady.serve.requests_per_s);
    ck_assert(longer.serve.requests_per_s > r.serve.requests_per_s);
    ck_assert(longer.serve.requests_per_s < steady.serve.requests_per_s);
    ck_assert_finite_nonneg(r.serve.output_tokens_per_s);
}
END_TEST

/* Above capacity over a finite window, spread lengths drain after the
 * last arrival: the load test measures less than the capacity, never
 * more.  While the batch fills, its short requests already finish and
 * free their slots, so the queue starts later than with fixed lengths
 * (whose first cohort holds every slot for a whole request): lower TTFT,
 * the same capacity. */
START_TEST(test_saturated_drain)
{
    struct scenario sc;
    struct result fixed, r, wide;

    fixture_serving(&sc, 4);
    sc.serve.max_batch = 64;
    sc.serve.requests_per_s = 100;
    fixture_eval_ok(&sc, &fixed);
    ck_assert(fixed.serve.saturated);
    sc.serve.output_cv = 1;
    fixture_eval_ok(&sc, &r);
    ck_assert(r.serve.saturated && r.serve.latency_known);
    ck_assert(r.serve.requests_per_s < r.serve.capacity_requests_per_s);
    ck_assert_rel(r.serve.capacity_requests_per_s,
                  fixed.serve.capacity_requests_per_s, 1e-12);
    ck_assert(r.serve.ttft_ms < fixed.serve.ttft_ms);
    ck_assert(r.serve.ttft_p50_ms < fixed.serve.ttft_p50_ms);
    ck_assert(r.serve.ttft_p99_ms >= r.serve.ttft_p50_ms);
    /* Wider than an exponential (ShareGPT's 1.36): more short requests,
     * a later queue; the drain stays the exponential's. */
    sc.serve.output_cv = 1.36;
    fixture_eval_ok(&sc, &wide);
    ck_assert(wide.serve.saturated && wide.serve.latency_known);
    ck_assert(wide.serve.ttft_ms < r.serve.ttft_ms);
    ck_assert(wide.serve.ttft_p99_ms < r.serve.ttft_p99_ms);
    ck_assert_rel(wide.serve.requests_per_s, r.serve.requests_per_s, 1e-12);
}
END_TEST

/* The iteration's token budget (prefill_chunk: vLLM
 * max_num_batched_tokens, 512 by default with chunked prefill in vLLM
 * 0.5-0.6): decodes first, prompt chunks in what is left.  With a small
 * budget the capacity is where the batch's decode tokens plus the prompt
 * tokens arriving over one iteration fill it, b + lambda I (tau TPOT) =
 * M (read back at capacity); a large budget leaves the capacity to the
 * GPU time, and a small one never raises it. */
START_TEST(test_token_budget)
{
    static const struct {
        double budget;
        const char *source;
    } cases[] = {
        {512, "vLLM 0.6 chunked prefill default (docs, performance.rst)"},
        {1024, "twice that"},
    };
    struct scenario sc;
    struct result wide, r;
    size_t i;

    fixture_serving(&sc, 4);
    sc.serve.input_tokens = 200;
    sc.serve.output_tokens = 200;
    fixture_eval_ok(&sc, &wide);
    for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        const struct serve_result *v = &r.serve;
        double fill;

        sc.stack.prefill_chunk = cases[i].budget;
        fixture_eval_ok(&sc, &r);
        ck_assert(v->requests_per_s > 0 && v->latency_known);
        ck_assert_msg(v->requests_per_s < wide.serve.requests_per_s, "%s",
                      cases[i].source);
        fill = v->batch + v->requests_per_s * 200 * v->tpot_ms / 1e3;
        ck_assert_msg(fabs(fill - cases[i].budget) <= 1e-3 * cases[i].budget,
                      "%s: %g tokens per iteration", cases[i].source, fill);
        ck_assert(v->ttft_ms >= v->prefill_ms);
        ck_assert(v->ttft_p99_ms >= v->ttft_p50_ms);
    }
    /* Offered twice that capacity over 10000 requests: it saturates and
     * the queue beyond the batch grows. */
    sc.serve.requests_per_s = 2 * r.serve.requests_per_s;
    sc.serve.window_requests = 10000;
    fixture_eval_ok(&sc, &wide);
    ck_assert(wide.serve.saturated);
    ck_assert_rel(wide.serve.requests_per_s, r.serve.requests_per_s, 1e-9);
    ck_assert(wide.serve.ttft_ms > r.serve.ttft_ms);
}
END_TEST

/* Multi-step scheduling (vLLM --num-scheduler-steps k, serve.scheduler_
 * steps): the scheduler and the host's input preparation run once for k
 * decode iterations, so each decode step pays 1/k of the stack's host
 * time (step_overhead_ms, 2 ms in this fixture), a prompt's prefill its
 * whole; a prompt arriving mid-round joins when the k iterations end,
 * a wait uniform over k steps.  Read back: the batch-1 step is the
 * k = 1 step less 2 ms (1 - 1/k); TTFT = prefill + M/M/1 wait + k step
 * / 2 with the step the quote reports.  Invariants: prefill unchanged,
 * offline throughput never lower, TTFT >= prefill, p99 >= p50. */
START_TEST(test_scheduler_steps)
{
    static const struct {
        uint64_t k;
        const char *source;
    } cases[] = {
        {1, "every iteration scheduled (vLLM default before 0.6, SGLang)"},
        {10, "vLLM blog 2024-09-05 v0.6.0 runs: --num-scheduler-steps 10"},
        {15, "vLLM blog 2024-10-23 MI300X: --num-scheduler-steps 15"},
    };
    struct scenario sc;
    struct result base1, baseoff, r;
    size_t i;

    fixture_serving(&sc, 4);
    sc.serve.concurrency = 1;
    fixture_eval_ok(&sc, &base1);
    fixture_serving(&sc, 4);
    sc.serve.mode = SERVE_OFFLINE;
    fixture_eval_ok(&sc, &baseoff);
    for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        const struct serve_result *v = &r.serve;
        double k = (double)cases[i].k, rho, svc, step;

        fixture_serving(&sc, 4);
        sc.serve.scheduler_steps = cases[i].k;
        sc.serve.concurrency = 1;
        fixture_eval_ok(&sc, &r);
        ck_assert_msg(fabs(v->decode_step_ms -
                           (base1.serve.decode_step_ms - 2 * (1 - 1 / k))) <=
                          1e-9,
                      "%s: step %g", cases[i].source, v->decode_step_ms);
        ck_assert_rel(v->prefill_ms, base1.serve.prefill_ms, 1e-12);
        fixture_serving(&sc, 4);
        sc.serve.scheduler_steps = cases[i].k;
        sc.serve.mode = SERVE_OFFLINE;
        fixture_eval_ok(&sc, &r);
        ck_assert(v->requests_per_s >= baseoff.serve.requests_per_s);
        fixture_serving(&sc, 4);
        sc.serve.scheduler_steps = cases[i].k;
        sc.serve.requests_per_s = 4;
        fixture_eval_ok(&sc, &r);
        ck_assert_msg(v->fits && !v->saturated, "%s", cases[i].source);
        rho = v->prefill_time_frac;
        svc = rho / 4;
        step = v->decode_step_ms / 1e3;
        ck_assert_rel(v->ttft_ms,
                      (v->prefill_ms / 1e3 + rho * svc / (1 - rho) +
                       k * step / 2) * 1e3,
                      1e-9);
        ck_assert(v->ttft_ms >= v->prefill_ms);
        ck_assert(v->ttft_p99_ms >= v->ttft_p50_ms);
        ck_assert(v->tpot_p99_ms >= v->tpot_p50_ms);
    }
}
END_TEST

/* A load test below capacity is finite too: the last of its n requests
 * arrives (n - 1) / lambda after the first and the run ends when the
 * batch then in flight has drained; with spread lengths
 * (serve.output_cv) the longest finish last, so benchmark_serving.py's
 * request throughput (completed / duration) is below the offered rate.
 * Read back: one request alone is its prefill and its 999 decode steps
 * at batch 1 (H_1 = 1); cv = 0 keeps the offered rate (steady state).
 * Invariants: below the offered rate and the capacity; a longer run
 * amortises the drain; TTFT and TPOT are the steady state's. */
START_TEST(test_finite_run_below_capacity)
{
    static const struct {
        double n, cv;
        const char *source;
    } cases[] = {
        {1000, 0, "fixed lengths: the steady state"},
        {1, 1, "one request: its e2e"},
        {1000, 1, "benchmark_serving.py default, ShareGPT-like spread"},
        {10000, 1, "a longer run"},
    };
    struct scenario sc;
    struct result at1, steady, r;
    double prev = 0;
    size_t i;

    fixture_serving(&sc, 4);
    sc.serve.concurrency = 1;
    fixture_eval_ok(&sc, &at1);
    fixture_serving(&sc, 4);
    sc.serve.requests_per_s = 4;
    fixture_eval_ok(&sc, &steady);
    ck_assert(!steady.serve.saturated);
    for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        const struct serve_result *v = &r.serve;

        sc.serve.window_requests = (uint64_t)cases[i].n;
        sc.serve.output_cv = cases[i].cv;
        fixture_eval_ok(&sc, &r);
        ck_assert_msg(!v->saturated && v->latency_known, "%s",
                      cases[i].source);
        ck_assert_rel(v->ttft_ms, steady.serve.ttft_ms, 1e-12);
        ck_assert_rel(v->tpot_ms, steady.serve.tpot_ms, 1e-12);
        if (cases[i].cv == 0) {
            ck_assert_rel(v->requests_per_s, 4, 1e-12);
            continue;
        }
        ck_assert_msg(v->requests_per_s < 4, "%s: %g", cases[i].source,
                      v->requests_per_s);
        ck_assert(v->requests_per_s <= v->capacity_requests_per_s);
        if (cases[i].n == 1)
            ck_assert_rel(v->requests_per_s,
                          1 / (at1.serve.prefill_ms / 1e3 +
                               999 * at1.serve.decode_step_ms / 1e3),
                          1e-9);
        ck_assert(v->requests_per_s > prev);
        prev = v->requests_per_s;
    }
}
END_TEST

/* The TP all-reduce as TensorRT-LLM runs it (serve.c tp_allreduce_s):
 * its one-shot custom kernel while tp x message < 4 MB at tp > 2 (AUTO:
 * 500 kB at tp 8, 1 MB at tp 4) or while the message fits its 16 MB
 * workspace at tp <= 2, NCCL beyond at the accelerator's measured
 * latency and bus bandwidth.  A decode step of b tokens on Llama 3 70B
 * (h 8192, 80 layers) carries 160 all-reduces of b x 8192 x 2 bytes;
 * the step with the NCCL curve less the step without it is 160 x (NCCL
 * time - custom time), or 0 where the custom kernel stays. */
static double ar_custom_s(double bytes, double tp)
{
    /* the fixture's DGX H100: 450 GB/s NVLink x scaleup_frac 0.8 */
    return 5e-6 + 2 * (tp - 1) / tp * bytes / (450e9 * 0.8);
}

static double ar_nccl_s(double bytes, double tp)
{
    return 36e-6 + 2 * (tp - 1) / tp * bytes / 341e9;
}

START_TEST(test_tp_allreduce_switch)
{
    /* clang-format off */
    static const struct {
        double tp, batch;
        bool nccl;
        const char *source;
    } cases[] = {
        {8, 16, false, "256 kB x 8 = 2.1 MB < 4 MB: allreduceOp.cpp "
                       "selectImplementation, tp > 4: one shot below 500 kB"},
        {8, 32, true, "512 kB x 8 = 4.2 MB: NCCL (message >= 500 kB)"},
        {4, 32, false, "512 kB x 4 = 2.1 MB: one shot below 1 MB at tp 4"},
        {4, 64, true, "1 MiB x 4 = 4.2 MB: NCCL at tp 4"},
        {2, 512, false, "8.4 MB within the 16 MB workspace "
                        "(customAllReduceUtils.h, tp <= 2)"},
        {2, 1024, true, "16.8 MB > 16 MB workspace: NCCL"},
        {1, 1024, false, "tp 1: no all-reduce"},
    };
    /* clang-format on */
    size_t i;

    for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        struct scenario sc;
        struct model_shape m;
        double tp = cases[i].tp, b = cases[i].batch;
        double bytes = b * 8192 * 2, with, without, want;

        fixture_serving(&sc, (uint64_t)tp);
        sc.stack.ar_oneshot_bytes = 4e6;
        sc.stack.ar_workspace_bytes = 16e6;
        model_shape_derive(&sc.model, 1, &m);
        without = serve_rank_step_s(&sc, &m, b);
        sc.accel.nccl_ar_s = 36e-6;
        sc.accel.nccl_ar_bps = 341e9;
        with = serve_rank_step_s(&sc, &m, b);
        want = cases[i].nccl
                   ? 160 * (ar_nccl_s(bytes, tp) - ar_custom_s(bytes, tp))
                   : 0;
        ck_assert_msg(fabs((with - without) - want) <= 1e-9 + 1e-9 * with,
                      "%s: %g s more, want %g", cases[i].source, with - without,
                      want);
        ck_assert_double_finite(with);
    }
}
END_TEST

Suite *suite_serve(void); /* listed by the Makefile */

Suite *suite_serve(void)
{
    Suite *s = suite_create("serve");
    TCase *core = tcase_create("core");
    TCase *inv = tcase_create("invariants");
    TCase *err = tcase_create("errors");
    TCase *lim = tcase_create("limits");

    tcase_add_loop_test(core, test_kv_bytes, 0,
                        (int)(sizeof(kvs) / sizeof(kvs[0])));
    tcase_add_test(core, test_speculative);
    tcase_add_test(core, test_experts_touched);
    tcase_add_test(core, test_daily_profile);
    tcase_add_test(core, test_single_request);
    tcase_add_test(core, test_power_limit_serving);
    tcase_add_test(core, test_sizing);
    tcase_add_test(core, test_hybrid);
    tcase_add_test(core, test_disaggregated);
    tcase_add_test(core, test_distributions);
    tcase_add_test(core, test_percentile_sizing);
    tcase_add_test(core, test_saturation);
    tcase_add_test(core, test_no_fit_no_latency);
    tcase_add_test(core, test_batch_cap_raised);
    tcase_add_test(core, test_closed_loop_over_cap);
    tcase_add_test(core, test_open_loop_ttft_table);
    tcase_add_test(core, test_harmonic);
    tcase_add_test(core, test_overload_waits_table);
    tcase_add_test(core, test_overload_waits_invariants);
    tcase_add_test(core, test_overload_waits_hyperexponential);
    tcase_add_test(core, test_burst_drain);
    tcase_add_test(core, test_saturated_drain);
    tcase_add_test(core, test_token_budget);
    tcase_add_test(core, test_scheduler_steps);
    tcase_add_test(core, test_finite_run_below_capacity);
    tcase_add_test(core, test_tp_allreduce_switch);
    tcase_add_loop_test(core, test_dtype_bytes, 0,
                        (int)(sizeof(dtypes) / sizeof(dtypes[0])));
    tcase_add_test(core, test_expert_weights);
    tcase_add_loop_test(core, test_adp_wait_table, 0,
                        (int)(sizeof(adp_cases) / sizeof(adp_cases[0])));
    tcase_add_test(core, test_adp_aggregated);
    tcase_add_test(core, test_recipe_prefill_chunk);
    tcase_add_test(inv, test_adp_wait_invariants);
    tcase_add_test(core, test_attention_precision);
    tcase_add_test(core, test_fp4_ceiling);
    tcase_add_loop_test(core, test_batch_wait, 0,
                        (int)(sizeof(hold_cases) / sizeof(hold_cases[0])));
    tcase_add_loop_test(core, test_async_scheduling, 0,
                        (int)(sizeof(async_cases) / sizeof(async_cases[0])));
    tcase_add_test(inv, test_tp_invariants);
    tcase_add_test(inv, test_directions);
    tcase_add_test(err, test_bad_input);
    tcase_add_test(lim, test_extremes);
    suite_add_tcase(s, core);
    suite_add_tcase(s, inv);
    suite_add_tcase(s, err);
    suite_add_tcase(s, lim);
    return s;
}
