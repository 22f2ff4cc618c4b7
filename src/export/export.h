/*
 * export.h - JSON, CSV and text renderings of evaluated plans.  One metric
 * table (metrics.h) drives all three, so the numbers are the same in every
 * format; the plan echo comes from the plan key table (plan.h).
 *
 * Every function writes to a caller's FILE (stdout, a memory stream or an
 * atomic file) and returns CP_OK, CP_ERR_IO when a write fails or
 * CP_ERR_NOMEM when jansson cannot allocate.  Numbers are written in the C
 * numeric locale whatever LC_NUMERIC says ('.' decimals).  Nothing here
 * evaluates anything.
 */
#ifndef LLMPLAN_EXPORT_EXPORT_H
#define LLMPLAN_EXPORT_EXPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "core/diag.h"
#include "core/result.h"
#include "core/scenario.h"
#include "plan/resolve.h"
#include "plan/search.h"
#include "plan/size.h"

/* One evaluated plan: borrowed pointers, valid for the call. */
struct export_item {
    const char *name;                /* column header / title */
    const struct scenario *sc;       /* the inputs evaluated */
    const struct result *r;          /* the outputs */
    const struct plan_resolved *res; /* provenance; may be NULL */
};

/* Search statistics for the search exporters. */
struct export_search {
    uint64_t evaluated, feasible;
    double elapsed_s;
    const char *objective;
};

enum export_flags {
    EXPORT_EXPLAIN = 1 << 0, /* text: formulas and catalog provenance */
};

/* quote --format json: one object (plan, model, layout, ..., warnings). */
enum cp_status export_json_quote(FILE *out, const struct export_item *it,
                                 struct diag *d);
/* compare --format json: {"plans": [quote objects]}. */
enum cp_status export_json_compare(FILE *out, const struct export_item *items,
                                   size_t n, struct diag *d);
/* search --format json: {"search": {...}, "results": [quote objects]}. */
enum cp_status export_json_search(FILE *out, const struct export_search *s,
                                  const struct export_item *items, size_t n,
                                  struct diag *d);
/* The same, saying whether the search stopped at its work cap
 * ("stopped_early": true in the "search" object; export_json_search says
 * false). */
enum cp_status export_json_search_ex(FILE *out, const struct export_search *s,
                                     bool stopped_early,
                                     const struct export_item *items, size_t n,
                                     struct diag *d);

/* quote --vary: one end of a varied key's range (or the base plan). */
struct export_vary_end {
    const char *text;     /* the value as given ("1T"); NULL for the base */
    double value;         /* the same as a number */
    bool fits;            /* the held layout fits in memory there */
    bool days_known;      /* false: the run never finishes */
    bool build_known;     /* false: no price for the build side */
    bool cloud_known;     /* false: no price for the cloud side */
    double days, build_run_usd, cloud_run_usd, energy_mwh;
    double margin;        /* cloud minus build USD per GPU-hour (both known) */
    const char *verdict;  /* "build", "cloud" or "-" */
};

/* One varied key: low and high end, the margin's swing (swing_known
 * false when a margin is unknown at either end). */
struct export_vary_row {
    const char *name;     /* as given (an alias or a plan key) */
    const char *plan_key; /* the plan key it sets */
    bool swing_known;
    double swing;
    struct export_vary_end end[2];
};

/* quote --vary --format json: {"base": {...}, "vary": [{"key", "plan_key",
 * "swing_usd_per_gpu_hour", "flips_verdict", "low", "high"}]}; numbers as
 * JSON numbers, null where a value is unknown (no price, never finishes). */
enum cp_status export_json_vary(FILE *out, const struct export_vary_end *base,
                                const struct export_vary_row *rows, size_t n,
                                struct diag *d);
/* quote --vary --format csv: a header and one row per end (base first),
 * plain decimals, empty cells where a value is unknown. */
enum cp_status export_csv_vary(FILE *out, const struct export_vary_end *base,
                               const struct export_vary_row *rows, size_t n,
                               struct diag *d);
/* v as the shortest plain decimal that reads back exactly (no exponent,
 * '.' as the point): the CSV number format.  Returns buf. */
const char *export_plain_number(double v, char *buf, size_t n);

/* quote/compare --format csv: section,metric,unit,<name>... one row per
 * input and metric. */
enum cp_status export_csv_metrics(FILE *out, const struct export_item *items,
                                  size_t n, struct diag *d);
/* quote/compare --format csv --schedule: a generated-by row (version) and
 * date, the metrics as export_csv_metrics, the catalog source and as-of
 * date of every row used (prices included; as-of dates written as
 * YYYY-MM-DD, a year or month as its first day), the year-by-year finance
 * schedule (section schedule.year_N: capex, depreciation, energy, other
 * OpEx, residual, build and cloud cash, cumulative and NPV) and the
 * monthly cumulative series the TUI draws (series.month_N).  Cells a
 * missing price leaves without a value are empty. */
enum cp_status export_csv_finance(FILE *out, const struct export_item *items,
                                  size_t n, const char *generated_by,
                                  const char *date, struct diag *d);
/* quote/compare --format csv --schedule wide: the yearly schedule as a
 * finance sheet lays it out, a header "plan,year,capex_usd,..." and one
 * row per plan and year (0 .. IT life), one column per line item (USD).
 * Cells a missing price leaves without a value are empty. */
enum cp_status export_csv_schedule_wide(FILE *out,
                                        const struct export_item *items,
                                        size_t n, struct diag *d);
/* search --format csv: a header of metric names, one row per layout. */
enum cp_status export_csv_search(FILE *out, const struct export_item *items,
                                 size_t n, struct diag *d);

/* quote/compare --format table: sections of aligned rows; with n > 1 the
 * better value of each comparable row is marked '*'.  flags: EXPORT_*. */
enum cp_status export_text_metrics(FILE *out, const struct export_item *items,
                                   size_t n, unsigned flags, struct diag *d);
/* search --format table: one line per layout, best first. */
enum cp_status export_text_search(FILE *out, const struct export_search *s,
                                  const struct export_item *items, size_t n,
                                  struct diag *d);

/* Whether some item's workload has metrics section `section`
 * (metric_section_applies): the exports list a section only then. */
bool export_any_applies(const char *section, const struct export_item *items,
                        size_t n);

/* Human number for tables: grouped integers from 1000 up ("1,024"),
 * 4 significant digits below ("0.4123").  Returns buf. */
const char *export_human_number(double v, char *buf, size_t n);

/* size: the frontier (best by the objective first) with low-high ranges
 * and the excluded options by reason; as a table, JSON
 * ({"constraints", "search", "frontier", "excluded", "nearest"}) or CSV
 * (one row per option, frontier first). */
enum cp_status export_text_size(FILE *out, const struct size_result *s,
                                struct diag *d);
enum cp_status export_json_size(FILE *out, const struct size_result *s,
                                struct diag *d);
enum cp_status export_csv_size(FILE *out, const struct size_result *s,
                               struct diag *d);

#endif
