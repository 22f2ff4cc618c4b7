/*
 * metrics.h - the one table of reported numbers.  Each row says where a
 * metric lives in struct result, its unit and scale (bytes -> GiB), which
 * direction is better (for compare) and a one-line formula (for
 * quote --explain).  JSON, CSV, the text table and the TUI all iterate it,
 * so a row added here appears everywhere at once.
 *
 * Sections may be nested with '.' ("cost.build" becomes cost -> build in
 * JSON).  Rows of a section are contiguous and sections come in output
 * order: the JSON key order of README "Output".
 *
 * Never: computing numbers.  A metric is a read (times a constant scale)
 * of a field core computed.
 */
#ifndef LLMPLAN_EXPORT_METRICS_H
#define LLMPLAN_EXPORT_METRICS_H

#include <stdbool.h>
#include <stddef.h>

#include "core/result.h"

enum metric_kind {
    MK_F64,  /* double field times scale */
    MK_U64,  /* uint64_t field (a count) */
    MK_INT,  /* int field */
    MK_BOOL, /* bool field */
    MK_TEXT, /* a word (recompute, cooling, cheaper, ...) via text() */
};

enum metric_better { MB_NONE, MB_LOWER, MB_HIGHER };

struct metric {
    const char *section; /* "memory", "cost.build" */
    const char *key;     /* "weights_gib": the unit is in the name */
    const char *unit;    /* short unit for tables: "GiB", "s", "USD" */
    enum metric_kind kind;
    size_t offset; /* offsetof(struct result, ...) */
    double scale;  /* MK_F64 only */
    const char *(*text)(const struct result *r); /* MK_TEXT */
    enum metric_better better;
    const char *formula; /* one line for --explain */
    /* NULL, or false when the value does not exist for r (a missing
     * price, no break-even): JSON null, an empty CSV cell, "-". */
    bool (*known)(const struct result *r);
};

/* The table and its length. */
const struct metric *metrics_table(size_t *n /* OUT */);

/* The numeric value (booleans 0/1); 0 for MK_TEXT.  Finite for results of
 * scenario_eval (asserted). */
double metric_value(const struct metric *m, const struct result *r);

/* Whether m has a value for r (see struct metric.known). */
bool metric_known(const struct metric *m, const struct result *r);

/* Whether a section of the metric table or of the plan echo ("time",
 * "cost.build", "train") belongs to results of workload w: time,
 * reliability and the train keys are training's, serve serving's, the
 * rest both.  Exporters leave the others out (JSON) or blank (tables
 * lining up plans of both workloads). */
bool metric_section_applies(const char *section, enum workload_kind w);

/* The text of an MK_TEXT metric ("" otherwise); never NULL. */
const char *metric_text(const struct metric *m, const struct result *r);

#endif
