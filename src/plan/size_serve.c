/*
 * size_serve.c - `llmplan size` for a serving plan: for every system of
 * the catalog (or --accel), the fleets that meet the plan's TTFT and TPOT
 * targets at the peak, owned, rented on every offer and term, or hybrid,
 * and the Pareto frontier of latency x cost a day x energy per token.
 * See size.h.
 *
 * Nothing here models serving: the fleet for the peak, its latency, its
 * energy and its money are serve.c's (scenario_eval with hardware.gpus =
 * auto), and the layouts (tp x pp x the engine's batch cap) are the
 * serving layout search's (plan_search).  Each layout that meets the
 * targets is one fleet; each fleet is priced
 *   - owned: serve.usd_per_day_build (the system's node price),
 *   - rented: serve.usd_per_day_cloud on every offer and term of the
 *     accelerator (on demand and spot follow the daily profile, reserved
 *     terms pay for the fleet all day),
 *   - hybrid, for on-demand and spot offers when serve.peak_to_avg > 1:
 *     an owned base sized for the average load (the fleet's busy GPUs at
 *     the peak over peak_to_avg, rounded up to whole replicas), the hours
 *     above it burst to the offer: serve.usd_per_day_hybrid.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/serve.h"
#include "plan/resolve.h"
#include "plan/serve_errors.h"
#include "plan/size_int.h"
#include "util/xalloc.h"

/* The measured relative error of a serving engine's throughput on rows it
 * was never fitted to, written by `make validate` (README "Serving", "Held
 * out": tests/data/serving_published.csv); the fitted rows would
 * understate it.  An engine without held-out rows (vLLM, SGLang,
 * FasterTransformer today) takes the figure over all of them.  The fleet
 * for a demand, and so its cost and energy, scale with 1 over the
 * throughput. */
static const struct size_error_row serve_errors[] = {SIZE_SERVE_ERRORS};

double size_serve_error(const char *stack_id)
{
    return size_error_of(serve_errors,
                         sizeof(serve_errors) / sizeof(serve_errors[0]),
                         stack_id, SIZE_SERVE_ERROR);
}

struct s_offer {
    struct cloud_offer row;
    enum cloud_term term;
    double price;
};

/* One system: resolved serially (the catalog), searched and priced on a
 * worker thread (pure), its points merged in order. */
struct s_sys {
    struct plan_resolved res;
    struct s_offer *offers;
    size_t noffers;
    bool own_priced;
    double err;
    /* the worker's answer */
    struct size_point *pts;
    size_t n;
    uint64_t layouts;
    bool no_layout;
    bool cut; /* more replicas met the targets than the search keeps */
};

struct s_state {
    const struct size_opts *o;
    struct s_sys *sys;
    size_t nsys;
};

static enum size_why judge(const struct size_opts *o,
                           const struct size_point *p)
{
    if (o->gpus_max > 0 && p->gpus > o->gpus_max)
        return SIZE_OVER_GPUS;
    return size_judge_limits(o, p->rented, p->facility_mw, p->rack_kw, p->cash,
                             p->usd_day);
}

/* Why a layout that serve.c could not make meet the plan fails: memory
 * (weights and one request's KV), else the target serve.c named. */
static enum size_why miss_of(const struct result *r, const struct scenario *sc)
{
    const struct serve_result *s = &r->serve;

    if (!r->memory.fits)
        return SIZE_NO_FIT;
    if (s->miss == SERVE_MISS_TTFT)
        return SIZE_MISSES_TTFT;
    if (s->miss == SERVE_MISS_TPOT)
        return SIZE_MISSES_TPOT;
    if (sc->serve.ttft_ms > 0 &&
        serve_ttft_at_ms(s, sc->serve.percentile) > sc->serve.ttft_ms)
        return SIZE_MISSES_TTFT;
    return SIZE_MISSES_TPOT;
}

/* Owned (or a hybrid's base): whole purchasable units. */
static void owned_units(struct size_point *p, const struct result *r)
{
    p->units = r->cost.build.units;
    p->unit_gpus = r->cost.build.unit_gpus;
}

/* Rented: whole instances of the offer, and its capacity. */
static void rented_units(struct size_point *p, const struct result *r,
                         const struct cloud_offer *of)
{
    p->units = (uint64_t)(r->serve.instances + 0.5);
    p->unit_gpus = of->gpus_per_instance ? of->gpus_per_instance : 1;
    p->capacity_gpus = of->capacity_gpus;
}

/* The GPUs an option buys, as training's size counts them: whole units
 * owned (servers, NVL72 racks) or whole instances rented, never fewer
 * than the fleet's; a hybrid, its owned base and the burst at the peak
 * in whole instances of gpi. */
static uint64_t bought_gpus(const struct size_point *p, uint64_t gpi)
{
    uint64_t fleet = p->fleet_gpus, whole = p->units * p->unit_gpus, burst;

    if (p->hybrid) {
        burst = fleet > p->owned_gpus ? fleet - p->owned_gpus : 0;
        gpi = gpi ? gpi : 1;
        return p->owned_gpus + (burst + gpi - 1) / gpi * gpi;
    }
    return whole > fleet ? whole : fleet;
}

/* The figures every option of one evaluated fleet shares. */
static void fill_fleet(struct size_point *p, const struct scenario *sc,
                       const struct result *r, double err)
{
    const struct serve_result *s = &r->serve;
    double tokens_day = r->load.tokens;

    p->gpus = p->fleet_gpus = (uint64_t)(s->gpus + 0.5);
    p->layout = sc->layout;
    p->max_batch = sc->serve.max_batch;
    memset(&p->prefill, 0, sizeof(p->prefill));
    memset(&p->decode, 0, sizeof(p->decode));
    if (s->disaggregated && sc->serve.prefill.ep && sc->serve.decode.ep) {
        p->prefill = sc->serve.prefill;
        p->decode = sc->serve.decode;
        p->prefill.gpus = (uint64_t)(s->prefill_gpus + 0.5);
        p->decode.gpus = (uint64_t)(s->decode_gpus + 0.5);
    }
    p->replicas = s->replicas;
    p->utilization = s->utilization;
    /* at the statistic the targets hold at */
    p->ttft_ms = serve_ttft_at_ms(s, sc->serve.percentile);
    p->tpot_ms = serve_tpot_at_ms(s, sc->serve.percentile);
    p->e2e_s = s->e2e_s;
    p->wh_mtok = s->wh_per_mtok;
    p->facility_mw = r->energy.nameplate_it_kw * r->energy.pue / 1000;
    p->rack_kw = r->energy.rack_kw;
    p->usd_mtok = tokens_day > 0 ? p->usd_day / tokens_day * 1e6 : 0;
    p->err = err;
    p->usd_day_lo = p->usd_day * (1 - err);
    p->usd_day_hi = p->usd_day * (1 + err);
    p->wh_mtok_lo = p->wh_mtok * (1 - err);
    p->wh_mtok_hi = p->wh_mtok * (1 + err);
    p->overlaps = -1;
    p->full = true;
}

static struct size_point *add(struct s_sys *sy, size_t cap,
                              const struct size_point *base)
{
    struct size_point *p;

    if (sy->n >= cap)
        return NULL;
    p = &sy->pts[sy->n++];
    *p = *base;
    return p;
}

/* Owned, every offer, and hybrid for one layout hit. */
/* A fleet over --gpus-max is out however it is bought: one option says
 * so (owned, or rented when the system has no node price). */
static void price_over_gpus(struct s_sys *sy, size_t cap, struct scenario *sc,
                            struct result *r, const struct size_point *base)
{
    bool own = sy->own_priced && !(r->cost.unpriced & COST_UNPRICED_BUILD);
    struct size_point *p;

    if (!own && !sy->noffers)
        return;
    p = add(sy, cap, base);
    if (!p)
        return;
    if (!own) {
        sc->cloud = sy->offers[0].row;
        sc->cloud_term = sy->offers[0].term;
        sc->cloud_usd_per_gpu_hour = sy->offers[0].price;
        scenario_eval_flags(sc, EVAL_QUIET, r);
        p->rented = true;
        snprintf(p->offer, CP_ID_MAX, "%s", sy->offers[0].row.id);
        p->term = sy->offers[0].term;
    }
    p->usd_day = own ? r->serve.usd_per_day_build : r->serve.usd_per_day_cloud;
    p->cash = own ? r->serve.cash_usd_build : r->serve.cash_usd_cloud;
    if (own)
        owned_units(p, r);
    else
        rented_units(p, r, &sc->cloud);
    fill_fleet(p, sc, r, sy->err);
    p->gpus = bought_gpus(p, 0);
    p->why = SIZE_OVER_GPUS;
}

/* Hybrid: an owned base for the average load, the rest of the rented
 * fleet of gpus (replicas of gpr) burst on offer of; false when the
 * option list is full. */
static bool price_hybrid(const struct s_state *st, struct s_sys *sy, size_t cap,
                         const struct s_offer *of, uint64_t gpus, uint64_t gpr,
                         struct scenario *sc, struct result *r,
                         const struct size_point *base)
{
    bool elastic = of->term == TERM_ON_DEMAND || of->term == TERM_SPOT;
    uint64_t owned, gpi;
    struct size_point *p;

    if (!elastic || !sy->own_priced)
        return true;
    /* bought in whole units (servers, racks); 0: no peak, no base */
    owned =
        (uint64_t)serve_hybrid_base_gpus(&sc->serve, &r->serve, (double)gpr,
                                         (double)size_unit_gpus(&sc->system));
    if (!owned)
        return true;
    if (owned >= gpus)
        return true; /* the base is the whole fleet: that is owning */
    sc->serve.owned_gpus = owned;
    scenario_eval_flags(sc, EVAL_QUIET, r);
    sc->serve.owned_gpus = 0;
    if (r->cost.unpriced & COST_UNPRICED_BUILD)
        return true;
    p = add(sy, cap, base);
    if (!p)
        return false;
    p->hybrid = true;
    p->owned_gpus = owned;
    snprintf(p->offer, CP_ID_MAX, "%s", of->row.id);
    p->term = of->term;
    p->usd_day = r->serve.usd_per_day_hybrid;
    p->cash = r->serve.cash_usd_hybrid;
    owned_units(p, r);
    p->capacity_gpus = of->row.capacity_gpus;
    fill_fleet(p, sc, r, sy->err);
    /* the burst at the peak, in whole instances */
    gpi = of->row.gpus_per_instance ? of->row.gpus_per_instance : 1;
    p->gpus = bought_gpus(p, gpi);
    p->why = judge(st->o, p);
    if (p->why == SIZE_OK && of->row.capacity_gpus > 0 &&
        (gpus - owned + gpi - 1) / gpi * gpi > of->row.capacity_gpus)
        p->why = SIZE_CAPACITY;
    return true;
}

static void price_hit(const struct s_state *st, struct s_sys *sy, size_t cap,
                      const struct search_hit *h, struct scenario *sc,
                      struct result *r, const struct size_point *base)
{
    const struct plan_resolved *res = &sy->res;
    struct size_point *p;
    size_t i;

    *sc = res->sc;
    sc->layout = h->layout;
    sc->train.attention = h->attention;
    sc->serve.max_batch = h->max_batch;
    sc->serve.owned_gpus = 0;
    if (h->prefill.ep) {
        sc->serve.disaggregated = DISAGG_YES;
        sc->serve.prefill = h->prefill;
        sc->serve.decode = h->decode;
    }
    if (sc->serve.gpus_auto)
        sc->gpus = h->layout.tp * h->layout.pp;
    scenario_eval_flags(sc, EVAL_QUIET, r);
    if (!r->serve.fits)
        return; /* the search keeps only fleets that meet the targets */
    /* A fleet over --gpus-max is out however it is bought: one option
     * says so (owned, or rented when the system has no node price). */
    if (st->o->gpus_max > 0 && r->serve.gpus > (double)st->o->gpus_max) {
        price_over_gpus(sy, cap, sc, r, base);
        return;
    }
    if (sy->own_priced && !(r->cost.unpriced & COST_UNPRICED_BUILD)) {
        p = add(sy, cap, base);
        if (!p)
            return;
        p->usd_day = r->serve.usd_per_day_build;
        p->cash = r->serve.cash_usd_build;
        owned_units(p, r);
        fill_fleet(p, sc, r, sy->err);
        p->gpus = bought_gpus(p, 0);
        p->why = judge(st->o, p);
    }
    for (i = 0; i < sy->noffers; i++) {
        const struct s_offer *of = &sy->offers[i];
        uint64_t gpus, gpr = h->layout.tp * h->layout.pp;

        sc->cloud = of->row;
        sc->cloud_term = of->term;
        sc->cloud_usd_per_gpu_hour = of->price;
        sc->serve.owned_gpus = 0;
        scenario_eval_flags(sc, EVAL_QUIET, r);
        p = add(sy, cap, base);
        if (!p)
            return;
        p->rented = true;
        snprintf(p->offer, CP_ID_MAX, "%s", of->row.id);
        p->term = of->term;
        p->usd_day = r->serve.usd_per_day_cloud;
        p->cash = r->serve.cash_usd_cloud;
        rented_units(p, r, &of->row);
        fill_fleet(p, sc, r, sy->err);
        gpus = p->fleet_gpus; /* for the hybrid's burst */
        p->gpus = bought_gpus(p, 0);
        p->why = judge(st->o, p);
        if (p->why == SIZE_OK && of->row.capacity_gpus > 0 &&
            p->units * p->unit_gpus > of->row.capacity_gpus)
            p->why = SIZE_CAPACITY;
        if (!price_hybrid(st, sy, cap, of, gpus, gpr, sc, r, base))
            return;
    }
}

/* The worker: one system's serving layout search and its options. */
static void serve_system(void *ctx, size_t i)
{
    const struct s_state *st = ctx;
    struct s_sys *sy = &st->sys[i];
    struct search_result *sr = xcalloc(1, sizeof(*sr));
    struct scenario *sc = xcalloc(1, sizeof(*sc));
    struct result *r = xcalloc(1, sizeof(*r));
    struct size_point base;
    struct diag d;
    size_t k, cap;

    memset(&base, 0, sizeof(base));
    snprintf(base.accel, CP_ID_MAX, "%s", sy->res.sc.accel.id);
    snprintf(base.system, CP_ID_MAX, "%s", sy->res.sc.system.id);
    snprintf(base.stack, CP_ID_MAX, "%s", sy->res.sc.stack.id);
    base.overlaps = -1;
    sy->res.space.serve_pools = true;
    if (plan_search(&sy->res.sc, &sy->res.space, OBJECTIVE_COST, SEARCH_TOP_MAX,
                    sr, NULL, NULL, NULL, &d) != CP_OK ||
        !sr->n) {
        sy->no_layout = true;
        goto out;
    }
    sy->layouts = sr->evaluated;
    sy->cut = sr->evaluated > sr->n;
    cap = sr->n * (1 + 2 * sy->noffers) + 1;
    sy->pts = xcalloc(cap, sizeof(*sy->pts));
    if (!sr->fits) {
        /* No layout meets memory and the targets: the least-memory one
         * says why (one excluded option for the system). */
        const struct search_hit *h = &sr->hits[0];
        struct size_point *p = add(sy, cap, &base);

        *sc = sy->res.sc;
        sc->layout = h->layout;
        sc->serve.max_batch = h->max_batch;
        if (sc->serve.gpus_auto)
            sc->gpus = h->layout.tp * h->layout.pp;
        scenario_eval_flags(sc, EVAL_QUIET, r);
        fill_fleet(p, sc, r, sy->err);
        p->why = miss_of(r, sc);
        if (p->why == SIZE_MISSES_TTFT)
            p->ttft_ms = r->serve.prefill_ms;
        else if (p->why == SIZE_MISSES_TPOT && r->serve.curve_n > 0 &&
                 r->serve.curve_user_tok_s[0] > 0)
            p->tpot_ms = 1e3 / r->serve.curve_user_tok_s[0];
        goto out;
    }
    for (k = 0; k < sr->n; k++)
        price_hit(st, sy, cap, &sr->hits[k], sc, r, &base);
out:
    free(r);
    free(sc);
    free(sr);
}

/* Resolve one system for a serving fleet sized to the peak (hardware.gpus
 * = auto) and its offers.  Not CP_OK: the resolver refused it. */
static enum cp_status setup(struct s_sys *sy, const struct plan *p,
                            struct catalog *cat, const struct size_rows *rw,
                            const struct size_sys_row *row, struct plan *tmp,
                            struct diag *d)
{
    size_t i;
    enum cp_status st;

    st = size_system_plan(p, row->accel, row->id, "auto", tmp, d);
    if (st)
        return st;
    /* the hybrid's owned base is the search's to choose */
    memset(&tmp->v[PK_SERVE_OWNED_GPUS], 0, sizeof(tmp->v[0]));
    st = plan_resolve(tmp, cat, 0, &sy->res, d);
    if (!st)
        st = plan_validate_inputs(&sy->res.sc, d);
    if (st)
        return st;
    sy->err = size_serve_error(sy->res.sc.stack.id);
    /* only what can be bought is owned (systems.sale) */
    sy->own_priced = sy->res.sc.system.node_price_usd > 0 &&
                     sy->res.sc.system.sale != SALE_RENT;
    sy->noffers = 0;
    sy->offers = xcalloc(size_offers_for(rw, sy->res.sc.accel.id) + 1,
                         sizeof(*sy->offers));
    for (i = 0; i < rw->noff; i++) {
        struct s_offer *of = &sy->offers[sy->noffers];

        if (strcmp(rw->off[i].accel, sy->res.sc.accel.id) != 0)
            continue;
        if (catalog_get_cloud(cat, rw->off[i].id, rw->off[i].term, &of->row,
                              NULL, NULL) != CP_OK)
            continue;
        of->term = rw->off[i].term;
        of->price = of->row.usd_per_gpu_hour[of->term];
        if (of->price > 0)
            sy->noffers++;
    }
    return CP_OK;
}

enum cp_status size_serve_run(const struct plan *p, struct catalog *cat,
                              const struct size_opts *opts,
                              struct size_result *out, struct diag *d)
{
    struct size_rows *rw = NULL;
    struct plan *tmp = NULL;
    struct s_state s;
    struct diag first, dd;
    enum cp_status st = CP_OK, first_st = CP_OK;
    const struct serve_spec *sv;
    size_t i, k;
    bool any = false;

    memset(&s, 0, sizeof(s));
    out->serve = true;
    if (opts->deadline_days > 0)
        return diag_set(d, CP_ERR_USAGE, "--deadline",
                        "a serving fleet has no run to finish; its limits "
                        "are serve.ttft_ms and serve.tpot_ms (and --budget, "
                        "USD a day)");
    rw = xcalloc(1, sizeof(*rw));
    tmp = xcalloc(1, sizeof(*tmp));
    diag_clear(&first);
    st = size_load_rows(cat, rw, d);
    if (!st)
        st = size_check_ids(opts, rw, d);
    if (st)
        goto done;
    s.o = &out->opts;
    s.sys = xcalloc(rw->nsys ? rw->nsys : 1, sizeof(*s.sys));
    for (i = 0; i < rw->nsys; i++) {
        struct s_sys *sy = &s.sys[s.nsys];

        if (!size_wanted(opts, &rw->sys[i]))
            continue;
        any = true;
        diag_clear(&dd);
        sy->offers = NULL;
        st = setup(sy, p, cat, rw, &rw->sys[i], tmp, &dd);
        if (st) {
            free(sy->offers);
            sy->offers = NULL;
            out->systems_refused++;
            if (!out->refused_why[0])
                snprintf(out->refused_why, sizeof(out->refused_why), "%s%s%s",
                         dd.where, dd.where[0] ? ": " : "", dd.msg);
            if (!first_st) {
                first = dd;
                first_st = st;
            }
            continue;
        }
        s.nsys++;
    }
    out->systems = s.nsys;
    st = size_check_systems(opts, any, s.nsys, &first, first_st, d);
    if (st)
        goto done;
    sv = &s.sys[0].res.sc.serve;
    /* (a plan without demand was refused by plan_validate_inputs: a fleet
     * sized to the peak needs one) */
    out->concurrency = sv->concurrency;
    out->ttft_ms = sv->ttft_ms;
    out->tpot_ms = sv->tpot_ms;
    out->percentile = sv->percentile;
    out->peak_to_avg = serve_peak_ratio(sv);
    out->demand_rps = serve_peak_demand_rps(sv);
    size_pool_run(s.nsys, serve_system, &s);
    /* merge in catalog order: the answer does not depend on the threads */
    for (i = 0; i < s.nsys; i++) {
        struct s_sys *sy = &s.sys[i];

        out->searches++;
        out->full_searches++;
        out->counts++;
        out->layouts += sy->layouts;
        out->layouts_cut += sy->cut;
        if (sy->no_layout)
            out->no_layout++;
        else if (!sy->n)
            out->no_price++;
        for (k = 0; k < sy->n; k++) {
            size_result_reserve(out, out->n + 1);
            out->pt[out->n++] = sy->pts[k];
        }
    }
    size_summarise(out);
    st = CP_OK;
done:
    for (i = 0; i < s.nsys; i++) {
        free(s.sys[i].pts);
        free(s.sys[i].offers);
    }
    free(s.sys);
    free(tmp);
    if (rw)
        size_rows_release(rw);
    free(rw);
    return st;
}
