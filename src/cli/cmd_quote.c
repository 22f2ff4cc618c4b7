/*
 * cmd_quote.c - `llmplan quote [PLAN]`: evaluate one plan.
 */
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

    diag_clear(&d);
    st = cli_out_open(&o, &d);
    if (st)
        return cli_error(st, &d);
    switch (a->format) {
    case FMT_JSON:
        st = !compare ? export_json_quote(o.fp, &items[0], &d)
                      : export_json_compare(o.fp, items, n, &d);
        break;
    case FMT_CSV:
        st = export_csv_metrics(o.fp, items, n, &d);
        break;
    default:
        o.human = 1;
        st = export_text_metrics(o.fp, items, n,
                                 a->explain ? EXPORT_EXPLAIN : 0, &d);
        break;
    }
    if (st) {
        cli_out_discard(&o);
        return cli_error(st, &d);
    }
    st = cli_out_commit(&o, a->output, &d);
    return st ? cli_error(st, &d) : 0;
}

int cmd_quote(const struct cli_global *g, int argc, char **argv)
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
    st = cli_parse(CMD_QUOTE, argc, argv, a, &d);
    if (!st && a->help) {
        rc = cli_command_help("quote");
        goto out;
    }
    if (!st && a->npos > 1)
        st = diag_set(&d, CP_ERR_USAGE, a->pos[1],
                      "quote takes one plan (use compare for several)");
    if (!st)
        st = cli_open_catalog_read(g, &cat, &d);
    plan_init(p, NULL);
    if (!st && a->npos == 1)
        st = cli_load_plan(cat, a->pos[0], p, &d);
    if (!st) {
        plan_merge(p, &a->overrides);
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
