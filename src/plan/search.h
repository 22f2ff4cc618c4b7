/*
 * search.h - the parallel-layout search behind "auto": enumerate every
 * layout that divides the model and the GPU count, drop those that do not
 * fit in memory, evaluate the rest and keep the best N.
 *
 * Streaming and allocation-free: candidates are generated in nested loops,
 * each is validated (scenario_validate), priced for memory first
 * (EVAL_MEMORY_ONLY) and only then evaluated in full (EVAL_QUIET); the top
 * N live in a fixed array inside struct search_result.  The caller owns
 * everything; nothing is kept between calls.
 *
 * Candidate space (degrees left at 0 / -1 in struct search_space):
 *   tp   divisors of model.heads up to the scale-up domain
 *   pp   1..model.layers: divisors, and uneven stages (the busiest stage
 *        holds ceil(L/pp) layers)
 *   cp   1, and powers of two up to 16 when seq_len >= 16K
 *   dp   gpus / (tp*pp*cp) when whole
 *   ep   divisors of model.experts that divide dp*cp (MoE only, else 1)
 *   microbatch  divisors of global_batch/dp
 *   interleave  1, or with interleave_auto every v > 1 with pp*v dividing
 *               the layers
 *   recompute none/selective/full; sequence_parallel no/yes when tp > 1;
 *   zero 0..3
 * Each candidate is checked for memory first (cheap) and timed only when
 * it fits; with the time objective only the step time is computed in the
 * loop (the caller evaluates the winners in full).
 * Work is bounded: after SEARCH_MAX_TRIED layouts (valid or not) the
 * search stops, keeps the best found so far and sets stopped_early, so an
 * absurd plan (10^5 layers, 10^7 GPUs) answers in seconds, not hours.
 * Ranking: the objective (step time, build cost of the run, or facility
 * energy), ties broken by step time, then lower memory, then enumeration
 * order, so the result is deterministic (cost and energy are 0 for every
 * layout when the plan has no token budget: time decides).
 */
#ifndef LLMPLAN_PLAN_SEARCH_H
#define LLMPLAN_PLAN_SEARCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/result.h"
#include "core/scenario.h"

#define SEARCH_TOP_MAX 100
/* The work cap: layouts tried (validated) before the search gives up.
 * The fuzz build (make fuzz) lowers it so that each input is quick. */
#ifndef SEARCH_MAX_TRIED
#define SEARCH_MAX_TRIED 2000000u
#endif
/* The warning a result carries when the search stopped early (%llu: the
 * cap, then the valid layouts it looked at). */
#define SEARCH_STOPPED_EARLY_WARNING                                           \
    "the layout search stopped early (work cap of %llu layouts): "             \
    "best of %llu valid layouts tried; fix some parallel.* keys to search "    \
    "the rest"

enum objective {
    OBJECTIVE_TIME,
    OBJECTIVE_COST,
    OBJECTIVE_ENERGY,
    OBJECTIVE_CASH /* size: the cash committed; layouts: the build's */
};

/* "time", "cost", "energy", "cash"; CP_ERR_USAGE for anything else. */
enum cp_status objective_parse(const char *s, enum objective *out);
const char *objective_name(enum objective o);

/* Fixed values of the layout; 0 (counts) or -1 (recompute, zero,
 * sequence_parallel) means "search it". */
struct search_space {
    uint64_t tp, pp, dp, cp, ep, microbatch, interleave;
    int recompute;          /* enum recompute, or -1 */
    int sequence_parallel;  /* 0/1, or -1: yes when tp > 1 */
    int zero;               /* 0..3, or -1 */
    bool interleave_auto;   /* interleave 0: search it instead of using 1 */
    bool interleave_coarse; /* with interleave_auto: only powers of two
                               and the largest v (a screening search) */
    int attention; /* enum attention fixed, or -1: choose the kernel (the
                      plan's train.attention is auto): fused for no
                      recomputation, fused or materialised for selective */
    bool serve_pools; /* serving: also try disaggregated wide-EP pools
                         (search_hit.prefill / .decode; size sets it, the
                         callers that apply hit.layout alone do not) */
};

/* Everything free. */
void search_space_auto(struct search_space *sp /* OUT */);

struct search_hit {
    struct layout layout;
    enum attention attention; /* the kernel this layout was timed with */
    double score;             /* the objective's value, lower is better */
    double step_s;            /* tie-break: the faster layout */
    double total_bytes;
    bool fits;
    uint64_t max_batch; /* serving: the engine's batch cap; 0 = auto */
    /* serving: the disaggregated pools' wide EP the search chose
     * (serve.prefill.* / serve.decode.*); all 0: the plan's own */
    struct serve_pool_spec prefill, decode;
};

struct search_result {
    uint64_t candidates; /* layouts that passed scenario_validate */
    uint64_t evaluated;  /* layouts evaluated in full (fit in memory) */
    uint64_t feasible;   /* == evaluated: the fitting ones */
    double elapsed_s;
    bool fits;          /* false: hits[0] is the least-memory layout */
    bool stopped_early; /* SEARCH_MAX_TRIED reached: best of those tried */
    size_t n;           /* hits kept, best first */
    struct search_hit hits[SEARCH_TOP_MAX];
    struct diag reject; /* why the first rejected candidate was invalid */
};

/* Return false to cancel (the search then returns CP_ERR_CANCELLED). */
typedef bool (*search_progress_fn)(void *ctx, uint64_t done);

/* Search layouts for base (everything but the layout resolved).  top_n is
 * clamped to [1, SEARCH_TOP_MAX].  CP_ERR_LAYOUT when no candidate is
 * valid at all (out->reject, copied into d, says why); CP_OK with
 * out->fits = false and one hit when nothing fits in memory.  progress may
 * be NULL; it is called every 4096 candidates.  cancel, when not NULL, is
 * polled as often. */
enum cp_status plan_search(const struct scenario *base,
                           const struct search_space *space, enum objective obj,
                           size_t top_n, struct search_result *out /* OUT */,
                           search_progress_fn progress, void *ctx,
                           const volatile int *cancel, struct diag *d);

#endif
