/*
 * serve_demand.c - the demand a serving fleet is sized for, written once
 * for core (serve_point.c, serve_pool.c, serve_money.c) and for the
 * planner (size_serve.c): the peak ratio, the peak request rate and a
 * hybrid's owned base.  See serve.h.
 */
#include <math.h>

#include "core/serve.h"

double serve_peak_ratio(const struct serve_spec *sv)
{
    return sv->peak_to_avg >= 1 ? sv->peak_to_avg : 1;
}

double serve_peak_demand_rps(const struct serve_spec *sv)
{
    if (sv->requests_per_s > 0)
        return sv->requests_per_s;
    if (sv->tokens_per_day > 0 && sv->output_tokens > 0)
        return sv->tokens_per_day / (double)sv->output_tokens / 86400 *
               serve_peak_ratio(sv);
    return 0;
}

double serve_hybrid_base_gpus(const struct serve_spec *sv,
                              const struct serve_result *s, double gpr,
                              double unit)
{
    double ratio = serve_peak_ratio(sv), owned;

    if (!(ratio > 1) || !(gpr >= 1))
        return 0;
    owned = ceil(s->gpus * s->utilization / ratio / gpr - 1e-9) * gpr;
    if (owned < gpr)
        owned = gpr;
    if (unit >= 1)
        owned = ceil(owned / unit) * unit;
    return owned;
}
