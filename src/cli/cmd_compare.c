/*
 * cmd_compare.c - `llmplan compare PLAN...`: 2..8 plans side by side.  The
 * shared options (--set, --gpus, ...) apply to every plan.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli_opts.h"
#include "export/export.h"
#include "plan/resolve.h"
#include "util/xalloc.h"

#define COMPARE_MIN 2
#define COMPARE_MAX 8

int cmd_compare(const struct global_opts *g, int argc, char **argv)
{
    struct cli_args *a = xcalloc(1, sizeof(*a));
    struct plan *plans = xcalloc(COMPARE_MAX, sizeof(*plans));
    struct plan_outcome *oc = xcalloc(COMPARE_MAX, sizeof(*oc));
    struct export_item items[COMPARE_MAX];
    struct catalog *cat = NULL;
    struct diag d;
    enum cp_status st;
    int i, j, rc;

    diag_clear(&d);
    st = cli_parse(CMD_COMPARE, argc, argv, a, &d);
    if (!st && a->help) {
        rc = cli_command_help("compare");
        goto out;
    }
    if (!st && (a->npos < COMPARE_MIN || a->npos > COMPARE_MAX))
        st = diag_set(&d, CP_ERR_USAGE, "compare",
                      "needs %d to %d plans, got %d", COMPARE_MIN, COMPARE_MAX,
                      a->npos);
    if (!st)
        st = cli_open_catalog_read(g, &cat, &d);
    for (i = 0; !st && i < a->npos; i++) {
        plan_init(&plans[i], NULL);
        st = cli_load_plan(cat, a->pos[i], &plans[i], &d);
        if (!st) {
            plan_merge(&plans[i], &a->overrides);
            st = plan_evaluate(&plans[i], cat, a->objective, &oc[i], &d);
            if (st && plans[i].name[0])
                diag_prefix(&d, a->pos[i]);
        }
        for (j = 0; j < i; j++)
            if (strcmp(plans[j].name, plans[i].name) == 0)
                snprintf(plans[i].name, sizeof(plans[i].name), "%s",
                         a->pos[i]); /* two a.ini: tell them apart */
        items[i].name = plans[i].name;
        items[i].sc = &oc[i].res.sc;
        items[i].r = &oc[i].result;
        items[i].res = &oc[i].res;
    }
    if (st) {
        rc = cli_error(st, &d);
        goto out;
    }
    rc = cli_emit_metrics(a, items, (size_t)a->npos, true);
out:
    if (cat)
        catalog_close(cat);
    free(oc);
    free(plans);
    free(a);
    return rc;
}
