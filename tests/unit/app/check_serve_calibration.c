/*
 * check_serve_calibration.c - the published serving results of
 * calibration/serving_cases.csv (TensorRT-LLM maximum-throughput tables,
 * NIM single-request latencies, FasterTransformer 13B latencies) through
 * the whole path (plan keys -> catalog -> core), against issue 11's
 * targets: mean absolute error within 10%, no case worse than 25%, and
 * each source's mean within 15%.  The stack knobs were fitted once on
 * these rows, nothing per case (README, Calibration).  The cases are
 * ../shared/calibration/serving_cases.csv when present, else the copy in
 * tests/data/; README's serving table comes from the same rows.
 */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "catalog/catalog.h"
#include "check_helpers.h"
#include "export/metrics.h"
#include "plan/plan.h"
#include "plan/resolve.h"
#include "util/csvio.h"
#include "util/strbuf.h"

#define CASES_MAX 128

struct sv_case {
    char id[64];
    char metric[64];
    char source[32]; /* the first words of the source: the publication */
    double expected;
    char sets[2048];
};

struct sv_set {
    size_t n;
    struct sv_case c[CASES_MAX];
    int col[5]; /* id, metric, expected, source, sets */
};

static enum cp_status on_row(void *ctx, size_t line, const char *const *f,
                             size_t n)
{
    static const char *const names[5] = {"id", "metric", "expected", "source",
                                         "sets"};
    struct sv_set *cs = ctx;
    struct sv_case *c;
    size_t i, k;

    if (line == 1) {
        for (i = 0; i < n; i++)
            for (k = 0; k < 5; k++)
                if (!strcmp(f[i], names[k]))
                    cs->col[k] = (int)i;
        return CP_OK;
    }
    for (k = 0; k < 5; k++)
        if (cs->col[k] < 0 || (size_t)cs->col[k] >= n)
            return CP_ERR_PARSE;
    if (cs->n >= CASES_MAX)
        return CP_ERR_RANGE;
    c = &cs->c[cs->n++];
    snprintf(c->id, sizeof(c->id), "%s", f[cs->col[0]]);
    snprintf(c->metric, sizeof(c->metric), "%s", f[cs->col[1]]);
    c->expected = strtod(f[cs->col[2]], NULL);
    snprintf(c->source, sizeof(c->source), "%s", f[cs->col[3]]);
    snprintf(c->sets, sizeof(c->sets), "%s", f[cs->col[4]]);
    return CP_OK;
}

static void load(struct sv_set *cs, const char *const *paths, size_t npaths)
{
    struct strbuf sb;
    struct diag d;
    size_t i;

    memset(cs, 0, sizeof(*cs));
    for (i = 0; i < 5; i++)
        cs->col[i] = -1;
    strbuf_init(&sb, 0);
    for (i = 0; i < npaths; i++)
        if (strbuf_read_file(&sb, paths[i]) == CP_OK)
            break;
    ck_assert_msg(i < npaths, "no serving cases found");
    ck_assert_int_eq(csvio_parse(paths[i], sb.buf, sb.len, on_row, cs, &d),
                     CP_OK);
    strbuf_release(&sb);
    ck_assert(cs->n >= 20);
}

/* A dotted metric ("serve.tpot_ms") through the metric table, as
 * validate.py reads it from the JSON. */
static double metric_of(const char *name, const struct result *r)
{
    const char *dot = strrchr(name, '.');
    const struct metric *tab;
    size_t n, i;

    ck_assert_ptr_nonnull(dot);
    tab = metrics_table(&n);
    for (i = 0; i < n; i++)
        if (strlen(tab[i].section) == (size_t)(dot - name) &&
            !strncmp(tab[i].section, name, (size_t)(dot - name)) &&
            !strcmp(tab[i].key, dot + 1))
            return metric_value(&tab[i], r);
    ck_abort_msg("unknown metric '%s'", name);
    return 0;
}

static double run_case(struct catalog *cat, const struct sv_case *c)
{
    static struct plan_outcome out; /* large: keep it off the stack */
    struct plan p;
    struct diag d;
    char buf[2048], *tok, *save = NULL;
    double v;

    plan_init(&p, c->id);
    snprintf(buf, sizeof(buf), "%s", c->sets);
    for (tok = strtok_r(buf, " \r\n", &save); tok;
         tok = strtok_r(NULL, " \r\n", &save))
        ck_assert_msg(plan_set_assignment(&p, tok, &d) == CP_OK, "%s: %s: %s",
                      c->id, d.where, d.msg);
    ck_assert_msg(plan_evaluate(&p, cat, OBJECTIVE_TIME, &out, &d) == CP_OK,
                  "%s: %s: %s", c->id, d.where, d.msg);
    ck_assert_msg(out.result.workload == WORKLOAD_SERVE &&
                      out.result.serve.fits,
                  "%s: %s", c->id, out.result.serve.reason);
    v = metric_of(c->metric, &out.result);
    ck_assert_finite(v);
    return (v - c->expected) / c->expected;
}

START_TEST(test_serving_cases)
{
    static const char *const paths[] = {
        "../shared/calibration/serving_cases.csv",
        "tests/data/serving_cases.csv"};
    static struct sv_set cs;
    struct catalog *cat = NULL;
    struct diag d;
    double sum = 0, err, src_sum[CASES_MAX] = {0};
    size_t i, k, src_n[CASES_MAX] = {0};

    load(&cs, paths, 2);
    ck_assert_int_eq(catalog_open(":memory:", 0, &cat, &d), CP_OK);
    for (i = 0; i < cs.n; i++) {
        err = fabs(run_case(cat, &cs.c[i]));
        sum += err;
        ck_assert_msg(err <= 0.25, "%s: off by %.1f%% (> 25%%)", cs.c[i].id,
                      100 * err);
        for (k = 0; k < i && strcmp(cs.c[k].source, cs.c[i].source); k++)
            ;
        src_sum[k] += err;
        src_n[k]++;
    }
    catalog_close(cat);
    ck_assert_msg(sum / (double)cs.n <= 0.10, "MAPE %.2f%% > 10%%",
                  100 * sum / (double)cs.n);
    for (k = 0; k < cs.n; k++)
        if (src_n[k])
            ck_assert_msg(src_sum[k] / (double)src_n[k] <= 0.15,
                          "'%s...': mean error %.1f%% > 15%%", cs.c[k].source,
                          100 * src_sum[k] / (double)src_n[k]);
}
END_TEST

/* Held out (README, Serving): the rows of the same TensorRT-LLM table the
 * fit never saw - other lengths, GPUs and fp4 on B200.  They say how
 * well the model generalises; the bounds are today's with a margin, so a
 * change that makes it worse fails here. */
START_TEST(test_held_out)
{
    static const char *const path = "tests/data/serving_published.csv";
    static struct sv_set cs;
    struct catalog *cat = NULL;
    struct diag d;
    double sum = 0, worst = 0, err;
    size_t i;

    load(&cs, &path, 1);
    ck_assert_int_eq(catalog_open(":memory:", 0, &cat, &d), CP_OK);
    for (i = 0; i < cs.n; i++) {
        err = fabs(run_case(cat, &cs.c[i]));
        sum += err;
        worst = fmax(worst, err);
    }
    catalog_close(cat);
    ck_assert_msg(sum / (double)cs.n <= 0.15, "held-out MAPE %.1f%% > 15%%",
                  100 * sum / (double)cs.n);
    ck_assert_msg(worst <= 0.45, "held-out worst %.1f%% > 45%%", 100 * worst);
}
END_TEST

Suite *suite_serve_calibration(void);

Suite *suite_serve_calibration(void)
{
    Suite *s = suite_create("serve_calibration");
    TCase *tc = tcase_create("core");

    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_serving_cases);
    tcase_add_test(tc, test_held_out);
    suite_add_tcase(s, tc);
    return s;
}
