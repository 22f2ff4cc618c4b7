/*
 * cost.h - money: owning a cluster against renting the same work from a
 * cloud offer, as level monthly costs, present values over the life of
 * the hardware, a discounted payback and a year-by-year schedule.
 *
 * Model (README "Money"; reference/catalog.md sections 5, 8):
 *   - CapEx = nodes x node price + spare nodes (finance.spares_frac) +
 *     network BOM + storage (provisioned TB x $/TB) + facility + cooling.
 *     IT equipment (nodes, spares, network, storage) lives
 *     finance.depreciation_years and is resold for finance.residual_frac
 *     of its cost; the facility (hall, power and cooling plant) lives
 *     finance.facility_years (COST_FACILITY_YEARS when 0; never less than
 *     the IT life).  The hall is sized on nameplate IT power (energy.h):
 *     rented at site.colo_usd_per_kw_month x kW x 12 (CBRE H2 2024, per
 *     kW of leased critical capacity) or built at site.build_usd_per_mw
 *     (Cushman & Wakefield 2025).  Rear doors and direct-liquid plant
 *     cost site.rear_door_usd_per_kw / site.liquid_usd_per_kw of
 *     nameplate IT kW.
 *   - Money is discounted monthly at the equivalent of the annual
 *     finance.cost_of_capital i: i_m = (1+i)^(1/12) - 1, over the IT life
 *     N = 12 x depreciation_years months.  Capital is repaid in level
 *     monthly payments, IT net of the discounted residual over N months,
 *     the facility over its own life (cost_crf per month), so the annual
 *     capital is 12 x that payment and its present value over N months is
 *     the net capital (CapEx - present value of what is left at N).
 *   - OpEx/yr = electricity (facility kW busy x u + idle x (1 - u), x 8,760
 *     h x $/kWh) + maintenance (maintenance_frac x IT CapEx) + support
 *     (support_frac x node CapEx) + insurance (insurance_frac x CapEx) +
 *     staff (per MW of nameplate IT) + software (per GPU) + colocation.
 *   - build $/GPU-hour = (annual capital + OpEx) / (gpus x 8,760 x u).
 *   - cloud: whole instances are billed (12 GPUs on 8-GPU instances bill
 *     16).  On-demand and spot are paid per hour used, u x 8,760 h a year;
 *     spot needs 1 / goodput more hours, preemptions being interruptions
 *     (reliability_goodput_with).  A reserved term is a contract: GPUs x
 *     term hours x rate, used or not; a run pays whole terms.  The cost of
 *     a busy GPU-hour is therefore rate x billed / gpus (on-demand),
 *     / u more for a reservation, x goodput ratio for spot: owning and
 *     renting are compared at the same utilization.
 *   - verdict: build when its $/busy GPU-hour is below the cloud's; none
 *     when either side has a missing or zero price (a warning names it,
 *     the exporters print empty cells).
 *   - break-even utilization: both monthly costs are linear in u (b0 + b1
 *     u, c0 + c1 u); equal at u* = (c0 - b0) / (b1 - c1) when that is in
 *     (0, 1], otherwise unknown with the reason.
 *   - discounted payback: the month at which the discounted cumulative
 *     cash of building (CapEx at month 0, then OpEx) first falls to
 *     renting's (the schedule's build_npv_usd and cloud_npv_usd columns
 *     cross there): s (1 - (1+i_m)^-m) / i_m = CapEx with the monthly
 *     saving s = cloud spend - owning's OpEx.  Only what is sold counts as
 *     residual, when it is received: the IT resale at the end of the IT
 *     life (the payback is then the life when it closes the gap); the
 *     hall's remaining value is kept, not cash.  Unknown ("never", with
 *     the reason) when s <= 0 or the life ends first.
 *   - run cost = $/GPU-hour x effective GPU-hours for the build; the
 *     billed hours (or terms) for the cloud.
 *   - the 0..COST_HORIZON_MONTHS cumulative series (the TUI chart) is cash
 *     (undiscounted): CapEx up front then OpEx, less the IT resale at the
 *     end of the life, against cloud spend; at month 12 y it equals the
 *     schedule's build_cumulative_usd of year y.
 */
#ifndef LLMPLAN_CORE_COST_H
#define LLMPLAN_CORE_COST_H

#include "result.h"
#include "spec.h"

#define COST_HOURS_PER_YEAR 8760.0
#define COST_HOURS_PER_MONTH 730.0 /* 8760 / 12 */
#define COST_HORIZON_MONTHS (RESULT_SERIES_MAX - 1)
#define COST_MIN_UTILIZATION 1e-6 /* keeps $/GPU-hour finite */
/* Life of the hall, power and cooling plant when finance.facility_years
 * is 0: the planner's convention (issue 12); mechanical and electrical
 * plant is commonly depreciated over 15-20 years. */
#define COST_FACILITY_YEARS 15.0
/* Mean hours between spot preemptions of one instance when the offer
 * gives none: 20% of instances reclaimed a month (730 / 0.2), the top
 * band of the AWS Spot Instance Advisor's "frequency of interruption"
 * (<5% ... >20% per month), where GPU instances usually sit.  ESTIMATE. */
#define COST_SPOT_MTBI_H 3650.0

/* Capital recovery factor for rate `rate` per period (< 0 taken as 0)
 * over `periods` periods (at least 0.001): rate (1+rate)^n /
 * ((1+rate)^n - 1), 1/n at rate 0, tending to rate for long lives.
 * Always finite and > 0. */
double cost_crf(double rate, double periods);

/* Monthly rate equivalent to an annual one: (1+annual)^(1/12) - 1. */
double cost_monthly_rate(double annual);

/* Hours in one term of t (reserved_1y 8,760, reserved_3y 26,280); 0 for
 * terms paid by the hour. */
double cost_term_hours(enum cloud_term t);

/* Fill r->cost.  Reads r->network (nodes, tiers, capex_usd), r->storage,
 * r->energy (facility_kw, idle_it_kw, nameplate_it_kw, pue, cooling),
 * r->time.gpu_hours and r->reliability.goodput (taken as 1 when 0).
 * Warns about missing prices, an offer too small for the job, and when
 * payback or break-even do not exist. */
void cost_estimate(const struct scenario *sc, struct result *r /* OUT */);

#endif
