/*
 * reliability.h - failures, checkpoint interval and goodput.
 *
 * Model (README "The model"; reference/catalog.md section 7):
 *   - node MTBF: reliability.node_mtbf_h when > 0, else the system's, else
 *     RELIABILITY_DEFAULT_NODE_MTBF_H, the Llama 3 figure: 419 unexpected
 *     interruptions in 54 days on 2,048 nodes (Dubey et al. 2024, section
 *     3.3.4) -> 2,048 x 54 x 24 / 419 = 6,335 node-hours.
 *   - cluster MTBF M = node MTBF / nodes (independent failures).
 *   - checkpoint write time delta from storage_estimate().
 *   - interval tau: Daly (2006) eq. 37, sqrt(2 delta M) [1 + sqrt(delta /
 *     2M) / 3 + (delta / 2M) / 9] - delta for delta < 2M, else M; Young's
 *     (1974) sqrt(2 delta M) is its first term.
 *   - lost fraction, first order (reference 7.3): delta / tau (time spent
 *     writing) + (tau / 2 + R) / M (half an interval of lost work plus the
 *     restart R per failure), capped to [0, RELIABILITY_MAX_LOST_FRAC].
 *   - goodput = 1 - lost; effective days = steady days / goodput;
 *     failures = effective hours / M.
 * The cluster is assumed to draw full power and cost full price during
 * the lost time (energy and cost use the effective days).
 */
#ifndef LLMPLAN_CORE_RELIABILITY_H
#define LLMPLAN_CORE_RELIABILITY_H

#include <stdbool.h>

#include "result.h"
#include "spec.h"

#define RELIABILITY_DEFAULT_NODE_MTBF_H (2048.0 * 54.0 * 24.0 / 419.0)
#define RELIABILITY_MAX_LOST_FRAC 0.99

/* Young (1974): sqrt(2 delta M); seconds in, seconds out; 0 if either
 * input is <= 0. */
double reliability_young_s(double delta_s, double mtbf_s);

/* Daly (2006) eq. 37, seconds; M when delta >= 2M; 0 if either input is
 * <= 0. */
double reliability_daly_s(double delta_s, double mtbf_s);

/* Fraction of wall time lost, delta/tau + (tau/2 + restart)/M, capped to
 * [0, RELIABILITY_MAX_LOST_FRAC]; mtbf_s <= 0 gives the cap. */
double reliability_lost_frac(double delta_s, double tau_s, double mtbf_s,
                             double restart_s);

/* The node MTBF in hours that sc implies (see above); always > 0. */
double reliability_node_mtbf_h(const struct scenario *sc);

/* Goodput of the same job when interruptions come extra_per_h more often
 * per hour than node failures alone (spot preemptions: instances /
 * mean hours between preemptions of one instance).  Reads r->network and
 * r->storage like reliability_estimate(); in (0, 1]. */
double reliability_goodput_with(const struct scenario *sc,
                                const struct result *r, double extra_per_h);

/* Whether the job never finishes when interruptions come extra_per_h
 * more often than node failures: the uncapped lost fraction is 1 or more
 * (failures outpace progress). */
bool reliability_never_with(const struct scenario *sc, const struct result *r,
                            double extra_per_h);

/* Fill r->reliability.  Reads r->time (train_days), r->storage
 * (checkpoint_write_s) and r->network (nodes; computed from sc when 0).
 * May warn when the checkpoint write exceeds 10% of the interval or the
 * goodput falls below one half.  When failures outpace progress (the
 * uncapped lost fraction is 1 or more) sets never and reason, and warns:
 * the run's time and cost are then unknown (the exports print null). */
void reliability_estimate(const struct scenario *sc,
                          struct result *r /* OUT */);

#endif
