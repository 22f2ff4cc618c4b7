/*
 * cmd_quote.c - `llmplan quote [PLAN]`: evaluate one plan.
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "cli/cli_opts.h"
#include "export/export.h"
#include "plan/resolve.h"
#include "util/xalloc.h"

/* Today (UTC) as YYYY-MM-DD, or the day of SOURCE_DATE_EPOCH when set
 * (reproducible-builds.org), so tests and archives can pin it. */
static void today(char *buf, size_t n)
{
    const char *env = getenv("SOURCE_DATE_EPOCH");
    time_t t = time(NULL);
    struct tm tm;
    char *end;

    if (env && *env) {
        long long v = strtoll(env, &end, 10);

        if (!*end && v >= 0)
            t = (time_t)v;
    }
    if (!gmtime_r(&t, &tm) || !strftime(buf, n, "%Y-%m-%d", &tm))
        snprintf(buf, n, "unknown");
}

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
            today(date, sizeof(date));
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
    if (st) {
        cli_out_discard(&o);
        return cli_error(st, &d);
    }
    st = cli_out_commit(&o, a->output, &d);
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
