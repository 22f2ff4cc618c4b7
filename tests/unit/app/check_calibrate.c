/*
 * check_calibrate.c - the stack fitter (plan/calibrate.h) of
 * `llmplan calibrate` (the C port of tests/calibration/fit_stacks.py):
 *   * synthetic runs measured by the model itself at a known gemm_eff: the
 *     fit from the catalog row (which has another) recovers it and the
 *     error falls from several percent to ~0;
 *   * the knobs that do not move the runs are not fitted (fp8_eff on bf16
 *     runs), mem_reserve_gib only with a measured total_gib, moe_imbalance
 *     only with 3+ MoE runs;
 *   * a prediction equals the metric of plan_evaluate after the row's
 *     knobs are in the catalog (the quote path);
 *   * the reader names the file, line and column of bad input.
 */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check_helpers.h"
#include "plan/calibrate.h"

/* Dense llm-foundry-like runs (MPT shapes of its benchmarking README). */
#define RUN_SETS(layers, hidden, heads, ffn, seq, gpus, mb, gb)                \
    "model.layers=" #layers " model.hidden=" #hidden " model.heads=" #heads    \
    " model.kv_heads=" #heads " model.ffn=" #ffn " model.vocab=50368 "         \
    "model.gated_ffn=no train.seq_len=" #seq " train.global_batch=" #gb        \
    " train.precision=bf16 train.tokens=1e12 hardware.accelerator=h100-sxm "   \
    "hardware.gpus=" #gpus " parallel.tp=1 parallel.pp=1 parallel.dp=" #gpus   \
    " parallel.microbatch=" #mb " parallel.zero=3 parallel.recompute=none "    \
    "software.stack=llm-foundry"

static const char runs_csv[] =
    "id,metric,expected,tol,source,sets\n"
    "a,mfu,0.4,0.1,synthetic," RUN_SETS(
        32, 4096, 32, 16384, 2048, 8, 4,
        256) "\n"
             "b,mfu,0.4,0.1,synthetic," RUN_SETS(
                 32, 4096, 32, 16384, 8192, 8, 1,
                 64) "\n"
                     "c,step_s,1,0.1,synthetic," RUN_SETS(
                         40, 5120, 40, 20480, 2048, 16, 2,
                         256) "\n"
                              "d,tokens_per_s_per_gpu,3000,0.1,"
                              "synthetic," RUN_SETS(
                                  24, 2048, 16, 8192, 2048, 8, 8,
                                  512) "\n"
                                       "e,model_tflops_per_gpu,300,0.1,"
                                       "synthetic," RUN_SETS(48, 6144, 48,
                                                             24576, 2048, 32, 1,
                                                             256) "\n";

static struct calib_set *load(const char *text, struct catalog *cat,
                              struct stack_spec *st)
{
    struct calib_set *cs = calib_set_new();
    char *buf = strdup(text);
    FILE *fp = fmemopen(buf, strlen(buf), "r");
    struct diag d;

    ck_assert_ptr_nonnull(fp);
    ck_assert_msg(calib_read(cs, "runs.csv", fp, &d) == CP_OK, "%s: %s",
                  d.where, d.msg);
    fclose(fp);
    free(buf);
    ck_assert_int_eq(catalog_get_stack(cat, "llm-foundry", st, NULL, &d),
                     CP_OK);
    ck_assert_msg(calib_resolve(cs, cat, "llm-foundry", &d) == CP_OK, "%s: %s",
                  d.where, d.msg);
    return cs;
}

START_TEST(test_recovers_known_knobs)
{
    struct catalog *cat = NULL;
    struct stack_spec st;
    struct calib_set *cs;
    struct calib_fit fit;
    double truth[CK_COUNT], v;
    struct diag d;
    size_t i;

    ck_assert_int_eq(catalog_open(":memory:", 0, &cat, &d), CP_OK);
    cs = load(runs_csv, cat, &st);
    ck_assert_uint_eq(cs->n, 5);
    /* the "measurements": the model at gemm_eff 0.7 (the row has 0.82) */
    calib_knobs_of(&st, truth);
    ck_assert(fabs(truth[CK_GEMM_EFF] - 0.7) > 0.1);
    truth[CK_GEMM_EFF] = 0.7;
    for (i = 0; i < cs->n; i++) {
        ck_assert(calib_predict(cs, i, &st, truth, &v));
        cs->runs[i].expected = v;
    }
    calib_fit(cs, NULL, 0, &st, &fit);
    ck_assert_msg(fit.before > 0.03, "start error %.3f", fit.before);
    ck_assert_int_eq(fit.why[CK_GEMM_EFF], CALIB_FIT);
    ck_assert_msg(fabs(fit.knobs[CK_GEMM_EFF] - 0.7) < 0.002,
                  "gemm_eff %.4f, want 0.7", fit.knobs[CK_GEMM_EFF]);
    ck_assert_msg(fit.after < 0.001, "after %.4f", fit.after);
    ck_assert(fit.after < fit.before);
    /* bf16 runs: the FP8 recipe does not move them; no memory measured;
     * no MoE runs */
    ck_assert_int_eq(fit.why[CK_FP8_EFF], CALIB_NO_EFFECT);
    ck_assert_double_eq(fit.knobs[CK_FP8_EFF], fit.start[CK_FP8_EFF]);
    ck_assert_int_eq(fit.why[CK_MEM_RESERVE_GIB], CALIB_NO_MEMORY);
    ck_assert_int_eq(fit.why[CK_MOE_IMBALANCE], CALIB_FEW_MOE);
    ck_assert_uint_eq(fit.moe_runs, 0);
    for (i = 0; i < CK_COUNT; i++) {
        const struct calib_knob_info *ki = calib_knob_info(i);

        ck_assert(fit.knobs[i] >= ki->low && fit.knobs[i] <= ki->high);
    }
    calib_set_free(cs);
    catalog_close(cat);
}
END_TEST

/* calib_predict with the row's own knobs is plan_evaluate's metric. */
START_TEST(test_predict_is_quote)
{
    struct catalog *cat = NULL;
    struct plan_outcome *oc = malloc(sizeof(*oc));
    struct stack_spec st;
    struct calib_set *cs;
    double knobs[CK_COUNT], v, q;
    struct plan p;
    struct diag d;
    char *copy, *t, *save = NULL;

    ck_assert_int_eq(catalog_open(":memory:", 0, &cat, &d), CP_OK);
    cs = load(runs_csv, cat, &st);
    calib_knobs_of(&st, knobs);
    ck_assert(calib_predict(cs, 2, &st, knobs, &v));
    plan_init(&p, "c");
    copy = strdup(cs->runs[2].sets);
    for (t = strtok_r(copy, " ", &save); t; t = strtok_r(NULL, " ", &save))
        ck_assert_int_eq(plan_set_assignment(&p, t, &d), CP_OK);
    free(copy);
    ck_assert_int_eq(plan_evaluate(&p, cat, OBJECTIVE_TIME, oc, &d), CP_OK);
    ck_assert(calib_metric("step_s", oc, &q));
    ck_assert_double_eq_tol(v, q, 1e-12 * q);
    ck_assert(!calib_metric("no_such_metric", oc, &q));
    ck_assert(calib_metric("time.step_s", oc, &q));
    free(oc);
    calib_set_free(cs);
    catalog_close(cat);
}
END_TEST

/* A run without its layout: searched once with the stack as it is, then
 * held; its prediction is still what quote (which searches) prints. */
START_TEST(test_pin_layout)
{
    static const char text[] =
        "id,metric,expected,sets\n"
        "a,mfu,0.4," RUN_SETS(
            32, 4096, 32, 16384, 2048, 8, 4,
            256) "\n"
                 "b,step_s,2,model.layers=32 model.hidden=4096 model.heads=32 "
                 "model.kv_heads=8 model.ffn=14336 train.seq_len=4096 "
                 "train.global_batch=256 hardware.accelerator=h100-sxm "
                 "hardware.gpus=16 software.stack=llm-foundry\n";
    struct catalog *cat = NULL;
    struct plan_outcome *oc = malloc(sizeof(*oc));
    struct stack_spec st;
    struct calib_set *cs;
    double knobs[CK_COUNT], v, q;
    struct plan p;
    struct diag d;
    size_t pinned;
    char *copy, *t, *save = NULL;

    ck_assert_int_eq(catalog_open(":memory:", 0, &cat, &d), CP_OK);
    cs = load(text, cat, &st);
    ck_assert(cs->runs[1].res->needs_search);
    ck_assert_int_eq(calib_pin_layouts(cs, &pinned, &d), CP_OK);
    ck_assert_uint_ge(pinned, 1);
    ck_assert(!cs->runs[0].res->needs_search);
    ck_assert(!cs->runs[1].res->needs_search);
    calib_knobs_of(&st, knobs);
    ck_assert(calib_predict(cs, 1, &st, knobs, &v));
    plan_init(&p, "b");
    copy = strdup(cs->runs[1].sets);
    for (t = strtok_r(copy, " ", &save); t; t = strtok_r(NULL, " ", &save))
        ck_assert_int_eq(plan_set_assignment(&p, t, &d), CP_OK);
    free(copy);
    ck_assert_int_eq(plan_evaluate(&p, cat, OBJECTIVE_TIME, oc, &d), CP_OK);
    ck_assert(oc->searched);
    ck_assert(calib_metric("step_s", oc, &q));
    ck_assert_double_eq_tol(v, q, 1e-12 * q);
    free(oc);
    calib_set_free(cs);
    catalog_close(cat);
}
END_TEST

static void read_fails(const char *text, const char *want_where,
                       const char *want_msg)
{
    struct calib_set *cs = calib_set_new();
    char *buf = strdup(text);
    FILE *fp = fmemopen(buf, strlen(buf), "r");
    struct diag d;

    diag_clear(&d);
    ck_assert(calib_read(cs, "runs.csv", fp, &d) != CP_OK);
    fclose(fp);
    free(buf);
    ck_assert_msg(strstr(d.where, want_where) != NULL, "where '%s'", d.where);
    ck_assert_msg(strstr(d.msg, want_msg) != NULL, "msg '%s'", d.msg);
    calib_set_free(cs);
}

/* selective_keep measures selective recomputation against Megatron's set:
 * a Megatron stack keeps 1 by definition and the fitter never moves it
 * (fit_stacks.py DEFINED is the same rule); any other stack's is fitted
 * or left as it is. */
START_TEST(test_megatron_selective_defined)
{
    struct catalog *cat = NULL;
    struct stack_spec st, mc;
    struct calib_set *cs;
    struct calib_fit fit;
    struct diag d;

    ck_assert_int_eq(catalog_open(":memory:", 0, &cat, &d), CP_OK);
    cs = load(runs_csv, cat, &st);
    mc = st;
    snprintf(mc.id, sizeof(mc.id), "%s", "megatron-core");
    mc.selective_keep = 0.4;
    calib_fit(cs, NULL, 0, &mc, &fit);
    ck_assert_int_eq(fit.why[CK_SELECTIVE_KEEP], CALIB_DEFINED);
    ck_assert_double_eq(fit.start[CK_SELECTIVE_KEEP], 1);
    ck_assert_double_eq(fit.knobs[CK_SELECTIVE_KEEP], 1);
    st.selective_keep = 0.4;
    calib_fit(cs, NULL, 0, &st, &fit);
    ck_assert_int_ne(fit.why[CK_SELECTIVE_KEEP], CALIB_DEFINED);
    ck_assert_double_eq_tol(fit.start[CK_SELECTIVE_KEEP], 0.4, 1e-12);
    calib_set_free(cs);
    catalog_close(cat);
}
END_TEST

START_TEST(test_read_errors)
{
    read_fails("id,metric,expected,source\n", "runs.csv", "'sets'");
    read_fails("id,metric,expected,sets\nx,speed,1,model.layers=2\n",
               "runs.csv:2", "metric: unknown metric 'speed'");
    read_fails("id,metric,expected,sets\nx,mfu,-1,model.layers=2\n",
               "runs.csv:2", "expected");
    read_fails("id,metric,expected,sets\nx,mfu,0.4,model.layerz=2\n",
               "runs.csv:2: x: model.layerz", "unknown");
    read_fails("id,metric,expected,sets\nx,mfu,0.4,model.layers=two\n",
               "runs.csv:2: x", "");
}
END_TEST

Suite *suite_calibrate(void)
{
    Suite *s = suite_create("calibrate");
    TCase *tc = tcase_create("core");

    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_recovers_known_knobs);
    tcase_add_test(tc, test_predict_is_quote);
    tcase_add_test(tc, test_pin_layout);
    tcase_add_test(tc, test_read_errors);
    tcase_add_test(tc, test_megatron_selective_defined);
    suite_add_tcase(s, tc);
    return s;
}
