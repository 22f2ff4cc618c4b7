/*
 * cost.c - owned build vs cloud (see cost.h for the model and sources).
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/clamp.h"
#include "core/cost.h"
#include "core/reliability.h"
#include "core/storage.h"

double cost_crf(double rate, double periods)
{
    double i = rate > 0 ? rate : 0;
    double n = periods > 1e-3 ? periods : 1e-3;
    double x;

    /* Capital recovery factor (any engineering-economics text): the level
     * payment per period that repays 1 over n periods at rate i,
     * i (1+i)^n / ((1+i)^n - 1) = i / (1 - (1+i)^-n).  Written with
     * expm1/log1p so small i is accurate and large n*i cannot overflow. */
    if (i < 1e-12)
        return 1 / n;
    x = n * log1p(i);
    if (x > 700)
        return clamp_pos(i);
    return clamp_pos(i / -expm1(-x));
}

double cost_monthly_rate(double annual)
{
    /* Equal compounding: (1 + i_m)^12 = 1 + i. */
    if (!(annual > 0))
        return 0;
    return clamp_pos(expm1(log1p(annual) / 12));
}

double cost_term_hours(enum cloud_term t)
{
    switch (t) {
    case TERM_RESERVED_1Y:
        return COST_HOURS_PER_YEAR;
    case TERM_RESERVED_3Y:
        return 3 * COST_HOURS_PER_YEAR;
    default:
        return 0;
    }
}

/* Present value of 1 paid at the end of each of k months: 1 / CRF. */
static double annuity(double im, double k)
{
    if (!(k > 0))
        return 0;
    return 1 / cost_crf(im, k);
}

/* Present value of 1 paid after k months. */
static double discount(double im, double k)
{
    return exp(-k * log1p(im > 0 ? im : 0));
}

/* Everything both sides need, as monthly costs linear in utilization. */
struct money {
    double u, gpus, im, life_m, fac_m;
    double capex_it, capex_fac, net_capital; /* net: less PV of residual */
    double b0, b1;       /* owning per month: b0 + b1 u (capital + OpEx) */
    double capital_m;    /* the level capital payment per month */
    double res_it;       /* IT resale value at the end of its life */
    double other_year;   /* OpEx that does not scale with use */
    double elec0, elec1; /* electricity per year: elec0 + elec1 u */
    double c0, c1;       /* cloud per month: c0 + c1 u */
    double burst_m;      /* cloud bill above an owned base, per month */
};

/* The capital side of owning: IT and hall lives, what is left of them at
 * the end (residual), and the level monthly payment that repays the rest. */
static void build_capital(const struct scenario *sc, struct money *mo,
                          struct build_cost *b)
{
    double res_it, res_fac, years, fac_years;

    /* Lives in months: IT over depreciation_years, the hall over its own
     * life, never shorter than the IT it houses. */
    years = sc->finance.depreciation_years > 1.0 / 12
                ? sc->finance.depreciation_years
                : 1.0 / 12;
    fac_years = sc->finance.facility_years > 0 ? sc->finance.facility_years
                                               : COST_FACILITY_YEARS;
    if (fac_years < years)
        fac_years = years;
    mo->life_m = clamp_pos(12 * years);
    mo->fac_m = clamp_pos(12 * fac_years);

    /* What is left at the end of the IT life: the resale value of the IT
     * (Epoch: value decays ~32%/yr, 0.68^5 = 0.145 after 5 years) and the
     * unpaid part of the hall (the balance of its level payments). */
    res_it = clamp_pos(sc->finance.residual_frac) * mo->capex_it;
    if (res_it > mo->capex_it)
        res_it = mo->capex_it;
    res_fac = mo->fac_m > mo->life_m
                  ? clamp_pos(mo->capex_fac *
                              annuity(mo->im, mo->fac_m - mo->life_m) /
                              annuity(mo->im, mo->fac_m))
                  : 0;
    mo->res_it = res_it;
    b->residual_usd = clamp_pos(res_it + res_fac);
    mo->net_capital = clamp_pos(b->capex_usd -
                                b->residual_usd * discount(mo->im, mo->life_m));
    /* Level monthly payments repay the IT net of its discounted resale
     * value over its life and the hall over its own. */
    mo->capital_m =
        clamp_pos((mo->capex_it - res_it * discount(mo->im, mo->life_m)) *
                      cost_crf(mo->im, mo->life_m) +
                  mo->capex_fac * cost_crf(mo->im, mo->fac_m));
    b->annual_capital_usd = clamp_pos(12 * mo->capital_m);
}

/* The running costs of owning: electricity (linear in utilization) and
 * the OpEx lines that do not scale with use. */
static void build_opex(const struct scenario *sc, const struct result *r,
                       double pue, double plate_kw, struct money *mo,
                       struct build_cost *b)
{
    double busy_kw, idle_kw;

    /* Electricity: facility power busy for u of the hours, idle the rest
     * (PUE applies to both). */
    busy_kw = clamp_pos(r->energy.facility_kw);
    idle_kw = clamp_pos(r->energy.idle_it_kw * pue);
    if (idle_kw > busy_kw)
        idle_kw = busy_kw;
    mo->elec0 = idle_kw * COST_HOURS_PER_YEAR * clamp_pos(sc->site.usd_per_kwh);
    mo->elec1 = (busy_kw - idle_kw) * COST_HOURS_PER_YEAR *
                clamp_pos(sc->site.usd_per_kwh);
    b->electricity_usd_per_year = clamp_pos(mo->elec0 + mo->elec1 * mo->u);

    /* OpEx lines that do not scale with use. */
    b->maintenance_usd_per_year =
        clamp_pos(sc->finance.maintenance_frac * mo->capex_it);
    b->support_usd_per_year = clamp_pos(
        sc->finance.support_frac * (b->capex_nodes_usd + b->capex_spares_usd));
    b->insurance_usd_per_year =
        clamp_pos(sc->finance.insurance_frac * b->capex_usd);
    b->staff_usd_per_year =
        clamp_pos(sc->finance.staff_usd_per_mw_year * plate_kw / 1000);
    b->software_usd_per_year =
        clamp_pos(sc->finance.software_usd_per_gpu_year * mo->gpus);
    mo->other_year =
        clamp_pos(b->maintenance_usd_per_year + b->support_usd_per_year +
                  b->insurance_usd_per_year + b->staff_usd_per_year +
                  b->software_usd_per_year + b->colocation_usd_per_year);
    b->opex_usd_per_year =
        clamp_pos(b->electricity_usd_per_year + mo->other_year);
}

static void build_side(const struct scenario *sc, const struct result *r,
                       struct money *mo, struct build_cost *b,
                       unsigned *unpriced)
{
    double gpn =
        sc->system.gpus_per_node >= 1 ? (double)sc->system.gpus_per_node : 1;
    double nodes =
        r->network.nodes >= 1 ? (double)r->network.nodes : ceil(mo->gpus / gpn);
    double plate_kw = r->energy.nameplate_it_kw > 0 ? r->energy.nameplate_it_kw
                                                    : r->energy.it_kw;
    double pue = r->energy.pue > 0 ? r->energy.pue : sc->site.pue;
    double tb = storage_provisioned_tb(sc, r);
    double spares = 0;
    /* Hardware is bought in whole units: a server, or a whole NVL72 rack
     * where the system is sold by the rack (system.unit_gpus). */
    double unit =
        sc->system.unit_gpus >= 1 ? (double)sc->system.unit_gpus : gpn;
    double units = ceil(mo->gpus / unit - 1e-9);

    if (units < 1)
        units = 1;
    if (ceil(units * unit / gpn) > nodes)
        nodes = ceil(units * unit / gpn);
    b->units = units < 1e18 ? (uint64_t)units : (uint64_t)1e18;
    b->unit_gpus = (uint64_t)unit;
    if (sc->system.sale == SALE_RENT)
        *unpriced |= COST_UNPRICED_UNSOLD;
    plate_kw = clamp_pos(plate_kw);
    /* Spare nodes are bought with the cluster (reference 7.2: keep 5-10%
     * spare nodes; NCSA Delta ~5% overprovisioning). */
    if (sc->finance.spares_frac > 0)
        spares = floor(nodes * sc->finance.spares_frac + 0.5);
    b->capex_nodes_usd = clamp_pos(nodes * sc->system.node_price_usd);
    b->capex_spares_usd = clamp_pos(spares * sc->system.node_price_usd);
    b->capex_network_usd = clamp_pos(r->network.capex_usd);
    b->capex_storage_usd = clamp_pos(tb * sc->storage.usd_per_tb);
    /* Rent the hall (colocation is leased per kW of critical capacity,
     * CBRE H2 2024) or build it (Cushman & Wakefield 2025, per MW of
     * critical IT load): either way for the nameplate draw. */
    if (sc->site.colo_usd_per_kw_month > 0) {
        b->capex_facility_usd = 0;
        b->colocation_usd_per_year =
            clamp_pos(sc->site.colo_usd_per_kw_month * plate_kw * 12);
    } else {
        b->capex_facility_usd =
            clamp_pos(sc->site.build_usd_per_mw * plate_kw / 1000);
        b->colocation_usd_per_year = 0;
    }
    if (r->energy.cooling == COOLING_REAR_DOOR)
        b->capex_cooling_usd =
            clamp_pos(sc->site.rear_door_usd_per_kw * plate_kw);
    else if (r->energy.cooling == COOLING_LIQUID)
        b->capex_cooling_usd = clamp_pos(sc->site.liquid_usd_per_kw * plate_kw);
    else
        b->capex_cooling_usd = 0;

    if (!(sc->system.node_price_usd > 0))
        *unpriced |= COST_UNPRICED_NODES;
    if (r->network.tiers > 0 && !(r->network.capex_usd > 0))
        *unpriced |= COST_UNPRICED_NETWORK;
    if (tb > 0 && !(sc->storage.usd_per_tb > 0))
        *unpriced |= COST_UNPRICED_STORAGE;
    if (!(sc->site.colo_usd_per_kw_month > 0) &&
        !(sc->site.build_usd_per_mw > 0))
        *unpriced |= COST_UNPRICED_FACILITY;

    mo->capex_it = clamp_pos(b->capex_nodes_usd + b->capex_spares_usd +
                             b->capex_network_usd + b->capex_storage_usd);
    mo->capex_fac = clamp_pos(b->capex_facility_usd + b->capex_cooling_usd);
    b->capex_usd = clamp_pos(mo->capex_it + mo->capex_fac);
    /* Owning commits all of it before the first step. */
    b->cash_usd = b->capex_usd;

    build_capital(sc, mo, b);
    build_opex(sc, r, pue, plate_kw, mo, b);

    mo->b0 = clamp_pos(mo->capital_m + (mo->other_year + mo->elec0) / 12);
    mo->b1 = clamp_pos(mo->elec1 / 12);
    /* Every busy GPU-hour carries the month's capital and operating cost
     * (models.md 7). */
    b->usd_per_gpu_hour = clamp_pos(12 * (mo->b0 + mo->b1 * mo->u) /
                                    (mo->gpus * COST_HOURS_PER_YEAR * mo->u));
    b->npv_usd =
        clamp_pos((mo->b0 + mo->b1 * mo->u) * annuity(mo->im, mo->life_m));
}

static void cloud_side(const struct scenario *sc, struct result *r,
                       struct money *mo, struct cloud_cost *cl)
{
    double gpi = sc->cloud.gpus_per_instance >= 1
                     ? (double)sc->cloud.gpus_per_instance
                     : 1;
    double billed = ceil(mo->gpus / gpi) * gpi;
    double c = clamp_pos(sc->cloud_usd_per_gpu_hour);
    double term_h = cost_term_hours(sc->cloud_term);
    double own = r->load.goodput;
    double ratio = 1, hours, terms, mtbi;

    if (!(own > 0) || own > 1)
        own = 1;
    snprintf(cl->offer, sizeof(cl->offer), "%s", sc->cloud.id);
    cl->term = sc->cloud_term;
    cl->usd_per_gpu_hour = c;
    cl->billed_gpus = billed < 1e18 ? (uint64_t)billed : (uint64_t)1e18;
    cl->instances =
        billed / gpi < 1e18 ? (uint64_t)(billed / gpi) : (uint64_t)1e18;
    cl->capacity_gpus = sc->cloud.capacity_gpus;
    cl->goodput = own;
    cl->never = r->reliability.never;
    /* Spot capacity is reclaimed: each preemption is an interruption
     * like a node failure (lost work since the checkpoint + restart), so
     * the same work needs own / spot goodput more hours. */
    if (sc->cloud_term == TERM_SPOT) {
        mtbi = sc->cloud.spot_mtbi_h > 0 ? sc->cloud.spot_mtbi_h
                                         : COST_SPOT_MTBI_H;
        cl->goodput = reliability_goodput_with(sc, r, billed / gpi / mtbi);
        cl->never =
            cl->never || reliability_never_with(sc, r, billed / gpi / mtbi);
        if (!(cl->goodput > 0) || cl->goodput > own)
            cl->goodput = own;
        ratio = own / cl->goodput;
    }
    if (term_h > 0) {
        /* A reservation is a contract: every hour of the term is paid. */
        mo->c0 = clamp_pos(billed * COST_HOURS_PER_MONTH * c);
        mo->c1 = 0;
        cl->commitment_usd = clamp_pos(billed * term_h * c);
    } else {
        mo->c0 = 0;
        mo->c1 = clamp_pos(billed * COST_HOURS_PER_MONTH * c * ratio);
        cl->commitment_usd = 0;
    }
    cl->usd_per_year = clamp_pos(12 * (mo->c0 + mo->c1 * mo->u));
    cl->usd_per_used_gpu_hour =
        clamp_pos(cl->usd_per_year / (mo->gpus * COST_HOURS_PER_YEAR * mo->u));
    cl->npv_usd =
        clamp_pos((mo->c0 + mo->c1 * mo->u) * annuity(mo->im, mo->life_m));

    /* The run: billed instance-hours, failures (and preemptions)
     * included; a reserved run pays every term it starts.  DeepSeek-V3
     * (2024) costs its run the same way: 2.788M GPU-hours x $2. */
    hours = clamp_pos(r->load.busy_gpu_hours * own / cl->goodput / mo->gpus);
    if (term_h > 0) {
        terms = hours > 0 ? ceil(hours / term_h - 1e-9) : 0;
        if (hours > 0 && terms < 1)
            terms = 1;
        /* The cash is every term started, in full; the run's cost is
         * its share of them at the plan's utilization, as for owned
         * hardware: the rest of the term is reused. */
        cl->cash_usd = clamp_pos(terms * cl->commitment_usd);
        cl->run_usd = clamp_pos(billed * hours * c / mo->u);
        if (cl->run_usd > cl->cash_usd)
            cl->run_usd = cl->cash_usd;
    } else {
        cl->run_usd = clamp_pos(billed * hours * c);
        cl->cash_usd = cl->run_usd;
    }
    if (sc->cloud.capacity_gpus > 0 && billed > (double)sc->cloud.capacity_gpus)
        result_warn(r,
                    "cloud offer '%s' supplies at most %llu GPUs; the job "
                    "needs %.0f",
                    sc->cloud.id, (unsigned long long)sc->cloud.capacity_gpus,
                    billed);
}

/* Append "; " and a formatted reason to buf. */
static void add_reason(char *buf, size_t n, const char *what, const char *why)
{
    size_t len = strlen(buf);

    if (len + 1 >= n)
        return;
    snprintf(buf + len, n - len, "%s%s: %s", len ? "; " : "", what, why);
}

/* Break-even utilization u*: owning and renting cost the same per month
 * (and so over the life). */
static void breakeven_util(const struct money *mo, struct cost_result *cr)
{
    double d0 = mo->b0 - mo->c0, d1 = mo->b1 - mo->c1, u;

    if (d1 != 0) {
        u = -d0 / d1;
        if (u > 0 && u <= 1) {
            cr->breakeven_utilization = u;
            cr->breakeven_utilization_known = true;
            return;
        }
    }
    if (d0 + d1 >= 0 && d0 >= 0)
        add_reason(cr->breakeven_reason, sizeof(cr->breakeven_reason),
                   "utilization", "the cloud is cheaper at any utilization");
    else
        add_reason(cr->breakeven_reason, sizeof(cr->breakeven_reason),
                   "utilization", "owning is cheaper at any utilization");
}

/* Discounted payback: the first month at which the discounted cumulative
 * cash of building (CapEx at month 0, then OpEx) falls to renting's (the
 * cloud bill), the columns build_npv_usd and cloud_npv_usd of the
 * schedule.  The IT resale value is cash received at the end of the IT
 * life, so it can only close the gap at that month; the hall's remaining
 * value is never sold and never counts. */
static void payback(const struct money *mo, struct cost_result *cr)
{
    double opex_m = mo->b0 - mo->capital_m + mo->b1 * mo->u;
    double s = mo->c0 + mo->c1 * mo->u - opex_m;
    double k = cr->build.capex_usd, x, m, at_life;
    char why[RESULT_REASON_MAX];

    if (!(k > 0)) {
        cr->breakeven_months = 0;
        cr->breakeven_months_known = true;
        return;
    }
    if (!(s > 0)) {
        snprintf(why, sizeof(why),
                 "running costs %.0f USD a month, the cloud %.0f", opex_m,
                 mo->c0 + mo->c1 * mo->u);
        add_reason(cr->breakeven_reason, sizeof(cr->breakeven_reason),
                   "payback", why);
        return;
    }
    /* Before the resale: s a(m) = k with a(m) = (1 - (1+i)^-m) / i. */
    x = k * mo->im / s;
    m = -1;
    if (x < 1)
        m = mo->im > 1e-15 ? -log1p(-x) / log1p(mo->im) : k / s;
    if (m >= 0 && m <= mo->life_m * (1 + 1e-12)) {
        cr->breakeven_months = clamp_pos(m);
        cr->breakeven_months_known = true;
        return;
    }
    /* At the end of the life the resale comes in. */
    at_life = s * annuity(mo->im, mo->life_m) +
              mo->res_it * discount(mo->im, mo->life_m);
    if (at_life >= k * (1 - 1e-12)) {
        cr->breakeven_months = clamp_pos(mo->life_m);
        cr->breakeven_months_known = true;
        return;
    }
    snprintf(why, sizeof(why),
             "never within the %.0f-month life (the discounted saving "
             "and resale repay %.0f of %.0f USD)",
             mo->life_m, at_life, k);
    add_reason(cr->breakeven_reason, sizeof(cr->breakeven_reason), "payback",
               why);
}

/* Year-by-year cash over the IT life (year 0: the purchase). */
static void schedule(const struct money *mo, struct cost_result *cr)
{
    const struct build_cost *b = &cr->build;
    double years = mo->life_m / 12;
    double fac_years = mo->fac_m / 12;
    double ny = ceil(years - 1e-9), y, start, end, frac, a0, a1;
    double opex_m = mo->b0 - mo->capital_m + mo->b1 * mo->u;
    double cloud_m = mo->c0 + mo->c1 * mo->u;
    double burst_m = mo->burst_m;
    struct cost_year *row = cr->schedule;
    uint64_t k;

    if (ny > RESULT_YEARS_MAX - 1)
        ny = RESULT_YEARS_MAX - 1;
    if (ny < 1)
        ny = 1;
    row[0].capex_usd = b->capex_usd;
    row[0].build_usd = b->capex_usd;
    row[0].build_cumulative_usd = b->capex_usd;
    row[0].build_npv_usd = b->capex_usd;
    for (k = 1; k <= (uint64_t)ny; k++) {
        y = (double)k;
        start = 12 * (y - 1);
        end = 12 * y < mo->life_m ? 12 * y : mo->life_m;
        frac = end > start ? (end - start) / 12 : 0;
        a0 = annuity(mo->im, start);
        a1 = annuity(mo->im, end);
        /* Straight-line book depreciation: IT to its resale value over
         * its life, the hall to zero over its own. */
        row[k].depreciation_usd =
            clamp_pos((mo->capex_it - mo->res_it) / years * frac +
                      mo->capex_fac / fac_years * frac);
        row[k].energy_usd = clamp_pos((mo->elec0 + mo->elec1 * mo->u) * frac);
        row[k].other_opex_usd = clamp_pos(mo->other_year * frac);
        /* A hybrid rents the demand above its owned base either way:
         * the burst bill is in both columns. */
        row[k].burst_usd = clamp_pos(12 * burst_m * frac);
        row[k].cloud_usd = clamp_pos(12 * cloud_m * frac) + row[k].burst_usd;
        row[k].build_usd =
            row[k].energy_usd + row[k].other_opex_usd + row[k].burst_usd;
        row[k].build_npv_usd = row[k - 1].build_npv_usd +
                               clamp_pos((opex_m + burst_m) * (a1 - a0));
        row[k].cloud_npv_usd = row[k - 1].cloud_npv_usd +
                               clamp_pos((cloud_m + burst_m) * (a1 - a0));
        if (end >= mo->life_m) {
            /* The IT is sold at the end of its life; the hall is kept
             * (its remaining value is no cash). */
            row[k].residual_usd = mo->res_it;
            row[k].build_usd -= mo->res_it;
            row[k].build_npv_usd -= mo->res_it * discount(mo->im, mo->life_m);
        }
        row[k].build_cumulative_usd =
            row[k - 1].build_cumulative_usd + row[k].build_usd;
        row[k].cloud_cumulative_usd =
            row[k - 1].cloud_cumulative_usd + row[k].cloud_usd;
    }
    cr->schedule_years = (uint64_t)ny + 1;
}

/* Warnings naming every price that is missing. */
static void warn_unpriced(const struct scenario *sc, struct result *r)
{
    unsigned u = r->cost.unpriced;

    if (u & COST_UNPRICED_NODES)
        result_warn(r, "system '%s' has no price: build cost not computed",
                    sc->system.id);
    if (u & COST_UNPRICED_NETWORK)
        result_warn(r,
                    "fabric '%s' has no switch, NIC or cable prices: build "
                    "cost not computed",
                    sc->fabric.id);
    if (u & COST_UNPRICED_STORAGE)
        result_warn(r, "storage '%s' has no price: build cost not computed",
                    sc->storage.id);
    if (u & COST_UNPRICED_FACILITY)
        result_warn(r,
                    "site '%s' has no colocation or build price: build "
                    "cost not computed",
                    sc->site.id);
    if (u & COST_UNPRICED_UNSOLD)
        result_warn(r, "system '%s' is not sold (sale = rent): no build side",
                    sc->system.id);
    if (u & COST_UNPRICED_CLOUD)
        result_warn(r, "no cloud price for the term; build vs cloud not "
                       "compared");
}

void cost_estimate(const struct scenario *sc, struct result *r)
{
    struct cost_result *cr = &r->cost;
    struct build_cost *b = &cr->build;
    struct cloud_cost *cl = &cr->cloud;
    struct money mo;
    double eff_gpu_h, tokens, build_month, cloud_month;
    uint64_t m;

    memset(cr, 0, sizeof(*cr));
    memset(&mo, 0, sizeof(mo));
    /* A workload that knows how busy its fleet is (serving's daily
     * profile) sets the utilization; otherwise the plan's. */
    mo.u = r->load.busy_frac > 0 ? r->load.busy_frac : sc->finance.utilization;
    if (!(mo.u >= COST_MIN_UTILIZATION))
        mo.u = COST_MIN_UTILIZATION;
    if (mo.u > 1)
        mo.u = 1;
    mo.gpus = r->load.gpus >= 1 ? r->load.gpus : 1;
    mo.im = cost_monthly_rate(sc->finance.cost_of_capital);
    build_side(sc, r, &mo, b, &cr->unpriced);
    cloud_side(sc, r, &mo, cl);
    if (!(sc->cloud_usd_per_gpu_hour > 0))
        cr->unpriced |= COST_UNPRICED_CLOUD;
    cr->horizon_months = mo.life_m;

    /* Both sides pay for the busy hours of the load, failures included
     * (reliability.h). */
    eff_gpu_h = clamp_pos(r->load.busy_gpu_hours);
    tokens = r->load.tokens;
    b->run_usd = clamp_pos(b->usd_per_gpu_hour * eff_gpu_h);
    b->usd_per_mtok = tokens > 0 ? clamp_pos(b->run_usd / tokens * 1e6) : 0;
    cl->usd_per_mtok = tokens > 0 ? clamp_pos(cl->run_usd / tokens * 1e6) : 0;

    /* Cumulative cash, month by month, for the same work at utilization
     * u: CapEx up front then OpEx, against the cloud bill. */
    /* The burst above a hybrid's owned base, billed by the hour at the
     * offer's rate (wall_h: the period the load's hours are for). */
    if (r->load.burst_gpu_hours > 0 && r->load.wall_h > 0)
        mo.burst_m = clamp_pos(r->load.burst_gpu_hours / r->load.wall_h *
                               COST_HOURS_PER_MONTH *
                               clamp_pos(sc->cloud_usd_per_gpu_hour));
    build_month = clamp_pos(b->opex_usd_per_year / 12 + mo.burst_m);
    cloud_month = clamp_pos(mo.c0 + mo.c1 * mo.u + mo.burst_m);
    cr->series_months = RESULT_SERIES_MAX;
    for (m = 0; m < RESULT_SERIES_MAX; m++) {
        /* The IT resale is received at the end of its life, as in the
         * schedule. */
        double sold = (double)m >= mo.life_m - 1e-9 ? mo.res_it : 0;

        cr->series_build_usd[m] =
            clamp_pos(b->capex_usd + (double)m * build_month - sold);
        cr->series_cloud_usd[m] = clamp_pos((double)m * cloud_month);
    }
    schedule(&mo, cr);

    warn_unpriced(sc, r);
    if ((cr->unpriced & COST_UNPRICED_UNSOLD) &&
        !(cr->unpriced & COST_UNPRICED_CLOUD)) {
        /* What cannot be bought can only be rented. */
        cr->verdict = VERDICT_CLOUD;
        snprintf(cr->breakeven_reason, sizeof(cr->breakeven_reason),
                 "system '%s' is not sold: rent only", sc->system.id);
        return;
    }
    if (cr->unpriced) {
        /* A missing price is no verdict. */
        cr->verdict = VERDICT_NONE;
        snprintf(cr->breakeven_reason, sizeof(cr->breakeven_reason), "%s",
                 cr->unpriced & COST_UNPRICED_CLOUD
                     ? "no cloud price to compare with"
                     : "the build has a missing price");
        return;
    }
    cr->verdict = b->usd_per_gpu_hour < cl->usd_per_used_gpu_hour
                      ? VERDICT_BUILD
                      : VERDICT_CLOUD;
    cr->build_cheaper = cr->verdict == VERDICT_BUILD;
    payback(&mo, cr);
    breakeven_util(&mo, cr);
    if (!cr->breakeven_months_known && !cr->breakeven_utilization_known)
        result_warn(r, "no break-even: %s", cr->breakeven_reason);
    else if (!cr->breakeven_months_known)
        result_warn(r, "no payback: %s", cr->breakeven_reason);
    else if (!cr->breakeven_utilization_known)
        result_warn(r, "no break-even utilization: %s",
                    cr->breakeven_reason + strlen("utilization: "));
}
