/*
 * cmd_calibrate_all.c - `llmplan calibrate CASES.csv --all-stacks` and
 * `--loso`: the fit of `make validate` (tests/calibration/fit_stacks.py
 * drives them).  Every run is resolved with the stack it names, each
 * stack is fitted on its own runs from its catalog row (calib_fit), and
 * nothing is written to the catalog.
 *
 *   --all-stacks  per stack: the knobs (start, fitted, as data/stacks.csv
 *                 stores them), MAPE before and fitted, worst run, and each
 *                 run's prediction before and fitted;
 *   --loso        each source (the source text before its first ';')
 *                 predicted by its stacks fitted without it; a stack left
 *                 without runs takes the typical stack's knobs (the median
 *                 of the other training stacks' rows).
 */
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/cli_opts.h"
#include "plan/calibrate.h"
#include "util/strbuf.h"
#include "util/termsafe.h"
#include "util/xalloc.h"

/* ---- --all-stacks ------------------------------------------------------ */

struct stack_report {
    struct calib_fit fit;
    double written[CK_COUNT]; /* as the stack row stores them */
    double worst;             /* largest |error| at the fitted knobs */
    double *before, *after;   /* predictions per run of the group; NAN:
                                 refused (owned) */
};

static void fit_group(const struct calib_set *cs, const struct calib_group *g,
                      struct stack_report *r)
{
    size_t j;

    calib_fit(cs, g->sel, g->nsel, &g->st, &r->fit);
    calib_written_knobs(&r->fit, r->written);
    r->before = xcalloc(g->nsel, sizeof(double));
    r->after = xcalloc(g->nsel, sizeof(double));
    r->worst = 0;
    for (j = 0; j < g->nsel; j++) {
        const struct calib_run *run = &cs->runs[g->sel[j]];
        double e;

        if (!calib_predict(cs, g->sel[j], &g->st, r->fit.start, &r->before[j]))
            r->before[j] = NAN;
        if (!calib_predict(cs, g->sel[j], &g->st, r->fit.knobs, &r->after[j]))
            r->after[j] = NAN;
        e = isnan(r->after[j])
                ? 1.0
                : fabs(r->after[j] - run->expected) / run->expected;
        r->worst = fmax(r->worst, e);
    }
}

static json_t *group_json(const struct calib_set *cs,
                          const struct calib_group *g,
                          const struct stack_report *r)
{
    json_t *o = json_object(), *knobs = json_array(), *cases = json_array();
    size_t k, j;

    json_object_set_new(o, "stack", json_string(g->st.id));
    json_object_set_new(o, "runs", json_integer((json_int_t)g->nsel));
    json_object_set_new(o, "mape_before", json_real(r->fit.before));
    json_object_set_new(o, "mape_fit", json_real(r->fit.after));
    json_object_set_new(o, "worst_fit", json_real(r->worst));
    for (k = 0; k < CK_COUNT; k++) {
        json_t *kn = json_object();

        json_object_set_new(kn, "name", json_string(calib_knob_info(k)->name));
        json_object_set_new(kn, "start", json_real(r->fit.start[k]));
        json_object_set_new(kn, "fitted", json_real(r->fit.knobs[k]));
        json_object_set_new(kn, "written", json_real(r->written[k]));
        json_object_set_new(kn, "why",
                            json_string(calib_why_text(r->fit.why[k])));
        json_object_set_new(kn, "store",
                            json_boolean(r->fit.why[k] == CALIB_FIT ||
                                         r->fit.why[k] == CALIB_DEFINED));
        json_array_append_new(knobs, kn);
    }
    json_object_set_new(o, "knobs", knobs);
    for (j = 0; j < g->nsel; j++) {
        const struct calib_run *run = &cs->runs[g->sel[j]];
        json_t *c = json_object();

        json_object_set_new(c, "id", json_string(run->id));
        json_object_set_new(c, "metric", json_string(run->metric));
        json_object_set_new(c, "measured", json_real(run->expected));
        json_object_set_new(c, "predicted_before",
                            calibrate_num_or_null(r->before[j]));
        json_object_set_new(c, "predicted_fit",
                            calibrate_num_or_null(r->after[j]));
        json_array_append_new(cases, c);
    }
    json_object_set_new(o, "cases", cases);
    return o;
}

static void group_line(FILE *fp, const struct calib_group *g,
                       const struct stack_report *r)
{
    size_t k;

    fprintf(fp, "%-20s %3zu cases  MAPE %5.1f%%  worst %5.1f%% ", g->st.id,
            g->nsel, 100 * r->fit.after, 100 * r->worst);
    for (k = 0; k < CK_COUNT; k++)
        if (r->fit.why[k] == CALIB_FIT)
            fprintf(fp, " %s=%.3g", calib_knob_info(k)->name, r->fit.knobs[k]);
    fprintf(fp, "\n");
}

static enum cp_status all_stacks(FILE *fp, const struct calib_set *cs,
                                 const struct calib_groups *gs, bool json,
                                 size_t pinned, struct diag *d)
{
    struct stack_report *r = xcalloc(gs->n + 1, sizeof(*r));
    json_t *doc = json ? json_object() : NULL, *stacks = json_array();
    enum cp_status st = CP_OK;
    size_t i;

    for (i = 0; i < gs->n; i++) {
        fit_group(cs, &gs->g[i], &r[i]);
        if (json)
            json_array_append_new(stacks, group_json(cs, &gs->g[i], &r[i]));
        else
            group_line(fp, &gs->g[i], &r[i]);
    }
    if (json) {
        json_object_set_new(doc, "mode", json_string("all-stacks"));
        json_object_set_new(doc, "runs", json_integer((json_int_t)cs->n));
        json_object_set_new(doc, "layouts_searched",
                            json_integer((json_int_t)pinned));
        json_object_set_new(doc, "stacks", stacks);
        st = calibrate_write_json(doc, fp, d);
    } else {
        json_decref(stacks);
    }
    for (i = 0; i < gs->n; i++) {
        free(r[i].before);
        free(r[i].after);
    }
    free(r);
    return st;
}

/* ---- --loso ------------------------------------------------------------ */

static void loso_lines(FILE *fp, const struct calib_set *cs,
                       const struct calib_loso_case *c, size_t n)
{
    struct strbuf sb;
    char src[CP_TEXT_MAX], next[CP_TEXT_MAX];
    double sum = 0, worst = 0, gsum = 0, gworst = 0;
    size_t i, m = 0;

    strbuf_init(&sb, 0);
    for (i = 0; i < n; i++) {
        double e = fabs(c[i].error);

        calib_source_of(cs->runs[c[i].run].source, src, sizeof(src));
        sum += e;
        worst = fmax(worst, e);
        gsum += e;
        gworst = fmax(gworst, e);
        m++;
        if (i + 1 < n)
            calib_source_of(cs->runs[c[i + 1].run].source, next, sizeof(next));
        if (i + 1 == n || c[i + 1].group != c[i].group || strcmp(next, src)) {
            fprintf(
                fp,
                "%-60.60s %-18s %3zu cases  MAPE %5.1f%%  worst %5.1f%%%s\n",
                term_safe_str(src, &sb, 0), c[i].group->st.id, m,
                100 * gsum / (double)m, 100 * gworst,
                c[i].fallback ? "  (typical stack: no knob told by 3+ runs of "
                                "another source)"
                              : "");
            gsum = gworst = 0;
            m = 0;
        }
    }
    fprintf(fp, "leave-one-source-out: %zu cases, MAPE %.1f%%, worst %.1f%%\n",
            n, n ? 100 * sum / (double)n : 0.0, 100 * worst);
    strbuf_release(&sb);
}

static enum cp_status loso_json(FILE *fp, const struct calib_set *cs,
                                const struct calib_loso_case *c, size_t n,
                                struct diag *d)
{
    json_t *doc = json_object(), *cases = json_array();
    char src[CP_TEXT_MAX];
    double sum = 0, worst = 0;
    size_t i;

    for (i = 0; i < n; i++) {
        const struct calib_run *run = &cs->runs[c[i].run];
        json_t *o = json_object();

        calib_source_of(run->source, src, sizeof(src));
        json_object_set_new(o, "id", json_string(run->id));
        json_object_set_new(o, "source", json_string(src));
        json_object_set_new(o, "stack", json_string(c[i].group->st.id));
        json_object_set_new(o, "metric", json_string(run->metric));
        json_object_set_new(o, "predicted",
                            calibrate_num_or_null(c[i].predicted));
        json_object_set_new(o, "published", json_real(run->expected));
        json_object_set_new(o, "error", json_real(c[i].error));
        json_object_set_new(o, "fitted", json_integer((json_int_t)c[i].fitted));
        json_object_set_new(o, "fallback", json_boolean(c[i].fallback));
        json_array_append_new(cases, o);
        sum += fabs(c[i].error);
        worst = fmax(worst, fabs(c[i].error));
    }
    json_object_set_new(doc, "mode", json_string("loso"));
    json_object_set_new(doc, "runs", json_integer((json_int_t)n));
    json_object_set_new(doc, "mape", json_real(n ? sum / (double)n : 0));
    json_object_set_new(doc, "worst", json_real(worst));
    json_object_set_new(doc, "cases", cases);
    return calibrate_write_json(doc, fp, d);
}

/* ---- the command ------------------------------------------------------- */

static enum cp_status report(const struct calib_set *cs,
                             const struct calib_groups *gs, struct catalog *cat,
                             const struct calibrate_all_opts *o, size_t pinned,
                             struct diag *d)
{
    struct calib_loso_case *c = NULL;
    struct cli_out out;
    enum cp_status st;
    size_t n = 0;

    if (o->loso) {
        st = calib_loso(cs, gs, cat, &c, &n, d);
        if (st)
            return st;
    }
    st = cli_out_open(&out, d);
    if (st) {
        free(c);
        return st;
    }
    if (!o->loso)
        st = all_stacks(out.fp, cs, gs, o->json, pinned, d);
    else if (o->json)
        st = loso_json(out.fp, cs, c, n, d);
    else
        loso_lines(out.fp, cs, c, n);
    free(c);
    return cli_out_end(&out, st, o->output, d);
}

enum cp_status calibrate_all(const struct global_opts *g,
                             const struct calibrate_all_opts *o, struct diag *d)
{
    struct calib_set *cs = calib_set_new();
    struct calib_groups gs = {0, NULL};
    struct catalog *cat = NULL;
    enum cp_status st;
    size_t pinned = 0;
    FILE *fp;

    fp = fopen(o->file, "rb");
    if (!fp) {
        calib_set_free(cs);
        return diag_set(d, CP_ERR_NOT_FOUND, o->file, "cannot read the runs");
    }
    st = calib_read(cs, o->file, fp, d);
    fclose(fp);
    if (!st && !cs->n)
        st = diag_set(d, CP_ERR_USAGE, o->file, "no runs (a header only)");
    if (!st)
        st = cli_open_catalog_read(g, &cat, d);
    if (!st)
        st = calib_resolve(cs, cat, NULL, d);
    if (!st)
        st = calib_pin_layouts(cs, &pinned, d);
    if (!st)
        st = calib_group_stacks(cs, cat, &gs, d);
    for (size_t i = 0; !st && i < gs.n; i++)
        if (gs.g[i].st.kind != WORKLOAD_TRAIN)
            st = diag_set(d, CP_ERR_USAGE, "software.stack",
                          "'%s' is a serving engine: calibrate fits training "
                          "stacks",
                          gs.g[i].st.id);
    if (!st)
        st = report(cs, &gs, cat, o, pinned, d);
    calib_groups_release(&gs);
    if (cat)
        catalog_close(cat);
    calib_set_free(cs);
    return st;
}
