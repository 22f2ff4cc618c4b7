/*
 * export_csv.c - CSV through util/csvio (libcsv quoting; formula-like text
 * neutralised).  Numbers use the shortest text that reads back exactly,
 * as plain decimals with '.' (never e-notation: a spreadsheet must read a
 * number, and 1e+15 is text in some locales).  Every row has a unit.
 */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "export/export.h"
#include "export/metrics.h"
#include "util/csvio.h"
#include "util/xalloc.h"

#define CELL_MAX 400 /* 1e-300 written out in full */

/* The shortest decimal that reads back as v, without an exponent. */
static const char *csv_number(double v, char *buf, size_t n)
{
    char *e, *c;
    int prec, exp10, dec;

    for (prec = 1; prec <= 17; prec++) {
        snprintf(buf, n, "%.*g", prec, v);
        if (strtod(buf, NULL) == v)
            break;
    }
    e = strchr(buf, 'e');
    if (e) {
        /* Same significant digits, as a fixed-point number. */
        exp10 = (int)strtol(e + 1, NULL, 10);
        dec = prec - 1 - exp10;
        if (dec < 0)
            dec = 0;
        if (dec > 340)
            dec = 340;
        snprintf(buf, n, "%.*f", dec, v);
    }
    for (c = buf; *c; c++)
        if (*c == ',')
            *c = '.';
    return buf;
}

const char *export_plain_number(double v, char *buf, size_t n)
{
    return csv_number(v, buf, n);
}

/* The unit of a metric row: its own, else what kind of value it is. */
static const char *metric_unit(const struct metric *m)
{
    if (m->unit[0])
        return m->unit;
    switch (m->kind) {
    case MK_BOOL:
        return "yes/no";
    case MK_TEXT:
        return "text";
    case MK_U64:
    case MK_INT:
        return "count";
    default:
        return "1"; /* a ratio */
    }
}

/* The unit of a plan key's row, from its type and its name. */
static const char *plan_unit(const struct field_info *ki)
{
    static const struct {
        const char *suffix, *unit;
    } by_name[] = {
        {"usd_per_gpu_hour", "USD/GPU h"},
        {"usd_per_kwh", "USD/kWh"},
        {"kgco2_per_kwh", "kgCO2e/kWh"},
        {"usd_per_mw_year", "USD/MW-y"},
        {"usd_per_gpu_year", "USD/GPU-y"},
        {"_years", "years"},
        {"_frac", "1"},
        {"cost_of_capital", "1/y"},
        {"utilization", "1"},
        {"_min", "min"},
        {"_h", "h"},
        {"_tb", "TB"},
        {"gpu_hours", "GPU h"},
    };
    size_t i, len = strlen(ki->name), sl;

    switch (ki->type) {
    case PT_COUNT:
        return "count";
    case PT_BOOL:
        return "yes/no";
    case PT_ENUM:
        return "choice";
    case PT_ID:
        return "id";
    default:
        break;
    }
    for (i = 0; i < sizeof(by_name) / sizeof(by_name[0]); i++) {
        sl = strlen(by_name[i].suffix);
        if (len >= sl && strcmp(ki->name + len - sl, by_name[i].suffix) == 0)
            return by_name[i].unit;
    }
    return "1";
}

/* The cell text of metric m for r. */
static const char *metric_cell(const struct metric *m, const struct result *r,
                               char *buf, size_t n)
{
    if (!metric_known(m, r))
        return ""; /* no value: an empty cell, never a zero */
    switch (m->kind) {
    case MK_TEXT:
        return metric_text(m, r);
    case MK_BOOL:
        /* The plan echo's spelling, so a sheet has one yes/no. */
        return metric_value(m, r) != 0 ? "yes" : "no";
    case MK_U64:
    case MK_INT:
        snprintf(buf, n, "%.0f", metric_value(m, r));
        return buf;
    default:
        return csv_number(metric_value(m, r), buf, n);
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
        return csv_number(e.d, buf, n);
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

static enum cp_status metrics_rows(FILE *out, const struct export_item *items,
                                   size_t n, const char *generated_by,
                                   const char *date, struct diag *d)
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
    if (!st && generated_by) {
        /* Who made the file and when, for the finance sheet's audit. */
        cells[0] = "generated";
        cells[1] = "by";
        cells[2] = "text";
        for (i = 0; i < n; i++)
            cells[3 + i] = generated_by;
        st = row(out, cells, n + 3, d);
        cells[1] = "on";
        cells[2] = "date";
        for (i = 0; !st && i < n; i++)
            cells[3 + i] = date;
        if (!st)
            st = row(out, cells, n + 3, d);
    }
    /* The resolved inputs. */
    for (s = 0; !st && plan_sections[s]; s++) {
        if (!export_any_applies(plan_sections[s], items, n))
            continue;
        snprintf(section, sizeof(section), "plan.%s", plan_sections[s]);
        for (k = 0; !st && k < PLAN_KEY_COUNT; k++) {
            const struct field_info *ki = plan_key_info((enum plan_key)k);

            if (strcmp(ki->section, plan_sections[s]) != 0)
                continue;
            cells[0] = section;
            cells[1] = ki->key;
            cells[2] = plan_unit(ki);
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
        if (!export_any_applies(tab[k].section, items, n))
            continue;
        cells[0] = tab[k].section;
        cells[1] = tab[k].key;
        cells[2] = metric_unit(&tab[k]);
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
        cells[2] = "text";
        for (i = 0; i < n; i++)
            cells[3 + i] =
                k < items[i].r->nwarnings ? items[i].r->warnings[k] : "";
        st = row(out, cells, n + 3, d);
    }
    free(bufs);
    free(cells);
    return st;
}

enum cp_status export_csv_metrics(FILE *out, const struct export_item *items,
                                  size_t n, struct diag *d)
{
    return metrics_rows(out, items, n, NULL, NULL, d);
}

/* The catalog row behind plan key `key` in item it, or NULL. */
static const struct plan_source *source_of(const struct export_item *it,
                                           const char *key)
{
    size_t i;

    if (!it->res)
        return NULL;
    for (i = 0; i < it->res->nsources; i++)
        if (it->res->sources[i].key &&
            strcmp(it->res->sources[i].key, key) == 0)
            return &it->res->sources[i];
    return NULL;
}

/* One schedule value of year y: a field of struct cost_year. */
struct sched_col {
    const char *metric, *unit;
    size_t offset;
    unsigned need; /* the price it needs: COST_UNPRICED_BUILD or _CLOUD */
};

#define SCHED(name, field, need)                                               \
    {                                                                          \
        name, "USD", offsetof(struct cost_year, field), need                   \
    }
#define BUILD COST_UNPRICED_BUILD
#define CLOUD COST_UNPRICED_CLOUD

static const struct sched_col sched_cols[] = {
    SCHED("capex_usd", capex_usd, BUILD),
    SCHED("depreciation_usd", depreciation_usd, BUILD),
    SCHED("energy_usd", energy_usd, BUILD),
    SCHED("other_opex_usd", other_opex_usd, BUILD),
    SCHED("residual_usd", residual_usd, BUILD),
    SCHED("burst_usd", burst_usd, BUILD),
    SCHED("build_cash_usd", build_usd, BUILD),
    SCHED("cloud_cash_usd", cloud_usd, CLOUD),
    SCHED("build_cumulative_usd", build_cumulative_usd, BUILD),
    SCHED("cloud_cumulative_usd", cloud_cumulative_usd, CLOUD),
    SCHED("build_npv_usd", build_npv_usd, BUILD),
    SCHED("cloud_npv_usd", cloud_npv_usd, CLOUD),
};
#undef BUILD
#undef CLOUD

/* An as_of cell as one ISO 8601 date, YYYY-MM-DD, so a spreadsheet types
 * every row alike (a bare year reads as a number, a month as text or a
 * date): a row dated by year or month gives its first day.  Anything else
 * (empty, free text) is written as it is. */
static const char *iso_date(const char *v, char *buf, size_t n)
{
    size_t len = strlen(v), i;

    if (len != 4 && len != 7 && len != 10)
        return v;
    for (i = 0; i < len; i++) {
        bool dash = i == 4 || i == 7;

        if (dash ? v[i] != '-' : (v[i] < '0' || v[i] > '9'))
            return v;
    }
    snprintf(buf, n, "%.4s-%.2s-%.2s", v, len >= 7 ? v + 5 : "01",
             len == 10 ? v + 8 : "01");
    return buf;
}

enum cp_status export_csv_finance(FILE *out, const struct export_item *items,
                                  size_t n, const char *generated_by,
                                  const char *date, struct diag *d)
{
    static const char *const fields[] = {"source", "as_of", "price_source",
                                         "price_as_of"};
    const char **cells = xcalloc(n + 3, sizeof(*cells));
    char(*bufs)[CELL_MAX] = xcalloc(n, CELL_MAX);
    char section[48], metric[96];
    uint64_t y, maxy = 0, m, maxm = 0;
    size_t i, k, f;
    enum cp_status st;

    st = metrics_rows(out, items, n, generated_by, date, d);
    /* Where every catalog row (and so every price) came from. */
    for (k = 0; !st && k < PLAN_KEY_COUNT; k++) {
        const struct field_info *ki = plan_key_info((enum plan_key)k);
        bool any = false;

        if (ki->type != PT_ID)
            continue;
        for (i = 0; i < n; i++)
            any = any || source_of(&items[i], ki->name);
        for (f = 0; any && !st && f < 4; f++) {
            /* hardware.system.price_source, ... */
            snprintf(metric, sizeof(metric), "%s.%s", ki->name, fields[f]);
            cells[0] = "sources";
            cells[1] = metric;
            cells[2] = f % 2 ? "date" : "text";
            for (i = 0; i < n; i++) {
                const struct plan_source *src = source_of(&items[i], ki->name);
                const char *v = "";

                if (src)
                    v = f == 0   ? src->meta.source
                        : f == 1 ? src->meta.as_of
                        : f == 2 ? src->meta.price_source
                                 : src->meta.price_as_of;
                cells[3 + i] = f % 2 ? iso_date(v, bufs[i], CELL_MAX) : v;
            }
            st = row(out, cells, n + 3, d);
        }
    }
    /* Where each finance input comes from: the default's source (or why a
     * running cost is left out), or the plan's own value. */
    for (k = 0; !st && k < PLAN_KEY_COUNT; k++) {
        const struct field_info *ki = plan_key_info((enum plan_key)k);
        const char *why = scenario_finance_source(ki->name);
        struct scenario def;

        if (!why)
            continue;
        scenario_defaults(&def);
        snprintf(metric, sizeof(metric), "%s.source", ki->name);
        cells[0] = "sources";
        cells[1] = metric;
        cells[2] = "text";
        for (i = 0; i < n; i++) {
            struct plan_echo a, b;

            plan_echo_value(items[i].sc, items[i].r, (enum plan_key)k, &a);
            plan_echo_value(&def, items[i].r, (enum plan_key)k, &b);
            cells[3 + i] = a.d == b.d ? why : "the plan's value";
        }
        st = row(out, cells, n + 3, d);
    }
    /* Year by year over the IT life, then the monthly cash series. */
    for (i = 0; i < n; i++) {
        if (items[i].r->cost.schedule_years > maxy)
            maxy = items[i].r->cost.schedule_years;
        if (items[i].r->cost.series_months > maxm)
            maxm = items[i].r->cost.series_months;
    }
    for (y = 0; !st && y < maxy; y++)
        for (k = 0; !st && k < sizeof(sched_cols) / sizeof(sched_cols[0]);
             k++) {
            snprintf(section, sizeof(section), "schedule.year_%llu",
                     (unsigned long long)y);
            cells[0] = section;
            cells[1] = sched_cols[k].metric;
            cells[2] = sched_cols[k].unit;
            for (i = 0; i < n; i++) {
                const struct cost_result *c = &items[i].r->cost;
                double v;

                cells[3 + i] = "";
                if (y >= c->schedule_years ||
                    (c->unpriced & sched_cols[k].need))
                    continue;
                memcpy(&v, (const char *)&c->schedule[y] + sched_cols[k].offset,
                       sizeof(v));
                cells[3 + i] = csv_number(v, bufs[i], CELL_MAX);
            }
            st = row(out, cells, n + 3, d);
        }
    for (m = 0; !st && m < maxm; m++)
        for (k = 0; !st && k < 2; k++) {
            snprintf(section, sizeof(section), "series.month_%llu",
                     (unsigned long long)m);
            cells[0] = section;
            cells[1] = k ? "cloud_cumulative_usd" : "build_cumulative_usd";
            cells[2] = "USD";
            for (i = 0; i < n; i++) {
                const struct cost_result *c = &items[i].r->cost;
                bool unknown = k ? (c->unpriced & COST_UNPRICED_CLOUD)
                                 : (c->unpriced & COST_UNPRICED_BUILD);

                cells[3 + i] = "";
                if (m < c->series_months && !unknown)
                    cells[3 + i] = csv_number(k ? c->series_cloud_usd[m]
                                                : c->series_build_usd[m],
                                              bufs[i], CELL_MAX);
            }
            st = row(out, cells, n + 3, d);
        }
    free(bufs);
    free(cells);
    return st;
}

enum cp_status export_csv_schedule_wide(FILE *out,
                                        const struct export_item *items,
                                        size_t n, struct diag *d)
{
    const size_t ncol = sizeof(sched_cols) / sizeof(sched_cols[0]);
    const char **cells = xcalloc(ncol + 2, sizeof(*cells));
    char(*bufs)[CELL_MAX] = xcalloc(ncol, CELL_MAX);
    char year[24];
    size_t i, k;
    uint64_t y;
    enum cp_status st;

    cells[0] = "plan";
    cells[1] = "year";
    for (k = 0; k < ncol; k++)
        cells[2 + k] = sched_cols[k].metric;
    st = row(out, cells, ncol + 2, d);
    for (i = 0; !st && i < n; i++) {
        const struct cost_result *c = &items[i].r->cost;

        for (y = 0; !st && y < c->schedule_years; y++) {
            snprintf(year, sizeof(year), "%llu", (unsigned long long)y);
            cells[0] = items[i].name;
            cells[1] = year;
            for (k = 0; k < ncol; k++) {
                double v;

                cells[2 + k] = "";
                if (c->unpriced & sched_cols[k].need)
                    continue;
                memcpy(&v, (const char *)&c->schedule[y] + sched_cols[k].offset,
                       sizeof(v));
                cells[2 + k] = csv_number(v, bufs[k], CELL_MAX);
            }
            st = row(out, cells, ncol + 2, d);
        }
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
        if (!export_any_applies(tab[k].section, items, n))
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
            if (export_any_applies(tab[k].section, items, n))
                cells[nc++] =
                    metric_cell(&tab[k], items[i].r, bufs[k], CELL_MAX);
        st = row(out, cells, nc, d);
    }
    free(bufs);
    free(cells);
    return st;
}

/* One --vary row: the name, the plan key, then the end's cells. */
static enum cp_status vary_line(FILE *out, const char *name,
                                const char *plan_key,
                                const struct export_vary_end *e,
                                const char *swing, struct diag *d)
{
    char b[7][CELL_MAX];
    const char *cells[12];
    bool margin = e->build_known && e->cloud_known;

    cells[0] = name;
    cells[1] = plan_key;
    cells[2] = e->text ? csv_number(e->value, b[0], CELL_MAX) : "";
    cells[3] = e->text ? (e->fits ? "yes" : "no") : "";
    cells[4] = e->days_known ? csv_number(e->days, b[1], CELL_MAX) : "";
    cells[5] = e->days_known && e->build_known
                   ? csv_number(e->build_run_usd, b[2], CELL_MAX)
                   : "";
    cells[6] = e->days_known && e->cloud_known
                   ? csv_number(e->cloud_run_usd, b[3], CELL_MAX)
                   : "";
    cells[7] = e->days_known ? csv_number(e->energy_mwh, b[4], CELL_MAX) : "";
    cells[8] = margin ? csv_number(e->margin, b[5], CELL_MAX) : "";
    cells[9] = e->verdict;
    cells[10] = swing;
    return row(out, cells, 11, d);
}

enum cp_status export_csv_vary(FILE *out, const struct export_vary_end *base,
                               const struct export_vary_row *rows, size_t n,
                               struct diag *d)
{
    static const char *head[] = {"key",
                                 "plan_key",
                                 "value",
                                 "fits",
                                 "days",
                                 "build_run_usd",
                                 "cloud_run_usd",
                                 "energy_mwh",
                                 "margin_usd_per_gpu_hour",
                                 "verdict",
                                 "swing_usd_per_gpu_hour"};
    char sw[CELL_MAX];
    enum cp_status st = row(out, head, 11, d);
    size_t i, k;

    if (!st)
        st = vary_line(out, "base", "", base, "0", d);
    for (i = 0; !st && i < n; i++)
        for (k = 0; !st && k < 2; k++)
            st = vary_line(out, rows[i].name, rows[i].plan_key, &rows[i].end[k],
                           rows[i].swing_known
                               ? csv_number(rows[i].swing, sw, sizeof(sw))
                               : "",
                           d);
    return st;
}
