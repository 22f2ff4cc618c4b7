/*
 * check_serve_calibration.c - the published serving results of
 * calibration/serving_cases.csv (TensorRT-LLM maximum-throughput tables,
 * NIM single-request latencies, FasterTransformer 13B latencies) through
 * the whole path (plan keys -> catalog -> core), against issue 11's
 * targets: mean absolute error within 10%, no case worse than 25%, and
 * each source's mean within 15%.  The stack knobs were fitted once on
 * these rows, nothing per case (README, Calibration).  The cases are
 * ../shared/calibration/serving_cases.csv when present, else the copy in
 * tests/data/; README's serving table comes from the same rows.
 */
#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "app/cal_cases.h"
#include "check_helpers.h"
#include "plan/calibrate.h"

/* A serving case must size a fleet that fits before its metric counts. */
static double run_case(struct catalog *cat, const struct cal_case *c)
{
    const struct plan_outcome *out = cal_run(cat, c);
    double v;

    ck_assert_msg(out->result.workload == WORKLOAD_SERVE &&
                      out->result.serve.fits,
                  "%s: %s", c->id, out->result.serve.reason);
    v = cal_metric(c->metric, out);
    ck_assert_finite(v);
    return (v - c->expected) / c->expected;
}

START_TEST(test_serving_cases)
{
    static const char *const paths[] = {
        "../shared/calibration/serving_cases.csv",
        "tests/data/serving_cases.csv"};
    static struct cal_set cs;
    struct catalog *cat = NULL;
    struct diag d;
    double sum = 0, err, src_sum[CAL_CASES_MAX] = {0};
    size_t i, k, src_n[CAL_CASES_MAX] = {0};

    cal_load(&cs, paths, 2, 20);
    ck_assert_int_eq(catalog_open(":memory:", 0, &cat, &d), CP_OK);
    for (i = 0; i < cs.n; i++) {
        err = fabs(run_case(cat, &cs.c[i]));
        sum += err;
        ck_assert_msg(err <= 0.25, "%s: off by %.1f%% (> 25%%)", cs.c[i].id,
                      100 * err);
        for (k = 0; k < i && strcmp(cs.c[k].source, cs.c[i].source); k++)
            ;
        src_sum[k] += err;
        src_n[k]++;
    }
    catalog_close(cat);
    ck_assert_msg(sum / (double)cs.n <= 0.10, "MAPE %.2f%% > 10%%",
                  100 * sum / (double)cs.n);
    for (k = 0; k < cs.n; k++)
        if (src_n[k])
            ck_assert_msg(src_sum[k] / (double)src_n[k] <= 0.15,
                          "'%s...': mean error %.1f%% > 15%%", cs.c[k].source,
                          100 * src_sum[k] / (double)src_n[k]);
}
END_TEST

/* Held out (README, Serving): the rows of the same TensorRT-LLM table the
 * fit never saw - other lengths, GPUs and fp4 on B200.  They say how
 * well the model generalises; the bounds are today's with a margin, so a
 * change that makes it worse fails here.  The B200 fp4 rows have their
 * own bound: within 10% (AIConfigurator's 7.5% on the same rows). */
START_TEST(test_held_out)
{
    static const char *const path = "tests/data/serving_published.csv";
    static struct cal_set cs;
    struct catalog *cat = NULL;
    struct diag d;
    double sum = 0, worst = 0, err, fp4_sum = 0;
    size_t i, fp4_n = 0;

    cal_load(&cs, &path, 1, 20);
    ck_assert_int_eq(catalog_open(":memory:", 0, &cat, &d), CP_OK);
    for (i = 0; i < cs.n; i++) {
        err = fabs(run_case(cat, &cs.c[i]));
        sum += err;
        worst = fmax(worst, err);
        /* NVFP4 on B200: the GEMMs at B200's own measured 4-bit ceiling
         * (data/accelerators.csv fp4_gemm_frac), issue 22 item 3 */
        if (strstr(cs.c[i].sets, "hardware.accelerator=b200 ") &&
            strstr(cs.c[i].sets, "serve.weights=fp4")) {
            fp4_sum += err;
            fp4_n++;
        }
    }
    catalog_close(cat);
    ck_assert_msg(sum / (double)cs.n <= 0.13, "held-out MAPE %.1f%% > 13%%",
                  100 * sum / (double)cs.n);
    ck_assert_msg(worst <= 0.30, "held-out worst %.1f%% > 30%%", 100 * worst);
    ck_assert_uint_ge(fp4_n, 5);
    ck_assert_msg(fp4_sum / (double)fp4_n <= 0.10,
                  "B200 fp4 held-out MAPE %.1f%% > 10%%",
                  100 * fp4_sum / (double)fp4_n);
}
END_TEST

/* A load case must run: its plan quotes and its metric has a value.  An
 * offered rate above capacity is a result (throughput saturates, TTFT
 * grows with the queue), not a refusal, so the fleet need not fit the
 * offered load as run_case asks. */
static double run_load_case(struct catalog *cat, const struct cal_case *c)
{
    const struct plan_outcome *out = cal_run(cat, c);
    double v = 0;

    ck_assert_msg(out->result.workload == WORKLOAD_SERVE, "%s: not serving",
                  c->id);
    ck_assert_msg(calib_metric(c->metric, out, &v), "%s: %s has no value: %s",
                  c->id, c->metric, out->result.serve.reason);
    ck_assert_finite(v);
    return (v - c->expected) / c->expected;
}

/* Errors sorted ascending: the 90th percentile as validate.py ranks it
 * (the ceil(0.9 n)-th smallest). */
static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;

    return (x > y) - (x < y);
}

static double p90_of(double *errs, size_t n)
{
    size_t k = (size_t)ceil(0.9 * (double)n);

    qsort(errs, n, sizeof(errs[0]), cmp_double);
    return errs[k ? k - 1 : 0];
}

/* calibration/serving_load_cases.csv (issue 22): published latency under
 * load (vLLM, dstack, InferenceX, AMD) and wide-EP / disaggregated rows
 * (SGLang, vLLM, TensorRT-LLM, Dynamo).  Every row must run: a plan the
 * model cannot express, or a fleet that does not fit, fails naming the
 * case.  Nothing is fitted on them (README, Serving under load), so the
 * bounds are the error at issue 22's start with a margin: a change that
 * makes the model worse on them fails here; work that improves it
 * tightens them (the target is MAPE 12%, p90 25%). */
START_TEST(test_load_cases)
{
    static const char *const paths[] = {
        "tests/data/serving_load_cases.csv",
        "../shared/calibration/serving_load_cases.csv"};
    static struct cal_set cs;
    static double errs[CAL_CASES_MAX];
    struct catalog *cat = NULL;
    struct diag d;
    double sum = 0, p90;
    size_t i;

    cal_load(&cs, paths, 2, 68);
    ck_assert_int_eq(catalog_open(":memory:", 0, &cat, &d), CP_OK);
    for (i = 0; i < cs.n; i++) {
        errs[i] = fabs(run_load_case(cat, &cs.c[i]));
        sum += errs[i];
    }
    catalog_close(cat);
    p90 = p90_of(errs, cs.n);
    /* A regression guard, not the target (12%, p90 25%): the repo copy is
     * at 21.2%, p90 51% (README, serving load cases; 23.3%, p90 58%
     * before the gpt-oss and InferenceX rows stated their recipes). */
    ck_assert_msg(sum / (double)cs.n <= 0.28, "load MAPE %.1f%% > 28%%",
                  100 * sum / (double)cs.n);
    ck_assert_msg(p90 <= 0.56, "load p90 %.1f%% > 56%%", 100 * p90);
}
END_TEST

Suite *suite_serve_calibration(void);

Suite *suite_serve_calibration(void)
{
    Suite *s = suite_create("serve_calibration");
    TCase *tc = tcase_create("core");

    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_serving_cases);
    tcase_add_test(tc, test_held_out);
    tcase_add_test(tc, test_load_cases);
    suite_add_tcase(s, tc);
    return s;
}
