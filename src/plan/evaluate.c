/*
 * evaluate.c - a resolved plan evaluated: the inputs checked on a layout
 * every model accepts, the layout search (plan_search_layouts) and the
 * chosen layout's result with the search's warnings; see resolve.h.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "plan/resolve.h"

#include "core/model.h"

enum cp_status plan_validate_inputs(const struct scenario *sc, struct diag *d)
{
    struct scenario probe = *sc;
    struct diag tmp;
    enum cp_status st;

    /* Core checks everything but the training layout; a serving layout
     * every model and GPU count accepts (tp = pp = cp = ep = 1, dp =
     * gpus, global_batch = gpus sequences) lets it reach the money checks
     * after the layout ones: what is left to report is a problem of the
     * inputs, not of a layout. */
    probe.layout.tp = probe.layout.pp = probe.layout.cp = 1;
    probe.layout.ep = 1;
    probe.layout.dp = probe.gpus;
    probe.layout.microbatch = 1;
    probe.layout.interleave = 1;
    if (probe.layout.zero < 0 || probe.layout.zero > 3)
        probe.layout.zero = 0;
    probe.train.global_batch = probe.gpus;
    diag_clear(&tmp);
    st = scenario_validate_inputs(&probe, &tmp);
    if (st == CP_OK || st == CP_ERR_LAYOUT)
        return CP_OK;
    if (d)
        *d = tmp;
    return st;
}

void plan_eval_layout(const struct plan_resolved *res, const struct layout *lay,
                      struct scenario *sc, struct result *out)
{
    size_t i;

    *sc = res->sc;
    sc->layout = *lay;
    scenario_eval(sc, out);
    for (i = 0; i < res->nnotes; i++)
        result_warn(out, "%s", res->notes[i]);
}

void plan_eval_hit(const struct plan_resolved *res,
                   const struct search_hit *hit, struct scenario *sc,
                   struct result *out)
{
    size_t i;

    *sc = res->sc;
    sc->layout = hit->layout;
    sc->train.attention = hit->attention;
    if (sc->workload == WORKLOAD_SERVE) {
        uint64_t gpr = hit->layout.tp * hit->layout.pp;

        sc->serve.max_batch = hit->max_batch;
        if (sc->serve.gpus_auto)
            sc->gpus = gpr;
    }
    scenario_eval(sc, out);
    for (i = 0; i < res->nnotes; i++)
        result_warn(out, "%s", res->notes[i]);
}

enum cp_status plan_evaluate(const struct plan *p, struct catalog *cat,
                             enum objective obj, struct plan_outcome *out,
                             struct diag *d)
{
    return plan_evaluate_ex(p, cat, obj, NULL, NULL, NULL, out, d);
}

/* The warnings a result of the search carries. */
static void search_warnings(const struct search_result *sr,
                            enum workload_kind w, struct result *r)
{
    if (!sr->fits)
        result_warn(r, w == WORKLOAD_SERVE
                           ? "no serving replica meets memory and the "
                             "targets; showing the one with the least "
                             "weights per GPU"
                           : "no parallel layout fits in memory; showing the "
                             "one that needs the least");
    if (sr->stopped_early)
        result_warn(r, SEARCH_STOPPED_EARLY_WARNING,
                    (unsigned long long)SEARCH_MAX_TRIED,
                    (unsigned long long)sr->candidates);
}

enum cp_status plan_search_layouts(const struct plan *p, struct catalog *cat,
                                   enum objective obj, size_t top_n,
                                   struct plan_layouts *out,
                                   search_progress_fn progress, void *ctx,
                                   const volatile int *cancel, struct diag *d)
{
    enum cp_status st;
    size_t i;

    out->n = 0;
    st = plan_resolve(p, cat, 0, &out->res, d);
    if (!st)
        st = plan_validate_inputs(&out->res.sc, d);
    if (!st)
        st = plan_search(&out->res.sc, &out->res.space, obj, top_n, &out->sr,
                         progress, ctx, cancel, d);
    if (st)
        return st;
    for (i = 0; i < out->sr.n; i++) {
        plan_eval_hit(&out->res, &out->sr.hits[i], &out->sc[i], &out->r[i]);
        search_warnings(&out->sr, out->res.sc.workload, &out->r[i]);
    }
    out->n = out->sr.n;
    return CP_OK;
}

enum cp_status plan_evaluate_ex(const struct plan *p, struct catalog *cat,
                                enum objective obj, search_progress_fn progress,
                                void *ctx, const volatile int *cancel,
                                struct plan_outcome *out, struct diag *d)
{
    enum cp_status st;

    st = plan_resolve(p, cat, 0, &out->res, d);
    if (st)
        return st;
    return plan_evaluate_resolved(obj, progress, ctx, cancel, out, d);
}

enum cp_status plan_evaluate_resolved(enum objective obj,
                                      search_progress_fn progress, void *ctx,
                                      const volatile int *cancel,
                                      struct plan_outcome *out, struct diag *d)
{
    struct plan_resolved *res = &out->res;
    struct scenario sc;
    struct layout lay;
    enum cp_status st;

    out->searched = false;
    lay = res->sc.layout;
    if (res->needs_search) {
        st = plan_validate_inputs(&res->sc, d);
        if (st)
            return st;
        st = plan_search(&res->sc, &res->space, obj, 1, &out->search, progress,
                         ctx, cancel, d);
        if (st)
            return st;
        out->searched = true;
        lay = out->search.hits[0].layout;
        res->sc.train.attention = out->search.hits[0].attention;
        if (res->sc.workload == WORKLOAD_SERVE) {
            res->sc.serve.max_batch = out->search.hits[0].max_batch;
            if (res->sc.serve.gpus_auto)
                res->sc.gpus = lay.tp * lay.pp;
        }
    }
    sc = res->sc;
    sc.layout = lay;
    st = scenario_validate(&sc, d);
    if (st)
        return st;
    res->sc.layout = lay;
    plan_eval_layout(res, &lay, &sc, &out->result);
    if (out->searched)
        search_warnings(&out->search, res->sc.workload, &out->result);
    return CP_OK;
}
