/*
 * check_cost.c - owned build vs cloud: capital recovery, $/GPU-hour,
 * break-even, the DeepSeek-V3 arithmetic and an H100 sanity range.
 */
#include <string.h>

#include "check_helpers.h"
#include "core/load.h"
#include "core/cost.h"
#include "core/energy.h"
#include "core/netbom.h"
#include "core/reliability.h"
#include "core/storage.h"
#include "fixture.h"

static void chain(const struct scenario *sc, struct result *r)
{
    load_train(sc, r);
    netbom_estimate(sc, r);
    storage_estimate(sc, r);
    reliability_estimate(sc, r);
    load_train(sc, r);
    energy_estimate(sc, r);
    load_train(sc, r);
    cost_estimate(sc, r);
}

/* clang-format off */
static const struct crf_case {
    double rate, years, crf;
    const char *source;
} crfs[] = {
    {0.08, 5, 0.2504564545668364, "i(1+i)^n/((1+i)^n-1), 8%, 5 y"},
    {0.10, 10, 0.16274539488251152, "10%, 10 y"},
    {0.05, 30, 0.06505143508027657, "5%, 30 y"},
    {0, 5, 0.2, "straight line: 1/n at i = 0"},
    {1e-15, 4, 0.25, "i -> 0 limit"},
    {-0.5, 4, 0.25, "negative rate taken as 0"},
    {0.07, 1e9, 0.07, "perpetuity: CRF -> i"},
    {0.08, 0, 1039.5269775472898, "years floored at 0.001: CRF(8%, 0.001)"},
};
/* clang-format on */

START_TEST(test_crf)
{
    const struct crf_case *c = &crfs[_i];

    ck_assert_rel(cost_crf(c->rate, c->years), c->crf, 1e-9);
}
END_TEST

/* A hand-sized cluster: one 8-GPU node, results of the earlier models
 * set directly so every number below is derived on paper. */
/* clang-format off */
static const struct money_case {
    const char *name;
    double node_usd, it_kw, facility_kw, colo, build_per_mw;
    double rate, years, util, maint, kwh, cloud;
    double gpu_hours, goodput;
    double capex, annual_capital, opex, usd_per_gpu_h;
    double build_run, cloud_run, be_util, be_months;
    bool build_cheaper;
    unsigned nwarnings;
    const char *source;
} money[] = {
    /* CapEx 1e5; CRF 1/5 -> 2e4/yr; electricity 13 kW x 8760 h x $0.1 =
     * 11,388; $/h = 31,388 / (8 x 8760); 1,000 h / 0.8 goodput.
     * Break-even u = 2e4 / (8 x 8760 x (1 - 13 x 0.1 / 8));
     * months = 1e5 / (8 x 730 x $1 - 11,388 / 12). */
    {"straight line, bought hall", 1e5, 10, 13, 0, 0,
     0, 5, 1, 0, 0.1, 1.0, 1000, 0.8,
     1e5, 2e4, 11388, 31388.0 / 70080,
     31388.0 / 70080 * 1250, 1250, 2e4 / (70080 * 0.8375),
     1e5 / (5840 - 949), true, 0, "derived by hand"},
    /* Colocation 200 $/kW-month x 10 kW x 12 = 24,000/yr, no facility
     * CapEx; CRF(8%, 5) = 0.25045645; maintenance 5,000; electricity at
     * u = 0.5: 5,694.  Fixed = 25,045.65 + 5,000 + 24,000. */
    {"colocation, 8%", 1e5, 10, 13, 200, 11.7e6,
     0.08, 5, 0.5, 0.05, 0.1, 2.0, 1000, 1,
     1e5, 25045.64545668364, 34694,
     (25045.64545668364 + 34694) / 35040,
     (25045.64545668364 + 34694) / 35040 * 1000, 2000,
     (25045.64545668364 + 5000 + 24000) / (70080 * 1.8375),
     1e5 / (5840 - 34694.0 / 12), true, 0, "derived by hand"},
    /* Facility built at $10M/MW for 1,000 kW of IT: $10M CapEx. */
    {"built hall", 0, 1000, 1000, 0, 10e6,
     0, 10, 1, 0, 0, 1e6, 10, 1,
     1e7, 1e6, 0, 1e6 / 70080,
     1e6 / 70080 * 10, 1e7, 1e6 / (70080 * 1e6),
     1e7 / (5840 * 1e6), true, 0, "derived by hand"},
    /* Cloud at $0.10 is below owned electricity alone ($0.1625/GPU-h):
     * cloud wins at any utilization and owning never breaks even. */
    {"cloud below electricity", 1e5, 10, 13, 0, 0,
     0, 5, 1, 0, 0.1, 0.1, 1000, 1,
     1e5, 2e4, 11388, 31388.0 / 70080,
     31388.0 / 70080 * 1000, 100, 1, 60, false, 2, "derived"},
    /* A $10M node against $1/GPU-h: break-even needs 2,044 months. */
    {"never within 60 months", 1e7, 10, 13, 0, 0,
     0, 5, 1, 0, 0.1, 1.0, 1000, 1,
     1e7, 2e6, 11388, 2011388.0 / 70080,
     2011388.0 / 70080 * 1000, 1000, 1, 60, false, 2, "derived"},
    /* No cloud offer for the term: build only. */
    {"no cloud offer", 1e5, 10, 13, 0, 0,
     0, 5, 1, 0, 0.1, 0, 1000, 1,
     1e5, 2e4, 11388, 31388.0 / 70080,
     31388.0 / 70080 * 1000, 0, 0, 0, true, 1, "derived"},
};
/* clang-format on */

START_TEST(test_money)
{
    const struct money_case *c = &money[_i];
    struct scenario sc;
    struct result r;
    const struct cost_result *cr = &r.cost;

    memset(&sc, 0, sizeof(sc));
    memset(&r, 0, sizeof(r));
    sc.gpus = 8;
    sc.system.gpus_per_node = 8;
    sc.system.node_price_usd = c->node_usd;
    sc.site.colo_usd_per_kw_month = c->colo;
    sc.site.build_usd_per_mw = c->build_per_mw;
    sc.site.usd_per_kwh = c->kwh;
    sc.finance.cost_of_capital = c->rate;
    sc.finance.depreciation_years = c->years;
    sc.finance.utilization = c->util;
    sc.finance.maintenance_frac = c->maint;
    sc.cloud_usd_per_gpu_hour = c->cloud;
    sc.train.tokens = 1e9;
    r.network.nodes = 1;
    r.energy.it_kw = c->it_kw;
    r.energy.facility_kw = c->facility_kw;
    r.time.gpu_hours = c->gpu_hours;
    r.reliability.goodput = c->goodput;
    load_train(&sc, &r);
    cost_estimate(&sc, &r);

    ck_assert_rel(cr->build.capex_usd, c->capex, 1e-12);
    ck_assert_rel(cr->build.annual_capital_usd, c->annual_capital, 1e-12);
    ck_assert_rel(cr->build.opex_usd_per_year, c->opex, 1e-12);
    ck_assert_rel(cr->build.usd_per_gpu_hour, c->usd_per_gpu_h, 1e-12);
    ck_assert_rel(cr->build.run_usd, c->build_run, 1e-12);
    ck_assert_rel(cr->cloud.run_usd, c->cloud_run, 1e-12);
    ck_assert_rel(cr->breakeven_utilization, c->be_util, 1e-12);
    ck_assert_rel(cr->breakeven_months, c->be_months, 1e-12);
    ck_assert_int_eq(cr->build_cheaper, c->build_cheaper);
    ck_assert_uint_eq(r.nwarnings, c->nwarnings);
    ck_assert_rel(cr->cloud.usd_per_mtok, c->cloud_run / 1e9 * 1e6, 1e-12);
    ck_assert_rel(cr->build.usd_per_mtok, c->build_run / 1e9 * 1e6, 1e-12);
}
END_TEST

/* DeepSeek-V3 (2024): 2.788M H800 GPU-hours at an assumed $2/GPU-hour
 * = $5.576M.  Cloud run cost = GPU-hours x price, exactly. */
START_TEST(test_deepseek_v3)
{
    struct scenario sc;
    struct result r;

    fixture_cluster(&sc, &r, 2048);
    sc.cloud_usd_per_gpu_hour = 2;
    r.time.gpu_hours = 2.788e6;
    r.reliability.goodput = 1;
    load_train(&sc, &r);
    cost_estimate(&sc, &r);
    ck_assert_rel(r.cost.cloud.run_usd, 5.576e6, 1e-15);
    ck_assert_rel(r.cost.cloud.usd_per_gpu_hour, 2, 0);

    /* Through the whole chain with reliable hardware and free restarts
     * (goodput -> 1). */
    fixture_cluster(&sc, &r, 2048);
    sc.cloud_usd_per_gpu_hour = 2;
    sc.reliability.node_mtbf_h = 1e15;
    sc.reliability.restart_min = 0;
    r.time.gpu_hours = 2.788e6;
    r.time.train_days = 2.788e6 / 2048 / 24;
    chain(&sc, &r);
    ck_assert_rel(r.cost.cloud.run_usd, 5.576e6, 1e-6);
}
END_TEST

/* The sanity check: owned H100 at default finance lands at a
 * plausible $1.5-2.5 per GPU-hour, with a built hall or colocation
 * (CBRE H2 2024: $184.06 per kW-month). */
START_TEST(test_h100_usd_per_gpu_hour)
{
    static const uint64_t gpus[] = {256, 1024, 4096, 16384};
    size_t i;
    int colo;

    for (colo = 0; colo <= 1; colo++)
        for (i = 0; i < sizeof(gpus) / sizeof(gpus[0]); i++) {
            struct scenario sc;
            struct result r;
            double usd;

            fixture_cluster(&sc, &r, gpus[i]);
            sc.site.colo_usd_per_kw_month = colo ? 184.06 : 0;
            sc.cloud_usd_per_gpu_hour = 2.972; /* AWS p5 3-yr */
            chain(&sc, &r);
            usd = r.cost.build.usd_per_gpu_hour;
            ck_assert_msg(
                usd >= 1.5 && usd <= 2.5, "%llu H100 (%s): $%.3f per GPU-hour",
                (unsigned long long)gpus[i], colo ? "colo" : "built", usd);
            ck_assert(r.cost.build_cheaper);
            ck_assert(r.cost.breakeven_utilization > 0 &&
                      r.cost.breakeven_utilization < 0.8);
            ck_assert_rel(r.cost.build.capex_facility_usd,
                          colo ? 0 : r.energy.it_kw * 11.7e3, 1e-12);
        }
}
END_TEST

/* Run cost is linear in GPU-hours, on both sides. */
START_TEST(test_linear_in_hours)
{
    struct scenario sc;
    struct result a, b;

    fixture_cluster(&sc, &a, 1024);
    sc.cloud_usd_per_gpu_hour = 4.334;
    chain(&sc, &a);
    b = a;
    b.time.gpu_hours = 3 * a.time.gpu_hours;
    b.nwarnings = 0;
    load_train(&sc, &b);
    cost_estimate(&sc, &b);
    ck_assert_rel(b.cost.build.run_usd, 3 * a.cost.build.run_usd, 1e-12);
    ck_assert_rel(b.cost.cloud.run_usd, 3 * a.cost.cloud.run_usd, 1e-12);
    ck_assert_rel(a.cost.cloud.run_usd,
                  a.time.gpu_hours / a.reliability.goodput * 4.334, 1e-12);
}
END_TEST

/* At the break-even utilization owning costs exactly the cloud price,
 * and the cumulative series cross at the break-even month. */
START_TEST(test_breakeven_consistent)
{
    struct scenario sc;
    struct result r;
    double be_u, be_m;
    uint64_t m;

    fixture_cluster(&sc, &r, 1024);
    sc.cloud_usd_per_gpu_hour = 4.334;
    chain(&sc, &r);
    be_u = r.cost.breakeven_utilization;
    be_m = r.cost.breakeven_months;
    ck_assert(be_u > 0 && be_u < 1);
    ck_assert(be_m > 0 && be_m < 60);
    ck_assert_uint_eq(r.cost.series_months, 61);
    ck_assert_rel(r.cost.series_build_usd[0], r.cost.build.capex_usd, 0);
    ck_assert_rel(r.cost.series_cloud_usd[0], 0, 0);
    for (m = 0; m < r.cost.series_months; m++) {
        if ((double)m < be_m - 1e-9)
            ck_assert(r.cost.series_build_usd[m] > r.cost.series_cloud_usd[m]);
        if ((double)m > be_m + 1e-9)
            ck_assert(r.cost.series_build_usd[m] < r.cost.series_cloud_usd[m]);
        if (m > 0)
            ck_assert(r.cost.series_build_usd[m] >=
                      r.cost.series_build_usd[m - 1]);
    }

    sc.finance.utilization = be_u;
    load_train(&sc, &r);
    energy_estimate(&sc, &r);
    load_train(&sc, &r);
    cost_estimate(&sc, &r);
    ck_assert_rel(r.cost.build.usd_per_gpu_hour, 4.334, 1e-9);
}
END_TEST

START_TEST(test_extremes)
{
    static const uint64_t gpus[] = {1, 8, 10000000};
    static const double x[] = {0, 1e-300, 1e-6, 1, 1e300};
    size_t i, j;

    for (i = 0; i < sizeof(gpus) / sizeof(gpus[0]); i++)
        for (j = 0; j < sizeof(x) / sizeof(x[0]); j++) {
            struct scenario sc;
            struct result r;
            const struct cost_result *c = &r.cost;
            uint64_t m;

            fixture_cluster(&sc, &r, gpus[i]);
            sc.finance.utilization = x[j];
            sc.finance.cost_of_capital = x[j];
            sc.finance.depreciation_years = x[j];
            sc.finance.maintenance_frac = x[j];
            sc.system.node_price_usd = x[j];
            sc.site.usd_per_kwh = x[j];
            sc.site.colo_usd_per_kw_month = x[j];
            sc.cloud_usd_per_gpu_hour = x[j];
            sc.train.tokens = x[j];
            r.time.gpu_hours = x[j];
            r.time.train_days = x[j];
            chain(&sc, &r);
            ck_assert_finite_nonneg(c->build.capex_usd);
            ck_assert_finite_nonneg(c->build.annual_capital_usd);
            ck_assert_finite_nonneg(c->build.opex_usd_per_year);
            ck_assert_finite_nonneg(c->build.usd_per_gpu_hour);
            ck_assert_finite_nonneg(c->build.run_usd);
            ck_assert_finite_nonneg(c->build.usd_per_mtok);
            ck_assert_finite_nonneg(c->cloud.run_usd);
            ck_assert_finite_nonneg(c->cloud.usd_per_mtok);
            ck_assert(c->breakeven_utilization >= 0 &&
                      c->breakeven_utilization <= 1);
            ck_assert(c->breakeven_months >= 0 && c->breakeven_months <= 60);
            for (m = 0; m < c->series_months; m++) {
                ck_assert_finite_nonneg(c->series_build_usd[m]);
                ck_assert_finite_nonneg(c->series_cloud_usd[m]);
            }
        }
}
END_TEST

/* Offer id and term are copied for the exporters. */
START_TEST(test_offer_copied)
{
    struct scenario sc;
    struct result r;

    fixture_cluster(&sc, &r, 8);
    memcpy(sc.cloud.id, "aws-p5", 7);
    sc.cloud_term = TERM_RESERVED_3Y;
    sc.cloud_usd_per_gpu_hour = 2.972;
    chain(&sc, &r);
    ck_assert_str_eq(r.cost.cloud.offer, "aws-p5");
    ck_assert_int_eq(r.cost.cloud.term, TERM_RESERVED_3Y);
}
END_TEST

Suite *suite_cost(void); /* listed by the Makefile */

Suite *suite_cost(void)
{
    Suite *s = suite_create("cost");
    TCase *core = tcase_create("core");
    TCase *inv = tcase_create("invariants");
    TCase *lim = tcase_create("limits");

    tcase_add_loop_test(core, test_crf, 0,
                        (int)(sizeof(crfs) / sizeof(crfs[0])));
    tcase_add_loop_test(core, test_money, 0,
                        (int)(sizeof(money) / sizeof(money[0])));
    tcase_add_test(core, test_deepseek_v3);
    tcase_add_test(core, test_h100_usd_per_gpu_hour);
    tcase_add_test(core, test_offer_copied);
    tcase_add_test(inv, test_linear_in_hours);
    tcase_add_test(inv, test_breakeven_consistent);
    tcase_add_test(lim, test_extremes);
    suite_add_tcase(s, core);
    suite_add_tcase(s, inv);
    suite_add_tcase(s, lim);
    return s;
}
