/*
 * size_int.h - what size.c (training) and size_serve.c (serving) share:
 * the catalog's systems and offers, the plan for one system, the frontier
 * and its summary, and a small thread pool.  Internal to src/plan.
 */
#ifndef LLMPLAN_PLAN_SIZE_INT_H
#define LLMPLAN_PLAN_SIZE_INT_H

#include "plan/size.h"

struct size_sys_row {
    char id[CP_ID_MAX];
    char accel[CP_ID_MAX];
};

struct size_offer_row {
    char id[CP_ID_MAX];
    char accel[CP_ID_MAX];
    enum cloud_term term;
};

/* Every system and every (offer, term) of the catalog: no bound but
 * memory (grown with xrealloc; size_rows_release frees them). */
struct size_rows {
    enum catalog_kind kind;
    int c_id, c_accel, c_term;
    size_t nsys, noff, cap_sys, cap_off;
    struct size_sys_row *sys;
    struct size_offer_row *off;
};

/* Load them into r (zeroed by the caller); release with
 * size_rows_release even on failure. */
enum cp_status size_load_rows(struct catalog *cat,
                              struct size_rows *r /* OUT */, struct diag *d);
void size_rows_release(struct size_rows *r);

/* CP_ERR_NOT_FOUND naming the first of opts->ids that is neither a system
 * nor an accelerator of any system in rw (d->where "--accel"). */
/* Whether the search has systems to run on: CP_ERR_NOT_FOUND naming
 * --accel when no catalog system is built from the accelerators asked for
 * (any false); the first system's own error, said once, when the plan is
 * wrong for every one (nsys 0); else CP_OK. */
enum cp_status size_check_systems(const struct size_opts *o, bool any,
                                  size_t nsys, const struct diag *first,
                                  enum cp_status first_st, struct diag *d);

enum cp_status size_check_ids(const struct size_opts *o,
                              const struct size_rows *rw, struct diag *d);

/* How many (offer, term) rows of rw are for accelerator accel. */
size_t size_offers_for(const struct size_rows *rw, const char *accel);

/* A measured error per software stack, as `make validate` writes it
 * (stack_errors.h, serve_errors.h): the stack, its relative error, and
 * how many runs or rows it is measured on. */
struct size_error_row {
    const char *stack;
    double mape;
    int rows;
};

/* The limits an option of either workload is held to: the site's power
 * and rack density for what is owned, its cash against --budget and its
 * run cost (a run's, or a serving fleet's a day) against --budget-run. */
enum size_why size_judge_limits(const struct size_opts *o, bool rented,
                                double facility_mw, double rack_kw,
                                double cash, double run_usd);

/* The error of stack_id in tab (n rows), or `overall` for a stack
 * without rows of its own. */
double size_error_of(const struct size_error_row *tab, size_t n,
                     const char *stack_id, double overall);

/* The GPUs a system is bought in: system.unit_gpus, else a whole
 * scale-up domain for rack-scale systems (NVL72), else a node. */
uint64_t size_unit_gpus(const struct system_spec *sy);

/* Whether opts asks for system s (by its id or its accelerator's). */
bool size_wanted(const struct size_opts *o, const struct size_sys_row *s);

/* p with the accelerator, the system and hardware.gpus = gpus ("1024" or
 * "auto") set, the keys the size search chooses cleared. */
enum cp_status size_system_plan(const struct plan *p, const char *accel,
                                const char *system, const char *gpus,
                                struct plan *out /* OUT */, struct diag *d);

/* Flag the frontier of the met points, sort it by the objective, count
 * the exclusions and find the closest option per reason (and, when
 * nothing is met, the nearest) and the overlapping ranges. */
void size_summarise(struct size_result *out);

/* Recompute the frontier flags of out's met points and out->front
 * (unsorted; out->nfront); size_frontier.c. */
void size_frontier(struct size_result *out);

/* fn(ctx, i) for i in [0, n), on up to a few threads (the calling thread
 * does them all when threads cannot start).  fn must be pure of shared
 * state but its own i. */
void size_pool_run(size_t n, void (*fn)(void *ctx, size_t i), void *ctx);

/* Serving plans: size_run's pipeline for workload.kind = serve. */
enum cp_status size_serve_run(const struct plan *p, struct catalog *cat,
                              const struct size_opts *opts,
                              struct size_result *out /* OUT */,
                              struct diag *d);

#endif
