/*
 * export_text.c - aligned text tables for people: the same numbers as the
 * JSON and CSV, grouped by section, warnings at the end.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/serve.h"
#include "export/export.h"
#include "export/metrics.h"
#include "util/xalloc.h"

#define KEY_W 26
#define VAL_MIN_W 18
#define VAL_MAX 160 /* a cell: numbers, ids, a break-even reason */

/* "1234567" -> "1,234,567" for a whole number. */
static void grouped(double v, char *buf, size_t n)
{
    char digits[64];
    size_t len, i, j = 0;
    int neg = v < 0;

    snprintf(digits, sizeof(digits), "%.0f", fabs(v));
    len = strlen(digits);
    if (neg && j + 1 < n)
        buf[j++] = '-';
    for (i = 0; i < len && j + 2 < n; i++) {
        if (i && (len - i) % 3 == 0)
            buf[j++] = ',';
        buf[j++] = digits[i];
    }
    buf[j] = '\0';
}

bool export_any_applies(const char *section, const struct export_item *items,
                        size_t n)
{
    size_t i;

    for (i = 0; i < n; i++)
        if (metric_section_applies(section, items[i].r->workload))
            return true;
    return false;
}

const char *export_human_number(double v, char *buf, size_t n)
{
    double a = fabs(v);

    if (a >= 1e15)
        snprintf(buf, n, "%.3e", v);
    else if (a >= 1000)
        grouped(v, buf, n);
    else if (a < 1e-12)
        snprintf(buf, n, "0");
    else
        snprintf(buf, n, "%.4g", v);
    return buf;
}

static const char *metric_human(const struct metric *m, const struct result *r,
                                char *buf, size_t n)
{
    if (!metric_known(m, r)) {
        snprintf(buf, n, "-");
        return buf;
    }
    switch (m->kind) {
    case MK_TEXT:
        snprintf(buf, n, "%s", metric_text(m, r));
        break;
    case MK_BOOL:
        snprintf(buf, n, "%s", metric_value(m, r) != 0 ? "yes" : "no");
        break;
    case MK_U64:
    case MK_INT:
        grouped(metric_value(m, r), buf, n);
        break;
    default:
        export_human_number(metric_value(m, r), buf, n);
        break;
    }
    return buf;
}

static const char *echo_human(const struct export_item *it, enum plan_key k,
                              char *buf, size_t n)
{
    struct plan_echo e;

    plan_echo_value(it->sc, it->r, k, &e);
    switch (e.type) {
    case PT_COUNT:
        grouped((double)e.u, buf, n);
        break;
    case PT_NUMBER:
        export_human_number(e.d, buf, n);
        break;
    case PT_BOOL:
        snprintf(buf, n, "%s", e.u ? "yes" : "no");
        break;
    default:
        snprintf(buf, n, "%s", e.s[0] ? e.s : "-");
        break;
    }
    return buf;
}

/* Index of the best item for metric m, or -1 when there is no winner
 * (not comparable, or all equal). */
static void mark_best(const struct metric *m, const struct export_item *items,
                      size_t n, int *best)
{
    double top = 0;
    size_t i, winners = 0, seen = 0;

    for (i = 0; i < n; i++)
        best[i] = 0;
    if (n < 2 || m->better == MB_NONE || m->kind != MK_F64)
        return;
    for (i = 0; i < n; i++)
        if (!metric_known(m, items[i].r))
            return;
    for (i = 0; i < n; i++) {
        double v = metric_value(m, items[i].r);

        if (!metric_section_applies(m->section, items[i].r->workload))
            continue;
        if (!seen++ || (m->better == MB_LOWER ? v < top : v > top))
            top = v;
    }
    if (seen < 2)
        return; /* nothing to compare with */
    for (i = 0; i < n; i++)
        if (metric_section_applies(m->section, items[i].r->workload) &&
            metric_value(m, items[i].r) == top) {
            best[i] = 1;
            winners++;
        }
    if (winners == seen)
        for (i = 0; i < n; i++)
            best[i] = 0;
}

struct table {
    FILE *out;
    size_t n;
    int w; /* value column width */
    int err;
};

static void line(struct table *t, const char *key, char (*vals)[VAL_MAX],
                 const int *best, const char *unit)
{
    char buf[1024];
    size_t used, i;
    int w;

    w = snprintf(buf, sizeof(buf), "  %-*s", KEY_W, key);
    used = w > 0 ? (size_t)w : 0;
    for (i = 0; i < t->n && used < sizeof(buf); i++) {
        w = snprintf(buf + used, sizeof(buf) - used, " %*s%c", t->w, vals[i],
                     best && best[i] ? '*' : ' ');
        used += w > 0 ? (size_t)w : 0;
    }
    if (used < sizeof(buf) && unit[0])
        snprintf(buf + used, sizeof(buf) - used, " %s", unit);
    used = strlen(buf);
    while (used && buf[used - 1] == ' ')
        buf[--used] = '\0';
    if (fprintf(t->out, "%s\n", buf) < 0)
        t->err = 1;
}

static void sources(struct table *t, const struct plan_resolved *res)
{
    size_t i;

    if (!res || !res->nsources)
        return;
    fprintf(t->out, "\nsources\n");
    for (i = 0; i < res->nsources; i++) {
        const struct plan_source *s = &res->sources[i];
        char buf[CP_TEXT_MAX + 32];

        fprintf(t->out, "  %-*s %s\n", KEY_W, s->key, s->id);
        fprintf(t->out, "  %-*s   %s\n", KEY_W, "",
                catalog_meta_text(&s->meta, false, buf, sizeof(buf)));
        if (catalog_meta_text(&s->meta, true, buf, sizeof(buf))[0])
            fprintf(t->out, "  %-*s   price: %s\n", KEY_W, "", buf);
    }
}

enum cp_status export_text_metrics(FILE *out, const struct export_item *items,
                                   size_t n, unsigned flags, struct diag *d)
{
    struct table t = {out, n, VAL_MIN_W, 0};
    char(*vals)[VAL_MAX] = xcalloc(n ? n : 1, VAL_MAX);
    int *best = xcalloc(n ? n : 1, sizeof(int));
    const struct metric *tab;
    const char *prev = "";
    char key[96];
    size_t ntab, i, k, s;

    tab = metrics_table(&ntab);
    /* One value width for the whole table: the widest cell. */
    for (i = 0; i < n; i++) {
        if ((int)strlen(items[i].name) > t.w)
            t.w = (int)strlen(items[i].name);
        for (k = 0; k < PLAN_KEY_COUNT; k++) {
            echo_human(&items[i], (enum plan_key)k, vals[0], VAL_MAX);
            if ((int)strlen(vals[0]) > t.w)
                t.w = (int)strlen(vals[0]);
        }
        for (k = 0; k < ntab; k++) {
            /* A sentence (why there is no break-even) overflows its
             * column rather than widening every other one. */
            if (strcmp(tab[k].key, "breakeven_reason") == 0)
                continue;
            metric_human(&tab[k], items[i].r, vals[0], VAL_MAX);
            if ((int)strlen(vals[0]) > t.w)
                t.w = (int)strlen(vals[0]);
        }
    }
    /* Title: the plan names. */
    if (n == 1) {
        const struct scenario *sc = items[0].sc;

        const struct result *r0 = items[0].r;
        double g = r0->workload == WORKLOAD_SERVE ? r0->serve.gpus
                                                  : (double)sc->gpus;

        fprintf(out, "plan %s: %s %son %.0f x %s (%s, %s)\n", items[0].name,
                sc->model.id[0] ? sc->model.id : "custom model",
                r0->workload == WORKLOAD_SERVE ? "served " : "", g,
                sc->accel.id, sc->system.id, sc->fabric.id);
    } else {
        fprintf(out, "  %-*s", KEY_W, "");
        for (i = 0; i < n; i++)
            fprintf(out, " %*s%s", t.w, items[i].name, i + 1 < n ? " " : "");
        fprintf(out, "\n");
    }
    for (s = 0; plan_sections[s]; s++) {
        if (!export_any_applies(plan_sections[s], items, n))
            continue;
        fprintf(out, "\nplan.%s\n", plan_sections[s]);
        for (k = 0; k < PLAN_KEY_COUNT; k++) {
            const struct field_info *ki = plan_key_info((enum plan_key)k);

            if (strcmp(ki->section, plan_sections[s]) != 0)
                continue;
            for (i = 0; i < n; i++) {
                if (metric_section_applies(ki->section, items[i].r->workload))
                    echo_human(&items[i], (enum plan_key)k, vals[i], VAL_MAX);
                else
                    snprintf(vals[i], VAL_MAX, "-");
            }
            line(&t, ki->key, vals, NULL, "");
        }
    }
    for (k = 0; k < ntab; k++) {
        const struct metric *m = &tab[k];

        if (!export_any_applies(m->section, items, n))
            continue;
        if (strcmp(prev, m->section) != 0) {
            fprintf(out, "\n%s\n", m->section);
            prev = m->section;
        }
        for (i = 0; i < n; i++) {
            if (metric_section_applies(m->section, items[i].r->workload))
                metric_human(m, items[i].r, vals[i], VAL_MAX);
            else
                snprintf(vals[i], VAL_MAX, "-");
        }
        mark_best(m, items, n, best);
        snprintf(key, sizeof(key), "%s", m->key);
        line(&t, key, vals, best, m->unit);
        if (flags & EXPORT_EXPLAIN)
            fprintf(out, "  %-*s   = %s\n", KEY_W, "", m->formula);
    }
    for (i = 0; i < n; i++) {
        const struct result *r = items[i].r;
        uint64_t w;

        if (!r->nwarnings)
            continue;
        fprintf(out, "\nwarnings%s%s\n", n > 1 ? ": " : "",
                n > 1 ? items[i].name : "");
        for (w = 0; w < r->nwarnings && w < RESULT_MAX_WARNINGS; w++)
            fprintf(out, "  - %s\n", r->warnings[w]);
    }
    if (flags & EXPORT_EXPLAIN)
        for (i = 0; i < n; i++)
            sources(&t, items[i].res);
    if (n > 1)
        fprintf(out, "\n* better value (lower cost, time, memory and energy; "
                     "higher throughput, mfu, goodput)\n");
    free(vals);
    free(best);
    if (t.err || ferror(out))
        return diag_set(d, CP_ERR_IO, "output", "cannot write output");
    return CP_OK;
}

/* The search's last lines: how many `what` it evaluated and how many
 * `kept` (fit in memory, ...), its time, and the warnings of rank 1. */
static enum cp_status search_tail(FILE *out, const struct export_search *s,
                                  const char *what, const char *kept,
                                  const struct export_item *items, size_t n,
                                  struct diag *d)
{
    size_t i;

    fprintf(out, "\n%llu %s evaluated, %llu %s %.2f s (objective: %s)\n",
            (unsigned long long)s->evaluated, what,
            (unsigned long long)s->feasible, kept, s->elapsed_s, s->objective);
    if (n && items[0].r->nwarnings) {
        fprintf(out, "\nwarnings (rank 1)\n");
        for (i = 0; i < items[0].r->nwarnings && i < RESULT_MAX_WARNINGS; i++)
            fprintf(out, "  - %s\n", items[0].r->warnings[i]);
    }
    if (ferror(out))
        return diag_set(d, CP_ERR_IO, "output", "cannot write output");
    return CP_OK;
}

/* Serving layouts: replica shape, batch, latency, throughput, price. */
static enum cp_status search_serve(FILE *out, const struct export_search *s,
                                   const struct export_item *items, size_t n,
                                   struct diag *d)
{
    char c[8][32];
    size_t i;

    fprintf(out, "search %s: %s serving on %s, best %zu by %s\n\n",
            items[0].name,
            items[0].sc->model.id[0] ? items[0].sc->model.id : "custom model",
            items[0].sc->accel.id, n, s->objective);
    fprintf(out, "%4s %3s %3s %9s %7s %8s %7s %9s %9s %10s %10s %4s\n", "rank",
            "tp", "pp", "max_batch", "batch", "replicas", "gpus", "ttft_ms",
            "tpot_ms", "tok_s_gpu", "usd_mtok", "fits");
    for (i = 0; i < n; i++) {
        const struct serve_result *v = &items[i].r->serve;
        const struct layout *l = &items[i].r->layout;

        export_human_number(v->max_batch, c[0], sizeof(c[0]));
        export_human_number(v->batch, c[1], sizeof(c[1]));
        export_human_number(v->replicas, c[2], sizeof(c[2]));
        export_human_number(v->gpus, c[3], sizeof(c[3]));
        export_human_number(v->ttft_ms, c[4], sizeof(c[4]));
        export_human_number(v->tpot_ms, c[5], sizeof(c[5]));
        if (!v->latency_known)
            snprintf(c[4], sizeof(c[4]), "-");
        if (!serve_tpot_known(v))
            snprintf(c[5], sizeof(c[5]), "-");
        export_human_number(v->output_tokens_per_s_per_gpu, c[6], sizeof(c[6]));
        export_human_number(v->usd_per_mtok_build, c[7], sizeof(c[7]));
        fprintf(out, "%4zu %3llu %3llu %9s %7s %8s %7s %9s %9s %10s %10s %4s\n",
                i + 1, (unsigned long long)l->tp, (unsigned long long)l->pp,
                c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7],
                v->fits ? "yes" : "no");
    }
    return search_tail(out, s, "replicas", "meet memory and the targets,",
                       items, n, d);
}

enum cp_status export_text_search(FILE *out, const struct export_search *s,
                                  const struct export_item *items, size_t n,
                                  struct diag *d)
{
    size_t i;
    char mem[32], step[32], mfu[32], days[32], usd[32];

    if (n && items[0].r->workload == WORKLOAD_SERVE)
        return search_serve(out, s, items, n, d);
    if (n) {
        const struct scenario *sc = items[0].sc;

        fprintf(out, "search %s: %s on %llu x %s, best %zu by %s\n\n",
                items[0].name, sc->model.id[0] ? sc->model.id : "custom model",
                (unsigned long long)sc->gpus, sc->accel.id, n, s->objective);
    }
    fprintf(out,
            "%4s %4s %4s %6s %3s %3s %4s %3s %-9s %3s %4s %9s %4s %9s %6s "
            "%8s %16s\n",
            "rank", "tp", "pp", "dp", "cp", "ep", "mb", "v", "recompute", "sp",
            "zero", "mem_gib", "fits", "step_s", "mfu", "days",
            "build_run_usd");
    for (i = 0; i < n; i++) {
        const struct result *r = items[i].r;
        const struct layout *l = &r->layout;

        export_human_number(r->memory.total_bytes / 1073741824.0, mem,
                            sizeof(mem));
        export_human_number(r->time.step_s, step, sizeof(step));
        export_human_number(r->time.mfu, mfu, sizeof(mfu));
        export_human_number(r->reliability.effective_train_days, days,
                            sizeof(days));
        export_human_number(r->cost.build.run_usd, usd, sizeof(usd));
        fprintf(out,
                "%4zu %4llu %4llu %6llu %3llu %3llu %4llu %3llu %-9s %3s %4d "
                "%9s %4s %9s %6s %8s %16s\n",
                i + 1, (unsigned long long)l->tp, (unsigned long long)l->pp,
                (unsigned long long)l->dp, (unsigned long long)l->cp,
                (unsigned long long)l->ep, (unsigned long long)l->microbatch,
                (unsigned long long)l->interleave,
                recompute_name(l->recompute) ? recompute_name(l->recompute)
                                             : "?",
                l->sequence_parallel ? "yes" : "no", l->zero, mem,
                r->memory.fits ? "yes" : "no", step, mfu, days, usd);
    }
    return search_tail(out, s, "layouts", "fit in memory,", items, n, d);
}
