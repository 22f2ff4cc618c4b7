/*
 * serve_burst.c - the first burst of a closed-loop load test (see
 * serve.h): vLLM's `bench serve --max-concurrency c --request-rate inf`
 * (and benchmark_serving.py, SGLang's bench_serving) starts c requests at
 * once, so the first min(c, n) of the test's n prompts queue behind one
 * another at the prefill, whatever the steady state that follows.
 */
#include <math.h>

#include "core/serve.h"

#define BISECT_ITERS 40

double serve_burst_frac(double users, double window)
{
    if (!(window >= 1) || !(users >= 1))
        return 0;
    return (users < window ? users : window) / window;
}

double serve_burst_span_s(double per_server, double each_s)
{
    if (!(per_server > 1) || !(each_s > 0))
        return 0;
    return (per_server - 1) * each_s;
}

double serve_burst_mean(const struct serve_burst *b, double steady_mean)
{
    return (1 - b->frac) * steady_mean + b->frac * (b->lo + b->span / 2);
}

/* P(T <= t) of the burst: uniform on [lo, lo + span]. */
static double burst_cdf(const struct serve_burst *b, double t)
{
    if (t < b->lo)
        return 0;
    if (!(b->span > 0) || t >= b->lo + b->span)
        return 1;
    return (t - b->lo) / b->span;
}

/* The burst's latency at its own quantile x (0..1). */
static double burst_at(const struct serve_burst *b, double x)
{
    return b->lo + fmin(fmax(x, 0), 1) * (b->span > 0 ? b->span : 0);
}

double serve_burst_quantile(const struct serve_burst *b, serve_quantile_fn q,
                            const void *arg, double p)
{
    double f = b->frac, top = 1 - 1e-12, lo, hi;
    int i;

    if (!(f > 0))
        return q(arg, p);
    if (!(f < 1))
        return burst_at(b, p);
    /* Below the steady state's least latency only the burst counts;
     * above its largest, all of it has. */
    if (f * burst_cdf(b, q(arg, 0)) >= p)
        return burst_at(b, p / f);
    if ((1 - f) + f * burst_cdf(b, q(arg, top)) < p)
        return burst_at(b, (p - (1 - f)) / f);
    /* Between the two, walk the steady state's own quantile u: at t =
     * q(u) the mixture's CDF is (1 - f) u + f F_burst(q(u)), non-decreasing
     * in u; the least u that reaches p gives the quantile q(u) (one
     * bisection: a search evaluates this thousands of times).  It runs
     * over x = -ln(1 - u), so that a quantile deep in the steady state's
     * tail (u within 1e-11 of 1, as the burst's share of p99 puts it) is
     * found as finely as one near its median. */
    lo = 0;
    hi = -log(1e-12);
    for (i = 0; i < BISECT_ITERS; i++) {
        double mid = (lo + hi) / 2, u = -expm1(-mid);

        if ((1 - f) * u + f * burst_cdf(b, q(arg, u)) >= p)
            hi = mid;
        else
            lo = mid;
    }
    return q(arg, -expm1(-hi));
}

double serve_window_rps(double users, double window, double rps, double span)
{
    double cycle, waves;

    if (!(users >= 1) || !(window >= users) || !(rps > 0))
        return rps > 0 ? rps : 0;
    cycle = users / rps;
    waves = ceil(window / users - 1e-9);
    return window / (waves * cycle + (span > 0 ? span : 0));
}

double serve_closed_window(const struct serve_spec *sv)
{
    return sv->window_stated ? (double)sv->window_requests : 0;
}
