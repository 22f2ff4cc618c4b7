/*
 * scenario.h - the one entry point of the model.
 *
 * plan, cli and ui call scenario_validate() and scenario_eval() and nothing
 * else from core (the sub-models are public so that tests can reach them).
 * Core is pure: no I/O, no globals, no allocation, no locale; the same
 * scenario always gives the same result.
 */
#ifndef LLMPLAN_CORE_SCENARIO_H
#define LLMPLAN_CORE_SCENARIO_H

#include "diag.h"
#include "result.h"
#include "spec.h"

/* Flags for scenario_eval_flags(). */
enum eval_flags {
    EVAL_DEFAULT = 0,
    EVAL_MEMORY_ONLY = 1 << 0, /* stop after model shape and memory */
    EVAL_QUIET = 1 << 1,       /* no warning texts (the search's hot path) */
    EVAL_TIME_ONLY = 1 << 2,   /* stop after step time (search by time) */
};

/* Check every input of sc against its bounds and the layout against the
 * model: CP_OK, or CP_ERR_RANGE / CP_ERR_LAYOUT with d->where naming the
 * plan key ("parallel.tp") and d->msg saying what is wrong.  d may be NULL. */
enum cp_status scenario_validate(const struct scenario *sc, struct diag *d);

/* scenario_validate without the training layout (parallel.*, the batch
 * split over dp x microbatch): the inputs of a caller that searches the
 * layout (plan_validate_inputs).  A serving layout is still checked. */
enum cp_status scenario_validate_inputs(const struct scenario *sc,
                                        struct diag *d);

/* scenario_validate with the model's shape at train.seq_len already
 * derived (model_shape_derive), or NULL to derive it: the search checks
 * thousands of layouts of one model.  Same checks, same order. */
struct model_shape;
enum cp_status scenario_validate_shape(const struct scenario *sc,
                                       const struct model_shape *shape,
                                       struct diag *d);

/* scenario_validate_shape of a training scenario in its three parts, in
 * this order: the inputs before the layout (the model, train.*, the stack
 * and its recipe, the hardware), the layout against the model (shape as
 * for scenario_validate_shape), the site, finance and reliability inputs
 * after it.  A training scenario is valid when the three are CP_OK; the
 * first that is not names the reason scenario_validate_shape gives.  The
 * layout search checks the first and the last once, the layout per
 * candidate (they do not read parallel.*). */
enum validate_part { VALIDATE_HEAD, VALIDATE_LAYOUT, VALIDATE_MONEY };
enum cp_status scenario_validate_part(const struct scenario *sc,
                                      enum validate_part part,
                                      const struct model_shape *shape,
                                      struct diag *d);

/* The model and the sequence length alone (what model_shape_derive needs),
 * for callers that size something from the model before the rest is
 * resolved (train.global_batch = auto). */
enum cp_status scenario_validate_model(const struct scenario *sc,
                                       struct diag *d);

/* Evaluate a validated scenario into *out (fully overwritten).  Never
 * fails: a plan that does not fit is reported in out->memory.fits and
 * out->warnings.  Calling it on a scenario that scenario_validate() rejects
 * is a programming error (asserted). */
void scenario_eval(const struct scenario *sc, struct result *out /* OUT */);

/* scenario_eval with enum eval_flags. */
void scenario_eval_flags(const struct scenario *sc, unsigned flags,
                         struct result *out /* OUT */);

/* scenario_eval_flags with the model's shape at train.seq_len already
 * derived, or NULL to derive it.  With EVAL_MEMORY_ONLY or EVAL_TIME_ONLY
 * (training) only workload, layout, model, memory, time, bottleneck and
 * nwarnings are written; the other sections keep what they held. */
void scenario_eval_shape(const struct scenario *sc,
                         const struct model_shape *shape, unsigned flags,
                         struct result *out /* OUT */);

/* A scenario with every field at its documented default and no catalog
 * rows (ids empty, hardware zeroed): the plan layer starts from this. */
void scenario_defaults(struct scenario *sc /* OUT */);

/* The model's own rules (shape ranges, kv_heads dividing heads,
 * experts_active within experts, ...), as every command checks them:
 * CP_OK or CP_ERR_RANGE naming the model.* key.  catalog import models
 * refuses a row that fails them. */
enum cp_status scenario_validate_model_spec(const struct model_spec *m,
                                            struct diag *d);

/* Where a finance default (scenario_defaults) comes from, by plan key
 * name ("finance.cost_of_capital"): the source, or for a running cost
 * left at 0 why it is excluded.  NULL for any other key.  The finance
 * CSV (quote --schedule) prints it beside the value. */
const char *scenario_finance_source(const char *key);

#endif
