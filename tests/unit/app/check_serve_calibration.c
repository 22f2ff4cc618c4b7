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
#include <string.h>

#include "app/cal_cases.h"
#include "check_helpers.h"

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

Suite *suite_serve_calibration(void);

Suite *suite_serve_calibration(void)
{
    Suite *s = suite_create("serve_calibration");
    TCase *tc = tcase_create("core");

    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_serving_cases);
    tcase_add_test(tc, test_held_out);
    suite_add_tcase(s, tc);
    return s;
}
