/*
 * size.h - "what to buy": search accelerators (every system of the
 * catalog), fleet sizes, owned or rented (every cloud offer and term) and
 * the layout of each, under a deadline, a budget and a site's power, and
 * keep the Pareto frontier of time x cost x energy.
 *
 * The pipeline (size_run):
 *   1. For each system (filtered by accel/system ids), resolve the plan
 *      with that system and its accelerator (plan_resolve: the one
 *      resolver `quote` and `search` use).
 *   2. GPU counts on a planner's grid: whole nodes, or whole scale-up
 *      domains for rack-scale systems (NVL72); the unit times 1, 2, 3, 4,
 *      6, 8, 12 ... (powers of two and the steps between them) up to
 *      gpus_max.  A count whose ideal time (the model's FLOPs at the
 *      accelerator's peak: no layout can be faster, MFU <= 1) already
 *      misses the deadline is skipped without a search.
 *   3. For each count the fastest layout of a reduced search (microbatch
 *      1, no interleaving: the screen), evaluated in full; money and
 *      energy then follow for owning and for every offer and term of the
 *      accelerator (one scenario_eval each, no search).
 *   4. The constraints sort each option into met or excluded (too slow,
 *      over budget, over power, does not fit, over an offer's capacity).
 *   5. The frontier of the met options; every frontier point's count is
 *      searched again with the full layout search (the same one `search`
 *      runs) and its options re-priced, until every frontier point has a
 *      fully searched layout.  Then the counts between a frontier point's
 *      grid neighbours are tried (refinement) and step 5 runs again.
 *
 * Uncertainty: each point carries a low-high range from the measured
 * error of its software stack (size_stack_error()); cost and energy scale
 * with time, so their ranges follow.
 *
 * Serving plans (workload.kind = serve; size_serve.c): no GPU grid and no
 * deadline.  For each system the serving layout search (tp x pp x the
 * engine's batch cap) gives the layouts that meet serve.ttft_ms and
 * serve.tpot_ms at the peak, serve.c sizes each one's fleet for the peak
 * (hardware.gpus = auto), and the fleet is priced owned, rented on every
 * offer and term, and hybrid (an owned base for the average load, the
 * peak above it burst to an on-demand or spot offer).  The frontier is
 * latency (e2e_s) x cost a day (usd_day; --budget is USD a day) x
 * energy per million output tokens (wh_mtok); the objective "time" is the
 * latency.  Ranges: the engine's held-out throughput error
 * (size_serve_error()) on cost and energy.
 *
 * Ownership: struct size_result is caller-owned (allocate it zeroed);
 * its option buffers are reused by the next run into it and freed by
 * size_result_release.  Core is untouched: this is plan-layer
 * orchestration of plan_resolve, plan_search and scenario_eval.
 */
#ifndef LLMPLAN_PLAN_SIZE_H
#define LLMPLAN_PLAN_SIZE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "catalog/catalog.h"
#include "core/result.h"
#include "core/scenario.h"
#include "plan/plan.h"
#include "plan/search.h"

#define SIZE_IDS_MAX 64
#define SIZE_DEFAULT_GPUS_MAX 32768u

/* Why an option is not on the answer.  SIZE_OK: it meets every
 * constraint. */
enum size_why {
    SIZE_OK,
    SIZE_TOO_SLOW,    /* misses --deadline */
    SIZE_OVER_BUDGET, /* commits more cash than --budget, or costs more
                         than --budget-run */
    SIZE_OVER_POWER,  /* facility power over --site-mw, or a rack over
                         --rack-kw (owned builds: a rented fleet draws on
                         the provider's site) */
    SIZE_NO_FIT,      /* no layout fits in memory */
    SIZE_CAPACITY,    /* more GPUs than the offer can supply */
    SIZE_NEVER,       /* failures (or preemptions) outpace progress: the
                         run never finishes; counted, never the closest */
    /* serving plans */
    SIZE_MISSES_TTFT, /* no load of this layout meets serve.ttft_ms */
    SIZE_MISSES_TPOT, /* no load of this layout meets serve.tpot_ms */
    SIZE_OVER_GPUS,   /* the fleet for the peak is over --gpus-max */
    SIZE_WHY_COUNT
};

const char *size_why_name(enum size_why w);

struct size_opts {
    enum objective obj;
    double deadline_days;  /* 0: none */
    double budget_usd;     /* cash committed, at most; 0: none */
    double budget_run_usd; /* run cost (serving: a day), at most; 0: none */
    double site_mw;        /* 0: none */
    double rack_kw;        /* 0: none */
    uint64_t gpus_max;     /* 0: SIZE_DEFAULT_GPUS_MAX */
    size_t nids;           /* accelerator or system ids; 0: all */
    char ids[SIZE_IDS_MAX][CP_ID_MAX];
    bool no_prune;  /* tests: search every grid count (no bound skips) */
    bool no_refine; /* tests: the grid only */
};

/* Owned (build) or rented (an offer at a term). */
struct size_point {
    char accel[CP_ID_MAX];
    char system[CP_ID_MAX];
    char stack[CP_ID_MAX];
    uint64_t gpus;
    bool rented;
    char offer[CP_ID_MAX]; /* rented */
    enum cloud_term term;  /* rented */
    struct layout layout;
    enum attention attention;
    bool full; /* the layout came from the full search (else the screen) */
    /* Money, two figures: usd is the run cost (owned: the run's share of
     * capital recovery and running costs at finance.utilization;
     * reserved: the commitment's share at the same utilization; on
     * demand, spot: the bill), cash the cash it commits (owned: the
     * capex; reserved: every term started, in full; on demand, spot: the
     * bill; serving: a day's bill, hybrid the base's capex and a day's
     * burst). */
    double cash;
    /* What is bought or rented, whole: owned (and a hybrid's base) in
     * units of unit_gpus (a server, an NVL72 rack), rented in instances
     * of unit_gpus GPUs. */
    uint64_t units, unit_gpus;
    uint64_t capacity_gpus; /* rented: the offer's capacity; 0 unknown */
    double days, usd, mwh;
    double days_lo, days_hi, usd_lo, usd_hi, mwh_lo, mwh_hi;
    double facility_mw, rack_kw, mfu;
    double err; /* the relative time error behind the range */
    /* Serving plans (size_result.serve): the fleet serve.c sizes for the
     * peak.  The frontier's axes are latency (e2e_s), cost (usd_day) and
     * energy (wh_mtok) instead of days, usd and mwh. */
    bool hybrid;         /* an owned base of owned_gpus, the peak above it
                            burst on offer/term (rented is false) */
    uint64_t owned_gpus; /* hybrid: the owned base */
    uint64_t fleet_gpus; /* the replicas' (or pools') GPUs at the peak;
                            gpus is what is bought: whole units owned,
                            whole instances rented, a hybrid's base and
                            its burst in whole instances */
    uint64_t max_batch;  /* the engine's batch cap; 0: what memory allows */
    /* disaggregated MoE pools the search chose (wide EP, attention DP);
     * prefill.ep 0: none; their GPUs as serve_pool.c sized them */
    struct serve_pool_spec prefill, decode;
    double replicas, utilization;           /* at the peak */
    double usd_day, usd_day_lo, usd_day_hi; /* the fleet's cost a day */
    double usd_mtok; /* usd_day over a day's output tokens, per million */
    double wh_mtok, wh_mtok_lo, wh_mtok_hi; /* facility Wh per M output */
    double ttft_ms, tpot_ms, e2e_s;         /* at the peak; a system that misses
                                               a target: what one request alone
                                               gets on its least-memory replica
                                               (prefill; a decode step at batch 1) */
    enum size_why why;
    bool frontier;
    int overlaps; /* index (in frontier order) of another frontier point
                     whose time and cost ranges overlap this one's, or -1 */
};

struct size_result {
    struct size_opts opts;
    /* A serving plan (workload.kind=serve): the points are fleets for the
     * peak; budget_usd is USD a day.  The plan's demand and targets: */
    bool serve;
    double demand_rps;       /* peak requests/s */
    uint64_t concurrency;    /* closed-loop users (0: open arrivals) */
    double ttft_ms, tpot_ms; /* targets (0: none) */
    enum serve_pct percentile; /* the targets' statistic */
    double peak_to_avg;      /* >= 1 */
    uint64_t layouts;        /* serving layouts evaluated (every system) */
    uint64_t layouts_cut;    /* systems with more replicas meeting the
                                targets than the search keeps (the
                                SEARCH_TOP_MAX cheapest were priced) */
    size_t n;                /* every option evaluated (met and excluded) */
    /* The options, n of them, and the frontier's indices into them: grown
     * as the search needs (no bound but memory); kept between runs into
     * the same result and freed by size_result_release. */
    struct size_point *pt;
    size_t nfront; /* frontier indices into pt, best by the objective */
    size_t *front;
    size_t cap; /* room in pt and front */
    size_t why_count[SIZE_WHY_COUNT];
    /* closest excluded option per reason (index into pt, or -1) */
    long closest[SIZE_WHY_COUNT];
    long nearest; /* when nothing is met: the excluded option closest to
                     the constraints (index), else -1 */
    uint64_t systems, counts, searches, full_searches, skipped;
    /* systems the resolver refused for this plan (a software.stack that
     * does not run on their accelerator, say): counted and the first
     * reason kept, so the output says what was left out */
    uint64_t systems_refused;
    char refused_why[RESULT_WARNING_MAX];
    uint64_t no_layout; /* counts searched where no layout is valid */
    uint64_t no_price;  /* counts with a layout but nothing priced (no node
                           price, no cloud offer) */
    bool stopped_early; /* always false: nothing bounds the options (kept
                           for the JSON "search" object) */
    double elapsed_s;
};

/* The measured relative error of a stack's step time (leave one source
 * out, README), and the overall figure for stacks without their own. */
double size_stack_error(const char *stack_id);

/* The measured relative error of a serving engine's throughput on rows
 * it was not fitted to (README "Serving", held out); the fleet's cost and
 * energy ranges follow it. */
double size_serve_error(const char *stack_id);

/* Whether a dominates b: no worse in days, usd and mwh and better in one. */
bool size_dominates(const struct size_point *a, const struct size_point *b);

/* The same for serving fleets: e2e_s, usd_day and wh_mtok. */
bool size_serve_dominates(const struct size_point *a,
                          const struct size_point *b);

/* Run the size search for plan p (model, tokens and the rest; hardware,
 * cloud and GPU keys are chosen by the search).  CP_ERR_USAGE when the
 * plan has no model or tokens (training), or a serving plan is given a
 * deadline (d->where "--deadline"); a serving plan without demand fails
 * validation naming the serve key; CP_ERR_NOT_FOUND when no system
 * matches opts->ids.  Meeting no constraint is CP_OK with nfront 0 and
 * nearest set.  A serving plan (workload.kind=serve) sets out->serve. */
enum cp_status size_run(const struct plan *p, struct catalog *cat,
                        const struct size_opts *opts,
                        struct size_result *out /* OUT */, struct diag *d);

/* Free out's option buffers (out itself stays the caller's). */
void size_result_release(struct size_result *out);

/* Room for at least n options in out->pt and out->front. */
void size_result_reserve(struct size_result *out, size_t n);

/* A plan that reproduces point pt: p with the accelerator, system, GPU
 * count, layout and (rented) offer and term set.  A serving fleet:
 * hardware.gpus = auto with the replica's tp, pp and batch cap, the offer
 * and term when rented or hybrid, and serve.owned_gpus for a hybrid. */
enum cp_status size_point_plan(const struct plan *p,
                               const struct size_point *pt,
                               struct plan *out /* OUT */, struct diag *d);

#endif
