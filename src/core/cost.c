/*
 * cost.c - owned build vs cloud (see cost.h for the model and sources).
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/cost.h"
#include "core/storage.h"

/* NaN or negative -> 0, overflow -> 1e300: results stay finite. */
static double clamp_pos(double x)
{
    if (!(x > 0))
        return 0;
    return x < 1e300 ? x : 1e300;
}

double cost_crf(double rate, double years)
{
    double i = rate > 0 ? rate : 0;
    double n = years > 1e-3 ? years : 1e-3;
    double x;

    /* Capital recovery factor (any engineering-economics text): the level
     * annual payment that repays 1 over n years at rate i,
     * i (1+i)^n / ((1+i)^n - 1) = i / (1 - (1+i)^-n).  Written with
     * expm1/log1p so small i is accurate and large n*i cannot overflow. */
    if (i < 1e-12)
        return 1 / n;
    x = n * log1p(i);
    if (x > 700)
        return clamp_pos(i);
    return clamp_pos(i / -expm1(-x));
}

/* The build side: CapEx, annual costs and $/GPU-hour. */
static void build_side(const struct scenario *sc, const struct result *r,
                       double u, struct build_cost *b)
{
    double gpn =
        sc->system.gpus_per_node >= 1 ? (double)sc->system.gpus_per_node : 1;
    double nodes = r->network.nodes >= 1 ? (double)r->network.nodes
                                         : ceil(r->load.gpus / gpn);
    double it_kw = clamp_pos(r->energy.it_kw);

    b->capex_nodes_usd = clamp_pos(nodes * sc->system.node_price_usd);
    b->capex_network_usd = clamp_pos(r->network.capex_usd);
    b->capex_storage_usd =
        clamp_pos(storage_provisioned_tb(sc, r) * sc->storage.usd_per_tb);
    /* Rent the hall (colocation, per kW of IT load per month) or build
     * it (per MW of critical IT load; reference 5.2). */
    if (sc->site.colo_usd_per_kw_month > 0) {
        b->capex_facility_usd = 0;
        b->colocation_usd_per_year =
            clamp_pos(sc->site.colo_usd_per_kw_month * it_kw * 12);
    } else {
        b->capex_facility_usd =
            clamp_pos(sc->site.build_usd_per_mw * it_kw / 1000);
        b->colocation_usd_per_year = 0;
    }
    b->capex_usd = clamp_pos(b->capex_nodes_usd + b->capex_network_usd +
                             b->capex_storage_usd + b->capex_facility_usd);
    b->annual_capital_usd =
        clamp_pos(b->capex_usd * cost_crf(sc->finance.cost_of_capital,
                                          sc->finance.depreciation_years));
    /* Electricity is paid on facility power (IT x PUE) for the hours the
     * cluster works. */
    b->electricity_usd_per_year = clamp_pos(
        r->energy.facility_kw * COST_HOURS_PER_YEAR * u * sc->site.usd_per_kwh);
    b->maintenance_usd_per_year =
        clamp_pos(sc->finance.maintenance_frac * b->capex_usd);
    b->opex_usd_per_year =
        clamp_pos(b->electricity_usd_per_year + b->maintenance_usd_per_year +
                  b->colocation_usd_per_year);
    /* Every owned GPU-hour sold at utilization u carries the year's
     * capital and operating cost (models.md 7). */
    b->usd_per_gpu_hour =
        clamp_pos((b->annual_capital_usd + b->opex_usd_per_year) /
                  (r->load.gpus * COST_HOURS_PER_YEAR * u));
}

/* Utilization at which owning costs the cloud price c per GPU-hour:
 * F / (u G 8760) + e = c  =>  u = F / (G 8760 (c - e)).  Returns a value
 * above 1 when the cloud wins at any utilization. */
static double breakeven_utilization(const struct build_cost *b, double gpus,
                                    double elec_per_gpu_h, double c)
{
    double fixed = b->annual_capital_usd + b->maintenance_usd_per_year +
                   b->colocation_usd_per_year;

    if (!(c > elec_per_gpu_h))
        return 2;
    return clamp_pos(fixed /
                     (gpus * COST_HOURS_PER_YEAR * (c - elec_per_gpu_h)));
}

void cost_estimate(const struct scenario *sc, struct result *r)
{
    struct cost_result *cr = &r->cost;
    struct build_cost *b = &cr->build;
    struct cloud_cost *cl = &cr->cloud;
    double u = sc->finance.utilization;
    double gpus = r->load.gpus;
    double eff_gpu_h, tokens, c, elec_per_gpu_h, be_u;
    double build_month, cloud_month, months;
    uint64_t m;

    memset(cr, 0, sizeof(*cr));
    if (!(u >= COST_MIN_UTILIZATION))
        u = COST_MIN_UTILIZATION;
    if (u > 1)
        u = 1;
    if (gpus < 1)
        gpus = 1;
    build_side(sc, r, u, b);

    /* Both sides pay for the busy hours of the load, failures included
     * (reliability.h). */
    eff_gpu_h = clamp_pos(r->load.busy_gpu_hours);
    tokens = r->load.tokens;
    b->run_usd = clamp_pos(b->usd_per_gpu_hour * eff_gpu_h);
    b->usd_per_mtok = tokens > 0 ? clamp_pos(b->run_usd / tokens * 1e6) : 0;

    /* Cloud: the plan layer resolved the offer's price for the term.
     * DeepSeek-V3 (2024) costs its run the same way: 2.788M GPU-hours x
     * $2 = $5.576M. */
    c = clamp_pos(sc->cloud_usd_per_gpu_hour);
    snprintf(cl->offer, sizeof(cl->offer), "%s", sc->cloud.id);
    cl->term = sc->cloud_term;
    cl->usd_per_gpu_hour = c;
    cl->run_usd = clamp_pos(c * eff_gpu_h);
    cl->usd_per_mtok = tokens > 0 ? clamp_pos(cl->run_usd / tokens * 1e6) : 0;

    /* Cumulative cash, month by month, for the same work at utilization
     * u: CapEx up front then OpEx, against renting those GPU-hours. */
    build_month = b->opex_usd_per_year / 12;
    cloud_month = clamp_pos(gpus * COST_HOURS_PER_MONTH * u * c);
    cr->series_months = RESULT_SERIES_MAX;
    for (m = 0; m < RESULT_SERIES_MAX; m++) {
        cr->series_build_usd[m] =
            clamp_pos(b->capex_usd + (double)m * build_month);
        cr->series_cloud_usd[m] = clamp_pos((double)m * cloud_month);
    }

    if (!(c > 0)) {
        /* No cloud price for the term: nothing to compare with. */
        cr->build_cheaper = true;
        result_warn(r, "no cloud price for the term; build vs cloud not "
                       "compared");
        return;
    }
    cr->build_cheaper = b->usd_per_gpu_hour < c;

    elec_per_gpu_h =
        clamp_pos(r->energy.facility_kw * sc->site.usd_per_kwh / gpus);
    be_u = breakeven_utilization(b, gpus, elec_per_gpu_h, c);
    if (be_u > 1) {
        be_u = 1;
        result_warn(r, "cloud is cheaper than owning at any utilization");
    }
    cr->breakeven_utilization = be_u;

    months = COST_HORIZON_MONTHS;
    if (cloud_month > build_month)
        months = b->capex_usd / (cloud_month - build_month);
    if (!(months < COST_HORIZON_MONTHS)) {
        months = COST_HORIZON_MONTHS;
        result_warn(r,
                    "owning does not break even with the cloud within "
                    "%d months",
                    COST_HORIZON_MONTHS);
    }
    cr->breakeven_months = clamp_pos(months);
}
