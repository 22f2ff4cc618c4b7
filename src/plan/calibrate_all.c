/*
 * calibrate_all.c - every stack of a case file at once, and the
 * leave-one-source-out check: what `make validate` asks of the fitter
 * (see calibrate.h).
 */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plan/calibrate.h"
#include "util/xalloc.h"

void calib_source_of(const char *source, char *buf, size_t n)
{
    size_t len = strcspn(source, ";");

    while (len && isspace((unsigned char)source[len - 1]))
        len--;
    while (len && isspace((unsigned char)*source)) {
        source++;
        len--;
    }
    snprintf(buf, n, "%.*s", (int)len, source);
}

/* ---- the stacks of the runs -------------------------------------------- */

void calib_groups_release(struct calib_groups *gs)
{
    size_t i;

    for (i = 0; i < gs->n; i++)
        free(gs->g[i].sel);
    free(gs->g);
    gs->g = NULL;
    gs->n = 0;
}

enum cp_status calib_group_stacks(const struct calib_set *cs,
                                  struct catalog *cat, struct calib_groups *gs,
                                  struct diag *d)
{
    enum cp_status st = CP_OK;
    size_t i, k;

    gs->n = 0;
    gs->g = xcalloc(cs->n ? cs->n : 1, sizeof(*gs->g));
    for (i = 0; i < cs->n && !st; i++) {
        const char *id = cs->runs[i].res->sc.stack.id;
        struct calib_group *g;

        for (k = 0; k < gs->n; k++)
            if (!strcmp(gs->g[k].st.id, id))
                break;
        g = &gs->g[k];
        if (k == gs->n) {
            st = catalog_get_stack(cat, id, &g->st, NULL, d);
            if (st) {
                diag_prefix(d, cs->runs[i].id);
                break;
            }
            g->sel = xcalloc(cs->n, sizeof(*g->sel));
            gs->n++;
        }
        g->sel[g->nsel++] = i;
    }
    if (st)
        calib_groups_release(gs);
    return st;
}

/* ---- the typical stack ------------------------------------------------- */

struct typical {
    const char *except;
    size_t ncols, col_id, col_kind, col_kernel, col_knob[CK_COUNT];
    size_t n[CK_COUNT], cap;
    double *x[CK_COUNT];
};

/* Whether knob k acts on the stack of row v: attn_eff scales a fused
 * attention kernel's measured ceiling (stack_spec.attn_eff), which a
 * stack computing attention unfused (attn_kernel `unfused`: Megatron-LM
 * 2021-22, attention_materialised) never reaches, so its cell is the
 * knob's default, which no run of it can move: no value of the typical
 * stack. */
static bool knob_acts(const struct typical *t, const char *const *v,
                      enum calib_knob k)
{
    return !(k == CK_ATTN_EFF && !strcmp(v[t->col_kernel], "unfused"));
}

static enum cp_status take_typical(void *ctx, const char *const *v, size_t n)
{
    struct typical *t = ctx;
    size_t k;

    if (n < t->ncols || !strcmp(v[t->col_id], t->except) ||
        strcmp(v[t->col_kind], "train") != 0)
        return CP_OK;
    for (k = 0; k < CK_COUNT; k++) {
        if (!v[t->col_knob[k]][0] || !knob_acts(t, v, (enum calib_knob)k))
            continue; /* not stated: not a value of the typical stack */
        if (t->n[k] == t->cap) {
            size_t j;

            t->cap = t->cap ? 2 * t->cap : 16;
            for (j = 0; j < CK_COUNT; j++)
                t->x[j] = xrealloc(t->x[j], t->cap * sizeof(double));
        }
        t->x[k][t->n[k]++] = strtod(v[t->col_knob[k]], NULL);
    }
    return CP_OK;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;

    return (x > y) - (x < y);
}

enum cp_status calib_typical_knobs(struct catalog *cat, const char *except,
                                   double knobs[CK_COUNT], struct diag *d)
{
    const struct catalog_column *cols;
    struct typical t;
    enum cp_status st;
    size_t i, k;

    memset(&t, 0, sizeof(t));
    t.except = except;
    cols = catalog_columns(CATALOG_STACKS, &t.ncols);
    t.col_id = t.col_kind = t.col_kernel = t.ncols;
    for (k = 0; k < CK_COUNT; k++)
        t.col_knob[k] = t.ncols;
    for (i = 0; i < t.ncols; i++) {
        if (!strcmp(cols[i].name, "id"))
            t.col_id = i;
        if (!strcmp(cols[i].name, "kind"))
            t.col_kind = i;
        if (!strcmp(cols[i].name, "attn_kernel"))
            t.col_kernel = i;
        for (k = 0; k < CK_COUNT; k++)
            if (!strcmp(cols[i].name, calib_knob_info(k)->name))
                t.col_knob[k] = i;
    }
    for (k = 0; k < CK_COUNT; k++)
        if (t.col_knob[k] == t.ncols)
            return diag_set(d, CP_ERR_DB, "stacks", "no column %s for knob",
                            calib_knob_info(k)->name);
    if (t.col_kernel == t.ncols)
        return diag_set(d, CP_ERR_DB, "stacks", "no column attn_kernel");
    st = catalog_foreach(cat, CATALOG_STACKS, NULL, take_typical, &t, d);
    for (k = 0; k < CK_COUNT; k++) {
        size_t m = t.n[k];

        if (!m) {
            knobs[k] = calib_knob_info(k)->dflt;
            continue;
        }
        qsort(t.x[k], m, sizeof(double), cmp_double);
        knobs[k] =
            m % 2 ? t.x[k][m / 2] : (t.x[k][m / 2 - 1] + t.x[k][m / 2]) / 2;
    }
    for (k = 0; k < CK_COUNT; k++)
        free(t.x[k]);
    return st;
}

/* ---- leave one source out ---------------------------------------------- */

struct source_ref {
    char text[CP_TEXT_MAX];
    size_t run;
};

static int cmp_source(const void *a, const void *b)
{
    const struct source_ref *x = a, *y = b;
    int c = strcmp(x->text, y->text);

    return c ? c : (x->run > y->run) - (x->run < y->run);
}

/* The runs of group g whose source is (or, with held false, is not) src. */
static size_t select_runs(const struct calib_group *g, const char *src,
                          const struct source_ref *srcs, bool held, size_t *sel)
{
    size_t j, n = 0;

    for (j = 0; j < g->nsel; j++)
        if (!strcmp(srcs[g->sel[j]].text, src) == held)
            sel[n++] = g->sel[j];
    return n;
}

/* The held-out runs of source src and group g: appended to out.  The
 * stack is fitted on its other runs from the typical knobs (its row was
 * fitted with src): what those runs do not tell stays typical. */
static enum cp_status loso_one(const struct calib_set *cs,
                               const struct calib_group *g, const char *src,
                               const struct source_ref *by_run,
                               struct catalog *cat, struct calib_loso_case *out,
                               size_t *nout, struct diag *d)
{
    size_t *train = xmalloc(g->nsel * sizeof(*train));
    size_t *test = xmalloc(g->nsel * sizeof(*test));
    size_t ntrain = select_runs(g, src, by_run, false, train);
    size_t ntest = select_runs(g, src, by_run, true, test);
    struct calib_fit *fit = xcalloc(1, sizeof(*fit));
    struct stack_spec typical = g->st;
    double knobs[CK_COUNT], v;
    enum cp_status st;
    size_t j;

    st = calib_typical_knobs(cat, g->st.id, knobs, d);
    if (!st) {
        /* no runs left: nothing fitted, the knobs it has by definition */
        calib_set_knobs(&typical, knobs);
        calib_fit(cs, train, ntrain, &typical, fit);
        memcpy(knobs, fit->knobs, sizeof(knobs));
    }
    for (j = 0; j < ntest && !st; j++) {
        struct calib_loso_case *c = &out[(*nout)++];
        double want = cs->runs[test[j]].expected;

        c->run = test[j];
        c->group = g;
        c->fitted = fit->nactive;
        c->fallback = !fit->nactive;
        if (calib_predict(cs, test[j], &g->st, knobs, &v)) {
            c->predicted = v;
            c->error = (v - want) / want;
        } else {
            c->predicted = NAN;
            c->error = 1.0;
        }
    }
    free(fit);
    free(test);
    free(train);
    return st;
}

enum cp_status calib_loso(const struct calib_set *cs,
                          const struct calib_groups *gs, struct catalog *cat,
                          struct calib_loso_case **out, size_t *nout,
                          struct diag *d)
{
    struct source_ref *sorted = xcalloc(cs->n + 1, sizeof(*sorted));
    struct source_ref *by_run = xcalloc(cs->n + 1, sizeof(*by_run));
    size_t *order = xmalloc((gs->n + 1) * sizeof(*order));
    enum cp_status st = CP_OK;
    size_t i, j, k;

    *out = xcalloc(cs->n + 1, sizeof(**out));
    *nout = 0;
    for (i = 0; i < cs->n; i++) {
        calib_source_of(cs->runs[i].source, by_run[i].text,
                        sizeof(by_run[i].text));
        by_run[i].run = i;
    }
    memcpy(sorted, by_run, cs->n * sizeof(*sorted));
    qsort(sorted, cs->n, sizeof(*sorted), cmp_source);
    /* the stacks, in id order (the order of the held-out rows) */
    for (k = 0; k < gs->n; k++) {
        for (j = k;
             j > 0 && strcmp(gs->g[order[j - 1]].st.id, gs->g[k].st.id) > 0;
             j--)
            order[j] = order[j - 1];
        order[j] = k;
    }
    for (i = 0; i < cs->n && !st; i++) {
        const char *src = sorted[i].text;

        if (i && !strcmp(src, sorted[i - 1].text))
            continue; /* one pass per source */
        for (k = 0; k < gs->n && !st; k++) {
            const struct calib_group *g = &gs->g[order[k]];
            bool has = false;

            for (j = 0; j < g->nsel && !has; j++)
                has = !strcmp(by_run[g->sel[j]].text, src);
            if (has)
                st = loso_one(cs, g, src, by_run, cat, *out, nout, d);
        }
    }
    free(order);
    free(by_run);
    free(sorted);
    if (st) {
        free(*out);
        *out = NULL;
        *nout = 0;
    }
    return st;
}
