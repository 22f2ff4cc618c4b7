/*
 * size.c - what to buy: accelerators x counts x owned/rented x layouts,
 * the Pareto frontier of time, cost and energy; see size.h.  The thread
 * pool is in size_pool.c, serving fleets in size_serve.c.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "plan/apply.h"
#include "plan/resolve.h"
#include "plan/size.h"
#include "plan/size_int.h"
#include "plan/stack_errors.h"
#include "util/xalloc.h"

/* Counts on one system's grid: two per doubling, so 64 covers any
 * --gpus-max up to 2^31 (the CLI allows 10M). */
#define COUNTS_MAX 64
/* A system is rack-scale (counts in whole scale-up domains, NVL72) when
 * its scale-up domain spans several nodes but no more than this. */
#define RACK_DOMAIN_MAX 128
/* How much faster than the screen's layout (microbatch 1, interleave 1,
 * powers of two or the most) the full search may find a count's best
 * layout.  Counts whose options, this much better, would reach the
 * frontier are searched in full.  Measured by searching every count of
 * the default catalog both ways (llama3-70b/15T, llama3-8b/300G,
 * llama3.1-405b/15T, mixtral-8x7b/1T, gpt3-175b/300G): the largest gain
 * was 18.2% (dgx-b300, 128 GPUs, llama3-8b: microbatch 2). */
#ifndef SIZE_SCREEN_GAP
#define SIZE_SCREEN_GAP 0.2
#endif

/* price_options: append the options rather than overwrite a count's. */
#define APPEND ((size_t)-1)

const char *size_why_name(enum size_why w)
{
    static const char *const names[SIZE_WHY_COUNT] = {
        [SIZE_OK] = "meets the constraints",
        [SIZE_TOO_SLOW] = "too slow",
        [SIZE_OVER_BUDGET] = "over budget",
        [SIZE_OVER_POWER] = "over power",
        [SIZE_NO_FIT] = "does not fit",
        [SIZE_CAPACITY] = "over the offer's capacity",
        [SIZE_NEVER] = "never finishes",
        [SIZE_MISSES_TTFT] = "misses TTFT",
        [SIZE_MISSES_TPOT] = "misses TPOT",
        [SIZE_OVER_GPUS] = "over --gpus-max",
    };

    return (unsigned)w < SIZE_WHY_COUNT ? names[w] : "?";
}

/* Leave-one-source-out error of the time metrics per stack, written by
 * `make validate` (README "Leave one source out"): each stack's published
 * runs predicted with knobs fitted without their source.  A stack without
 * published time measurements (deepspeed's only source checks memory, the
 * serving engines have no training runs) takes the overall figure. */
static const struct size_error_row stack_errors[] = {SIZE_STACK_ERRORS};

double size_error_of(const struct size_error_row *tab, size_t n,
                     const char *stack_id, double overall)
{
    size_t i;

    for (i = 0; i < n; i++)
        if (strcmp(tab[i].stack, stack_id) == 0)
            return tab[i].mape;
    return overall;
}

double size_stack_error(const char *stack_id)
{
    return size_error_of(stack_errors,
                         sizeof(stack_errors) / sizeof(stack_errors[0]),
                         stack_id, SIZE_OVERALL_ERROR);
}

static double now_s(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* ---- catalog rows ------------------------------------------------------ */

static int column_index(enum catalog_kind k, const char *name)
{
    size_t n, i;
    const struct catalog_column *c = catalog_columns(k, &n);

    for (i = 0; i < n; i++)
        if (strcmp(c[i].name, name) == 0)
            return (int)i;
    return -1;
}

static enum cp_status on_row(void *ctx, const char *const *v, size_t n)
{
    struct size_rows *r = ctx;
    size_t t;

    if (r->c_id < 0 || r->c_accel < 0 || (size_t)r->c_id >= n ||
        (size_t)r->c_accel >= n)
        return CP_OK;
    if (r->kind == CATALOG_SYSTEMS) {
        if (r->nsys == r->cap_sys) {
            r->cap_sys = r->cap_sys ? 2 * r->cap_sys : 64;
            r->sys = xrealloc(r->sys, r->cap_sys * sizeof(*r->sys));
        }
        snprintf(r->sys[r->nsys].id, CP_ID_MAX, "%s", v[r->c_id]);
        snprintf(r->sys[r->nsys].accel, CP_ID_MAX, "%s", v[r->c_accel]);
        r->nsys++;
        return CP_OK;
    }
    if (r->c_term < 0 || (size_t)r->c_term >= n)
        return CP_OK;
    for (t = 0; t < TERM_COUNT; t++) {
        const char *name = term_name((enum cloud_term)t);

        if (name && strcmp(name, v[r->c_term]) == 0)
            break;
    }
    if (t == TERM_COUNT)
        return CP_OK;
    if (r->noff == r->cap_off) {
        r->cap_off = r->cap_off ? 2 * r->cap_off : 256;
        r->off = xrealloc(r->off, r->cap_off * sizeof(*r->off));
    }
    snprintf(r->off[r->noff].id, CP_ID_MAX, "%s", v[r->c_id]);
    snprintf(r->off[r->noff].accel, CP_ID_MAX, "%s", v[r->c_accel]);
    r->off[r->noff].term = (enum cloud_term)t;
    r->noff++;
    return CP_OK;
}

enum cp_status size_load_rows(struct catalog *cat, struct size_rows *r,
                              struct diag *d)
{
    enum cp_status st;

    r->kind = CATALOG_SYSTEMS;
    r->c_id = column_index(CATALOG_SYSTEMS, "id");
    r->c_accel = column_index(CATALOG_SYSTEMS, "accel_id");
    r->c_term = -1;
    st = catalog_foreach(cat, CATALOG_SYSTEMS, NULL, on_row, r, d);
    if (st)
        return st;
    r->kind = CATALOG_CLOUD;
    r->c_id = column_index(CATALOG_CLOUD, "id");
    r->c_accel = column_index(CATALOG_CLOUD, "accel_id");
    r->c_term = column_index(CATALOG_CLOUD, "term");
    return catalog_foreach(cat, CATALOG_CLOUD, NULL, on_row, r, d);
}

void size_rows_release(struct size_rows *r)
{
    free(r->sys);
    free(r->off);
    r->sys = NULL;
    r->off = NULL;
    r->nsys = r->noff = r->cap_sys = r->cap_off = 0;
}

enum cp_status size_check_systems(const struct size_opts *o, bool any,
                                  size_t nsys, const struct diag *first,
                                  enum cp_status first_st, struct diag *d)
{
    if (!any)
        return diag_set(d, CP_ERR_NOT_FOUND, "--accel",
                        "no system in the catalog is built from %s%s "
                        "(see 'llmplan catalog list systems')",
                        o->nids ? o->ids[0] : "any accelerator",
                        o->nids > 1 ? " or the others named" : "");
    if (!nsys) {
        /* the plan itself is wrong for every system: say why once */
        if (d)
            *d = *first;
        return first_st ? first_st : CP_ERR_USAGE;
    }
    return CP_OK;
}

enum cp_status size_check_ids(const struct size_opts *o,
                              const struct size_rows *rw, struct diag *d)
{
    size_t i, k;

    for (i = 0; i < o->nids; i++) {
        for (k = 0; k < rw->nsys; k++)
            if (strcmp(o->ids[i], rw->sys[k].accel) == 0 ||
                strcmp(o->ids[i], rw->sys[k].id) == 0)
                break;
        if (k == rw->nsys)
            return diag_set(d, CP_ERR_NOT_FOUND, "--accel",
                            "'%s' is neither a system nor the accelerator "
                            "of one (see 'llmplan catalog list systems')",
                            o->ids[i]);
    }
    return CP_OK;
}

size_t size_offers_for(const struct size_rows *rw, const char *accel)
{
    size_t i, n = 0;

    for (i = 0; i < rw->noff; i++)
        n += strcmp(rw->off[i].accel, accel) == 0;
    return n;
}

uint64_t size_unit_gpus(const struct system_spec *sy)
{
    uint64_t unit = sy->gpus_per_node ? sy->gpus_per_node : 1;

    if (sy->unit_gpus >= 1)
        return sy->unit_gpus;
    if (sy->scaleup_domain > unit && sy->scaleup_domain <= RACK_DOMAIN_MAX)
        unit = sy->scaleup_domain;
    return unit;
}

bool size_wanted(const struct size_opts *o, const struct size_sys_row *s)
{
    size_t i;

    if (!o->nids)
        return true;
    for (i = 0; i < o->nids; i++)
        if (strcmp(o->ids[i], s->accel) == 0 || strcmp(o->ids[i], s->id) == 0)
            return true;
    return false;
}

/* ---- one system ---------------------------------------------------------- */

/* An offer resolved for the system's accelerator. */
struct offer {
    struct cloud_offer row;
    enum cloud_term term;
    double price;
};

/* What one (system, count) evaluation needs. */
struct sys_ctx {
    struct plan_resolved *res;
    struct offer *offers;
    size_t noffers;
    double flops_total; /* the run's model FLOPs */
    double peak;        /* FLOP/s per accelerator at the precision */
    double err;
    bool own_priced;
};

struct run {
    const struct size_opts *o;
    struct size_result *out;
    struct scenario sc;
    struct result r;
};

enum size_why size_judge_limits(const struct size_opts *o, bool rented,
                                double facility_mw, double rack_kw,
                                double cash, double run_usd)
{
    if (!rented && ((o->site_mw > 0 && facility_mw > o->site_mw) ||
                    (o->rack_kw > 0 && rack_kw > o->rack_kw)))
        return SIZE_OVER_POWER;
    if (o->budget_usd > 0 && cash > o->budget_usd)
        return SIZE_OVER_BUDGET;
    if (o->budget_run_usd > 0 && run_usd > o->budget_run_usd)
        return SIZE_OVER_BUDGET;
    return SIZE_OK;
}

/* The constraints on one option. */
static enum size_why judge(const struct size_opts *o,
                           const struct size_point *p, bool fits)
{
    if (!fits)
        return SIZE_NO_FIT;
    if (o->deadline_days > 0 && p->days > o->deadline_days)
        return SIZE_TOO_SLOW;
    return size_judge_limits(o, p->rented, p->facility_mw, p->rack_kw, p->cash,
                             p->usd);
}

static void set_ranges(struct size_point *p, double err)
{
    p->err = err;
    p->days_lo = p->days * (1 - err);
    p->days_hi = p->days * (1 + err);
    p->usd_lo = p->usd * (1 - err);
    p->usd_hi = p->usd * (1 + err);
    p->mwh_lo = p->mwh * (1 - err);
    p->mwh_hi = p->mwh * (1 + err);
}

void size_result_reserve(struct size_result *out, size_t n)
{
    size_t cap = out->cap ? out->cap : 1024;

    if (n <= out->cap)
        return;
    while (cap < n)
        cap *= 2;
    out->pt = xrealloc(out->pt, cap * sizeof(*out->pt));
    out->front = xrealloc(out->front, cap * sizeof(*out->front));
    out->cap = cap;
}

void size_result_release(struct size_result *out)
{
    free(out->pt);
    free(out->front);
    out->pt = NULL;
    out->front = NULL;
    out->cap = out->n = out->nfront = 0;
}

/* A new option at the end of out->pt.  The buffer may move: pointers
 * into it do not outlive the next call. */
static struct size_point *new_point(struct run *rn)
{
    struct size_result *out = rn->out;

    size_result_reserve(out, out->n + 1);
    memset(&out->pt[out->n], 0, sizeof(out->pt[0]));
    out->pt[out->n].overlaps = -1;
    return &out->pt[out->n++];
}

/* Fill the options of one count from the evaluated layout in rn->sc/r:
 * owned, then every offer.  first: where the count's options start (to
 * overwrite them after a full search), or APPEND. */
static void price_options(struct run *rn, const struct sys_ctx *sx,
                          const struct search_hit *hit, bool fits, bool full,
                          size_t first, size_t limit)
{
    struct size_point base, *p;
    size_t i, k = first;
    const struct scenario *rs = &sx->res->sc;

    memset(&base, 0, sizeof(base));
    snprintf(base.accel, CP_ID_MAX, "%s", rs->accel.id);
    snprintf(base.system, CP_ID_MAX, "%s", rs->system.id);
    snprintf(base.stack, CP_ID_MAX, "%s", rs->stack.id);
    base.gpus = rn->sc.gpus;
    base.layout = hit->layout;
    base.attention = hit->attention;
    base.full = full;
    base.overlaps = -1;

    rn->sc.layout = hit->layout;
    rn->sc.train.attention = hit->attention;
    rn->sc.cloud = rs->cloud;
    rn->sc.cloud_term = rs->cloud_term;
    rn->sc.cloud_usd_per_gpu_hour = rs->cloud_usd_per_gpu_hour;
    scenario_eval_flags(&rn->sc, EVAL_QUIET, &rn->r);
    base.facility_mw = rn->r.energy.nameplate_it_kw * rn->r.energy.pue / 1000;
    base.rack_kw = rn->r.energy.rack_kw;
    base.mfu = rn->r.time.mfu;
    base.mwh = rn->r.energy.facility_mwh;
    if (sx->own_priced && !(rn->r.cost.unpriced & COST_UNPRICED_BUILD)) {
        p = first == APPEND ? new_point(rn)
            : k < limit     ? &rn->out->pt[k++]
                            : NULL;
        if (!p)
            return;
        *p = base;
        p->days = rn->r.reliability.effective_train_days;
        p->usd = rn->r.cost.build.run_usd;
        p->cash = rn->r.cost.build.cash_usd;
        p->units = rn->r.cost.build.units;
        p->unit_gpus = rn->r.cost.build.unit_gpus;
        set_ranges(p, sx->err);
        p->why = rn->r.reliability.never ? SIZE_NEVER : judge(rn->o, p, fits);
    }
    for (i = 0; i < sx->noffers; i++) {
        const struct offer *of = &sx->offers[i];

        rn->sc.cloud = of->row;
        rn->sc.cloud_term = of->term;
        rn->sc.cloud_usd_per_gpu_hour = of->price;
        scenario_eval_flags(&rn->sc, EVAL_QUIET, &rn->r);
        p = first == APPEND ? new_point(rn)
            : k < limit     ? &rn->out->pt[k++]
                            : NULL;
        if (!p)
            return;
        *p = base;
        p->rented = true;
        snprintf(p->offer, CP_ID_MAX, "%s", of->row.id);
        p->term = of->term;
        p->usd = rn->r.cost.cloud.run_usd;
        p->cash = rn->r.cost.cloud.cash_usd;
        p->units = rn->r.cost.cloud.instances;
        p->unit_gpus =
            of->row.gpus_per_instance ? of->row.gpus_per_instance : 1;
        p->capacity_gpus = of->row.capacity_gpus;
        p->days = rn->r.cost.cloud.goodput > 0
                      ? rn->r.time.train_days / rn->r.cost.cloud.goodput
                      : rn->r.reliability.effective_train_days;
        set_ranges(p, sx->err);
        p->why = rn->r.cost.cloud.never ? SIZE_NEVER : judge(rn->o, p, fits);
        if (p->why == SIZE_OK && of->row.capacity_gpus > 0 &&
            rn->r.cost.cloud.billed_gpus > of->row.capacity_gpus)
            p->why = SIZE_CAPACITY;
    }
}

/* One layout search: the fastest layout of a (system, count), the
 * screen's or the full one.  Searches are independent and pure (core has
 * no globals), so a batch of them runs on a few threads; pricing the
 * options stays serial and in order, so the answer does not depend on the
 * threads. */
struct job {
    const struct sys_ctx *sx;
    uint64_t gpus;
    bool full;
    size_t count; /* index into state.counts */
    bool valid;   /* some layout is valid */
    bool fits;
    struct search_hit hit;
};

static void job_run(struct job *j, struct scenario *sc,
                    struct search_result *sr)
{
    struct search_space sp = j->sx->res->space;
    struct diag d;

    *sc = j->sx->res->sc;
    sc->gpus = j->gpus;
    if (!j->full) {
        if (!sp.microbatch)
            sp.microbatch = 1;
        sp.interleave_coarse = true;
    }
    j->valid = plan_search(sc, &sp, OBJECTIVE_TIME, 1, sr, NULL, NULL, NULL,
                           &d) == CP_OK &&
               sr->n > 0;
    if (j->valid) {
        j->hit = sr->hits[0];
        j->fits = sr->fits;
    }
}

/* One job on a pool thread, with its own scratch. */
static void job_fn(void *ctx, size_t i)
{
    struct job *jobs = ctx;
    struct scenario *sc = xcalloc(1, sizeof(*sc));
    struct search_result *sr = xcalloc(1, sizeof(*sr));

    job_run(&jobs[i], sc, sr);
    free(sr);
    free(sc);
}

/* Run n jobs on up to SIZE_THREADS threads (size_pool_run). */
static void run_jobs(struct job *jobs, size_t n)
{
    size_pool_run(n, job_fn, jobs);
}

/* The GPU counts of the grid, ascending: unit x 1, 2, 3, 4, 6, 8, 12 ... */
static size_t grid(uint64_t unit, uint64_t max, uint64_t *out)
{
    size_t n = 0;
    uint64_t k;

    for (k = 1; k <= max / unit && n + 2 <= COUNTS_MAX; k *= 2) {
        out[n++] = unit * k;
        if (k >= 2 && k / 2 * 3 <= max / unit)
            out[n++] = unit * (k / 2 * 3);
    }
    return n;
}

/* Points [from, n) share one (system, count); their count's index range. */
struct count_rec {
    size_t sys; /* index into the run's system contexts */
    uint64_t gpus;
    size_t first, n;
    bool full;
    bool valid;
    bool pending; /* its screen is still to run */
};

struct state {
    struct run rn;
    size_t nsys;
    struct sys_ctx *sx;
    struct plan_resolved *res; /* nsys of them */
    struct offer *offers;      /* each system's, concatenated */
    size_t ncounts, cap_counts;
    struct count_rec *counts; /* grown by add_count */
};

static bool have_count(const struct state *s, size_t sys, uint64_t gpus)
{
    size_t i;

    for (i = 0; i < s->ncounts; i++)
        if (s->counts[i].sys == sys && s->counts[i].gpus == gpus)
            return true;
    return false;
}

static void add_count(struct state *s, size_t sys, uint64_t gpus)
{
    struct count_rec *c;
    const struct sys_ctx *sx = &s->sx[sys];

    if (have_count(s, sys, gpus))
        return;
    if (s->ncounts == s->cap_counts) {
        s->cap_counts = s->cap_counts ? 2 * s->cap_counts : 256;
        s->counts = xrealloc(s->counts, s->cap_counts * sizeof(*s->counts));
    }
    c = &s->counts[s->ncounts++];
    memset(c, 0, sizeof(*c));
    c->sys = sys;
    c->gpus = gpus;
    c->first = s->rn.out->n;
    c->full = false;
    s->rn.out->counts++;
    /* No layout is faster than the model's FLOPs at peak (MFU <= 1): a
     * count whose ideal time misses the deadline cannot meet it. */
    if (!s->rn.o->no_prune && s->rn.o->deadline_days > 0 && sx->peak > 0 &&
        sx->flops_total / ((double)gpus * sx->peak) / 86400 >
            s->rn.o->deadline_days) {
        s->rn.out->skipped++;
        c->valid = false;
        c->n = 0;
        return;
    }
    c->valid = false;
    c->n = 0;
    c->pending = true;
}

/* Price the options of a searched count: appended (a screen) or over the
 * count's own options (a full search of it). */
static void price_job(struct state *s, const struct job *j)
{
    struct count_rec *c = &s->counts[j->count];
    struct size_result *out = s->rn.out;

    out->searches++;
    if (j->full)
        out->full_searches++;
    if (!j->valid) {
        if (!j->full)
            out->no_layout++;
        return;
    }
    s->rn.sc = j->sx->res->sc;
    s->rn.sc.gpus = j->gpus;
    if (j->full) {
        price_options(&s->rn, j->sx, &j->hit, j->fits, true, c->first,
                      c->first + c->n);
        return;
    }
    c->first = out->n;
    price_options(&s->rn, j->sx, &j->hit, j->fits, false, APPEND, 0);
    c->n = out->n - c->first;
    c->valid = true;
    if (!c->n)
        out->no_price++;
}

/* Screen every pending count (in parallel), then price them in order. */
static void screen_pending(struct state *s)
{
    struct job *jobs = xcalloc(s->ncounts ? s->ncounts : 1, sizeof(*jobs));
    size_t n = 0, i;

    for (i = 0; i < s->ncounts; i++) {
        struct count_rec *c = &s->counts[i];

        if (!c->pending)
            continue;
        c->pending = false;
        jobs[n].sx = &s->sx[c->sys];
        jobs[n].gpus = c->gpus;
        jobs[n].full = false;
        jobs[n].count = i;
        n++;
    }
    run_jobs(jobs, n);
    for (i = 0; i < n; i++)
        price_job(s, &jobs[i]);
    free(jobs);
}

/* Whether an option of a screened count could reach the frontier once
 * searched in full: improved by SIZE_SCREEN_GAP in time (and so in cost
 * and energy), would it meet the constraints and not be dominated by the
 * frontier as it stands?  The frontier only improves as counts are
 * searched in full, so an option ruled out stays ruled out. */
static bool promising(const struct size_result *out, const struct size_point *p)
{
    struct size_point q = *p;
    double k = 1 - SIZE_SCREEN_GAP;
    size_t j;

    if (p->why == SIZE_NO_FIT || p->why == SIZE_CAPACITY ||
        p->why == SIZE_NEVER)
        return false;
    if (p->frontier)
        return true;
    q.days *= k;
    q.usd *= k;
    q.mwh *= k;
    /* an elastic bill follows the time; capex and terms do not */
    if (p->rented && (p->term == TERM_ON_DEMAND || p->term == TERM_SPOT))
        q.cash *= k;
    if (judge(&out->opts, &q, true) != SIZE_OK)
        return false;
    for (j = 0; j < out->nfront; j++)
        if (size_dominates(&out->pt[out->front[j]], &q))
            return false;
    return true;
}

/* Full searches for every count with a promising option, until none is
 * left: every frontier point then has a fully searched layout. */
static void settle(struct state *s)
{
    struct size_result *out = s->rn.out;
    struct job *jobs = xcalloc(s->ncounts ? s->ncounts : 1, sizeof(*jobs));
    size_t i, c, n = 1;

    while (n) {
        size_frontier(out);
        n = 0;
        for (c = 0; c < s->ncounts; c++) {
            struct count_rec *cr = &s->counts[c];

            if (cr->full || !cr->valid)
                continue;
            for (i = cr->first; i < cr->first + cr->n; i++)
                if (promising(out, &out->pt[i]))
                    break;
            if (i == cr->first + cr->n)
                continue;
            cr->full = true;
            jobs[n].sx = &s->sx[cr->sys];
            jobs[n].gpus = cr->gpus;
            jobs[n].full = true;
            jobs[n].count = c;
            n++;
        }
        run_jobs(jobs, n);
        for (i = 0; i < n; i++)
            price_job(s, &jobs[i]);
    }
    free(jobs);
}

/* Counts between each frontier point's count and its grid neighbours. */
static void refine(struct state *s)
{
    struct size_result *out = s->rn.out;
    size_t c, nc = s->ncounts, sys;

    for (c = 0; c < nc; c++) {
        struct count_rec *cr = &s->counts[c];
        uint64_t lo = 0, hi = 0, unit, g;
        size_t i, k;
        bool on = false;

        for (i = cr->first; i < cr->first + cr->n; i++)
            on = on || out->pt[i].frontier;
        if (!on)
            continue;
        sys = cr->sys;
        for (k = 0; k < nc; k++) {
            g = s->counts[k].gpus;
            if (s->counts[k].sys != sys)
                continue;
            if (g < cr->gpus && g > lo)
                lo = g;
            if (g > cr->gpus && (!hi || g < hi))
                hi = g;
        }
        unit = size_unit_gpus(&s->sx[sys].res->sc.system);
        g = cr->gpus; /* add_count may move s->counts */
        if (lo && (g - lo) / unit >= 2)
            add_count(s, sys, lo + ((g - lo) / unit / 2) * unit);
        if (hi && (hi - g) / unit >= 2)
            add_count(s, sys, g + ((hi - g) / unit / 2) * unit);
    }
}

/* The plan for one system: p with the accelerator, system and a GPU
 * count set, the keys the size search chooses cleared. */
enum cp_status size_system_plan(const struct plan *p, const char *accel,
                                const char *system, const char *gpus,
                                struct plan *out, struct diag *d)
{
    static const enum plan_key chosen[] = {
        PK_HW_ACCELERATOR,
        PK_HW_SYSTEM,
        PK_HW_FABRIC,
        PK_HW_GPUS,
        PK_CLOUD_OFFER,
        PK_CLOUD_TERM,
        PK_CLOUD_USD_PER_GPU_HOUR,
        PK_PAR_DP,
    };
    size_t i;
    enum cp_status st;

    *out = *p;
    for (i = 0; i < sizeof(chosen) / sizeof(chosen[0]); i++)
        memset(&out->v[chosen[i]], 0, sizeof(out->v[0]));
    st = plan_set_key(out, PK_HW_ACCELERATOR, accel, NULL, d);
    if (!st)
        st = plan_set_key(out, PK_HW_SYSTEM, system, NULL, d);
    if (!st)
        st = plan_set_key(out, PK_HW_GPUS, gpus, NULL, d);
    return st;
}

/* Resolve one system and its offers into sx.  Not CP_OK: skip it (the
 * resolver refused it: a system without a fabric, say). */
static enum cp_status setup_system(struct state *s, const struct plan *p,
                                   struct catalog *cat,
                                   const struct size_rows *rw,
                                   const struct size_sys_row *row,
                                   struct plan *tmp, struct diag *d)
{
    struct sys_ctx *sx = &s->sx[s->nsys];
    struct plan_resolved *res = &s->res[s->nsys];
    struct scenario probe;
    struct result *r = &s->rn.r;
    size_t i;
    enum cp_status st;

    st = size_system_plan(p, row->accel, row->id, "1", tmp, d);
    if (!st)
        st = plan_resolve(tmp, cat, PLAN_NEED_TOKENS, res, d);
    if (!st)
        st = plan_validate_inputs(&res->sc, d);
    if (st)
        return st;
    sx->res = res;
    sx->offers =
        xcalloc(size_offers_for(rw, res->sc.accel.id) + 1, sizeof(*sx->offers));
    sx->noffers = 0;
    sx->err = size_stack_error(res->sc.stack.id);
    /* only what can be bought is owned (systems.sale) */
    sx->own_priced =
        res->sc.system.node_price_usd > 0 && res->sc.system.sale != SALE_RENT;
    for (i = 0; i < rw->noff; i++) {
        struct offer *of = &sx->offers[sx->noffers];

        if (strcmp(rw->off[i].accel, res->sc.accel.id) != 0)
            continue;
        if (catalog_get_cloud(cat, rw->off[i].id, rw->off[i].term, &of->row,
                              NULL, NULL) != CP_OK)
            continue;
        of->term = rw->off[i].term;
        of->price = of->row.usd_per_gpu_hour[of->term];
        if (of->price > 0)
            sx->noffers++;
    }
    /* the run's FLOPs and the peak, for the deadline bound */
    probe = res->sc;
    probe.gpus = 1;
    probe.layout.tp = probe.layout.pp = probe.layout.cp = 1;
    probe.layout.ep = probe.layout.dp = 1;
    probe.layout.microbatch = 1;
    probe.layout.interleave = 1;
    probe.layout.zero = 0;
    probe.train.global_batch = 1;
    scenario_eval_flags(&probe, EVAL_MEMORY_ONLY | EVAL_QUIET, r);
    sx->flops_total = r->model.flops_per_token * res->sc.train.tokens;
    sx->peak = res->sc.accel.peak_flops[res->sc.train.precision];
    s->nsys++;
    return CP_OK;
}

enum cp_status size_run(const struct plan *p, struct catalog *cat,
                        const struct size_opts *opts, struct size_result *out,
                        struct diag *d)
{
    struct state s;
    struct size_rows *rw = xcalloc(1, sizeof(*rw));
    struct plan *tmp = xcalloc(1, sizeof(*tmp));
    struct diag first, dd;
    enum cp_status first_st = CP_OK;
    uint64_t counts[COUNTS_MAX], gmax;
    double t0 = now_s();
    size_t i, k, nc;
    uint64_t skipped;
    enum cp_status st;
    bool any = false;

    {
        /* the option buffers outlive the run: reused here */
        struct size_point *pt = out->pt;
        size_t *front = out->front, cap = out->cap;

        memset(out, 0, sizeof(*out));
        out->pt = pt;
        out->front = front;
        out->cap = cap;
    }
    out->opts = *opts;
    memset(&s, 0, sizeof(s));
    s.rn.o = &out->opts;
    s.rn.out = out;
    diag_clear(&first);
    gmax = opts->gpus_max ? opts->gpus_max : SIZE_DEFAULT_GPUS_MAX;
    out->opts.gpus_max = gmax;

    if (plan_is_serve(p)) {
        st = size_serve_run(p, cat, opts, out, d);
        goto done;
    }
    if (!p->v[PK_TRAIN_TOKENS].set) {
        st = diag_set(d, CP_ERR_USAGE, "train.tokens",
                      "missing: how many training tokens (e.g. --tokens 15T)");
        goto done;
    }
    st = size_load_rows(cat, rw, d);
    if (!st)
        st = size_check_ids(opts, rw, d);
    if (st)
        goto done;
    s.sx = xcalloc(rw->nsys ? rw->nsys : 1, sizeof(*s.sx));
    s.res = xcalloc(rw->nsys ? rw->nsys : 1, sizeof(*s.res));
    for (i = 0; i < rw->nsys; i++) {
        if (!size_wanted(opts, &rw->sys[i]))
            continue;
        any = true;
        diag_clear(&dd);
        st = setup_system(&s, p, cat, rw, &rw->sys[i], tmp, &dd);
        if (st) {
            out->systems_refused++;
            if (!out->refused_why[0])
                snprintf(out->refused_why, sizeof(out->refused_why), "%s%s%s",
                         dd.where, dd.where[0] ? ": " : "", dd.msg);
        }
        if (st && !first_st) {
            first = dd;
            first_st = st;
        }
    }
    out->systems = s.nsys;
    st = size_check_systems(opts, any, s.nsys, &first, first_st, d);
    if (st)
        goto done;
    for (i = 0; i < s.nsys; i++) {
        uint64_t unit = size_unit_gpus(&s.sx[i].res->sc.system);

        nc = grid(unit, gmax, counts);
        skipped = out->skipped;
        for (k = 0; k < nc; k++)
            add_count(&s, i, counts[k]);
        /* Every count too slow even at peak: the largest still gets a
         * search, so that "nothing meets" can name how close it comes. */
        if (nc && out->skipped - skipped == nc) {
            s.counts[s.ncounts - 1].pending = true;
            out->skipped--;
        }
    }
    screen_pending(&s);
    settle(&s);
    if (!opts->no_refine) {
        refine(&s);
        screen_pending(&s);
        settle(&s);
    }
    size_summarise(out);
    st = CP_OK;
done:
    out->elapsed_s = now_s() - t0;
    free(s.counts);
    for (i = 0; i < s.nsys; i++)
        free(s.sx[i].offers);
    free(s.res);
    free(s.sx);
    free(tmp);
    size_rows_release(rw);
    free(rw);
    return st;
}

/* The disaggregated pools' wide EP a point chose (their GPUs stay sized
 * by the demand: hardware.gpus = auto). */
/* A serving fleet: the fleet for the peak (hardware.gpus = auto) of the
 * point's replica (tp x pp, batch cap), owned, rented or hybrid. */
static enum cp_status serve_point_plan(const struct plan *p,
                                       const struct size_point *pt,
                                       struct plan *out, struct diag *d)
{
    char buf[32];
    enum cp_status st;

    st = size_system_plan(p, pt->accel, pt->system, "auto", out, d);
    memset(&out->v[PK_SERVE_OWNED_GPUS], 0, sizeof(out->v[0]));
    if (!st)
        st = plan_set_replica(out, &pt->layout, pt->max_batch, &pt->prefill,
                              &pt->decode, d);
    if (!st && (pt->rented || pt->hybrid)) {
        st = plan_set_key(out, PK_CLOUD_OFFER, pt->offer, NULL, d);
        if (!st)
            st = plan_set_key(out, PK_CLOUD_TERM, term_name(pt->term), NULL, d);
    }
    snprintf(buf, sizeof(buf), "%llu", (unsigned long long)pt->owned_gpus);
    if (!st && pt->hybrid)
        st = plan_set_key(out, PK_SERVE_OWNED_GPUS, buf, NULL, d);
    return st;
}

enum cp_status size_point_plan(const struct plan *p,
                               const struct size_point *pt, struct plan *out,
                               struct diag *d)
{
    char buf[32];
    enum cp_status st;

    if (plan_is_serve(p))
        return serve_point_plan(p, pt, out, d);
    snprintf(buf, sizeof(buf), "%llu", (unsigned long long)pt->gpus);
    st = size_system_plan(p, pt->accel, pt->system, buf, out, d);
    if (!st)
        st = plan_set_layout(out, &pt->layout, pt->attention, d);
    if (!st && pt->rented) {
        st = plan_set_key(out, PK_CLOUD_OFFER, pt->offer, NULL, d);
        if (!st)
            st = plan_set_key(out, PK_CLOUD_TERM, term_name(pt->term), NULL, d);
    }
    return st;
}
