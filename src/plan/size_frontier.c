/*
 * size_frontier.c - the Pareto frontier of `llmplan size` and its
 * summary: domination on the axes (time, cost, energy, cash), the
 * frontier flags, the excluded options counted by reason with the closest
 * of each, and the frontier sorted by the objective.  The sort order is a
 * struct sort_ctx passed to qsort_r, not file state.
 */
#define _GNU_SOURCE /* qsort_r */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "plan/size.h"
#include "plan/size_int.h"
#include "util/xalloc.h"

/* What the comparators sort by: the points the indices refer to, serving
 * or training axes, and (by_objective) the objective's axis first. */
struct sort_ctx {
    const struct size_point *pts;
    bool serve;
    enum objective obj;
};

/* The frontier's axes, lower is better: a training run's days, run cost
 * and energy; a serving fleet's latency (one request end to end at the
 * peak), cost a day and energy per million output tokens; and for both
 * the cash committed (a cheap run on owned hardware still commits its
 * capex: the two money figures are both kept). */
#define AXES 4
#define AXIS_CASH 3

static double axis(const struct size_point *p, bool serve, int k)
{
    if (k == AXIS_CASH)
        return p->cash;
    if (serve)
        return k == 0 ? p->e2e_s : k == 1 ? p->usd_day : p->wh_mtok;
    return k == 0 ? p->days : k == 1 ? p->usd : p->mwh;
}

static bool dominates(const struct size_point *a, const struct size_point *b,
                      bool serve)
{
    bool better = false;
    int k;

    for (k = 0; k < AXES; k++) {
        double x = axis(a, serve, k), y = axis(b, serve, k);

        if (x > y)
            return false;
        better = better || x < y;
    }
    return better;
}

bool size_dominates(const struct size_point *a, const struct size_point *b)
{
    return dominates(a, b, false);
}

bool size_serve_dominates(const struct size_point *a,
                          const struct size_point *b)
{
    return dominates(a, b, true);
}

/* Lexicographic on the three axes, then index: a point can only be
 * dominated by one before it in this order. */
static int by_lex(const void *a, const void *b, void *arg)
{
    const struct sort_ctx *cx = arg;
    const struct size_point *x = &cx->pts[*(const size_t *)a];
    const struct size_point *y = &cx->pts[*(const size_t *)b];
    int k;

    for (k = 0; k < AXES; k++) {
        double u = axis(x, cx->serve, k), v = axis(y, cx->serve, k);

        if (u != v)
            return u < v ? -1 : 1;
    }
    return *(const size_t *)a < *(const size_t *)b ? -1 : 1;
}

/* Recompute the frontier flags over the met points, and the frontier's
 * indices into out->front (unsorted; out->nfront).  In lexicographic
 * order a point is dominated exactly when a frontier point found before
 * it dominates it (domination is transitive), so each point is compared
 * with the frontier only. */
/* Serving: the same fleet bought the same way with the same figures (a
 * batch cap that binds exactly where the engine's own limit does gives
 * the auto replica again): shown once, the first found. */
static bool same_offer(const struct size_point *a, const struct size_point *b)
{
    int k;

    for (k = 0; k < AXES; k++)
        if (axis(a, true, k) != axis(b, true, k))
            return false;
    return strcmp(a->system, b->system) == 0 && a->gpus == b->gpus &&
           a->rented == b->rented && a->hybrid == b->hybrid &&
           a->owned_gpus == b->owned_gpus && strcmp(a->offer, b->offer) == 0 &&
           a->term == b->term;
}

void size_frontier(struct size_result *out)
{
    size_t i, j, n = 0;
    size_t *ord = out->front; /* scratch, then the frontier */
    size_t *tmp = xcalloc(out->n ? out->n : 1, sizeof(*tmp));
    struct sort_ctx cx;

    for (i = 0; i < out->n; i++) {
        out->pt[i].frontier = false;
        if (out->pt[i].why == SIZE_OK)
            tmp[n++] = i;
    }
    cx.pts = out->pt;
    cx.serve = out->serve;
    qsort_r(tmp, n, sizeof(*tmp), by_lex, &cx);
    out->nfront = 0;
    for (i = 0; i < n; i++) {
        struct size_point *a = &out->pt[tmp[i]];
        bool dom = false;

        for (j = 0; j < out->nfront && !dom; j++)
            dom = dominates(&out->pt[ord[j]], a, out->serve) ||
                  (out->serve && same_offer(&out->pt[ord[j]], a));
        if (!dom) {
            a->frontier = true;
            ord[out->nfront++] = tmp[i];
        }
    }
    free(tmp);
}

/* Sort the frontier by the objective (ties: time, cost, energy; for
 * serving, time is the latency). */
static int by_objective(const void *a, const void *b, void *arg)
{
    const struct sort_ctx *cx = arg;
    const struct size_point *x = &cx->pts[*(const size_t *)a];
    const struct size_point *y = &cx->pts[*(const size_t *)b];
    int first = cx->obj == OBJECTIVE_COST     ? 1
                : cx->obj == OBJECTIVE_ENERGY ? 2
                : cx->obj == OBJECTIVE_CASH   ? AXIS_CASH
                                              : 0;
    double kx = axis(x, cx->serve, first), ky = axis(y, cx->serve, first);
    int k;

    if (kx != ky)
        return kx < ky ? -1 : 1;
    for (k = 0; k < AXES; k++) {
        double u = axis(x, cx->serve, k), v = axis(y, cx->serve, k);

        if (u != v)
            return u < v ? -1 : 1;
    }
    return *(const size_t *)a < *(const size_t *)b ? -1 : 1;
}

/* How far an excluded point is from the constraints (1: on the edge). */
static double excess(const struct size_result *out, const struct size_point *p)
{
    const struct size_opts *o = &out->opts;
    double e = 1, usd = out->serve ? p->usd_day : p->usd;

    if (p->why == SIZE_NO_FIT)
        return HUGE_VAL;
    if (out->serve) {
        /* a layout that misses a target: how far its best request is */
        if (p->why == SIZE_MISSES_TTFT && out->ttft_ms > 0)
            e = fmax(e, p->ttft_ms / out->ttft_ms);
        if (p->why == SIZE_MISSES_TPOT && out->tpot_ms > 0)
            e = fmax(e, p->tpot_ms / out->tpot_ms);
        if (o->gpus_max > 0 && (double)p->gpus / (double)o->gpus_max > e)
            e = (double)p->gpus / (double)o->gpus_max;
    }
    if (o->deadline_days > 0 && p->days / o->deadline_days > e)
        e = p->days / o->deadline_days;
    if (o->budget_usd > 0 && p->cash / o->budget_usd > e)
        e = p->cash / o->budget_usd;
    if (o->budget_run_usd > 0 && usd / o->budget_run_usd > e)
        e = usd / o->budget_run_usd;
    if (!p->rented && o->site_mw > 0 && p->facility_mw / o->site_mw > e)
        e = p->facility_mw / o->site_mw;
    if (!p->rented && o->rack_kw > 0 && p->rack_kw / o->rack_kw > e)
        e = p->rack_kw / o->rack_kw;
    if (p->why == SIZE_CAPACITY)
        e += 1;
    return e;
}

/* Among the excluded points (of reason w; SIZE_WHY_COUNT: any) whose
 * excess is within the model's error of the least, e_min (point k's), the
 * first by the objective (cx). */
static long as_close(const struct size_result *out, size_t w, double e_min,
                     long k, struct sort_ctx *cx)
{
    double reach = e_min * (1 + out->pt[k].err);
    size_t i, cur = (size_t)k;

    for (i = 0; i < out->n; i++) {
        const struct size_point *p = &out->pt[i];

        if (p->why == SIZE_OK || (w < SIZE_WHY_COUNT && (size_t)p->why != w))
            continue;
        if (excess(out, p) * (1 - p->err) <= reach &&
            by_objective(&i, &cur, cx) < 0)
            cur = i;
    }
    return (long)cur;
}

void size_summarise(struct size_result *out)
{
    size_t i, j, w;
    double best[SIZE_WHY_COUNT], near = HUGE_VAL;
    struct sort_ctx cx;

    size_frontier(out);
    for (w = 0; w < SIZE_WHY_COUNT; w++) {
        out->why_count[w] = 0;
        out->closest[w] = -1;
        best[w] = HUGE_VAL;
    }
    out->nearest = -1;
    for (i = 0; i < out->n; i++) {
        const struct size_point *p = &out->pt[i];
        double e;

        out->why_count[p->why]++;
        /* a run that never finishes has no time or cost to be near with */
        if (p->why == SIZE_OK || p->why == SIZE_NEVER)
            continue;
        e = excess(out, p);
        if (out->closest[p->why] < 0 || e < best[p->why]) {
            best[p->why] = e;
            out->closest[p->why] = (long)i;
        }
        if (out->nearest < 0 || e < near) {
            near = e;
            out->nearest = (long)i;
        }
    }
    cx.pts = out->pt;
    cx.obj = out->opts.obj;
    cx.serve = out->serve;
    /* Closest means closest to meeting every constraint: the options the
     * model cannot tell apart from the least excess (within the stack's
     * measured error, as the frontier's ranges) are as close, and the best
     * of them by the objective is named - not the cheapest of many
     * near-equal over-budget options, which can take decades. */
    for (w = 0; w < SIZE_WHY_COUNT; w++)
        if (out->closest[w] >= 0 && best[w] < HUGE_VAL)
            out->closest[w] = as_close(out, w, best[w], out->closest[w], &cx);
    if (out->nearest >= 0 && near < HUGE_VAL)
        out->nearest = as_close(out, SIZE_WHY_COUNT, near, out->nearest, &cx);
    if (out->nfront > 1) /* front may be NULL when there is none */
        qsort_r(out->front, out->nfront, sizeof(out->front[0]), by_objective,
                &cx);
    if (out->nfront)
        out->nearest = -1;
    /* overlapping ranges among the frontier: the first other point whose
     * time and cost ranges (serving: cost and energy) both intersect this
     * one's */
    for (i = 0; i < out->nfront; i++) {
        struct size_point *a = &out->pt[out->front[i]];

        for (j = 0; j < out->nfront; j++) {
            const struct size_point *b = &out->pt[out->front[j]];
            bool both;

            if (i == j)
                continue;
            if (out->serve)
                both = a->usd_day_lo <= b->usd_day_hi &&
                       b->usd_day_lo <= a->usd_day_hi &&
                       a->wh_mtok_lo <= b->wh_mtok_hi &&
                       b->wh_mtok_lo <= a->wh_mtok_hi;
            else
                both = a->days_lo <= b->days_hi && b->days_lo <= a->days_hi &&
                       a->usd_lo <= b->usd_hi && b->usd_lo <= a->usd_hi;
            if (both) {
                a->overlaps = (int)j;
                break;
            }
        }
    }
}
