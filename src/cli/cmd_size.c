/*
 * cmd_size.c - `llmplan size [PLAN]`: what to buy.  Every system of the
 * catalog (or --accel a,b,c), fleet sizes on a planner's grid, owned or
 * rented on every offer and term, each with its best layout; prints the
 * Pareto frontier of time x cost x energy under --deadline, --budget,
 * --site-mw, --rack-kw and --gpus-max (see plan/size.h).  Nothing meeting
 * the constraints is an answer (exit 0) naming the closest option.
 * A serving plan (workload.kind=serve) sizes fleets for its peak instead:
 * the frontier of cost a day x energy per token x latency, objective
 * cost unless --objective says otherwise; --deadline is refused.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli_opts.h"
#include "export/export.h"
#include "plan/apply.h"
#include "plan/size.h"
#include "util/xalloc.h"

/* "a,b,c" into o->ids. */
static enum cp_status parse_ids(const char *list, struct size_opts *o,
                                struct diag *d)
{
    const char *s = list;

    while (*s) {
        const char *e = strchr(s, ',');
        size_t n = e ? (size_t)(e - s) : strlen(s);

        if (n == 0 || n >= CP_ID_MAX)
            return diag_set(d, CP_ERR_USAGE, "--accel",
                            "'%.64s' is not a list of ids (a,b,c)", list);
        if (o->nids >= SIZE_IDS_MAX)
            return diag_set(d, CP_ERR_USAGE, "--accel", "more than %d ids",
                            SIZE_IDS_MAX);
        memcpy(o->ids[o->nids], s, n);
        o->ids[o->nids][n] = '\0';
        o->nids++;
        s += n;
        if (*s == ',')
            s++;
        if (e && !*s)
            return diag_set(d, CP_ERR_USAGE, "--accel",
                            "'%.64s' ends with a comma", list);
    }
    return CP_OK;
}

int cmd_size(const struct global_opts *g, int argc, char **argv)
{
    struct cli_args *a = xcalloc(1, sizeof(*a));
    struct plan *p = xcalloc(1, sizeof(*p));
    struct size_result *r = xcalloc(1, sizeof(*r));
    struct size_opts o;
    struct catalog *cat = NULL;
    struct cli_out out;
    struct diag d;
    enum cp_status st;
    int rc;

    diag_clear(&d);
    memset(&o, 0, sizeof(o));
    /* size only reads: a team's read-only catalog will do */
    st = cli_one_plan(g, CMD_SIZE, "size", "", argc, argv, a, &cat, p, &d);
    if (!st && a->help) {
        rc = 0;
        goto done;
    }
    if (!st && a->accels)
        st = parse_ids(a->accels, &o, &d);
    if (!st) {
        /* A serving fleet is "the cheapest that meets the targets": cost
         * first unless asked otherwise (time is then its latency). */
        o.obj = a->objective_set ? a->objective
                : plan_is_serve(p) ? OBJECTIVE_COST
                                   : a->objective;
        o.deadline_days = a->deadline_days;
        o.budget_usd = a->budget_usd;
        o.budget_run_usd = a->budget_run_usd;
        o.site_mw = a->site_mw;
        o.rack_kw = a->rack_kw;
        o.gpus_max = a->gpus_max;
        st = size_run(p, cat, &o, r, &d);
    }
    if (st) {
        rc = cli_error(st, &d);
        goto done;
    }
    st = cli_out_open(&out, &d);
    if (!st) {
        switch (a->format) {
        case FMT_JSON:
            st = export_json_size(out.fp, r, &d);
            break;
        case FMT_CSV:
            st = export_csv_size(out.fp, r, &d);
            break;
        default:
            st = export_text_size(out.fp, r, &d);
            break;
        }
        st = cli_out_end(&out, st, a->output, &d);
    }
    rc = st ? cli_error(st, &d) : 0;
done:
    if (cat)
        catalog_close(cat);
    size_result_release(r);
    free(r);
    free(p);
    free(a);
    return rc;
}
