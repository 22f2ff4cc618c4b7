/*
 * export_csv.c - CSV through util/csvio (libcsv quoting).  Numbers use the
 * shortest text that reads back exactly, with '.' decimals.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "export/export.h"
#include "export/metrics.h"
#include "util/csvio.h"
#include "util/xalloc.h"

#define CELL_MAX 64

/* The cell text of metric m for r. */
static const char *metric_cell(const struct metric *m, const struct result *r,
                               char *buf, size_t n)
{
    switch (m->kind) {
    case MK_TEXT:
        return metric_text(m, r);
    case MK_BOOL:
        return metric_value(m, r) != 0 ? "true" : "false";
    case MK_U64:
    case MK_INT:
        snprintf(buf, n, "%.0f", metric_value(m, r));
        return buf;
    default:
        plan_format_number(metric_value(m, r), buf, n);
        return buf;
    }
}

static const char *echo_cell(const struct export_item *it, enum plan_key k,
                             char *buf, size_t n)
{
    struct plan_echo e;

    plan_echo_value(it->sc, it->r, k, &e);
    switch (e.type) {
    case PT_COUNT:
        snprintf(buf, n, "%llu", (unsigned long long)e.u);
        return buf;
    case PT_NUMBER:
        plan_format_number(e.d, buf, n);
        return buf;
    case PT_BOOL:
        return e.u ? "yes" : "no";
    default:
        return e.s;
    }
}

/* Write one row: three label cells and one value per item. */
static enum cp_status row(FILE *out, const char **cells, size_t n,
                          struct diag *d)
{
    if (csvio_write_row(out, cells, n) != 0)
        return diag_set(d, CP_ERR_IO, "csv", "cannot write output");
    return CP_OK;
}

/* A section some item's workload has. */
static bool any_applies(const char *section, const struct export_item *items,
                        size_t n)
{
    size_t i;

    for (i = 0; i < n; i++)
        if (metric_section_applies(section, items[i].r->workload))
            return true;
    return false;
}

enum cp_status export_csv_metrics(FILE *out, const struct export_item *items,
                                  size_t n, struct diag *d)
{
    const char **cells = xcalloc(n + 3, sizeof(*cells));
    char(*bufs)[CELL_MAX] = xcalloc(n, CELL_MAX);
    char section[48], label[16];
    const struct metric *tab;
    size_t ntab, i, k, s;
    uint64_t maxw = 0;
    enum cp_status st;

    cells[0] = "section";
    cells[1] = "metric";
    cells[2] = "unit";
    for (i = 0; i < n; i++)
        cells[3 + i] = items[i].name;
    st = row(out, cells, n + 3, d);
    /* The resolved inputs. */
    for (s = 0; !st && plan_sections[s]; s++) {
        if (!any_applies(plan_sections[s], items, n))
            continue;
        snprintf(section, sizeof(section), "plan.%s", plan_sections[s]);
        for (k = 0; !st && k < PLAN_KEY_COUNT; k++) {
            const struct plan_key_info *ki = plan_key_info((enum plan_key)k);

            if (strcmp(ki->section, plan_sections[s]) != 0)
                continue;
            cells[0] = section;
            cells[1] = ki->key;
            cells[2] = "";
            for (i = 0; i < n; i++)
                cells[3 + i] =
                    metric_section_applies(ki->section, items[i].r->workload)
                        ? echo_cell(&items[i], (enum plan_key)k, bufs[i],
                                    CELL_MAX)
                        : "";
            st = row(out, cells, n + 3, d);
        }
    }
    tab = metrics_table(&ntab);
    for (k = 0; !st && k < ntab; k++) {
        if (!any_applies(tab[k].section, items, n))
            continue;
        cells[0] = tab[k].section;
        cells[1] = tab[k].key;
        cells[2] = tab[k].unit;
        for (i = 0; i < n; i++)
            cells[3 + i] =
                metric_section_applies(tab[k].section, items[i].r->workload)
                    ? metric_cell(&tab[k], items[i].r, bufs[i], CELL_MAX)
                    : "";
        st = row(out, cells, n + 3, d);
    }
    for (i = 0; i < n; i++)
        if (items[i].r->nwarnings > maxw)
            maxw = items[i].r->nwarnings;
    for (k = 0; !st && k < maxw && k < RESULT_MAX_WARNINGS; k++) {
        snprintf(label, sizeof(label), "%zu", k + 1);
        cells[0] = "warnings";
        cells[1] = label;
        cells[2] = "";
        for (i = 0; i < n; i++)
            cells[3 + i] =
                k < items[i].r->nwarnings ? items[i].r->warnings[k] : "";
        st = row(out, cells, n + 3, d);
    }
    free(bufs);
    free(cells);
    return st;
}

enum cp_status export_csv_search(FILE *out, const struct export_item *items,
                                 size_t n, struct diag *d)
{
    const struct metric *tab;
    size_t ntab, i, k, nc;
    const char **cells;
    char(*bufs)[CELL_MAX];
    char rank[24];
    enum cp_status st;

    tab = metrics_table(&ntab);
    cells = xcalloc(ntab + 1, sizeof(*cells));
    bufs = xcalloc(ntab, CELL_MAX);
    cells[0] = "rank";
    nc = 1;
    for (k = 0; k < ntab; k++) {
        if (!any_applies(tab[k].section, items, n))
            continue;
        snprintf(bufs[k], CELL_MAX, "%s.%s", tab[k].section, tab[k].key);
        cells[nc++] = bufs[k];
    }
    st = row(out, cells, nc, d);
    for (i = 0; !st && i < n; i++) {
        snprintf(rank, sizeof(rank), "%zu", i + 1);
        cells[0] = rank;
        nc = 1;
        for (k = 0; k < ntab; k++)
            if (any_applies(tab[k].section, items, n))
                cells[nc++] =
                    metric_cell(&tab[k], items[i].r, bufs[k], CELL_MAX);
        st = row(out, cells, nc, d);
    }
    free(bufs);
    free(cells);
    return st;
}
