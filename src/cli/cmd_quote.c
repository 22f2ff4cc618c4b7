/*
 * cmd_quote.c - `llmplan quote [PLAN]`: evaluate one plan.
 */
#include <stdio.h>
#include <stdlib.h>

#include "cli/cli_opts.h"
#include "export/export.h"
#include "plan/resolve.h"
#include "util/xalloc.h"

int cli_emit_metrics(const struct cli_args *a, const struct export_item *items,
                     size_t n, bool compare)
{
    struct cli_out o;
    struct diag d;
    enum cp_status st;
    char by[64], date[32];

    diag_clear(&d);
    if (a->schedule && a->format != FMT_CSV)
        return cli_error(
            diag_set(&d, CP_ERR_USAGE, "--schedule", "needs --format csv"), &d);
    st = cli_out_open(&o, &d);
    if (st)
        return cli_error(st, &d);
    switch (a->format) {
    case FMT_JSON:
        st = !compare ? export_json_quote(o.fp, &items[0], &d)
                      : export_json_compare(o.fp, items, n, &d);
        break;
    case FMT_CSV:
        if (a->schedule_wide) {
            st = export_csv_schedule_wide(o.fp, items, n, &d);
        } else if (a->schedule) {
            snprintf(by, sizeof(by), "llmplan %s", LLMPLAN_VERSION);
            cli_today(date, sizeof(date));
            st = export_csv_finance(o.fp, items, n, by, date, &d);
        } else {
            st = export_csv_metrics(o.fp, items, n, &d);
        }
        break;
    default:
        o.human = 1;
        st = export_text_metrics(o.fp, items, n,
                                 a->explain ? EXPORT_EXPLAIN : 0, &d);
        break;
    }
    st = cli_out_end(&o, st, a->output, &d);
    return st ? cli_error(st, &d) : 0;
}

int cmd_quote(const struct global_opts *g, int argc, char **argv)
{
    struct cli_args *a = xcalloc(1, sizeof(*a));
    struct plan *p = xcalloc(1, sizeof(*p));
    struct plan_outcome *oc = xcalloc(1, sizeof(*oc));
    struct catalog *cat = NULL;
    struct export_item item;
    struct diag d;
    enum cp_status st;
    int rc;

    diag_clear(&d);
    st = cli_one_plan(g, CMD_QUOTE, "quote", " (use compare for several)", argc,
                      argv, a, &cat, p, &d);
    if (!st && a->help) {
        rc = 0;
        goto out;
    }
    if (!st) {
        if (a->nvary) {
            rc = cmd_vary(a, cat, p);
            goto out;
        }
        st = plan_evaluate(p, cat, a->objective, oc, &d);
    }
    if (st) {
        rc = cli_error(st, &d);
        goto out;
    }
    item.name = p->name;
    item.sc = &oc->res.sc;
    item.r = &oc->result;
    item.res = &oc->res;
    rc = cli_emit_metrics(a, &item, 1, false);
out:
    if (cat)
        catalog_close(cat);
    free(oc);
    free(p);
    free(a);
    return rc;
}
