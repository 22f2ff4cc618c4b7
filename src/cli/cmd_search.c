/*
 * cmd_search.c - `llmplan search [PLAN]`: the best N parallel layouts for a
 * plan.  Layout keys given in the plan or options are held fixed; the rest
 * are searched (see plan/search.h), by plan_search_layouts: the pipeline
 * the TUI's search view runs too.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "cli/cli_opts.h"
#include "export/export.h"
#include "plan/resolve.h"
#include "util/xalloc.h"

static int emit(const struct cli_args *a, const struct export_search *s,
                bool stopped_early, const struct export_item *items, size_t n)
{
    struct cli_out o;
    struct diag d;
    enum cp_status st;

    diag_clear(&d);
    st = cli_out_open(&o, &d);
    if (st)
        return cli_error(st, &d);
    switch (a->format) {
    case FMT_JSON:
        st = export_json_search_ex(o.fp, s, stopped_early, items, n, &d);
        break;
    case FMT_CSV:
        st = export_csv_search(o.fp, items, n, &d);
        break;
    default:
        o.human = 1;
        st = export_text_search(o.fp, s, items, n, &d);
        break;
    }
    st = cli_out_end(&o, st, a->output, &d);
    return st ? cli_error(st, &d) : 0;
}

/* A progress line on stderr while a search runs, when stderr is a
 * terminal and the search has taken more than half a second; erased at
 * the end.  Never on a pipe, so scripts see only the result. */
struct progress {
    struct timespec t0;
    bool tty;
    bool shown;
};

static double since(const struct timespec *t0)
{
    struct timespec now;

    clock_gettime(CLOCK_MONOTONIC, &now);
    return (double)(now.tv_sec - t0->tv_sec) +
           (double)(now.tv_nsec - t0->tv_nsec) * 1e-9;
}

static bool on_progress(void *ctx, uint64_t done)
{
    struct progress *pr = ctx;
    double s;

    if (!pr->tty)
        return true;
    s = since(&pr->t0);
    if (s < 0.5)
        return true;
    fprintf(stderr, "\rllmplan: searching: %llu layouts in %.1f s ",
            (unsigned long long)done, s);
    pr->shown = true;
    return true;
}

int cmd_search(const struct global_opts *g, int argc, char **argv)
{
    struct cli_args *a = xcalloc(1, sizeof(*a));
    struct plan *p = xcalloc(1, sizeof(*p));
    struct plan_layouts *pl = xcalloc(1, sizeof(*pl));
    struct export_item *items = NULL;
    struct export_search stats;
    struct catalog *cat = NULL;
    struct diag d;
    enum cp_status st;
    size_t i;
    int rc;

    diag_clear(&d);
    st = cli_one_plan(g, CMD_SEARCH, "search", "", argc, argv, a, &cat, p, &d);
    if (!st && a->help) {
        rc = 0;
        goto out;
    }
    {
        struct progress pr = {0};

        clock_gettime(CLOCK_MONOTONIC, &pr.t0);
        pr.tty = isatty(STDERR_FILENO) != 0;
        if (!st)
            st = plan_search_layouts(p, cat, a->objective, a->top, pl,
                                     on_progress, &pr, NULL, &d);
        if (pr.shown)
            fprintf(stderr, "\r\033[K");
    }
    if (st) {
        rc = cli_error(st, &d);
        goto out;
    }
    items = xcalloc(pl->n ? pl->n : 1, sizeof(*items));
    for (i = 0; i < pl->n; i++) {
        items[i].name = p->name;
        items[i].sc = &pl->sc[i];
        items[i].r = &pl->r[i];
        items[i].res = &pl->res;
    }
    stats.evaluated = pl->sr.candidates;
    stats.feasible = pl->sr.feasible;
    stats.elapsed_s = pl->sr.elapsed_s;
    stats.objective = objective_name(a->objective);
    rc = emit(a, &stats, pl->sr.stopped_early, items, pl->n);
out:
    if (cat)
        catalog_close(cat);
    free(items);
    free(pl);
    free(p);
    free(a);
    return rc;
}
