/*
 * apply.h - writing a chosen layout back into a plan's keys, in one place:
 * the TUI applying a search hit, `size` turning a frontier point into a
 * plan, `quote --vary` holding the layout it evaluated.  Each path writes
 * the same keys, so a plan quoted back gives the result it was chosen for.
 */
#ifndef LLMPLAN_PLAN_APPLY_H
#define LLMPLAN_PLAN_APPLY_H

#include <stdbool.h>
#include <stdint.h>

#include "plan/plan.h"
#include "plan/search.h"

/* The plan serves (workload.kind = serve) rather than trains. */
bool plan_is_serve(const struct plan *p);

/* A training layout: tp, pp, dp, cp, ep, microbatch, interleave, zero,
 * recompute, sequence parallelism, and the attention kernel it was timed
 * with. */
enum cp_status plan_set_layout(struct plan *p, const struct layout *l,
                               enum attention attention, struct diag *d);

/* A serving replica: tp, pp and ep, the engine's batch cap (0: auto) and,
 * when pf is given with pools of their own (pf->ep > 0), the disaggregated
 * pools' parallelism (serve.prefill.* / serve.decode.*). */
enum cp_status plan_set_replica(struct plan *p, const struct layout *l,
                                uint64_t max_batch,
                                const struct serve_pool_spec *pf,
                                const struct serve_pool_spec *dc,
                                struct diag *d);

/* A search hit: plan_set_replica on a serving plan, else plan_set_layout. */
enum cp_status plan_apply_hit(struct plan *p, const struct search_hit *h,
                              struct diag *d);

#endif
