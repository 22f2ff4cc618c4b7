/*
 * calibrate.c - see calibrate.h.
 */
#include <assert.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "export/metrics.h"
#include "plan/calibrate.h"
#include "util/csvio.h"
#include "util/xalloc.h"

static const struct calib_knob_info knob_info[CK_COUNT] = {
#define CALIB_KNOB_INFO(e, name, member, scale, lo, hi, dflt)                  \
    {name, scale, lo, hi, dflt},
    CALIB_KNOB_LIST(CALIB_KNOB_INFO)
#undef CALIB_KNOB_INFO
};

const struct calib_knob_info *calib_knob_info(enum calib_knob k)
{
    return k < CK_COUNT ? &knob_info[k] : NULL;
}

/* x as the catalog stores the text "%.6g" of it (how the knobs of a trial
 * row reach quote). */
static double stored6(double x)
{
    char buf[32];

    snprintf(buf, sizeof(buf), "%.6g", x);
    return strtod(buf, NULL);
}

static void apply_knobs(struct stack_spec *st, const double knobs[CK_COUNT])
{
#define CALIB_KNOB_SET(e, name, member, scale, lo, hi, dflt)                   \
    st->member = stored6(knobs[CK_##e]) * (scale);
    CALIB_KNOB_LIST(CALIB_KNOB_SET)
#undef CALIB_KNOB_SET
}

void calib_set_knobs(struct stack_spec *st, const double knobs[CK_COUNT])
{
    apply_knobs(st, knobs);
}

void calib_knobs_of(const struct stack_spec *st, double knobs[CK_COUNT])
{
    char buf[32];

    /* back to the column's text (kernel_s 2e-05 -> 20, not 20.000000004) */
#define CALIB_KNOB_GET(e, name, member, scale, lo, hi, dflt)                   \
    snprintf(buf, sizeof(buf), "%.12g", st->member / (scale));                 \
    knobs[CK_##e] = strtod(buf, NULL);
    CALIB_KNOB_LIST(CALIB_KNOB_GET)
#undef CALIB_KNOB_GET
}

/* ---- the runs ---------------------------------------------------------- */

struct calib_set *calib_set_new(void)
{
    return xcalloc(1, sizeof(struct calib_set));
}

void calib_set_free(struct calib_set *cs)
{
    size_t i;

    if (!cs)
        return;
    for (i = 0; i < cs->n; i++) {
        free(cs->runs[i].sets);
        free(cs->runs[i].res);
    }
    free(cs->runs);
    free(cs);
}

enum { COL_ID, COL_METRIC, COL_EXPECTED, COL_SOURCE, COL_SETS, COL_COUNT };

static const char *const col_names[COL_COUNT] = {"id", "metric", "expected",
                                                 "source", "sets"};

struct reader {
    struct calib_set *cs;
    const char *name;
    int col[COL_COUNT];
    struct diag *d;
};

/* The value of section.key=value in sets ("" when absent) into buf. */
static void setting(const char *sets, const char *key, char *buf, size_t n)
{
    size_t kl = strlen(key);
    const char *p = sets;

    buf[0] = '\0';
    while (*p) {
        const char *end;

        while (*p == ' ' || *p == '\t')
            p++;
        end = p + strcspn(p, " \t\r\n");
        if (end - p > (long)kl && !strncmp(p, key, kl) && p[kl] == '=') {
            size_t vl = (size_t)(end - p) - kl - 1;

            snprintf(buf, n, "%.*s", (int)(vl < n ? vl : n - 1), p + kl + 1);
        }
        p = *end ? end + 1 : end;
    }
}

static enum cp_status on_row(void *ctx, size_t line, const char *const *f,
                             size_t n)
{
    struct reader *rd = ctx;
    struct calib_set *cs = rd->cs;
    struct calib_run *r;
    struct plan *p;
    char where[DIAG_WHERE_MAX], buf[64], *end;
    const char *tok;
    enum cp_status st;
    size_t i, k;

    if (line == 1 && rd->col[COL_ID] < 0) {
        for (i = 0; i < n; i++)
            for (k = 0; k < COL_COUNT; k++)
                if (!strcmp(f[i], col_names[k]))
                    rd->col[k] = (int)i;
        for (k = 0; k < COL_COUNT; k++)
            if (rd->col[k] < 0 && k != COL_SOURCE)
                return diag_set(rd->d, CP_ERR_PARSE, rd->name,
                                "no '%s' column (the columns of "
                                "training_cases.csv: id, metric, expected, "
                                "tol, source, sets)",
                                col_names[k]);
        return CP_OK;
    }
    if (n == 1 && !f[0][0])
        return CP_OK; /* a blank line */
    snprintf(where, sizeof(where), "%s:%zu", rd->name, line);
    for (k = 0; k < COL_COUNT; k++)
        if (rd->col[k] >= 0 && (size_t)rd->col[k] >= n)
            return diag_set(rd->d, CP_ERR_PARSE, where,
                            "%s: missing (%zu "
                            "fields)",
                            col_names[k], n);
    if (!f[rd->col[COL_ID]][0] || strlen(f[rd->col[COL_ID]]) >= CALIB_ID_MAX)
        return diag_set(rd->d, CP_ERR_PARSE, where,
                        "id: empty or longer than %d characters",
                        CALIB_ID_MAX - 1);
    if (!calib_metric_known(f[rd->col[COL_METRIC]]))
        return diag_set(rd->d, CP_ERR_PARSE, where,
                        "metric: unknown metric '%.64s' (step_s, mfu, "
                        "tokens_per_s_per_gpu, model_tflops_per_gpu, "
                        "total_gib, ... or section.key of quote's JSON)",
                        f[rd->col[COL_METRIC]]);
    tok = f[rd->col[COL_EXPECTED]];
    {
        double x = strtod(tok, &end);

        if (!tok[0] || *end || !isfinite(x) || x <= 0)
            return diag_set(rd->d, CP_ERR_PARSE, where,
                            "expected: '%.64s' is not a positive number", tok);
    }
    if (cs->n == cs->cap) {
        cs->cap = cs->cap ? 2 * cs->cap : 64;
        cs->runs = xrealloc(cs->runs, cs->cap * sizeof(*cs->runs));
    }
    r = &cs->runs[cs->n];
    memset(r, 0, sizeof(*r));
    snprintf(r->id, sizeof(r->id), "%s", f[rd->col[COL_ID]]);
    snprintf(r->metric, sizeof(r->metric), "%s", f[rd->col[COL_METRIC]]);
    if (rd->col[COL_SOURCE] >= 0)
        snprintf(r->source, sizeof(r->source), "%s", f[rd->col[COL_SOURCE]]);
    r->expected = strtod(tok, NULL);
    r->sets = xstrdup(f[rd->col[COL_SETS]]);
    /* every setting must be a known key with a valid value */
    p = xmalloc(sizeof(*p));
    plan_init(p, r->id);
    st = CP_OK;
    {
        char *copy = xstrdup(r->sets), *save = NULL, *t;

        for (t = strtok_r(copy, " \t\r\n", &save); t && !st;
             t = strtok_r(NULL, " \t\r\n", &save))
            st = plan_set_assignment(p, t, rd->d);
        free(copy);
    }
    free(p);
    if (st) {
        free(r->sets);
        diag_prefix(rd->d, r->id);
        diag_prefix(rd->d, where);
        return st == CP_ERR_NOT_FOUND ? CP_ERR_USAGE : st;
    }
    setting(r->sets, "model.experts", buf, sizeof(buf));
    r->moe = buf[0] && strtod(buf, NULL) > 1;
    /* only dropless routing left to the router tells the imbalance: not
     * token drop (train.moe_capacity pads every expert), not a router
     * forced to an even split (software.moe_force_balance=yes) */
    setting(r->sets, "train.moe_capacity", buf, sizeof(buf));
    if (buf[0] && strtod(buf, NULL) > 0)
        r->moe = false;
    setting(r->sets, "software.moe_force_balance", buf, sizeof(buf));
    if (!strcmp(buf, "yes"))
        r->moe = false;
    setting(r->sets, "software.stack", r->stack, sizeof(r->stack));
    cs->n++;
    return CP_OK;
}

enum cp_status calib_read(struct calib_set *cs, const char *name, FILE *fp,
                          struct diag *d)
{
    struct reader rd;
    enum cp_status st;
    size_t k;

    rd.cs = cs;
    rd.name = name;
    rd.d = d;
    for (k = 0; k < COL_COUNT; k++)
        rd.col[k] = -1;
    st = csvio_parse_file(name, fp, on_row, &rd, d);
    if (!st && rd.col[COL_ID] < 0)
        return diag_set(d, CP_ERR_PARSE, name, "empty file (no header row)");
    return st;
}

void calib_filter_stack(struct calib_set *cs, const char *stack,
                        size_t *dropped)
{
    size_t i, j = 0;

    *dropped = 0;
    for (i = 0; i < cs->n; i++) {
        struct calib_run *r = &cs->runs[i];

        if (r->stack[0] && strcmp(r->stack, stack) != 0) {
            free(r->sets);
            free(r->res);
            ++*dropped;
            continue;
        }
        cs->runs[j++] = *r;
    }
    cs->n = j;
}

enum cp_status calib_resolve(struct calib_set *cs, struct catalog *cat,
                             const char *stack, struct diag *d)
{
    struct plan *p = xmalloc(sizeof(*p));
    enum cp_status st = CP_OK;
    size_t i;

    for (i = 0; i < cs->n && !st; i++) {
        struct calib_run *r = &cs->runs[i];
        char *copy = xstrdup(r->sets), *save = NULL, *t;
        enum plan_key k;

        plan_init(p, r->id);
        for (t = strtok_r(copy, " \t\r\n", &save); t && !st;
             t = strtok_r(NULL, " \t\r\n", &save))
            st = plan_set_assignment(p, t, d);
        free(copy);
        if (!st && stack && plan_key_find("software.stack", &k) == CP_OK)
            st = plan_set_key(p, k, stack, NULL, d);
        if (!st) {
            if (!r->res)
                r->res = xmalloc(sizeof(*r->res));
            st = plan_resolve(p, cat, 0, r->res, d);
        }
        if (st)
            diag_prefix(d, r->id);
    }
    free(p);
    return st;
}

enum cp_status calib_pin_layouts(struct calib_set *cs, size_t *pinned,
                                 struct diag *d)
{
    struct plan_outcome *oc = xmalloc(sizeof(*oc));
    enum cp_status st = CP_OK;
    size_t i;

    *pinned = 0;
    for (i = 0; i < cs->n && !st; i++) {
        struct calib_run *r = &cs->runs[i];

        assert(r->res);
        oc->res = *r->res;
        st = plan_evaluate_resolved(OBJECTIVE_TIME, NULL, NULL, NULL, oc, d);
        if (st) {
            diag_prefix(d, r->id);
        } else if (r->res->needs_search) {
            /* the search's pick: layout and attention kernel */
            *r->res = oc->res;
            r->res->needs_search = false;
            ++*pinned;
        }
    }
    free(oc);
    return st;
}

/* ---- the metric, as validate.py reads it ------------------------------- */

/* A dotted name through the metric table the exporters use. */
static const struct metric *table_metric(const char *name)
{
    const char *dot = strrchr(name, '.');
    const struct metric *tab;
    size_t n, i;

    if (!dot)
        return NULL;
    tab = metrics_table(&n);
    for (i = 0; i < n; i++)
        if (strlen(tab[i].section) == (size_t)(dot - name) &&
            !strncmp(tab[i].section, name, (size_t)(dot - name)) &&
            !strcmp(tab[i].key, dot + 1) && tab[i].kind != MK_TEXT)
            return &tab[i];
    return NULL;
}

#define CALIB_NAMED_LIST(X)                                                    \
    X("step_s", r->time.step_s)                                                \
    X("mfu", r->time.mfu)                                                      \
    X("hfu", r->time.hfu)                                                      \
    X("hw_tflops_per_gpu", r->time.hw_tflops_per_gpu)                          \
    X("model_tflops_per_gpu", r->time.model_tflops_per_gpu)                    \
    X("gpu_hours", r->time.gpu_hours)                                          \
    X("train_days", r->time.train_days)                                        \
    X("tokens_per_s_per_gpu", r->time.tokens_per_s / (double)out->res.sc.gpus) \
    X("activations_gib", m->activations_bytes / GIB)                           \
    X("total_gib", m->total_bytes / GIB)                                       \
    X("weights_gib", m->weights_bytes / GIB)                                   \
    X("optimizer_gib", m->optimizer_bytes / GIB)                               \
    X("gradients_gib", m->gradients_bytes / GIB)                               \
    X("model_states_gib", states / GIB)                                        \
    X("model_states_gb", states / 1e9)                                         \
    X("cloud_run_usd", r->cost.cloud.run_usd)                                  \
    X("it_mwh", r->energy.it_mwh)                                              \
    X("facility_mwh", r->energy.facility_mwh)                                  \
    X("tco2e", r->energy.tco2e)

#define GIB 1073741824.0

bool calib_metric_known(const char *name)
{
#define CALIB_NAMED_IS(s, expr)                                                \
    if (!strcmp(name, s))                                                      \
        return true;
    CALIB_NAMED_LIST(CALIB_NAMED_IS)
#undef CALIB_NAMED_IS
    return table_metric(name) != NULL;
}

bool calib_metric(const char *name, const struct plan_outcome *out, double *v)
{
    const struct result *r = &out->result;
    const struct memory_result *m = &r->memory;
    double states = m->weights_bytes + m->gradients_bytes + m->optimizer_bytes;
    const struct metric *t;

#define CALIB_NAMED_GET(s, expr)                                               \
    if (!strcmp(name, s)) {                                                    \
        *v = (expr);                                                           \
        return true;                                                           \
    }
    CALIB_NAMED_LIST(CALIB_NAMED_GET)
#undef CALIB_NAMED_GET
    (void)states;
    t = table_metric(name);
    if (!t || !metric_known(t, r))
        return false;
    *v = metric_value(t, r);
    return true;
}

/* ---- predictions and the fit ------------------------------------------- */

static bool predict_into(const struct calib_set *cs, size_t i,
                         const struct stack_spec *st,
                         const double knobs[CK_COUNT], struct plan_outcome *oc,
                         double *v)
{
    const struct calib_run *r = &cs->runs[i];
    struct diag d;

    if (!r->res)
        return false;
    oc->res = *r->res;
    oc->res.sc.stack = *st;
    apply_knobs(&oc->res.sc.stack, knobs);
    if (plan_evaluate_resolved(OBJECTIVE_TIME, NULL, NULL, NULL, oc, &d) !=
        CP_OK)
        return false;
    return calib_metric(r->metric, oc, v) && isfinite(*v);
}

bool calib_predict(const struct calib_set *cs, size_t i,
                   const struct stack_spec *st, const double knobs[CK_COUNT],
                   double *v)
{
    struct plan_outcome *oc = xmalloc(sizeof(*oc));
    bool ok = predict_into(cs, i, st, knobs, oc, v);

    free(oc);
    return ok;
}

struct scorer {
    const struct calib_set *cs;
    const size_t *sel;
    size_t nsel;
    const struct stack_spec *st;
    struct plan_outcome *oc; /* scratch */
};

static double score_with(const struct scorer *s, const double knobs[CK_COUNT],
                         double *errs)
{
    double sum = 0, v, e;
    size_t j, i;

    for (j = 0; j < s->nsel; j++) {
        i = s->sel ? s->sel[j] : j;
        if (predict_into(s->cs, i, s->st, knobs, s->oc, &v))
            e = (v - s->cs->runs[i].expected) / s->cs->runs[i].expected;
        else
            e = 1.0;
        if (errs)
            errs[j] = e;
        sum += fabs(e);
    }
    return s->nsel ? sum / (double)s->nsel : 0;
}

double calib_score(const struct calib_set *cs, const size_t *sel, size_t nsel,
                   const struct stack_spec *st, const double knobs[CK_COUNT],
                   double *errs)
{
    struct scorer s = {cs, sel, nsel, st, xmalloc(sizeof(struct plan_outcome))};
    double x = score_with(&s, knobs, errs);

    free(s.oc);
    return x;
}

/* A knob the stack has by definition, never fitted: selective_keep
 * measures selective recomputation against Megatron's set (the attention
 * core: Korthikanti et al. 2022; Megatron-Core --recompute-modules default
 * core_attn), so the Megatron stacks keep 1; kernel_us is host dispatch
 * per kernel, and MaxText's train step is one jax.jit program, compiled
 * whole by XLA and launched once per step (JAX docs, "Just-in-time
 * compilation"; MaxText train.py p_train_step = jax.jit(...)), so maxtext
 * has none: 0. */
static bool calib_knob_defined(const struct stack_spec *st, size_t k,
                               double *value)
{
    if (k == CK_SELECTIVE_KEEP && (!strcmp(st->id, "megatron-core") ||
                                   !strcmp(st->id, "megatron-lm"))) {
        *value = 1;
        return true;
    }
    if (k == CK_KERNEL_US && !strcmp(st->id, "maxtext")) {
        *value = 0;
        return true;
    }
    return false;
}

/* Whether knob k is fitted on the runs of s, from knobs (best: their
 * score): out->why[k] says why not, out->moved[k] how many runs it moves
 * when pushed to its far bound (err0: the runs' errors at knobs; err1:
 * scratch). */
static bool probe_knob(const struct scorer *s, const double knobs[CK_COUNT],
                       size_t k, bool memory, const double *err0, double *err1,
                       struct calib_fit *out)
{
    const struct calib_knob_info *ki = &knob_info[k];
    double trial[CK_COUNT], far;
    size_t j;

    out->why[k] = CALIB_NO_EFFECT;
    if (k == CK_MEM_RESERVE_GIB && !memory) {
        out->why[k] = CALIB_NO_MEMORY; /* only a measured peak tells */
        return false;
    }
    if (k == CK_MOE_IMBALANCE && out->moe_runs < CALIB_MOE_RUNS_MIN) {
        out->why[k] = CALIB_FEW_MOE;
        return false;
    }
    if (calib_knob_defined(s->st, k, &trial[k])) {
        out->why[k] = CALIB_DEFINED;
        return false;
    }
    memcpy(trial, knobs, sizeof(trial));
    far = ki->high;
    if (fabs(knobs[k] - ki->low) > fabs(knobs[k] - ki->high))
        far = ki->low;
    trial[k] = far;
    score_with(s, trial, err1);
    for (j = 0; j < s->nsel; j++)
        out->moved[k] += err1[j] != err0[j];
    if (!out->moved[k])
        return false;
    if (out->moved[k] < CALIB_KNOB_RUNS_MIN) {
        out->why[k] = CALIB_FEW_RUNS; /* a per-run fit: keeps its start */
        return false;
    }
    out->why[k] = CALIB_FIT;
    return true;
}

void calib_fit(const struct calib_set *cs, const size_t *sel, size_t nsel,
               const struct stack_spec *st, struct calib_fit *out)
{
    struct scorer s = {cs, sel, sel ? nsel : cs->n, st,
                       xmalloc(sizeof(struct plan_outcome))};
    const double g = (sqrt(5.0) - 1) / 2;
    double knobs[CK_COUNT], trial[CK_COUNT], best, *err0, *err1;
    bool memory = false, active[CK_COUNT];
    size_t j, k, sweep, it;

    memset(out, 0, sizeof(*out));
    calib_knobs_of(st, knobs);
    for (k = 0; k < CK_COUNT; k++) {
        knobs[k] = fmin(fmax(knobs[k], knob_info[k].low), knob_info[k].high);
        calib_knob_defined(st, k, &knobs[k]);
    }
    memcpy(out->start, knobs, sizeof(knobs));
    for (j = 0; j < s.nsel; j++) {
        const struct calib_run *r = &cs->runs[sel ? sel[j] : j];

        memory |= !strcmp(r->metric, "total_gib");
        out->moe_runs += r->moe;
    }
    err0 = xcalloc(s.nsel + 1, sizeof(double));
    err1 = xcalloc(s.nsel + 1, sizeof(double));
    best = score_with(&s, knobs, err0);
    out->before = best;
    /* the knobs that move enough of the runs: each pushed to its far
     * bound */
    for (k = 0; k < CK_COUNT; k++) {
        active[k] = probe_knob(&s, knobs, k, memory, err0, err1, out);
        out->nactive += active[k];
    }
    free(err1);
    free(err0);
    /* coordinate descent, a golden-section search per knob */
    for (sweep = 0; sweep < 3; sweep++)
        for (k = 0; k < CK_COUNT; k++) {
            double a, b, c1, c2, f1, f2, x, fx;

            if (!active[k])
                continue;
            a = knob_info[k].low;
            b = knob_info[k].high;
            memcpy(trial, knobs, sizeof(knobs));
            c1 = b - g * (b - a);
            c2 = a + g * (b - a);
            trial[k] = c1;
            f1 = score_with(&s, trial, NULL);
            trial[k] = c2;
            f2 = score_with(&s, trial, NULL);
            for (it = 0; it < 12; it++) {
                if (f1 < f2) {
                    b = c2;
                    c2 = c1;
                    f2 = f1;
                    c1 = b - g * (b - a);
                    trial[k] = c1;
                    f1 = score_with(&s, trial, NULL);
                } else {
                    a = c1;
                    c1 = c2;
                    f1 = f2;
                    c2 = a + g * (b - a);
                    trial[k] = c2;
                    f2 = score_with(&s, trial, NULL);
                }
            }
            x = f1 < f2 ? c1 : c2;
            fx = f1 < f2 ? f1 : f2;
            if (fx < best) {
                knobs[k] = x;
                best = fx;
            }
        }
    memcpy(out->knobs, knobs, sizeof(knobs));
    out->after = best;
    free(s.oc);
}

/* x as a stack row stores a fitted knob: "%.3g". */
static double stored3(double x)
{
    char buf[32];

    snprintf(buf, sizeof(buf), "%.3g", x);
    return strtod(buf, NULL);
}

void calib_written_knobs(const struct calib_fit *fit, double written[CK_COUNT])
{
    size_t k;

    for (k = 0; k < CK_COUNT; k++)
        written[k] = fit->why[k] == CALIB_FIT || fit->why[k] == CALIB_DEFINED
                         ? stored3(fit->knobs[k])
                         : fit->start[k];
}

const char *calib_why_text(enum calib_skip w)
{
    switch (w) {
    case CALIB_FIT:
        return "fitted";
    case CALIB_NO_EFFECT:
        return "does not move these runs";
    case CALIB_NO_MEMORY:
        return "no run measures total_gib";
    case CALIB_FEW_MOE:
        return "fewer than 3 dropless MoE runs";
    case CALIB_FEW_RUNS:
        return "moves fewer than 3 runs";
    case CALIB_DEFINED:
        return "the stack's by definition";
    }
    return "";
}
