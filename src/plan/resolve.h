/*
 * resolve.h - from a plan to a scenario and a result: catalog lookups,
 * defaults, the layout search for "auto", validation and evaluation.
 *
 * plan_resolve() starts from scenario_defaults(), copies the catalog rows
 * the plan names (or their defaults: the accelerator's first system, the
 * system's fabric, "parallel-fs" storage, the "us-average" site, the
 * cheapest cloud offer for the accelerator at the term), applies every
 * explicit key on top, and records where each row came from.
 * plan_evaluate() adds the search and scenario_eval().
 *
 * Errors name the key or the option the value came from: unknown catalog
 * ids (CP_ERR_NOT_FOUND), missing required keys (CP_ERR_USAGE), values
 * scenario_validate() rejects (CP_ERR_RANGE / CP_ERR_LAYOUT).  All exit 2;
 * catalog failures (CP_ERR_DB, CP_ERR_IO) exit 1.
 *
 * Ownership: everything is caller-owned plain data; the catalog is only
 * borrowed for the call.
 */
#ifndef LLMPLAN_PLAN_RESOLVE_H
#define LLMPLAN_PLAN_RESOLVE_H

#include <stdbool.h>
#include <stddef.h>

#include "catalog/catalog.h"
#include "core/result.h"
#include "core/scenario.h"
#include "plan/plan.h"
#include "plan/search.h"

#define PLAN_SOURCES_MAX 12
#define PLAN_NOTES_MAX 4

/* A catalog row the scenario was built from (for quote --explain). */
struct plan_source {
    enum catalog_kind kind;
    const char *key; /* the plan key that chose it: "hardware.system" */
    char id[CP_ID_MAX];
    struct catalog_meta meta;
};

struct plan_resolved {
    struct scenario sc;        /* layout: fixed values; auto ones pending */
    struct search_space space; /* fixed layout values, 0/-1 = auto */
    bool needs_search;         /* some layout value is auto */
    size_t nsources;
    struct plan_source sources[PLAN_SOURCES_MAX];
    size_t nnotes; /* warnings found while resolving */
    char notes[PLAN_NOTES_MAX][RESULT_WARNING_MAX];
};

enum plan_resolve_flags {
    /* train.tokens is required (CP_ERR_USAGE naming it); without this flag
     * a missing train.tokens is 0 with a note: memory and per-step
     * figures need no token budget, the run's totals are then 0. */
    PLAN_NEED_TOKENS = 1 << 0,
};

/* Resolve p against cat into *out (fully overwritten). */
enum cp_status plan_resolve(const struct plan *p, struct catalog *cat,
                            unsigned flags, struct plan_resolved *out /* OUT */,
                            struct diag *d);

/* Validate everything but the layout (which the search still has to
 * choose): CP_OK or the first non-layout problem. */
enum cp_status plan_validate_inputs(const struct scenario *sc, struct diag *d);

/* A plan resolved, searched (when some layout value is auto), validated
 * and evaluated. */
struct plan_outcome {
    struct plan_resolved res; /* res.sc holds the layout evaluated */
    struct result result;
    bool searched;
    struct search_result search; /* when searched */
};

/* Resolve, search with obj, validate and evaluate p.  When no layout fits
 * in memory the least-memory layout is evaluated (memory.fits false, a
 * warning) and CP_OK is returned: that is a result, not an error. */
enum cp_status plan_evaluate(const struct plan *p, struct catalog *cat,
                             enum objective obj,
                             struct plan_outcome *out /* OUT */,
                             struct diag *d);

/* plan_evaluate whose layout search (when some layout value is auto)
 * reports progress and stops when *cancel becomes non-zero
 * (CP_ERR_CANCELLED; out is then incomplete).  progress, ctx and cancel
 * may be NULL. */
enum cp_status plan_evaluate_ex(const struct plan *p, struct catalog *cat,
                                enum objective obj, search_progress_fn progress,
                                void *ctx, const volatile int *cancel,
                                struct plan_outcome *out /* OUT */,
                                struct diag *d);

/* The second half of plan_evaluate_ex: out->res holds a resolved plan
 * (plan_resolve, possibly changed since: calibrate sets a stack's knobs
 * in out->res.sc.stack); search, validate and evaluate it. */
enum cp_status plan_evaluate_resolved(enum objective obj,
                                      search_progress_fn progress, void *ctx,
                                      const volatile int *cancel,
                                      struct plan_outcome *out /* IN/OUT */,
                                      struct diag *d);

/* The best layouts of a plan, evaluated in full: the one search pipeline
 * of `llmplan search` and the TUI's search view. */
struct plan_layouts {
    struct plan_resolved res; /* the plan the layouts belong to */
    struct search_result sr;
    size_t n; /* == sr.n */
    struct scenario sc[SEARCH_TOP_MAX];
    struct result r[SEARCH_TOP_MAX]; /* with the search's warnings */
};

/* Resolve p, validate its inputs, search the layouts it leaves auto (its
 * own search space: fixed layout keys held, interleave searched when
 * auto, exactly as plan_evaluate chooses its layout) and evaluate the best
 * top_n in full, each carrying the warnings of the search (nothing fits,
 * stopped early).  progress/ctx/cancel as plan_search.  out is large:
 * allocate it. */
enum cp_status plan_search_layouts(const struct plan *p, struct catalog *cat,
                                   enum objective obj, size_t top_n,
                                   struct plan_layouts *out /* OUT */,
                                   search_progress_fn progress, void *ctx,
                                   const volatile int *cancel,
                                   struct diag *d);

/* Evaluate res->sc with the given layout into out, adding res->notes. */
void plan_eval_layout(const struct plan_resolved *res, const struct layout *lay,
                      struct scenario *sc /* OUT */,
                      struct result *out /* OUT */);

/* plan_eval_layout for a search hit: its layout and the attention kernel
 * the search chose for it. */
void plan_eval_hit(const struct plan_resolved *res,
                   const struct search_hit *hit, struct scenario *sc /* OUT */,
                   struct result *out /* OUT */);

/* The resolved value of key k (for the JSON/CSV "plan" echo): what the
 * evaluation used, with auto replaced by the chosen value and catalog
 * defaults filled in. */
struct plan_echo {
    enum field_type type;
    uint64_t u;    /* COUNT, BOOL */
    double d;      /* NUMBER */
    const char *s; /* ENUM and ID (static or inside sc) */
};
void plan_echo_value(const struct scenario *sc, const struct result *r,
                     enum plan_key k, struct plan_echo *out /* OUT */);

#endif
