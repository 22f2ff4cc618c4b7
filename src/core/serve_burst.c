/*
 * serve_burst.c - the first burst of a closed-loop load test (see
 * serve.h): vLLM's `bench serve --max-concurrency c --request-rate inf`
 * (and benchmark_serving.py, SGLang's bench_serving) starts c requests at
 * once, so the first min(c, n) of the test's n prompts queue behind one
 * another at the prefill, whatever the steady state that follows.
 */
#include <math.h>

#include "core/serve.h"

#define BISECT_ITERS 60

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

/* P(T <= t) of the steady state: its quantile function inverted by
 * bisection over p (the quantile is non-decreasing in p). */
static double steady_cdf(serve_quantile_fn q, const void *arg, double t)
{
    double lo = 0, hi = 1;
    int i;

    if (q(arg, 0) > t)
        return 0;
    if (q(arg, 1 - 1e-12) <= t)
        return 1;
    for (i = 0; i < BISECT_ITERS; i++) {
        double mid = (lo + hi) / 2;

        if (q(arg, mid) <= t)
            lo = mid;
        else
            hi = mid;
    }
    return lo;
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

double serve_burst_quantile(const struct serve_burst *b, serve_quantile_fn q,
                            const void *arg, double p)
{
    double lo, hi;
    int i, grow = 0;

    if (!(b->frac > 0))
        return q(arg, p);
    if (!(b->frac < 1))
        return b->lo + p * (b->span > 0 ? b->span : 0);
    /* The mixture's CDF (1 - f) F_steady + f F_burst is non-decreasing:
     * its p-quantile lies between the smaller of the two lower ends and
     * the larger of the two upper ends; bisect for the least t with
     * F(t) >= p. */
    lo = fmin(b->lo, q(arg, 0));
    hi = fmax(b->lo + b->span, q(arg, p > 0.999 ? p : 0.999));
    while ((1 - b->frac) * steady_cdf(q, arg, hi) + b->frac * burst_cdf(b, hi) <
               p &&
           grow++ < BISECT_ITERS)
        hi = 2 * hi + 1e-9;
    for (i = 0; i < BISECT_ITERS; i++) {
        double mid = (lo + hi) / 2;
        double f = (1 - b->frac) * steady_cdf(q, arg, mid) +
                   b->frac * burst_cdf(b, mid);

        if (f >= p)
            hi = mid;
        else
            lo = mid;
    }
    return hi;
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
