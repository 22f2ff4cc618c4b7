/*
 * cal_cases.c - see cal_cases.h.
 */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app/cal_cases.h"
#include "check_helpers.h"
#include "plan/calibrate.h"
#include "plan/plan.h"
#include "util/csvio.h"
#include "util/strbuf.h"

enum { COL_ID, COL_METRIC, COL_EXPECTED, COL_TOL, COL_SOURCE, COL_SETS,
       COL_COUNT };

struct loader {
    struct cal_set *cs;
    int col[COL_COUNT];
};

static enum cp_status on_row(void *ctx, size_t line, const char *const *f,
                             size_t n)
{
    static const char *const names[COL_COUNT] = {
        "id", "metric", "expected", "tol", "source", "sets"};
    struct loader *ld = ctx;
    struct cal_case *c;
    const char *dot;
    size_t i, k;

    if (line == 1) {
        for (i = 0; i < n; i++)
            for (k = 0; k < COL_COUNT; k++)
                if (!strcmp(f[i], names[k]))
                    ld->col[k] = (int)i;
        return CP_OK;
    }
    for (k = 0; k < COL_COUNT; k++)
        if (ld->col[k] < 0 || (size_t)ld->col[k] >= n)
            return CP_ERR_PARSE;
    if (ld->cs->n >= CAL_CASES_MAX)
        return CP_ERR_RANGE;
    c = &ld->cs->c[ld->cs->n++];
    snprintf(c->id, sizeof(c->id), "%s", f[ld->col[COL_ID]]);
    snprintf(c->metric, sizeof(c->metric), "%s", f[ld->col[COL_METRIC]]);
    snprintf(c->source, sizeof(c->source), "%s", f[ld->col[COL_SOURCE]]);
    snprintf(c->sets, sizeof(c->sets), "%s", f[ld->col[COL_SETS]]);
    c->expected = strtod(f[ld->col[COL_EXPECTED]], NULL);
    c->tol = strtod(f[ld->col[COL_TOL]], NULL);
    dot = strchr(f[ld->col[COL_EXPECTED]], '.');
    c->half_unit = 0.5 * pow(10, -(double)(dot ? strlen(dot + 1) : 0));
    return CP_OK;
}

void cal_load(struct cal_set *cs, const char *const *paths, size_t npaths,
              size_t at_least)
{
    struct loader ld;
    struct strbuf sb;
    struct diag d;
    size_t i;

    memset(cs, 0, sizeof(*cs));
    ld.cs = cs;
    for (i = 0; i < COL_COUNT; i++)
        ld.col[i] = -1;
    strbuf_init(&sb, 0);
    for (i = 0; i < npaths; i++)
        if (strbuf_read_file(&sb, paths[i]) == CP_OK)
            break;
    ck_assert_msg(i < npaths, "no calibration cases found (%s)", paths[0]);
    ck_assert_msg(csvio_parse(paths[i], sb.buf, sb.len, on_row, &ld, &d) ==
                      CP_OK,
                  "%s: %s", d.where, d.msg);
    strbuf_release(&sb);
    ck_assert_msg(cs->n >= at_least, "%s: %zu cases (< %zu)", paths[i], cs->n,
                  at_least);
}

const struct plan_outcome *cal_run(struct catalog *cat,
                                   const struct cal_case *c)
{
    static struct plan_outcome out; /* large: keep it off the stack */
    struct plan p;
    struct diag d;
    char buf[sizeof(c->sets)], *tok, *save = NULL;

    plan_init(&p, c->id);
    snprintf(buf, sizeof(buf), "%s", c->sets);
    for (tok = strtok_r(buf, " \r\n", &save); tok;
         tok = strtok_r(NULL, " \r\n", &save))
        ck_assert_msg(plan_set_assignment(&p, tok, &d) == CP_OK, "%s: %s: %s",
                      c->id, d.where, d.msg);
    ck_assert_msg(plan_evaluate(&p, cat, OBJECTIVE_TIME, &out, &d) == CP_OK,
                  "%s: %s: %s", c->id, d.where, d.msg);
    return &out;
}

double cal_metric(const char *name, const struct plan_outcome *out)
{
    double v = 0;

    /* the one reader of `llmplan calibrate` (validate.py's metric()) */
    ck_assert_msg(calib_metric(name, out, &v), "unknown metric '%s'", name);
    return v;
}

double cal_error(struct catalog *cat, const struct cal_case *c)
{
    double v = cal_metric(c->metric, cal_run(cat, c));

    ck_assert_finite(v);
    return (v - c->expected) / c->expected;
}
