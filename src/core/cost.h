/*
 * cost.h - money: owning a cluster (CapEx amortised + OpEx) against
 * renting the same GPU-hours from a cloud offer.
 *
 * Model (design/models.md section 7; reference/catalog.md sections 5, 8):
 *   - CapEx = nodes x node price + network BOM + storage (provisioned TB x
 *     $/TB) + facility.  Facility: with site.colo_usd_per_kw_month > 0 the
 *     space is rented (OpEx colo x IT kW x 12, no facility CapEx; wholesale
 *     colocation is quoted per kW of critical IT load, CBRE H2 2024);
 *     otherwise it is built at site.build_usd_per_mw x IT MW (Cushman &
 *     Wakefield 2025: $11.7M per MW of critical IT load).  IT kW is the
 *     mean draw (energy.h), as Epoch's cost model sizes it.
 *   - annual capital = CapEx x CRF, the capital recovery factor
 *     i(1+i)^n / ((1+i)^n - 1) for rate i = finance.cost_of_capital over
 *     n = finance.depreciation_years (1/n when i = 0).
 *   - OpEx/yr = electricity (facility kW x 8,760 h x utilization x $/kWh;
 *     an idle cluster's draw is neglected) + maintenance (maintenance_frac
 *     x CapEx) + colocation.
 *   - build $/GPU-hour = (annual capital + OpEx) / (gpus x 8,760 x
 *     utilization); cloud $/GPU-hour = sc->cloud_usd_per_gpu_hour (0 = no
 *     offer: the comparison is skipped and build is reported cheaper).
 *   - run cost = $/GPU-hour x effective GPU-hours (steady GPU-hours /
 *     goodput): failures are paid for on both sides.  $/Mtok = run cost /
 *     training tokens x 10^6.
 *   - break-even utilization: build $/GPU-h(u) = F / (gpus 8760 u) + e,
 *     with F the costs that do not scale with use (capital, maintenance,
 *     colocation) and e the electricity per GPU-hour; equal to the cloud
 *     price c at u* = F / (gpus x 8760 x (c - e)), reported in [0, 1]
 *     (1 with a warning when the cloud is cheaper at any utilization).
 *   - break-even months: CapEx + m x OpEx/12 = m x gpus x 730 h x
 *     utilization x c, i.e. m = CapEx / (cloud per month - OpEx per
 *     month); COST_HORIZON_MONTHS with a warning when it never happens
 *     within the horizon.  Cash basis (no interest), the series of
 *     cumulative costs for months 0..COST_HORIZON_MONTHS fills the result.
 */
#ifndef LLMPLAN_CORE_COST_H
#define LLMPLAN_CORE_COST_H

#include "result.h"
#include "spec.h"

#define COST_HOURS_PER_YEAR 8760.0
#define COST_HOURS_PER_MONTH 730.0 /* 8760 / 12 */
#define COST_HORIZON_MONTHS (RESULT_SERIES_MAX - 1)
#define COST_MIN_UTILIZATION 1e-6 /* keeps $/GPU-hour finite */

/* Capital recovery factor for annual rate `rate` (< 0 taken as 0) over
 * `years` (at least 0.001): rate (1+rate)^n / ((1+rate)^n - 1), 1/n at
 * rate 0, tending to rate for long lives.  Always finite and > 0. */
double cost_crf(double rate, double years);

/* Fill r->cost.  Reads r->network (nodes, capex_usd), r->storage,
 * r->energy (it_kw, facility_kw), r->time.gpu_hours and
 * r->reliability.goodput (taken as 1 when 0).  May warn when the cloud is
 * cheaper at any utilization or owning does not break even in the
 * horizon. */
void cost_estimate(const struct scenario *sc, struct result *r /* OUT */);

#endif
