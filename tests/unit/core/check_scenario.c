/* check_scenario.c - validation names the field; absurd plans stay finite. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "check_helpers.h"
#include "core/model.h"
#include "core/scenario.h"
#include "fixture.h"

struct bad_case {
    const char *name;
    void (*mutate)(struct scenario *sc);
    enum cp_status want;
    const char *where;
};

static void tp7(struct scenario *sc)
{
    sc->layout.tp = 7;
    sc->gpus = 7;
}
static void product(struct scenario *sc)
{
    sc->gpus = 16;
}
static void zero7(struct scenario *sc)
{
    sc->layout.zero = 7;
}
static void util0(struct scenario *sc)
{
    sc->finance.utilization = 0;
}
static void util2(struct scenario *sc)
{
    sc->finance.utilization = 1.5;
}
static void pue(struct scenario *sc)
{
    sc->site.pue = 0.5;
}
static void years0(struct scenario *sc)
{
    sc->finance.depreciation_years = 0;
}
static void price_neg(struct scenario *sc)
{
    sc->cloud_usd_per_gpu_hour = -1;
}
static void tokens_nan(struct scenario *sc)
{
    sc->train.tokens = NAN;
}
static void fp8_a100(struct scenario *sc)
{
    sc->train.precision = PREC_FP8;
}
static void interleave(struct scenario *sc)
{
    sc->layout.interleave = 2;
}
/* pp x interleave may reach layers + 2 (the embedding and the output as
 * chunks of their own), not beyond */
static void interleave_chunks(struct scenario *sc)
{
    fixture_gpt(sc, 6, 1024, 16, 51200);
    sc->gpus = 2;
    sc->layout.tp = 1;
    sc->layout.dp = 1;
    sc->layout.pp = 2;
    sc->layout.interleave = 5; /* 10 > 6 + 2 */
    sc->train.global_batch = 8;
}
static void ep_dense(struct scenario *sc)
{
    sc->layout.ep = 2;
}
static void batch(struct scenario *sc)
{
    sc->train.global_batch = 6;
}
static void no_layers(struct scenario *sc)
{
    memset(&sc->model, 0, sizeof(sc->model));
}
static void cp_seq(struct scenario *sc)
{
    sc->layout.cp = 3;
    sc->layout.tp = 1;
    sc->gpus = 3;
    sc->train.seq_len = 1000;
}

/* clang-format off */
static const struct bad_case bad_cases[] = {
    {"tp not dividing heads", tp7, CP_ERR_LAYOUT, "parallel.tp"},
    {"tp*pp*dp*cp != gpus", product, CP_ERR_LAYOUT, "parallel"},
    {"zero out of range", zero7, CP_ERR_RANGE, "parallel.zero"},
    {"utilization 0", util0, CP_ERR_RANGE, "finance.utilization"},
    {"utilization > 1", util2, CP_ERR_RANGE, "finance.utilization"},
    {"pue < 1", pue, CP_ERR_RANGE, "site.pue"},
    {"zero years", years0, CP_ERR_RANGE, "finance.depreciation_years"},
    {"negative price", price_neg, CP_ERR_RANGE, "cloud.usd_per_gpu_hour"},
    {"NaN tokens", tokens_nan, CP_ERR_RANGE, "train.tokens"},
    {"fp8 on A100", fp8_a100, CP_ERR_RANGE, "train.precision"},
    {"interleave without pp", interleave, CP_ERR_LAYOUT, "parallel.interleave"},
    {"pp*interleave > layers + 2", interleave_chunks, CP_ERR_LAYOUT,
     "parallel.interleave"},
    {"ep on a dense model", ep_dense, CP_ERR_LAYOUT, "parallel.ep"},
    {"batch not a multiple", batch, CP_ERR_LAYOUT, "train.global_batch"},
    {"no shape", no_layers, CP_ERR_RANGE, "model.layers"},
    {"cp not dividing seq", cp_seq, CP_ERR_LAYOUT, "parallel.cp"},
};
/* clang-format on */

/* Llama 3 405B's layout: 126 layers + embedding + output in 16 x 8
 * chunks (Dubey et al. 2024): valid, and the GPU with the output layer
 * runs one layer fewer, so the step is no longer than with the head on
 * top of a full stage (v = 7, the most v that fits the layers alone). */
START_TEST(test_own_chunk_head)
{
    struct scenario sc;
    struct result r8, r7;

    fixture_scenario(&sc, "h100-sxm");
    fixture_gpt(&sc, 126, 16384, 128, 128256);
    sc.train.seq_len = 8192;
    sc.train.global_batch = 128;
    sc.gpus = 128;
    sc.layout.tp = 8;
    sc.layout.pp = 16;
    sc.layout.dp = 1;
    sc.layout.interleave = 8;
    ck_assert_int_eq(scenario_validate(&sc, NULL), CP_OK);
    scenario_eval(&sc, &r8);
    sc.layout.interleave = 7;
    ck_assert_int_eq(scenario_validate(&sc, NULL), CP_OK);
    scenario_eval(&sc, &r7);
    ck_assert(r8.time.step_s < r7.time.step_s);
}
END_TEST

START_TEST(test_bad_input)
{
    const struct bad_case *c = &bad_cases[_i];
    struct scenario sc;
    struct diag d;

    fixture_scenario(&sc, "a100-80gb");
    ck_assert_int_eq(scenario_validate(&sc, NULL), CP_OK);
    c->mutate(&sc);
    diag_clear(&d);
    ck_assert_int_eq(scenario_validate(&sc, &d), c->want);
    ck_assert_str_eq(d.where, c->where);
    ck_assert(d.msg[0] != '\0');
}
END_TEST

static void check_finite(const struct result *r)
{
    const double *p = (const double *)&r->time;
    size_t i, n = sizeof(r->time) / sizeof(double);

    for (i = 0; i < n; i++)
        ck_assert_finite_nonneg(p[i]);
    ck_assert_finite_nonneg(r->memory.total_bytes);
    ck_assert_finite_nonneg(r->energy.facility_mwh);
    ck_assert_finite_nonneg(r->cost.build.run_usd);
    ck_assert_finite_nonneg(r->cost.cloud.run_usd);
    ck_assert_finite_nonneg(r->reliability.goodput);
}

/* Absurd but valid plans: results, never overflow or NaN (issue 6). */
START_TEST(test_absurd_plans)
{
    struct scenario sc;
    struct result r;

    fixture_scenario(&sc, "h100-sxm");
    memset(&sc.model, 0, sizeof(sc.model));
    sc.model.params = 1000000000000000ULL; /* 10^15 on 8 GPUs */
    ck_assert_int_eq(scenario_validate(&sc, NULL), CP_OK);
    scenario_eval(&sc, &r);
    check_finite(&r);
    ck_assert(!r.memory.fits);
    ck_assert(r.nwarnings > 0);

    fixture_scenario(&sc, "h100-sxm");
    sc.gpus = 10000000; /* 10^7 GPUs */
    sc.layout.tp = 1;
    sc.layout.dp = 10000000;
    sc.layout.microbatch = 1;
    sc.train.global_batch = 10000000;
    ck_assert_int_eq(scenario_validate(&sc, NULL), CP_OK);
    scenario_eval(&sc, &r);
    check_finite(&r);

    fixture_scenario(&sc, "h100-sxm");
    sc.train.seq_len = 10000000; /* 10^7 tokens per sequence */
    sc.train.global_batch = 4;
    ck_assert_int_eq(scenario_validate(&sc, NULL), CP_OK);
    scenario_eval(&sc, &r);
    check_finite(&r);
    ck_assert(!r.memory.fits);
}
END_TEST

/* Property (issue 14, item 5): whatever the shape, precision, sequence,
 * recomputation, stack efficiency and layout, MFU and HFU stay within
 * [0, 1]: nothing runs above the dense peak. */
START_TEST(test_mfu_never_above_peak)
{
    static const enum precision precs[] = {PREC_BF16, PREC_FP8};
    static const uint64_t seqs[] = {512, 8192, 131072, 1048576};
    static const uint64_t widths[] = {256, 1024, 8192};
    unsigned seed = 12345;
    int n;

    for (n = 0; n < 400; n++) {
        struct scenario sc;
        struct result r;
        uint64_t h;

        fixture_scenario(&sc, n % 2 ? "h100-sxm" : "a100-80gb");
        seed = seed * 1103515245u + 12345u;
        h = widths[(seed >> 8) % 3];
        fixture_gpt(&sc, 2 + (seed >> 12) % 16, h, h / 64, 32000);
        sc.train.seq_len = seqs[(seed >> 16) % 4];
        sc.train.precision = n % 2 ? precs[(seed >> 20) % 2] : PREC_BF16;
        sc.train.global_batch = 8;
        sc.gpus = 8;
        sc.layout.tp = 1;
        sc.layout.dp = 8;
        sc.layout.microbatch = 1;
        sc.layout.recompute = (enum recompute)((seed >> 22) % 3);
        sc.stack.gemm_eff = 1;
        sc.stack.attn_eff = 1;
        sc.stack.fp8_eff = 1;
        sc.stack.selective_keep = (double)((seed >> 24) % 5) / 4;
        if ((seed >> 26) % 2)
            snprintf(sc.stack.attn_kernel, sizeof(sc.stack.attn_kernel),
                     "unfused");
        ck_assert_int_eq(scenario_validate(&sc, NULL), CP_OK);
        scenario_eval(&sc, &r);
        ck_assert_msg(r.time.mfu >= 0 && r.time.mfu <= 1 && r.time.hfu <= 1,
                      "plan %d: mfu %g hfu %g (h %llu, seq %llu)", n,
                      r.time.mfu, r.time.hfu, (unsigned long long)h,
                      (unsigned long long)sc.train.seq_len);
    }
}
END_TEST

/* software.efficiency_scale (quote --vary mfu=LO:HI): a larger scale
 * never slows a step, it moves the step time within the physics, MFU
 * stays <= 1 even far past the peak (the scaled efficiency is capped),
 * and serving's prefill follows; out-of-range scales are refused. */
START_TEST(test_efficiency_scale)
{
    static const double scales[] = {0.5, 0.8, 1, 1.2, 2, 10};
    double prev = HUGE_VAL, at1 = 0, prefill_lo = 0, prefill_hi = 0;
    struct scenario sc;
    struct result r;
    size_t i;

    for (i = 0; i < sizeof(scales) / sizeof(scales[0]); i++) {
        fixture_scenario(&sc, "h100-sxm");
        fixture_gpt(&sc, 32, 4096, 32, 32000);
        sc.train.global_batch = 64;
        sc.gpus = 8;
        sc.layout.tp = 2;
        sc.layout.dp = 4;
        sc.layout.microbatch = 1;
        sc.stack.gemm_eff = 1; /* the cap binds from scale ~1.3 */
        sc.stack.attn_eff = 1;
        sc.efficiency_scale = scales[i];
        ck_assert_int_eq(scenario_validate(&sc, NULL), CP_OK);
        scenario_eval(&sc, &r);
        ck_assert_msg(r.time.step_s <= prev * (1 + 1e-12),
                      "scale %g: step %g after %g", scales[i], r.time.step_s,
                      prev);
        ck_assert_msg(r.time.mfu > 0 && r.time.mfu <= 1 && r.time.hfu <= 1,
                      "scale %g: mfu %g", scales[i], r.time.mfu);
        if (scales[i] == 1)
            at1 = r.time.step_s;
        prev = r.time.step_s;
    }
    /* 0.5 is slower than 1 by more than nothing and at most 2x */
    fixture_scenario(&sc, "h100-sxm");
    fixture_gpt(&sc, 32, 4096, 32, 32000);
    sc.train.global_batch = 64;
    sc.gpus = 8;
    sc.layout.tp = 2;
    sc.layout.dp = 4;
    sc.layout.microbatch = 1;
    sc.stack.gemm_eff = 1;
    sc.stack.attn_eff = 1;
    sc.efficiency_scale = 0.5;
    scenario_eval(&sc, &r);
    ck_assert(r.time.step_s > at1 * 1.05 && r.time.step_s <= at1 * 2.0001);
    /* serving: a prompt's prefill is compute-bound and follows the scale */
    for (i = 0; i < 2; i++) {
        fixture_scenario(&sc, "h100-sxm");
        fixture_gpt(&sc, 32, 4096, 32, 32000);
        sc.workload = WORKLOAD_SERVE;
        sc.serve.mode = SERVE_ONLINE;
        sc.serve.input_tokens = 2048;
        sc.serve.output_tokens = 128;
        sc.serve.concurrency = 1;
        sc.serve.percentile = SERVE_PCT_P50;
        sc.stack.mbu = 0.8;
        sc.stack.kv_mem_frac = 0.9;
        sc.stack.prefill_chunk = 8192;
        sc.efficiency_scale = i ? 1.2 : 0.8;
        ck_assert_int_eq(scenario_validate(&sc, NULL), CP_OK);
        scenario_eval(&sc, &r);
        if (i)
            prefill_hi = r.serve.prefill_ms;
        else
            prefill_lo = r.serve.prefill_ms;
    }
    ck_assert_msg(prefill_hi < prefill_lo * 0.95, "prefill %g vs %g",
                  prefill_hi, prefill_lo);
    /* the plan key's bounds, in core too */
    sc.efficiency_scale = 11;
    ck_assert_int_eq(scenario_validate(&sc, NULL), CP_ERR_RANGE);
    sc.efficiency_scale = -1;
    ck_assert_int_eq(scenario_validate(&sc, NULL), CP_ERR_RANGE);
}
END_TEST

/* The search's fast path (scenario_validate_shape, scenario_eval_shape with
 * the model's shape derived once, quick results cleared in part) gives the
 * same verdicts and the same numbers as the plain calls, for dense and MoE
 * layouts, valid and not; a quick evaluation leaves the cost section as it
 * was. */
START_TEST(test_shape_fast_path)
{
    static const uint64_t tps[] = {1, 2, 4, 8, 3};
    static const unsigned flags[] = {EVAL_MEMORY_ONLY | EVAL_QUIET,
                                     EVAL_TIME_ONLY | EVAL_QUIET, EVAL_QUIET,
                                     EVAL_DEFAULT};
    struct scenario sc;
    struct result a, b;
    struct model_shape m;
    size_t i, k, moe;

    for (moe = 0; moe < 2; moe++) {
        for (i = 0; i < sizeof(tps) / sizeof(tps[0]); i++) {
            fixture_scenario(&sc, "h100-sxm");
            fixture_gpt(&sc, 32, 4096, 32, 32000);
            if (moe) {
                sc.model.experts = 8;
                sc.model.experts_active = 2;
                sc.model.first_dense_layers = 2;
                sc.layout.ep = 2;
            }
            sc.train.global_batch = 64;
            sc.gpus = 8;
            sc.layout.tp = tps[i];
            sc.layout.dp = 8 / tps[i];
            sc.layout.microbatch = 1;
            model_shape_derive(&sc.model, (double)sc.train.seq_len, &m);
            ck_assert_int_eq(scenario_validate_shape(&sc, &m, NULL),
                             scenario_validate(&sc, NULL));
            if (scenario_validate(&sc, NULL) != CP_OK)
                continue;
            for (k = 0; k < sizeof(flags) / sizeof(flags[0]); k++) {
                memset(&a, 0x5a, sizeof(a));
                memset(&b, 0x5a, sizeof(b));
                scenario_eval_flags(&sc, flags[k], &a);
                scenario_eval_shape(&sc, &m, flags[k], &b);
                ck_assert(memcmp(&a.memory, &b.memory, sizeof(a.memory)) == 0);
                ck_assert(memcmp(&a.time, &b.time, sizeof(a.time)) == 0);
                ck_assert(memcmp(&a.model, &b.model, sizeof(a.model)) == 0);
                ck_assert_str_eq(a.bottleneck, b.bottleneck);
                ck_assert_uint_eq(a.nwarnings, b.nwarnings);
                ck_assert(a.memory.total_bytes > 0);
                if (flags[k] & (EVAL_MEMORY_ONLY | EVAL_TIME_ONLY)) {
                    /* quick: the cost section is not touched */
                    ck_assert_uint_eq(((unsigned char *)&b.cost)[0], 0x5a);
                } else {
                    ck_assert(memcmp(&a.cost, &b.cost, sizeof(a.cost)) == 0);
                    ck_assert(b.cost.build.run_usd > 0);
                }
                if (!(flags[k] & EVAL_MEMORY_ONLY))
                    ck_assert(b.time.step_s > 0);
            }
        }
    }
}
END_TEST

/* scenario_validate_part: the head, the layout and the money parts, in
 * that order, give scenario_validate_shape's verdict and reason, and the
 * head and money parts do not read the layout (the search checks them
 * once for all candidates): for a head error (stack knob), a layout error
 * (tp not dividing heads) and a money error (PUE), alone and together. */
START_TEST(test_validate_parts)
{
    static const uint64_t tps[] = {1, 2, 8, 3};
    struct scenario sc;
    struct model_shape m;
    struct diag whole, part, head1, money1;
    enum cp_status st, head0, money0;
    size_t i, bad;

    for (bad = 0; bad < 4; bad++) {
        for (i = 0; i < sizeof(tps) / sizeof(tps[0]); i++) {
            fixture_scenario(&sc, "h100-sxm");
            fixture_gpt(&sc, 32, 4096, 32, 32000);
            sc.train.global_batch = 64;
            sc.gpus = 8;
            sc.layout.tp = tps[i];
            sc.layout.dp = 8 / tps[i];
            sc.layout.microbatch = 1;
            if (bad & 1)
                sc.stack.gemm_eff = 1.5;
            if (bad & 2)
                sc.site.pue = 0.5;
            model_shape_derive(&sc.model, (double)sc.train.seq_len, &m);
            diag_clear(&whole);
            diag_clear(&part);
            st = scenario_validate_part(&sc, VALIDATE_HEAD, NULL, &part);
            if (!st)
                st = scenario_validate_part(&sc, VALIDATE_LAYOUT, &m, &part);
            if (!st)
                st = scenario_validate_part(&sc, VALIDATE_MONEY, NULL, &part);
            ck_assert_int_eq(st, scenario_validate_shape(&sc, &m, &whole));
            ck_assert_str_eq(part.where, whole.where);
            ck_assert_str_eq(part.msg, whole.msg);
            ck_assert_int_eq(st != CP_OK, bad != 0 || tps[i] == 3);
            /* the head and the money do not change with the layout */
            if (i == 0) {
                head0 =
                    scenario_validate_part(&sc, VALIDATE_HEAD, NULL, &head1);
                money0 =
                    scenario_validate_part(&sc, VALIDATE_MONEY, NULL, &money1);
                ck_assert_int_eq(head0 != CP_OK, (bad & 1) != 0);
                ck_assert_int_eq(money0 != CP_OK, (bad & 2) != 0);
            } else {
                ck_assert_int_eq(
                    scenario_validate_part(&sc, VALIDATE_HEAD, NULL, &part),
                    head0);
                ck_assert_int_eq(
                    scenario_validate_part(&sc, VALIDATE_MONEY, NULL, &part),
                    money0);
            }
        }
    }
}
END_TEST

Suite *suite_scenario(void)
{
    Suite *s = suite_create("scenario");
    TCase *tc = tcase_create("errors");

    tcase_add_loop_test(tc, test_bad_input, 0,
                        sizeof(bad_cases) / sizeof(bad_cases[0]));
    suite_add_tcase(s, tc);
    tc = tcase_create("limits");
    tcase_add_test(tc, test_absurd_plans);
    tcase_add_test(tc, test_own_chunk_head);
    tcase_add_test(tc, test_mfu_never_above_peak);
    tcase_add_test(tc, test_efficiency_scale);
    tcase_add_test(tc, test_shape_fast_path);
    tcase_add_test(tc, test_validate_parts);
    suite_add_tcase(s, tc);
    return s;
}
