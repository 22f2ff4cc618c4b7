/*
 * cmd_vary.c - `llmplan quote PLAN --vary KEY=LO:HI ...`: a tornado.  The
 * plan is evaluated once (its layout searched when auto); then, with that
 * layout held, each varied key is set to LO and to HI on its own and the
 * plan evaluated again.  Rows are sorted by how far the key moves the
 * build-or-rent margin (cloud USD per used GPU-hour minus the build's USD
 * per GPU-hour: the comparison behind the verdict); a row whose range
 * flips the verdict is marked.  KEY is a numeric plan key, or one of the
 * names price (cloud.usd_per_gpu_hour), utilization (finance.utilization),
 * electricity (site.usd_per_kwh), failures (reliability.node_mtbf_h) and
 * mfu (software.efficiency_scale: x the modelled compute efficiency, so
 * 0.8:1.2 is 80%..120% of it; the step-time model caps it at the peak).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli_opts.h"
#include "export/export.h"
#include "plan/apply.h"
#include "plan/resolve.h"
#include "util/number.h"
#include "util/xalloc.h"

static const struct {
    const char *name;
    const char *key;
} aliases[] = {
    {"price", "cloud.usd_per_gpu_hour"},
    {"utilization", "finance.utilization"},
    {"electricity", "site.usd_per_kwh"},
    {"failures", "reliability.node_mtbf_h"},
    {"mfu", "software.efficiency_scale"},
};

struct vary_row {
    char name[64]; /* as given */
    enum plan_key key;
    char lo[32], hi[32];
    double x[2]; /* lo and hi as numbers */
    struct export_vary_row out;
};

/* "KEY=LO:HI" into r (the values checked by setting them). */
static enum cp_status parse_vary(const char *spec, struct vary_row *r,
                                 struct diag *d)
{
    const char *eq = strchr(spec, '='), *colon;
    char key[64];
    size_t n, i;

    memset(r, 0, sizeof(*r));
    if (!eq || !(colon = strchr(eq + 1, ':')))
        return diag_set(d, CP_ERR_USAGE, "--vary", "'%.64s' is not KEY=LO:HI",
                        spec);
    n = (size_t)(eq - spec);
    if (n == 0 || n >= sizeof(key))
        return diag_set(d, CP_ERR_USAGE, "--vary", "'%.64s': no key", spec);
    memcpy(key, spec, n);
    key[n] = '\0';
    snprintf(r->name, sizeof(r->name), "%s", key);
    for (i = 0; i < sizeof(aliases) / sizeof(aliases[0]); i++)
        if (strcmp(aliases[i].name, key) == 0)
            snprintf(key, sizeof(key), "%s", aliases[i].key);
    if (plan_key_find(key, &r->key) != CP_OK)
        return diag_set(d, CP_ERR_USAGE, "--vary",
                        "%s: not a plan key (or price, utilization, "
                        "electricity, failures, mfu)",
                        r->name);
    if (plan_key_info(r->key)->type != PT_NUMBER &&
        plan_key_info(r->key)->type != PT_COUNT)
        return diag_set(d, CP_ERR_USAGE, "--vary", "%s: not a number", r->name);
    n = (size_t)(colon - eq - 1);
    if (n == 0 || n >= sizeof(r->lo) || !colon[1] ||
        strlen(colon + 1) >= sizeof(r->hi))
        return diag_set(d, CP_ERR_USAGE, "--vary", "'%.64s' is not KEY=LO:HI",
                        spec);
    memcpy(r->lo, eq + 1, n);
    r->lo[n] = '\0';
    snprintf(r->hi, sizeof(r->hi), "%s", colon + 1);
    if (number_parse(r->lo, 1, &r->x[0]) != CP_OK ||
        number_parse(r->hi, 1, &r->x[1]) != CP_OK)
        return diag_set(d, CP_ERR_USAGE, "--vary",
                        "%s: '%s:%s' are not two numbers", r->name, r->lo,
                        r->hi);
    return CP_OK;
}

/* The plan with the evaluated layout held (no search for the variants). */
static void hold_layout(struct plan *p, const struct plan_outcome *oc)
{
    plan_set_layout(p, &oc->res.sc.layout, oc->res.sc.train.attention, NULL);
}

/* One end (or the base) from its evaluation: unknown values stay unknown
 * (no price, a run that never finishes), never zero. */
static void fill_end(struct export_vary_end *e, const struct result *r)
{
    e->fits = r->memory.fits;
    e->days_known = !r->reliability.never;
    e->build_known = !(r->cost.unpriced & COST_UNPRICED_BUILD);
    e->cloud_known = !(r->cost.unpriced & COST_UNPRICED_CLOUD);
    e->days = r->reliability.effective_train_days;
    e->build_run_usd = r->cost.build.run_usd;
    e->cloud_run_usd = r->cost.cloud.run_usd;
    e->energy_mwh = r->energy.facility_mwh;
    /* the comparison behind the verdict */
    e->margin =
        r->cost.cloud.usd_per_used_gpu_hour - r->cost.build.usd_per_gpu_hour;
    e->verdict = r->cost.verdict == VERDICT_BUILD   ? "build"
                 : r->cost.verdict == VERDICT_CLOUD ? "cloud"
                                                    : "-";
}

static bool margin_known(const struct export_vary_end *e)
{
    return e->build_known && e->cloud_known;
}

/* Largest swing first; unknown swings last; then by name. */
static int by_swing(const void *a, const void *b)
{
    const struct export_vary_row *x = &((const struct vary_row *)a)->out;
    const struct export_vary_row *y = &((const struct vary_row *)b)->out;

    if (x->swing_known != y->swing_known)
        return x->swing_known ? -1 : 1;
    if (x->swing_known && x->swing != y->swing)
        return x->swing > y->swing ? -1 : 1;
    return strcmp(((const struct vary_row *)a)->name,
                  ((const struct vary_row *)b)->name);
}

/* A table cell (buf an array): the printf text, or "-" when unknown. */
#define CELL(known, buf, ...)                                                  \
    ((known) ? (snprintf(buf, sizeof(buf), __VA_ARGS__), (const char *)buf)    \
             : "-")

static void emit_table(FILE *out, const struct vary_row *rows, size_t n,
                       const struct export_vary_end *base)
{
    char a[32], b[32], c[40], m0[24], m1[24];
    size_t i;
    bool misfit = false;

    fprintf(out,
            "base: %s days, build %s, cloud %s, margin %s USD/GPU-h "
            "(cloud minus build): %s\n\n",
            CELL(base->days_known, a, "%.1f", base->days),
            CELL(base->build_known && base->days_known, b, "$%.3gM",
                 base->build_run_usd / 1e6),
            CELL(base->cloud_known && base->days_known, c, "$%.3gM",
                 base->cloud_run_usd / 1e6),
            CELL(margin_known(base), m0, "%+.3f", base->margin), base->verdict);
    fprintf(out, "%-24s %-10s %-10s %9s %9s %18s %18s  %s\n", "input", "low",
            "high", "days lo", "days hi", "margin lo..hi", "swing USD/GPU-h",
            "verdict");
    for (i = 0; i < n; i++) {
        const struct export_vary_row *r = &rows[i].out;
        char lo[40], hi[40], m[48], sw[24];
        bool fit = r->end[0].fits && r->end[1].fits;

        misfit = misfit || !fit;
        snprintf(lo, sizeof(lo), "%s%s", rows[i].lo, r->end[0].fits ? "" : "!");
        snprintf(hi, sizeof(hi), "%s%s", rows[i].hi, r->end[1].fits ? "" : "!");
        snprintf(m, sizeof(m), "%s..%s",
                 CELL(margin_known(&r->end[0]), m0, "%+.3f", r->end[0].margin),
                 CELL(margin_known(&r->end[1]), m1, "%+.3f", r->end[1].margin));
        fprintf(out, "%-24s %-10s %-10s %9s %9s %18s %18s  %s%s%s\n",
                rows[i].name, lo, hi,
                CELL(r->end[0].days_known, a, "%.1f", r->end[0].days),
                CELL(r->end[1].days_known, b, "%.1f", r->end[1].days), m,
                CELL(r->swing_known, sw, "%.3f", r->swing), r->end[0].verdict,
                strcmp(r->end[0].verdict, r->end[1].verdict) ? " -> " : "",
                strcmp(r->end[0].verdict, r->end[1].verdict) ? r->end[1].verdict
                                                             : "");
    }
    fprintf(out, "\n(sorted by swing; -> marks an input whose range flips "
                 "the verdict; the layout is held)\n");
    if (misfit)
        fprintf(out, "(! marks an end where the held layout does not fit "
                     "in memory)\n");
}

static enum cp_status emit(FILE *out, enum cli_format f,
                           const struct vary_row *rows, size_t n,
                           const struct export_vary_end *base, struct diag *d)
{
    struct export_vary_row *r;
    enum cp_status st = CP_OK;
    size_t i;

    if (f == FMT_TABLE) {
        emit_table(out, rows, n, base);
        return CP_OK;
    }
    r = xcalloc(n ? n : 1, sizeof(*r));
    for (i = 0; i < n; i++) {
        /* the texts point into rows[i] where it is now (qsort moved it) */
        r[i] = rows[i].out;
        r[i].name = rows[i].name;
        r[i].end[0].text = rows[i].lo;
        r[i].end[1].text = rows[i].hi;
    }
    st = f == FMT_JSON ? export_json_vary(out, base, r, n, d)
                       : export_csv_vary(out, base, r, n, d);
    free(r);
    return st;
}

int cmd_vary(const struct cli_args *a, struct catalog *cat,
             const struct plan *p)
{
    struct plan_outcome *oc = xcalloc(1, sizeof(*oc));
    struct plan_outcome *vo = xcalloc(1, sizeof(*vo));
    struct plan *held = xcalloc(1, sizeof(*held));
    struct plan *v = xcalloc(1, sizeof(*v));
    struct vary_row *rows = xcalloc(a->nvary, sizeof(*rows));
    struct export_vary_end base;
    struct cli_out out;
    struct diag d;
    enum cp_status st = CP_OK;
    size_t i, k;
    int rc;

    diag_clear(&d);
    memset(&base, 0, sizeof(base));
    if (a->explain || a->schedule)
        st = diag_set(&d, CP_ERR_USAGE, "--vary",
                      "not with --explain or --schedule");
    for (i = 0; !st && i < a->nvary; i++)
        st = parse_vary(a->vary[i], &rows[i], &d);
    if (!st)
        st = plan_evaluate(p, cat, a->objective, oc, &d);
    /* the tornado's columns are a training run's (days, run cost, the
     * build-or-rent margin): a serving plan would print zeros for them */
    if (!st && oc->result.workload == WORKLOAD_SERVE)
        st = diag_set(&d, CP_ERR_USAGE, "--vary",
                      "the tornado is for training plans; for a serving plan "
                      "compare the demands or run `llmplan size`");
    if (!st) {
        *held = *p;
        hold_layout(held, oc);
    }
    for (i = 0; !st && i < a->nvary; i++) {
        struct export_vary_row *o = &rows[i].out;

        o->plan_key = plan_key_info(rows[i].key)->name;
        for (k = 0; !st && k < 2; k++) {
            *v = *held;
            st = plan_set_key(v, rows[i].key, k ? rows[i].hi : rows[i].lo, NULL,
                              &d);
            if (!st)
                st = plan_evaluate(v, cat, a->objective, vo, &d);
            if (st)
                break;
            o->end[k].value = rows[i].x[k];
            fill_end(&o->end[k], &vo->result);
        }
        o->swing_known = margin_known(&o->end[0]) && margin_known(&o->end[1]);
        o->swing =
            o->swing_known ? fabs(o->end[1].margin - o->end[0].margin) : 0;
    }
    if (!st) {
        qsort(rows, a->nvary, sizeof(*rows), by_swing);
        fill_end(&base, &oc->result);
        st = cli_out_open(&out, &d);
        if (!st) {
            st = emit(out.fp, a->format, rows, a->nvary, &base, &d);
            if (!st && ferror(out.fp))
                st = diag_set(&d, CP_ERR_IO, "output", "cannot write output");
            st = cli_out_end(&out, st, a->output, &d);
        }
    }
    rc = st ? cli_error(st, &d) : 0;
    free(rows);
    free(v);
    free(held);
    free(vo);
    free(oc);
    return rc;
}
