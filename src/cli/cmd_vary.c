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
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli_opts.h"
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
    double days[2], build[2], cloud[2], margin[2], mwh[2];
    enum cost_verdict verdict[2];
    double swing;
};

/* "KEY=LO:HI" into r (the values checked by setting them). */
static enum cp_status parse_vary(const char *spec, struct vary_row *r,
                                 struct diag *d)
{
    const char *eq = strchr(spec, '='), *colon;
    char key[64];
    size_t n, i;
    double x;

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
    if (number_parse(r->lo, 1, &x) != CP_OK ||
        number_parse(r->hi, 1, &x) != CP_OK)
        return diag_set(d, CP_ERR_USAGE, "--vary",
                        "%s: '%s:%s' are not two numbers", r->name, r->lo,
                        r->hi);
    return CP_OK;
}

/* The plan with the evaluated layout held (no search for the variants). */
static void hold_layout(struct plan *p, const struct plan_outcome *oc)
{
    const struct layout *l = &oc->res.sc.layout;
    char b[32];

#define SETU(k, v)                                                             \
    do {                                                                       \
        snprintf(b, sizeof(b), "%llu", (unsigned long long)(v));               \
        plan_set_key(p, k, b, NULL, NULL);                                     \
    } while (0)
    SETU(PK_PAR_TP, l->tp);
    SETU(PK_PAR_PP, l->pp);
    SETU(PK_PAR_DP, l->dp);
    SETU(PK_PAR_CP, l->cp);
    SETU(PK_PAR_EP, l->ep);
    SETU(PK_PAR_MICROBATCH, l->microbatch);
    SETU(PK_PAR_INTERLEAVE, l->interleave);
    SETU(PK_PAR_ZERO, l->zero);
#undef SETU
    plan_set_key(p, PK_PAR_RECOMPUTE, recompute_name(l->recompute), NULL, NULL);
    plan_set_key(p, PK_PAR_SEQUENCE_PARALLEL,
                 l->sequence_parallel ? "yes" : "no", NULL, NULL);
    plan_set_key(p, PK_TRAIN_ATTENTION,
                 attention_name(oc->res.sc.train.attention), NULL, NULL);
}

static double margin(const struct result *r)
{
    return r->cost.cloud.usd_per_used_gpu_hour - r->cost.build.usd_per_gpu_hour;
}

static const char *verdict_name(enum cost_verdict v)
{
    return v == VERDICT_BUILD ? "build" : v == VERDICT_CLOUD ? "cloud" : "-";
}

static int by_swing(const void *a, const void *b)
{
    const struct vary_row *x = a, *y = b;

    if (x->swing != y->swing)
        return x->swing > y->swing ? -1 : 1;
    return strcmp(x->name, y->name);
}

static void emit(FILE *out, enum cli_format f, const struct vary_row *rows,
                 size_t n, const struct result *base)
{
    size_t i, k;

    if (f == FMT_CSV) {
        fprintf(out, "key,plan_key,value,days,build_run_usd,cloud_run_usd,"
                     "energy_mwh,margin_usd_per_gpu_hour,verdict,"
                     "swing_usd_per_gpu_hour\n");
        fprintf(out, "base,,,%.6g,%.10g,%.10g,%.6g,%.6g,%s,0\n",
                base->reliability.effective_train_days,
                base->cost.build.run_usd, base->cost.cloud.run_usd,
                base->energy.facility_mwh, margin(base),
                verdict_name(base->cost.verdict));
        for (i = 0; i < n; i++)
            for (k = 0; k < 2; k++)
                fprintf(out, "%s,%s,%s,%.6g,%.10g,%.10g,%.6g,%.6g,%s,%.6g\n",
                        rows[i].name, plan_key_info(rows[i].key)->name,
                        k ? rows[i].hi : rows[i].lo, rows[i].days[k],
                        rows[i].build[k], rows[i].cloud[k], rows[i].mwh[k],
                        rows[i].margin[k], verdict_name(rows[i].verdict[k]),
                        rows[i].swing);
        return;
    }
    if (f == FMT_JSON) {
        fprintf(out,
                "{\n  \"base\": {\"days\": %.10g, \"build_run_usd\": "
                "%.10g, \"cloud_run_usd\": %.10g, \"energy_mwh\": %.10g, "
                "\"margin_usd_per_gpu_hour\": %.10g, \"verdict\": "
                "\"%s\"},\n  \"vary\": [",
                base->reliability.effective_train_days,
                base->cost.build.run_usd, base->cost.cloud.run_usd,
                base->energy.facility_mwh, margin(base),
                verdict_name(base->cost.verdict));
        for (i = 0; i < n; i++) {
            fprintf(out,
                    "%s\n    {\"key\": \"%s\", \"plan_key\": \"%s\", "
                    "\"swing_usd_per_gpu_hour\": %.10g, "
                    "\"flips_verdict\": %s, \"low\": ",
                    i ? "," : "", rows[i].name,
                    plan_key_info(rows[i].key)->name, rows[i].swing,
                    rows[i].verdict[0] != rows[i].verdict[1] ? "true"
                                                             : "false");
            for (k = 0; k < 2; k++)
                fprintf(out,
                        "%s{\"value\": %s, \"days\": %.10g, "
                        "\"build_run_usd\": %.10g, \"cloud_run_usd\": %.10g, "
                        "\"energy_mwh\": %.10g, "
                        "\"margin_usd_per_gpu_hour\": %.10g, \"verdict\": "
                        "\"%s\"}",
                        k ? ", \"high\": " : "", k ? rows[i].hi : rows[i].lo,
                        rows[i].days[k], rows[i].build[k], rows[i].cloud[k],
                        rows[i].mwh[k], rows[i].margin[k],
                        verdict_name(rows[i].verdict[k]));
            fprintf(out, "}");
        }
        fprintf(out, "\n  ]\n}\n");
        return;
    }
    fprintf(out,
            "base: %.1f days, build $%.3gM, cloud $%.3gM, margin %+.3f "
            "USD/GPU-h (cloud minus build): %s\n\n",
            base->reliability.effective_train_days,
            base->cost.build.run_usd / 1e6, base->cost.cloud.run_usd / 1e6,
            margin(base), verdict_name(base->cost.verdict));
    fprintf(out, "%-24s %-10s %-10s %9s %9s %18s %18s  %s\n", "input", "low",
            "high", "days lo", "days hi", "margin lo..hi", "swing USD/GPU-h",
            "verdict");
    for (i = 0; i < n; i++) {
        char m[40], sw[24];
        const struct vary_row *r = &rows[i];

        snprintf(m, sizeof(m), "%+.3f..%+.3f", r->margin[0], r->margin[1]);
        snprintf(sw, sizeof(sw), "%.3f", r->swing);
        fprintf(out, "%-24s %-10s %-10s %9.1f %9.1f %18s %18s  %s%s%s\n",
                r->name, r->lo, r->hi, r->days[0], r->days[1], m, sw,
                verdict_name(r->verdict[0]),
                r->verdict[0] != r->verdict[1] ? " -> " : "",
                r->verdict[0] != r->verdict[1] ? verdict_name(r->verdict[1])
                                               : "");
    }
    fprintf(out, "\n(sorted by swing; -> marks an input whose range flips "
                 "the verdict; the layout is held)\n");
}

int cmd_vary(const struct cli_args *a, struct catalog *cat,
             const struct plan *p)
{
    struct plan_outcome *oc = xcalloc(1, sizeof(*oc));
    struct plan_outcome *vo = xcalloc(1, sizeof(*vo));
    struct plan *held = xcalloc(1, sizeof(*held));
    struct plan *v = xcalloc(1, sizeof(*v));
    struct vary_row *rows = xcalloc(a->nvary, sizeof(*rows));
    struct cli_out out;
    struct diag d;
    enum cp_status st = CP_OK;
    size_t i, k;
    int rc;

    diag_clear(&d);
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
        for (k = 0; !st && k < 2; k++) {
            *v = *held;
            st = plan_set_key(v, rows[i].key, k ? rows[i].hi : rows[i].lo, NULL,
                              &d);
            if (!st)
                st = plan_evaluate(v, cat, a->objective, vo, &d);
            if (st)
                break;
            rows[i].days[k] = vo->result.reliability.effective_train_days;
            rows[i].build[k] = vo->result.cost.build.run_usd;
            rows[i].cloud[k] = vo->result.cost.cloud.run_usd;
            rows[i].mwh[k] = vo->result.energy.facility_mwh;
            rows[i].margin[k] = margin(&vo->result);
            rows[i].verdict[k] = vo->result.cost.verdict;
        }
        rows[i].swing = rows[i].margin[1] > rows[i].margin[0]
                            ? rows[i].margin[1] - rows[i].margin[0]
                            : rows[i].margin[0] - rows[i].margin[1];
    }
    if (!st) {
        qsort(rows, a->nvary, sizeof(*rows), by_swing);
        st = cli_out_open(&out, &d);
        if (!st) {
            emit(out.fp, a->format, rows, a->nvary, &oc->result);
            if (ferror(out.fp)) {
                cli_out_discard(&out);
                st = diag_set(&d, CP_ERR_IO, "output", "cannot write output");
            } else {
                st = cli_out_commit(&out, a->output, &d);
            }
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
