/*
 * check_calibration.c - the published training runs of
 * calibration/training_cases.csv (every case names its software stack)
 * through the whole path (plan keys -> catalog -> core):
 *   Korthikanti 2022 Table 5 step times: each within 10%, mean within 5%;
 *   ZeRO Table 1 model states within 2%; Korthikanti Figure 1 memory
 *   within 12%; Narayanan 2021 Table 2 within 5%; mean absolute error over
 *   all cases within 10.5% and at least 145 of 173 within their tolerance
 *   (the fit of data/stacks.csv as the README reports it).
 * The cases are the repo's copy in tests/data/ (it carries the software.*
 * recipe facts each source states), else ../shared/calibration/.  README's table comes from the
 * same cases (make validate), so a drift shows up in both.
 */
#include <check.h>
#include <math.h>
#include <string.h>

#include "app/cal_cases.h"
#include "check_helpers.h"

static const char *const case_paths[] = {
    "tests/data/training_cases.csv",
    "../shared/calibration/training_cases.csv"};

/* The publication of a case, by the prefix of its id. */
static int id_is(const struct cal_case *c, const char *prefix)
{
    return strncmp(c->id, prefix, strlen(prefix)) == 0;
}

START_TEST(test_published_runs)
{
    static struct cal_set cs;
    struct catalog *cat = NULL;
    struct diag d;
    double sum = 0, k22_sum = 0, err;
    size_t i, k22_n = 0, within = 0;

    cal_load(&cs, case_paths, 2, 21);
    ck_assert_int_eq(catalog_open(":memory:", 0, &cat, &d), CP_OK);
    for (i = 0; i < cs.n; i++) {
        const struct cal_case *c = &cs.c[i];

        err = fabs(cal_error(cat, c));
        sum += err;
        within += err <= c->tol;
        if (id_is(c, "K22-T5-")) {
            ck_assert_msg(err <= 0.10, "%s: step time off by %.1f%% (> 10%%)",
                          c->id, 100 * err);
            k22_sum += err;
            k22_n++;
        } else if (id_is(c, "ZERO-")) {
            /* Table 1 prints two significant digits for the smallest
             * entries (0.12 GB for 16 * 7.5e9 / 1024 = 0.1172 GB): allow
             * half a unit in the last published digit as well */
            double allowed = fmax(0.02, c->half_unit / c->expected);

            ck_assert_msg(err <= allowed, "%s: off by %.2f%% (> %.2f%%)", c->id,
                          100 * err, 100 * allowed);
        } else if (id_is(c, "K22-F1-")) {
            ck_assert_msg(err <= 0.12, "%s: off by %.1f%% (> 12%%)", c->id,
                          100 * err);
        } else if (id_is(c, "N21-")) {
            ck_assert_msg(err <= 0.05, "%s: off by %.1f%% (> 5%%)", c->id,
                          100 * err);
        }
    }
    catalog_close(cat);
    ck_assert(k22_n == 8);
    ck_assert_msg(k22_sum / (double)k22_n <= 0.05,
                  "Korthikanti Table 5 mean error %.2f%% > 5%%",
                  100 * k22_sum / (double)k22_n);
    /* the fit of data/stacks.csv (README, Calibration): a change that
     * moves these moves the README's table too (make validate) */
    ck_assert_msg(sum / (double)cs.n <= 0.105, "mean error %.2f%% > 10.5%%",
                  100 * sum / (double)cs.n);
    ck_assert_msg(within >= 145, "%zu of %zu cases within tolerance (< 145)",
                  within, cs.n);
}
END_TEST

/* Further rows of the MosaicML tables (README, More published runs), not
 * used by the fit: the memory-bound runs are outside their tolerance (no
 * allocator pressure in the model); the rest must stay within theirs, and
 * the mean error within 10%. */
START_TEST(test_more_published_runs)
{
    static const char *const path = "tests/data/published_runs.csv";
    static struct cal_set cs;
    struct catalog *cat = NULL;
    struct diag d;
    double sum = 0, err;
    size_t i, within = 0;

    cal_load(&cs, &path, 1, 21);
    ck_assert_int_eq(catalog_open(":memory:", 0, &cat, &d), CP_OK);
    for (i = 0; i < cs.n; i++) {
        err = fabs(cal_error(cat, &cs.c[i]));
        sum += err;
        if (err <= cs.c[i].tol)
            within++;
    }
    catalog_close(cat);
    ck_assert_msg(within + 3 >= cs.n, "%zu of %zu runs within tolerance",
                  within, cs.n);
    ck_assert_msg(sum / (double)cs.n <= 0.10, "mean error %.2f%% > 10%%",
                  100 * sum / (double)cs.n);
}
END_TEST

Suite *suite_calibration(void)
{
    Suite *s = suite_create("calibration");
    TCase *tc = tcase_create("core");

    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_published_runs);
    tcase_add_test(tc, test_more_published_runs);
    suite_add_tcase(s, tc);
    return s;
}
