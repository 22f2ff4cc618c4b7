/*
 * check_cost.c - owned build vs cloud: capital recovery, $/GPU-hour,
 * break-even, the DeepSeek-V3 arithmetic and an H100 sanity range.
 */
#include <math.h>
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

/* One 8-GPU node whose earlier-model results are set directly, so every
 * number below is derived on paper.  Rate 0 makes capital straight line;
 * colocation at $200/kW-month on 10 kW of nameplate. */
static void one_node(struct scenario *sc, struct result *r)
{
    memset(sc, 0, sizeof(*sc));
    memset(r, 0, sizeof(*r));
    sc->gpus = 8;
    sc->system.gpus_per_node = 8;
    sc->system.node_price_usd = 1e5;
    sc->site.colo_usd_per_kw_month = 200;
    sc->site.usd_per_kwh = 0.1;
    sc->site.pue = 1.3;
    sc->finance.depreciation_years = 5;
    sc->finance.utilization = 1;
    sc->cloud_usd_per_gpu_hour = 1;
    sc->train.tokens = 1e9;
    r->network.nodes = 1;
    r->energy.it_kw = 10;
    r->energy.nameplate_it_kw = 10;
    r->energy.facility_kw = 13;
    r->energy.pue = 1.3;
    r->time.gpu_hours = 1000;
    r->reliability.goodput = 0.8;
}

START_TEST(test_money)
{
    struct scenario sc;
    struct result r;
    const struct cost_result *cr = &r.cost;
    /* Capital 1e5 / 5 y = 2e4/yr; colocation 200 x 10 x 12 = 24,000;
     * electricity 13 kW x 8760 h x $0.1 = 11,388. */
    double opex = 24000 + 11388, per_h = (2e4 + opex) / (8 * 8760.0);

    one_node(&sc, &r);
    load_train(&sc, &r);
    cost_estimate(&sc, &r);
    ck_assert_rel(cr->build.capex_usd, 1e5, 1e-12);
    ck_assert_rel(cr->build.annual_capital_usd, 2e4, 1e-12);
    ck_assert_rel(cr->build.opex_usd_per_year, opex, 1e-12);
    ck_assert_rel(cr->build.usd_per_gpu_hour, per_h, 1e-12);
    ck_assert_rel(cr->build.run_usd, per_h * 1250, 1e-12);
    ck_assert_rel(cr->cloud.run_usd, 1250, 1e-12);
    ck_assert_int_eq(cr->verdict, VERDICT_BUILD);
    ck_assert(cr->build_cheaper);
    /* Per month: owning 2e4/12 + 24000/12 + 949 u, the cloud 8 x 730 u:
     * equal at u* = 3666.67 / (5840 - 949). */
    ck_assert(cr->breakeven_utilization_known);
    ck_assert_rel(cr->breakeven_utilization, (44000.0 / 12) / (5840 - 949),
                  1e-12);
    /* Payback at rate 0: 1e5 / (5840 - 2000 - 949) months. */
    ck_assert(cr->breakeven_months_known);
    ck_assert_rel(cr->breakeven_months, 1e5 / (5840.0 - 2000 - 949), 1e-12);
    ck_assert_uint_eq(r.nwarnings, 0);
    ck_assert_rel(cr->build.usd_per_mtok, per_h * 1250 / 1e9 * 1e6, 1e-12);
}
END_TEST

/* Monthly discounting: 8% a year is (1.08)^(1/12) - 1 a month, and the
 * capital is repaid in level monthly payments over 60 months. */
START_TEST(test_monthly_capital)
{
    struct scenario sc;
    struct result r;
    double im = expm1(log(1.08) / 12);

    one_node(&sc, &r);
    sc.finance.cost_of_capital = 0.08;
    load_train(&sc, &r);
    cost_estimate(&sc, &r);
    ck_assert_rel(cost_monthly_rate(0.08), im, 1e-12);
    ck_assert_rel(r.cost.build.annual_capital_usd,
                  12 * 1e5 * im / (1 - pow(1 + im, -60)), 1e-12);
    ck_assert_rel(r.cost.horizon_months, 60, 0);
}
END_TEST

/* Issue 12: a 1-year reservation of 128 ND96isr H100 v5 (1,024 GPUs at
 * $7.8656) commits 1,024 x 8,760 h x $7.8656 = $70.56M, used or not: the
 * cash of a run shorter than a year is that term.  Issue 18: its run cost
 * is its share of the term at the plan's utilization (0.8), as for owned
 * hardware: busy GPU-hours x $7.8656 / 0.8, the rest of the term reused. */
START_TEST(test_reserved_commitment)
{
    struct scenario sc;
    struct result r;

    fixture_cluster(&sc, &r, 1024);
    sc.cloud.gpus_per_instance = 8;
    sc.cloud_term = TERM_RESERVED_1Y;
    sc.cloud_usd_per_gpu_hour = 7.8656;
    r.time.gpu_hours = 5.08e6; /* ~207 days on 1,024 GPUs */
    chain(&sc, &r);
    ck_assert_rel(r.cost.cloud.commitment_usd, 1024 * 8760 * 7.8656, 1e-12);
    ck_assert_rel(r.cost.cloud.cash_usd, 1024 * 8760 * 7.8656, 1e-12);
    ck_assert_rel(r.cost.cloud.run_usd, r.load.busy_gpu_hours * 7.8656 / 0.8,
                  1e-12);
    ck_assert(r.cost.cloud.run_usd < r.cost.cloud.cash_usd);
    ck_assert_rel(r.cost.cloud.usd_per_used_gpu_hour, 7.8656 / 0.8, 1e-12);
    /* Two and a half years of work on a 1-year term commits three terms;
     * its share at 0.8 (3.1 terms) is more than that, so the run costs
     * the three terms: never more than the cash. */
    r.time.gpu_hours = 2.5 * 8760 * 1024 * r.reliability.goodput;
    load_train(&sc, &r);
    cost_estimate(&sc, &r);
    ck_assert_rel(r.cost.cloud.cash_usd, 3 * 1024 * 8760 * 7.8656, 1e-9);
    ck_assert_rel(r.cost.cloud.run_usd, 3 * 1024 * 8760 * 7.8656, 1e-9);

    /* hybrid-owned.ini: 512 GPUs on a 3-year term at $1.93 commit
     * 512 x 26,280 h x $1.93 = $25.97M. */
    fixture_cluster(&sc, &r, 512);
    sc.cloud.gpus_per_instance = 8;
    sc.cloud_term = TERM_RESERVED_3Y;
    sc.cloud_usd_per_gpu_hour = 1.93;
    sc.finance.utilization = 0.9;
    r.time.gpu_hours = 1e6;
    chain(&sc, &r);
    ck_assert_rel(r.cost.cloud.cash_usd, 512 * 26280 * 1.93, 1e-12);
    ck_assert_rel(r.cost.cloud.run_usd, r.load.busy_gpu_hours * 1.93 / 0.9,
                  1e-12);
    /* Both sides pay for idle time: a reserved busy hour costs
     * $1.93 / 0.9 = $2.144. */
    ck_assert_rel(r.cost.cloud.usd_per_used_gpu_hour, 1.93 / 0.9, 1e-12);
}
END_TEST

/* Whole instances: 12 GPUs on 8-GPU instances bill 16. */
START_TEST(test_whole_instances)
{
    struct scenario sc;
    struct result r;

    fixture_cluster(&sc, &r, 12);
    sc.cloud.gpus_per_instance = 8;
    sc.cloud_usd_per_gpu_hour = 2;
    r.time.gpu_hours = 1200;
    r.reliability.goodput = 1;
    netbom_estimate(&sc, &r);
    storage_estimate(&sc, &r);
    energy_estimate(&sc, &r);
    r.reliability.goodput = 1;
    load_train(&sc, &r);
    cost_estimate(&sc, &r);
    ck_assert_uint_eq(r.cost.cloud.billed_gpus, 16);
    ck_assert_rel(r.cost.cloud.run_usd, 16 * 100 * 2, 1e-12);
    ck_assert_rel(r.cost.cloud.usd_per_used_gpu_hour, 2.0 * 16 / 12, 1e-12);
}
END_TEST

/* Spot: preemptions are interruptions, so the same work takes more hours
 * than on-demand at the same rate; with preemptions that never come the
 * two are equal. */
START_TEST(test_spot_preemption)
{
    struct scenario sc;
    struct result r;
    double od;

    fixture_cluster(&sc, &r, 1024);
    sc.cloud.gpus_per_instance = 8;
    sc.cloud_usd_per_gpu_hour = 3;
    r.time.gpu_hours = 1e6;
    chain(&sc, &r);
    od = r.cost.cloud.run_usd;
    sc.cloud_term = TERM_SPOT;
    load_train(&sc, &r);
    cost_estimate(&sc, &r);
    ck_assert(r.cost.cloud.goodput < r.reliability.goodput);
    ck_assert(r.cost.cloud.run_usd > od);
    ck_assert_rel(r.cost.cloud.run_usd,
                  od * r.reliability.goodput / r.cost.cloud.goodput, 1e-12);
    sc.cloud.spot_mtbi_h = 1e15;
    load_train(&sc, &r);
    cost_estimate(&sc, &r);
    ck_assert_rel(r.cost.cloud.run_usd, od, 1e-9);
}
END_TEST

/* A missing price is a warning and no verdict, never a silent zero. */
START_TEST(test_unpriced)
{
    struct scenario sc;
    struct result r;

    fixture_cluster(&sc, &r, 64);
    sc.system.node_price_usd = 0; /* trn2: no public price */
    chain(&sc, &r);
    ck_assert(r.cost.unpriced & COST_UNPRICED_NODES);
    ck_assert_int_eq(r.cost.verdict, VERDICT_NONE);
    ck_assert(!r.cost.build_cheaper);
    ck_assert(!r.cost.breakeven_months_known);
    ck_assert(!r.cost.breakeven_utilization_known);
    ck_assert(r.cost.breakeven_reason[0]);
    ck_assert(r.nwarnings >= 1);

    fixture_cluster(&sc, &r, 64);
    sc.fabric.switch_price_usd = 0;
    sc.fabric.nic_price_usd = 0;
    sc.fabric.transceiver_price_usd = 0;
    sc.fabric.cable_price_usd = 0;
    chain(&sc, &r);
    ck_assert(r.cost.unpriced & COST_UNPRICED_NETWORK);
    ck_assert_int_eq(r.cost.verdict, VERDICT_NONE);

    fixture_cluster(&sc, &r, 64);
    sc.cloud_usd_per_gpu_hour = 0;
    chain(&sc, &r);
    ck_assert_uint_eq(r.cost.unpriced, COST_UNPRICED_CLOUD);
    ck_assert_int_eq(r.cost.verdict, VERDICT_NONE);
    ck_assert(!r.cost.breakeven_months_known);
}
END_TEST

/* "Never" is a reason: with a 3-year life the payback does not come and
 * the months are unknown, not a horizon that reads like a value. */
START_TEST(test_never)
{
    struct scenario sc;
    struct result r;

    fixture_cluster(&sc, &r, 512);
    sc.cloud_usd_per_gpu_hour = 1.2; /* below owning at any utilization */
    sc.finance.depreciation_years = 3;
    chain(&sc, &r);
    ck_assert_int_eq(r.cost.verdict, VERDICT_CLOUD);
    ck_assert(!r.cost.breakeven_months_known);
    ck_assert(!r.cost.breakeven_utilization_known);
    ck_assert(strstr(r.cost.breakeven_reason, "utilization"));
    ck_assert_rel(r.cost.breakeven_months, 0, 0);
}
END_TEST

/* The payback is the crossing of the schedule's discounted cumulative
 * columns: known exactly when the build's present cash is at most the
 * cloud's at the end of the life, and then inside the year where the
 * columns cross, at every utilization, rate, price and facility.  With a
 * rented hall (nothing kept) the present costs equal at u* and the
 * payback is exactly the life. */
START_TEST(test_payback_consistent)
{
    static const double rates[] = {0, 0.05, 0.08, 0.2};
    static const double utils[] = {0.05, 0.2, 0.5, 0.8, 1};
    static const double prices[] = {1.5, 2.5, 4.334, 7};
    size_t i, j, k, colo;

    for (colo = 0; colo < 2; colo++)
        for (i = 0; i < 4; i++)
            for (j = 0; j < 5; j++)
                for (k = 0; k < 4; k++) {
                    struct scenario sc;
                    struct result r;
                    const struct cost_result *c = &r.cost;
                    const struct cost_year *last;
                    uint64_t y;

                    fixture_cluster(&sc, &r, 1024);
                    sc.site.colo_usd_per_kw_month = colo ? 184.06 : 0;
                    sc.finance.cost_of_capital = rates[i];
                    sc.finance.utilization = utils[j];
                    sc.finance.residual_frac = 0.15;
                    sc.cloud_usd_per_gpu_hour = prices[k];
                    chain(&sc, &r);
                    last = &c->schedule[c->schedule_years - 1];
                    ck_assert_msg(
                        c->breakeven_months_known ==
                            (last->build_npv_usd <=
                             last->cloud_npv_usd * (1 + 1e-12)),
                        "rate %g u %g price %g: payback %d, npv %g vs %g",
                        rates[i], utils[j], prices[k],
                        c->breakeven_months_known, last->build_npv_usd,
                        last->cloud_npv_usd);
                    if (c->breakeven_months_known) {
                        for (y = 0; y < c->schedule_years; y++)
                            if (c->schedule[y].build_npv_usd <=
                                c->schedule[y].cloud_npv_usd * (1 + 1e-12))
                                break;
                        ck_assert(y >= 1 && y < c->schedule_years);
                        ck_assert(c->breakeven_months >= 12.0 * (y - 1));
                        ck_assert(c->breakeven_months <=
                                  12.0 * y * (1 + 1e-12));
                    }
                    if (colo && c->breakeven_utilization_known) {
                        sc.finance.utilization = c->breakeven_utilization;
                        chain(&sc, &r);
                        ck_assert_rel(r.cost.build.npv_usd,
                                      r.cost.cloud.npv_usd, 1e-9);
                        ck_assert(r.cost.breakeven_months_known);
                        ck_assert_rel(r.cost.breakeven_months, 60, 1e-9);
                    }
                }
}
END_TEST

/* Residual is counted when it is received (issue 18), on paper.  Rate 0,
 * rented hall: CapEx 1e5, saving 5840 - 2000 - 949 = 2891 a month, so
 * 34.6 months without resale; with a 2-year life the saving repays
 * 24 x 2891 = 69,384 and the 40% resale (40,000) at month 24 closes the
 * gap: the payback is the month the resale is received, not earlier. */
START_TEST(test_payback_resale_at_life)
{
    struct scenario sc;
    struct result r;

    one_node(&sc, &r);
    sc.finance.depreciation_years = 2;
    sc.finance.residual_frac = 0.4;
    load_train(&sc, &r);
    cost_estimate(&sc, &r);
    ck_assert(r.cost.breakeven_months_known);
    ck_assert_rel(r.cost.breakeven_months, 24, 1e-12);
    /* 10% resale does not close it: 69,384 + 10,000 < 1e5. */
    sc.finance.residual_frac = 0.1;
    cost_estimate(&sc, &r);
    ck_assert(!r.cost.breakeven_months_known);
    ck_assert(strstr(r.cost.breakeven_reason, "never within the 24-month"));
}
END_TEST

/* The hall is kept, not sold: a built hall's remaining value does not
 * shorten the payback (before issue 18 it was counted as cash today). */
START_TEST(test_payback_hall_not_sold)
{
    struct scenario sc;
    struct result r;
    double capex, s, im = expm1(log(1.08) / 12);

    fixture_cluster(&sc, &r, 1024);
    sc.cloud_usd_per_gpu_hour = 4.334;
    chain(&sc, &r);
    ck_assert(r.cost.build.capex_facility_usd > 0);
    ck_assert(r.cost.breakeven_months_known);
    capex = r.cost.build.capex_usd;
    s = r.cost.cloud.usd_per_year / 12 - r.cost.build.opex_usd_per_year / 12;
    /* s a(m) = CapEx at the payback month. */
    ck_assert_rel(s * (1 - pow(1 + im, -r.cost.breakeven_months)) / im, capex,
                  1e-9);
}
END_TEST

/* The monthly series and the yearly schedule are the same cash: at month
 * 12 y the series equals the schedule's cumulative columns, the resale
 * included at the end of the life. */
START_TEST(test_series_matches_schedule)
{
    struct scenario sc;
    struct result r;
    const struct cost_result *c = &r.cost;
    uint64_t y;

    fixture_cluster(&sc, &r, 1024);
    sc.finance.residual_frac = 0.15;
    sc.cloud_usd_per_gpu_hour = 4.334;
    chain(&sc, &r);
    ck_assert_uint_eq(c->schedule_years, 6);
    for (y = 0; y < c->schedule_years; y++) {
        ck_assert_rel(c->series_build_usd[12 * y],
                      c->schedule[y].build_cumulative_usd, 1e-12);
        ck_assert_rel(c->series_cloud_usd[12 * y],
                      c->schedule[y].cloud_cumulative_usd, 1e-12);
    }
}
END_TEST

/* The schedule adds up: cumulative cash, the cloud's last NPV equals its
 * present cost, and the build's equals its present cost plus the hall
 * value that is kept (not sold): only the IT resale comes back. */
START_TEST(test_schedule)
{
    struct scenario sc;
    struct result r;
    const struct cost_result *c = &r.cost;
    double capex = 0, sum = 0, it, kept;
    uint64_t y;

    fixture_cluster(&sc, &r, 1024);
    sc.finance.residual_frac = 0.15;
    sc.finance.depreciation_years = 4.5;
    sc.cloud_usd_per_gpu_hour = 4.334;
    chain(&sc, &r);
    ck_assert_uint_eq(c->schedule_years, 6);
    for (y = 0; y < c->schedule_years; y++) {
        capex += c->schedule[y].capex_usd;
        sum += c->schedule[y].build_usd;
    }
    it = c->build.capex_nodes_usd + c->build.capex_spares_usd +
         c->build.capex_network_usd + c->build.capex_storage_usd;
    kept = c->build.residual_usd - 0.15 * it;
    ck_assert(kept > 0);
    ck_assert_rel(capex, c->build.capex_usd, 1e-12);
    ck_assert_rel(c->schedule[5].build_cumulative_usd, sum, 1e-12);
    ck_assert_rel(c->schedule[5].build_npv_usd,
                  c->build.npv_usd + kept * pow(1.08, -4.5), 1e-9);
    ck_assert_rel(c->schedule[5].cloud_npv_usd, c->cloud.npv_usd, 1e-9);
    ck_assert_rel(c->schedule[5].residual_usd, 0.15 * it, 1e-12);
    ck_assert_rel(c->schedule[1].cloud_usd, c->cloud.usd_per_year, 1e-12);
    ck_assert_rel(c->schedule[5].cloud_usd, c->cloud.usd_per_year / 2, 1e-12);
}
END_TEST

/* The hall lives 15 years: building it costs less a year than renting
 * colocation at CBRE's $184.06/kW-month, and it is sized on nameplate
 * power (DGX H100: 10.2 kW a node), not the mean draw. */
START_TEST(test_facility)
{
    struct scenario sc;
    struct result own, colo;

    fixture_cluster(&sc, &own, 1024);
    chain(&sc, &own);
    ck_assert_rel(own.cost.build.capex_facility_usd,
                  own.energy.nameplate_it_kw * 11.7e3, 1e-12);
    ck_assert(own.energy.nameplate_it_kw >= 128 * 10.2);
    ck_assert(own.energy.nameplate_it_kw > 1.2 * own.energy.it_kw);
    fixture_cluster(&sc, &colo, 1024);
    sc.site.colo_usd_per_kw_month = 184.06;
    chain(&sc, &colo);
    ck_assert(own.cost.build.usd_per_gpu_hour <
              colo.cost.build.usd_per_gpu_hour);
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
                          colo ? 0 : r.energy.nameplate_it_kw * 11.7e3, 1e-12);
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

/* At the break-even utilization owning costs exactly the cloud price
 * per busy hour, and the cash series start at CapEx and 0. */
START_TEST(test_breakeven_consistent)
{
    struct scenario sc;
    struct result r;
    double be_u;
    uint64_t m;

    fixture_cluster(&sc, &r, 1024);
    sc.cloud_usd_per_gpu_hour = 4.334;
    chain(&sc, &r);
    be_u = r.cost.breakeven_utilization;
    ck_assert(r.cost.breakeven_utilization_known);
    ck_assert(be_u > 0 && be_u < 1);
    ck_assert(r.cost.breakeven_months_known);
    ck_assert(r.cost.breakeven_months > 0 && r.cost.breakeven_months < 60);
    ck_assert_uint_eq(r.cost.series_months, 61);
    ck_assert_rel(r.cost.series_build_usd[0], r.cost.build.capex_usd, 0);
    ck_assert_rel(r.cost.series_cloud_usd[0], 0, 0);
    for (m = 1; m + 1 < r.cost.series_months; m++)
        ck_assert(r.cost.series_build_usd[m] >= r.cost.series_build_usd[m - 1]);

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
            ck_assert_finite_nonneg(c->breakeven_months);
            ck_assert(c->breakeven_months <= c->horizon_months + 1e-9);
            ck_assert_finite_nonneg(c->build.npv_usd);
            ck_assert_finite_nonneg(c->cloud.npv_usd);
            for (m = 0; m < c->schedule_years; m++) {
                ck_assert_finite(c->schedule[m].build_usd);
                ck_assert_finite(c->schedule[m].build_npv_usd);
                ck_assert_finite_nonneg(c->schedule[m].cloud_npv_usd);
            }
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
    tcase_add_test(core, test_money);
    tcase_add_test(core, test_monthly_capital);
    tcase_add_test(core, test_reserved_commitment);
    tcase_add_test(core, test_whole_instances);
    tcase_add_test(core, test_spot_preemption);
    tcase_add_test(core, test_unpriced);
    tcase_add_test(core, test_never);
    tcase_add_test(core, test_facility);
    tcase_add_test(inv, test_payback_consistent);
    tcase_add_test(inv, test_schedule);
    tcase_add_test(inv, test_series_matches_schedule);
    tcase_add_test(inv, test_payback_resale_at_life);
    tcase_add_test(inv, test_payback_hall_not_sold);
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
