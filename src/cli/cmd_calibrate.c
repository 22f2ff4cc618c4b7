/*
 * cmd_calibrate.c - `llmplan calibrate RUNS.csv [--stack ID] [--as NEW_ID]
 * [--dry-run] [--no-loo] [--format table|json] [--output FILE]`: refit a
 * training stack's knobs on the user's measured runs (plan/calibrate.h,
 * the fitter `make validate` uses) and store the result as a new stack
 * row of the catalog.  --all-stacks and --loso (every stack at once, what
 * `make validate` asks) are cmd_calibrate_all.c.
 *
 * The new row is the stack's row with the fitted knobs (3 significant
 * digits, as data/stacks.csv has them), id NEW_ID (default
 * "<stack>-calibrated"), source "llmplan calibrate: FILE (N runs, DATE)"
 * and as_of today.  It is written through catalog_row_put (one validated
 * row, one transaction) after everything else succeeded.  An existing row
 * is replaced only when --as names it, or when it is the default id and
 * was written by calibrate before: a built-in row is never replaced by
 * accident.
 *
 * The report: the knobs (start -> fitted, or why not fitted), the mean
 * absolute percentage error of the runs before (the stack as it is) and
 * after (the new row), and a leave-one-out estimate (each run predicted
 * by a fit on the others: what to expect on a run not in the file).
 */
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "catalog/catalog.h"
#include "cli/cli.h"
#include "cli/cli_opts.h"
#include "plan/calibrate.h"
#include "util/fs.h"
#include "util/strbuf.h"
#include "util/termsafe.h"
#include "util/xalloc.h"

#define DEFAULT_STACK "megatron-core"
#define SOURCE_PREFIX "llmplan calibrate: "

static const char help_text[] =
    "usage: llmplan [GLOBAL] calibrate RUNS.csv [--stack ID] [--as NEW_ID]\n"
    "                         [--dry-run] [--no-loo] [--all-stacks|--loso]\n"
    "                         [--format table|json] [--output FILE]\n"
    "\n"
    "Refit a training stack's knobs on your own measured runs and store the\n"
    "result as a new stack row of the catalog.\n"
    "\n"
    "RUNS.csv has the columns of tests/data/training_cases.csv: id, metric,\n"
    "expected, tol, source, sets; `sets` is space-separated section.key=value\n"
    "plan settings, `metric` a name of quote's JSON (step_s, mfu,\n"
    "tokens_per_s_per_gpu, model_tflops_per_gpu, total_gib, ...).\n"
    "\n"
    "options:\n"
    "  --stack ID       the stack to refit (default: the one the runs name in\n"
    "                   software.stack; runs naming another stack are "
    "skipped)\n"
    "  --as NEW_ID      id of the new row (default: ID-calibrated); an\n"
    "                   existing row is replaced only when named here\n"
    "  --dry-run        fit and report, write nothing to the catalog\n"
    "  --no-loo         skip the leave-one-out estimate (one fit per run;\n"
    "                   beyond 10 runs, one per tenth of the runs)\n"
    "  --format FMT     table (default) or json\n"
    "  --output FILE    write the report to FILE instead of stdout\n"
    "  --all-stacks     fit every stack the runs name, each on its own runs\n"
    "                   (the fit of make validate); writes no row\n"
    "  --loso           leave one source out: each source (the source text\n"
    "                   before its first ';') predicted by its stacks fitted\n"
    "                   without it, from the median of the other training\n"
    "                   stacks' knobs (attn_eff: of those with fused\n"
    "                   attention; what its other runs do not tell stays\n"
    "                   the median); writes no row\n"
    "\n"
    "knobs fitted (where they move the runs): gemm_eff, attn_eff, fp8_eff,\n"
    "kernel_us, selective_keep, ep_overlap, moe_imbalance (3+ MoE runs),\n"
    "mem_reserve_gib (runs measuring total_gib); a knob that moves fewer\n"
    "than 3 runs keeps the stack's value; calibrate refuses fewer runs\n"
    "than knobs to fit, or runs too few to fit any.  Use the new stack\n"
    "with --set software.stack=NEW_ID.\n";

struct opts {
    const char *file, *stack, *as, *output;
    bool dry_run, no_loo, json, help, all_stacks, loso;
};

static int parse_opts(int argc, char **argv, struct opts *o)
{
    int i;

    memset(o, 0, sizeof(*o));
    for (i = 1; i < argc; i++) {
        const char *a = argv[i], *val = NULL;
        const char *eq = strchr(a, '=');
        size_t nl = eq ? (size_t)(eq - a) : strlen(a);
        static const char *const valued[] = {"--stack", "--as", "--format",
                                             "--output"};
        size_t k;

        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            o->help = true;
            continue;
        }
        if (!strcmp(a, "--dry-run")) {
            o->dry_run = true;
            continue;
        }
        if (!strcmp(a, "--no-loo")) {
            o->no_loo = true;
            continue;
        }
        if (!strcmp(a, "--all-stacks") || !strcmp(a, "--loso")) {
            *(a[2] == 'a' ? &o->all_stacks : &o->loso) = true;
            continue;
        }
        if (a[0] != '-' || !a[1]) {
            if (o->file)
                return cli_usage_error(a, "calibrate takes one RUNS.csv");
            o->file = a;
            continue;
        }
        for (k = 0; k < 4; k++)
            if (strlen(valued[k]) == nl && !strncmp(a, valued[k], nl))
                break;
        if (k == 4)
            return cli_usage_error(a, "unknown option (see calibrate --help)");
        if (eq)
            val = eq + 1;
        else if (i + 1 < argc)
            val = argv[++i];
        if (!val || !val[0])
            return cli_usage_error(valued[k], "needs a value");
        if (k == 0)
            o->stack = val;
        else if (k == 1)
            o->as = val;
        else if (k == 3)
            o->output = val;
        else if (!strcmp(val, "json"))
            o->json = true;
        else if (strcmp(val, "table") != 0)
            return cli_usage_error("--format", "must be table or json");
    }
    if (!o->help && !o->file)
        return cli_usage_error("calibrate", "needs RUNS.csv (see calibrate "
                                            "--help)");
    if (o->all_stacks && o->loso)
        return cli_usage_error("--loso", "not with --all-stacks (each "
                                         "fits every stack)");
    if ((o->all_stacks || o->loso) && (o->stack || o->as))
        return cli_usage_error(o->stack ? "--stack" : "--as",
                               "not with --all-stacks or --loso (they fit "
                               "every stack the runs name, write no row)");
    return 0;
}

/* The stack the runs name when --stack is not given. */
static enum cp_status runs_stack(const struct calib_set *cs, char *out,
                                 size_t n, struct diag *d)
{
    size_t i;

    out[0] = '\0';
    for (i = 0; i < cs->n; i++) {
        const char *s =
            cs->runs[i].stack[0] ? cs->runs[i].stack : DEFAULT_STACK;

        if (!out[0])
            snprintf(out, n, "%s", s);
        else if (strcmp(out, s) != 0)
            return diag_set(d, CP_ERR_USAGE, "software.stack",
                            "the runs name several stacks (%s, %s): choose "
                            "one with --stack",
                            out, s);
    }
    return CP_OK;
}

/* ---- the new row ----------------------------------------------------------
 */

struct row {
    size_t ncols;
    const struct catalog_column *cols;
    char **v; /* owned */
    bool found;
};

static enum cp_status take_row(void *ctx, const char *const *values, size_t n)
{
    struct row *r = ctx;
    size_t i;

    for (i = 0; i < n && i < r->ncols; i++) {
        free(r->v[i]);
        r->v[i] = xstrdup(values[i]);
    }
    r->found = true;
    return CP_OK;
}

static void row_set(struct row *r, const char *col, const char *value)
{
    size_t i;

    for (i = 0; i < r->ncols; i++)
        if (!strcmp(r->cols[i].name, col)) {
            free(r->v[i]);
            r->v[i] = xstrdup(value);
        }
}

static const char *row_get(const struct row *r, const char *col)
{
    size_t i;

    for (i = 0; i < r->ncols; i++)
        if (!strcmp(r->cols[i].name, col))
            return r->v[i] ? r->v[i] : "";
    return "";
}

static void row_free(struct row *r)
{
    size_t i;

    for (i = 0; i < r->ncols; i++)
        free(r->v[i]);
    free(r->v);
}

static void row_init(struct row *r)
{
    r->cols = catalog_columns(CATALOG_STACKS, &r->ncols);
    r->v = xcalloc(r->ncols, sizeof(char *));
    r->found = false;
}

/* ---- the report ------------------------------------------------------------
 */

struct report {
    const char *file, *stack, *new_id;
    size_t dropped;
    const struct calib_set *cs;
    const struct calib_fit *fit;
    double written[CK_COUNT];                 /* the knobs of the new row */
    double after;                             /* MAPE of the new row */
    double *err_before, *err_after, *err_loo; /* per run; loo may be NULL */
    double loo;                               /* NAN: not computed */
    const char *loo_note;
    size_t loo_folds; /* runs held out together: n / loo_folds */
    size_t pinned;    /* runs whose layout the search picked */
    bool wrote;
};

static void print_table(FILE *fp, const struct report *r)
{
    struct strbuf sb;
    size_t k, i;

    strbuf_init(&sb, 0);
    fprintf(fp, "calibrate %s on %zu runs of %s", r->stack, r->cs->n,
            term_safe_str(r->file, &sb, 0));
    if (r->dropped)
        fprintf(fp, " (%zu runs of other stacks skipped)", r->dropped);
    if (r->pinned)
        fprintf(fp,
                "\n%zu run%s without a layout: held at the layout the "
                "search picks with the stack as it is",
                r->pinned, r->pinned == 1 ? "" : "s");
    fprintf(fp, "\n\n%-16s %10s %10s\n", "knob", "before", "after");
    for (k = 0; k < CK_COUNT; k++) {
        const struct calib_knob_info *ki = calib_knob_info(k);

        fprintf(fp, "%-16s %10.3g %10.3g  %s\n", ki->name, r->fit->start[k],
                r->written[k], calib_why_text(r->fit->why[k]));
    }
    fprintf(fp, "\n%-40s %-22s %10s %10s %8s %8s", "run", "metric", "measured",
            "predicted", "before", "after");
    fprintf(fp, "%s\n", r->err_loo ? "      loo" : "");
    for (i = 0; i < r->cs->n; i++) {
        const struct calib_run *run = &r->cs->runs[i];

        fprintf(fp, "%-40.40s %-22s %10.4g %10.4g %+7.1f%% %+7.1f%%",
                term_safe_str(run->id, &sb, 0), run->metric, run->expected,
                run->expected * (1 + r->err_after[i]), 100 * r->err_before[i],
                100 * r->err_after[i]);
        if (r->err_loo)
            fprintf(fp, " %+7.1f%%", 100 * r->err_loo[i]);
        fprintf(fp, "\n");
    }
    fprintf(fp, "\nMAPE before %.1f%%, after %.1f%%", 100 * r->fit->before,
            100 * r->after);
    if (!isnan(r->loo) && r->loo_folds == r->cs->n)
        fprintf(fp, ", leave-one-out %.1f%%", 100 * r->loo);
    else if (!isnan(r->loo))
        fprintf(fp,
                ", %zu-fold cross-validation %.1f%% (each tenth of the "
                "runs predicted by a fit on the rest)",
                r->loo_folds, 100 * r->loo);
    else if (r->loo_note)
        fprintf(fp, " (leave-one-out: %s)", r->loo_note);
    fprintf(fp, "\n");
    if (r->wrote)
        fprintf(fp, "wrote stack '%s': use it with --set software.stack=%s\n",
                r->new_id, r->new_id);
    else
        fprintf(fp, "dry run: stack '%s' not written\n", r->new_id);
    strbuf_release(&sb);
}

json_t *calibrate_num_or_null(double x)
{
    return isfinite(x) ? json_real(x) : json_null();
}

enum cp_status calibrate_write_json(json_t *doc, FILE *fp, struct diag *d)
{
    int rc = json_dumpf(doc, fp,
                        JSON_INDENT(2) | JSON_PRESERVE_ORDER |
                            JSON_REAL_PRECISION(17));

    json_decref(doc);
    if (rc || fputc('\n', fp) == EOF)
        return diag_set(d, CP_ERR_IO, "output", "cannot write the report");
    return CP_OK;
}

static enum cp_status print_json(FILE *fp, const struct report *r,
                                 struct diag *d)
{
    json_t *doc = json_object(), *knobs = json_array(), *runs = json_array();
    size_t k, i;

    json_object_set_new(doc, "stack", json_string(r->stack));
    json_object_set_new(doc, "id", json_string(r->new_id));
    json_object_set_new(doc, "file", json_string(r->file));
    json_object_set_new(doc, "runs", json_integer((json_int_t)r->cs->n));
    json_object_set_new(doc, "skipped_other_stacks",
                        json_integer((json_int_t)r->dropped));
    json_object_set_new(doc, "layouts_searched",
                        json_integer((json_int_t)r->pinned));
    json_object_set_new(doc, "written", json_boolean(r->wrote));
    for (k = 0; k < CK_COUNT; k++) {
        const struct calib_knob_info *ki = calib_knob_info(k);
        json_t *o = json_object();

        json_object_set_new(o, "name", json_string(ki->name));
        json_object_set_new(o, "low", json_real(ki->low));
        json_object_set_new(o, "high", json_real(ki->high));
        json_object_set_new(o, "default", json_real(ki->dflt));
        json_object_set_new(o, "start", json_real(r->fit->start[k]));
        json_object_set_new(o, "fitted", json_real(r->fit->knobs[k]));
        json_object_set_new(o, "written", json_real(r->written[k]));
        json_object_set_new(o, "fit",
                            json_boolean(r->fit->why[k] == CALIB_FIT));
        json_object_set_new(o, "why",
                            json_string(calib_why_text(r->fit->why[k])));
        json_array_append_new(knobs, o);
    }
    json_object_set_new(doc, "knobs", knobs);
    json_object_set_new(doc, "mape_before", json_real(r->fit->before));
    json_object_set_new(doc, "mape_fit", json_real(r->fit->after));
    json_object_set_new(doc, "mape_after", json_real(r->after));
    json_object_set_new(doc, "mape_loo", calibrate_num_or_null(r->loo));
    json_object_set_new(doc, "loo_folds",
                        json_integer((json_int_t)r->loo_folds));
    for (i = 0; i < r->cs->n; i++) {
        json_t *o = json_object();

        json_object_set_new(o, "id", json_string(r->cs->runs[i].id));
        json_object_set_new(o, "metric", json_string(r->cs->runs[i].metric));
        json_object_set_new(o, "measured", json_real(r->cs->runs[i].expected));
        json_object_set_new(o, "error_before", json_real(r->err_before[i]));
        json_object_set_new(o, "error_after", json_real(r->err_after[i]));
        json_object_set_new(o, "error_loo",
                            r->err_loo ? json_real(r->err_loo[i])
                                       : json_null());
        json_array_append_new(runs, o);
    }
    json_object_set_new(doc, "cases", runs);
    return calibrate_write_json(doc, fp, d);
}

/* ---- the command -----------------------------------------------------------
 */

/* Leave-one-out: each run predicted by a fit, from the stack's row, on
 * the runs of the other folds.  Up to LOO_FOLDS runs, a fold is one run;
 * beyond, run i is in fold i % LOO_FOLDS (10-fold cross-validation), so
 * the estimate costs at most LOO_FOLDS fits, not one per run: a few
 * seconds for a few hundred runs.  *folds_out: the number of folds. */
#define LOO_FOLDS 10

static double leave_one_out(const struct calib_set *cs,
                            const struct stack_spec *st, double *errs,
                            size_t *folds_out)
{
    size_t *sel = xmalloc(cs->n * sizeof(*sel));
    struct calib_fit *f = xmalloc(sizeof(*f));
    size_t folds = cs->n < LOO_FOLDS ? cs->n : LOO_FOLDS;
    double sum = 0, v;
    size_t fold, i, j, n;

    for (fold = 0; fold < folds; fold++) {
        for (j = 0, n = 0; j < cs->n; j++)
            if (j % folds != fold)
                sel[n++] = j;
        calib_fit(cs, sel, n, st, f);
        for (i = fold; i < cs->n; i += folds) {
            errs[i] = calib_predict(cs, i, st, f->knobs, &v)
                          ? (v - cs->runs[i].expected) / cs->runs[i].expected
                          : 1.0;
            sum += fabs(errs[i]);
        }
    }
    free(f);
    free(sel);
    *folds_out = folds;
    return sum / (double)cs->n;
}

static enum cp_status check_target(struct catalog *cat, const struct opts *o,
                                   const char *new_id, struct diag *d)
{
    struct row old;
    struct diag d2;
    enum cp_status st;

    row_init(&old);
    st = catalog_foreach(cat, CATALOG_STACKS, new_id, take_row, &old, &d2);
    if (st == CP_ERR_NOT_FOUND)
        st = CP_OK;
    else if (st)
        *d = d2;
    else if (!o->as && strncmp(row_get(&old, "source"), SOURCE_PREFIX,
                               strlen(SOURCE_PREFIX)) != 0)
        st = diag_set(d, CP_ERR_EXISTS, "--as",
                      "stack '%s' exists and was not written by calibrate: "
                      "name it with --as to replace it, or choose another id",
                      new_id);
    row_free(&old);
    return st;
}

/* Read the measured runs of o->file into cs; none is an error. */
static enum cp_status load_runs(const struct opts *o, struct calib_set *cs,
                                struct diag *d)
{
    enum cp_status s;
    FILE *fp;

    fp = fopen(o->file, "rb");
    if (!fp)
        return diag_set(d, CP_ERR_NOT_FOUND, o->file, "cannot read the runs");
    s = calib_read(cs, o->file, fp, d);
    fclose(fp);
    if (s)
        return s;
    if (!cs->n)
        return diag_set(d, CP_ERR_USAGE, o->file, "no runs (a header only)");
    return CP_OK;
}

/* Fewer runs than knobs that move them, or no knob moving enough of them
 * (CALIB_KNOB_RUNS_MIN) to be fitted: refused, naming the knobs. */
static bool too_few(const struct calib_set *cs, const struct calib_fit *fit)
{
    size_t k;

    if (cs->n < fit->nactive)
        return true;
    for (k = 0; k < CK_COUNT && !fit->nactive; k++)
        if (fit->why[k] == CALIB_FEW_RUNS)
            return true;
    return false;
}

static enum cp_status too_few_runs(const struct calib_set *cs,
                                   const struct calib_fit *fit,
                                   const char *file, struct diag *d)
{
    char names[256];
    size_t k, n = 0;

    names[0] = '\0';
    for (k = 0; k < CK_COUNT; k++)
        if (fit->why[k] == CALIB_FIT || fit->why[k] == CALIB_FEW_RUNS) {
            snprintf(names + strlen(names), sizeof(names) - strlen(names),
                     "%s%s", names[0] ? ", " : "", calib_knob_info(k)->name);
            n++;
        }
    return diag_set(d, CP_ERR_USAGE, file,
                    "%zu run%s for %zu knobs that move them (%s): calibrate "
                    "needs at least one run per knob and %d runs that move "
                    "a knob to fit it",
                    cs->n, cs->n == 1 ? "" : "s", n, names,
                    CALIB_KNOB_RUNS_MIN);
}

/* The new stack row: the stack's row with the fitted knobs, renamed, and
 * its source the runs file; rep->written gets the knobs as stored. */
static void fill_row(struct row *row, const struct calib_fit *fit,
                     const struct opts *o, const struct calib_set *cs,
                     const char *stack, const char *new_id, struct report *rep)
{
    char buf[CP_TEXT_MAX], date[32];
    size_t k;

    cli_today(date, sizeof(date));
    calib_written_knobs(fit, rep->written);
    for (k = 0; k < CK_COUNT; k++)
        if (fit->why[k] == CALIB_FIT || fit->why[k] == CALIB_DEFINED) {
            snprintf(buf, sizeof(buf), "%.3g", fit->knobs[k]);
            row_set(row, calib_knob_info(k)->name, buf);
        }
    row_set(row, "id", new_id);
    snprintf(buf, sizeof(buf), "%s (calibrated)", row_get(row, "name"));
    row_set(row, "name", buf);
    snprintf(buf, sizeof(buf), SOURCE_PREFIX "%.160s (%zu runs, %s)", o->file,
             cs->n, date);
    row_set(row, "source", buf);
    row_set(row, "as_of", date);
    snprintf(buf, sizeof(buf),
             "%s refitted on measured runs (before %.1f%%, after %.1f%% MAPE)",
             stack, 100 * fit->before, 100 * fit->after);
    row_set(row, "notes", buf);
}

/* The report's errors: the stack as it is, the new row, and (unless
 * --no-loo or a single run) the leave-one-out error. */
static void score_report(const struct calib_set *cs,
                         const struct calib_fit *fit,
                         const struct stack_spec *st, const struct opts *o,
                         struct report *rep)
{
    rep->err_before = xcalloc(cs->n, sizeof(double));
    rep->err_after = xcalloc(cs->n, sizeof(double));
    calib_score(cs, NULL, cs->n, st, fit->start, rep->err_before);
    rep->after = calib_score(cs, NULL, cs->n, st, rep->written, rep->err_after);
    rep->loo = NAN;
    if (o->no_loo) {
        rep->loo_note = "not computed (--no-loo)";
    } else if (cs->n < 2) {
        rep->loo_note = "needs 2 runs";
    } else {
        rep->err_loo = xcalloc(cs->n, sizeof(double));
        rep->loo = leave_one_out(cs, st, rep->err_loo, &rep->loo_folds);
    }
}

static enum cp_status run(const struct global_opts *g, const struct opts *o,
                          struct diag *d)
{
    struct catalog *cat = NULL;
    struct calib_set *cs = calib_set_new();
    struct calib_fit *fit = xcalloc(1, sizeof(*fit));
    struct stack_spec st;
    struct report rep;
    struct row row;
    struct cli_out out;
    char stack[CP_ID_MAX], new_id[CP_ID_MAX + 16];
    enum cp_status s;

    memset(&rep, 0, sizeof(rep));
    row_init(&row);
    s = load_runs(o, cs, d);
    if (s)
        goto out;
    if (o->stack)
        snprintf(stack, sizeof(stack), "%s", o->stack);
    else if ((s = runs_stack(cs, stack, sizeof(stack), d)) != CP_OK)
        goto out;
    s = o->dry_run ? cli_open_catalog_read(g, &cat, d)
                   : cli_open_catalog(g, &cat, d);
    if (s)
        goto out;
    s = catalog_get_stack(cat, stack, &st, NULL, d);
    if (s) {
        diag_set(d, s, o->stack ? "--stack" : "software.stack",
                 "unknown stack '%s' (llmplan catalog list stacks)", stack);
        goto out;
    }
    if (st.kind != WORKLOAD_TRAIN) {
        s = diag_set(d, CP_ERR_USAGE, o->stack ? "--stack" : "software.stack",
                     "'%s' is a serving engine: calibrate fits training "
                     "stacks",
                     stack);
        goto out;
    }
    calib_filter_stack(cs, stack, &rep.dropped);
    if (!cs->n) {
        s = diag_set(d, CP_ERR_USAGE, o->file, "no runs of stack '%s'", stack);
        goto out;
    }
    if (o->as)
        snprintf(new_id, sizeof(new_id), "%s", o->as);
    else
        snprintf(new_id, sizeof(new_id), "%s-calibrated", stack);
    s = check_target(cat, o, new_id, d);
    if (s)
        goto out;
    s = calib_resolve(cs, cat, stack, d);
    if (s)
        goto out;
    /* a run the model refuses with the stack as it is: bad input */
    s = calib_pin_layouts(cs, &rep.pinned, d);
    if (s)
        goto out;
    calib_fit(cs, NULL, 0, &st, fit);
    if (too_few(cs, fit)) {
        s = too_few_runs(cs, fit, o->file, d);
        goto out;
    }
    /* the new row: the stack's row with the fitted knobs */
    s = catalog_foreach(cat, CATALOG_STACKS, stack, take_row, &row, d);
    if (s)
        goto out;
    fill_row(&row, fit, o, cs, stack, new_id, &rep);
    /* the report: errors of the stack as it is and of the new row */
    score_report(cs, fit, &st, o, &rep);
    rep.file = o->file;
    rep.stack = stack;
    rep.new_id = new_id;
    rep.cs = cs;
    rep.fit = fit;
    if (o->output && !o->dry_run) {
        /* an --output that cannot be written is refused before the row */
        struct atomic_file af;

        s = atomic_file_open(&af, o->output, 0644, d);
        if (s)
            goto out;
        atomic_file_abort(&af);
    }
    s = cli_out_open(&out, d);
    if (s)
        goto out;
    if (!o->dry_run) {
        s = catalog_row_put(cat, CATALOG_STACKS, (const char *const *)row.v,
                            row.ncols, d);
        if (s) {
            cli_out_discard(&out);
            goto out;
        }
        rep.wrote = true;
    }
    if (o->json)
        s = print_json(out.fp, &rep, d);
    else
        print_table(out.fp, &rep);
    s = cli_out_end(&out, s, o->output, d);
out:
    free(rep.err_before);
    free(rep.err_after);
    free(rep.err_loo);
    row_free(&row);
    if (cat)
        catalog_close(cat);
    free(fit);
    calib_set_free(cs);
    return s;
}

int cmd_calibrate(const struct global_opts *g, int argc, char **argv)
{
    struct opts o;
    struct diag d;
    enum cp_status s;
    int rc = parse_opts(argc, argv, &o);

    if (rc)
        return rc;
    if (o.help) {
        fputs(help_text, stdout);
        return 0;
    }
    diag_clear(&d);
    if (o.all_stacks || o.loso) {
        struct calibrate_all_opts ao = {o.file, o.output, o.loso, o.json};

        s = calibrate_all(g, &ao, &d);
    } else {
        s = run(g, &o, &d);
    }
    return s ? cli_error(s, &d) : 0;
}
