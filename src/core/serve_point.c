/*
 * serve_point.c - a replica's operating point: latency distributions
 * (queueing, TTFT, TPOT), the batch and the capacity at the targets, the
 * offline, closed-loop and open-arrival paths, disaggregated prefill and
 * decode pools, and serve_estimate, which ties them together (see
 * serve.h).  The engine it runs on is in serve.c.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "core/clamp.h"
#include "core/comm.h"
#include "core/cost.h"
#include "core/load.h"
#include "core/serve.h"
#include "core/serve_int.h"
#include "core/serve_pool.h"

#define BIG 1e300
#define FIXED_POINT_ITERS 40
#define BISECT_ITERS 48

/* A latency over requests: the mean and three percentiles. */
struct dist {
    double mean, p50, p90, p99;
};

/* Standard normal quantiles at 0.9 and 0.99. */
#define Z90 1.2815515655446004
#define Z99 2.3263478740408408

/* The operating point of one replica. */
struct point {
    double batch, e2e, step, pf_frac, rps;
    struct dist ttft, tpot, queue;
    /* the TTFT as busy_point builds it: pf1 + p round + the M/M/1 wait
     * (rho, s) at quantile p (for closed_burst) */
    double pf1, round, rho_q, s_q;
    double burst_span; /* the first burst's stagger (closed_burst) */
    int ok;            /* 0: saturated (the queue grows without bound) */
};

static double dist_at(const struct dist *d, enum serve_pct p)
{
    switch (p) {
    case SERVE_PCT_P50:
        return d->p50;
    case SERVE_PCT_P90:
        return d->p90;
    case SERVE_PCT_P99:
        return d->p99;
    case SERVE_PCT_MEAN:
    default:
        return d->mean;
    }
}

/* Every statistic shifted by a constant c. */
static void dist_shift(struct dist *d, double c)
{
    d->mean += c;
    d->p50 += c;
    d->p90 += c;
    d->p99 += c;
}

/* The span a prompt that arrives mid-iteration waits for before it joins
 * the batch: the running decode step, or with multi-step scheduling
 * (e->sched = vLLM --num-scheduler-steps k) the rest of the round of k
 * steps the scheduler launched at once - new requests are scheduled only
 * between rounds (vLLM blog 2024-09-05, v0.6.0, multi-step scheduling). */
static double round_s(const struct engine *e, double step)
{
    return e->sched * step;
}

/* Plus a delay uniform in [0, w] (the wait for the running iteration to
 * end before a prompt joins).  Quantiles are added, as if the two delays
 * moved together: conservative in the tail (p90, p99) of independent
 * delays, while the median of the sum may lie a little above it. */
static void dist_add_uniform(struct dist *d, double w)
{
    d->mean += w / 2;
    d->p50 += 0.5 * w;
    d->p90 += 0.9 * w;
    d->p99 += 0.99 * w;
}

/* Waiting time at percentile p (0..1) for a server busy rho of the time
 * with service s: M/M/1, P(W > t) = rho exp(-(1 - rho) t / s). */
double serve_wait_at(double rho, double s, double p)
{
    double tail = 1 - p;

    if (!(rho > 0))
        return 0;
    if (rho >= 1)
        return BIG;
    if (tail >= rho)
        return 0;
    return s / (1 - rho) * log(rho / tail);
}

/* The M/M/1 wait as a distribution: mean rho s / (1 - rho) (Kleinrock
 * 1975, vol. 1, 3.2; conservative against M/D/1 by up to 2x, Kingman). */
static void wait_dist(double rho, double s, struct dist *w)
{
    w->mean = rho > 0 ? (rho < 1 ? rho * s / (1 - rho) : BIG) : 0;
    w->p50 = serve_wait_at(rho, s, 0.5);
    w->p90 = serve_wait_at(rho, s, 0.9);
    w->p99 = serve_wait_at(rho, s, 0.99);
}

/* One request's TPOT over requests, mean m: its (O - 1) / tau decode
 * steps are stretched by the prefill chunks of the prompts that arrive
 * during its decode (Poisson at `arrivals` per second, each pf of GPU
 * time: Sarathi-Serve's generation stalls) and, open loop, by the batch
 * it shares, which fluctuates around b as the number in an M/G/inf
 * system (Poisson, sd sqrt(b)).  Normal approximation, p50 = mean. */
static void tpot_dist(const struct engine *e, double m, double b,
                      double arrivals, double pf, double stretch,
                      int fluctuates, struct dist *d)
{
    double n = e->out - 1, var = 0, sd;

    memset(d, 0, sizeof(*d));
    if (!(n > 0) || !(m > 0))
        return;
    if (arrivals > 0 && pf > 0)
        var += arrivals * n * m * pf * pf / (n * n);
    if (fluctuates && b >= 1) {
        double ctx = serve_mean_ctx(e), root = sqrt(b);
        double db = (serve_decode_step_s(e, b + root, ctx) -
                     serve_decode_step_s(e, b, ctx)) /
                    e->tau * stretch;

        var += db * db;
    }
    sd = sqrt(var);
    d->mean = m;
    d->p50 = m;
    d->p90 = m + Z90 * sd;
    d->p99 = m + Z99 * sd;
}

/* The iteration's token budget (the stack's prefill_chunk: vLLM
 * max_num_batched_tokens, SGLang chunked_prefill_size, TensorRT-LLM
 * max_num_tokens): decodes are scheduled first and prompt chunks fill
 * what is left (vLLM chunked-prefill scheduler; Agrawal et al. 2024,
 * Sarathi-Serve, 4.2), so the prompt tokens arriving over one iteration
 * of `iter` seconds must fit beside the b q decode tokens, or the
 * waiting queue grows. */
static int within_budget(const struct engine *e, double lambda, double b,
                         double iter)
{
    return b * e->q + lambda * e->in_new * iter <= e->chunk;
}

/* Open arrivals at lambda requests/s on one replica: Little's law fixed
 * point for the batch, chunked prefill stretching decode. */
static void open_point(const struct engine *e, double lambda, double maxb,
                       struct point *pt)
{
    double pf1 = serve_prefill_one_s(e), pfb = serve_prefill_bulk_s(e);
    double rho = lambda * pfb, b = 1, b_at = 1;
    int i;

    memset(pt, 0, sizeof(*pt));
    pt->ok = rho < 1;
    if (!pt->ok)
        return;
    /* The fixed point needs only the means; the percentiles follow at
     * the batch it settles on (b_at: the batch of the last step). */
    wait_dist(rho, pfb, &pt->queue);
    for (i = 0; i < FIXED_POINT_ITERS; i++) {
        double step = serve_decode_step_s(e, b, serve_mean_ctx(e));
        double tpot = step / e->tau / (1 - rho);
        double ttft = pf1 + pt->queue.mean + (b > 1 ? round_s(e, step) / 2 : 0);
        double nb;

        pt->step = step;
        b_at = b;
        pt->tpot.mean = tpot;
        pt->e2e = ttft + (e->out > 1 ? (e->out - 1) * tpot : 0);
        nb = lambda * pt->e2e;
        if (nb < 1)
            nb = 1;
        if (nb > 4 * maxb) {
            pt->ok = 0;
            return;
        }
        if (fabs(nb - b) < 1e-6 * b)
            break;
        b = nb;
    }
    if (b_at > 1)
        dist_add_uniform(&pt->queue, round_s(e, pt->step));
    pt->ttft = pt->queue;
    dist_shift(&pt->ttft, pf1);
    tpot_dist(e, pt->tpot.mean, b, lambda, pfb, 1 / (1 - rho), 1, &pt->tpot);
    pt->batch = b;
    pt->ok = b <= maxb && within_budget(e, lambda, b, pt->tpot.mean * e->tau);
    pt->pf_frac = rho;
    pt->rps = lambda;
}

/* Aggregated attention DP beside MoE EP (e->moe_group ranks in lock
 * step): a rank's b prompts of `passes` iterations each fall among the
 * (O - 1) / tau iterations of its cycle, and each stalls the other ranks
 * (serve_adp_wait_factor).  1 without attention DP.  Disaggregated pools
 * do not mix prompts with decode (serve_pool.c). */
static double adp_prompt_stretch(const struct engine *e, double b)
{
    double iters = e->out > 1 ? (e->out - 1) / e->tau : 0;
    double passes = ceil(e->in_new / e->chunk);

    if (!(e->moe_group > 1) || !(iters > 0))
        return 1;
    return serve_adp_wait_factor(b * passes / iters, e->moe_group);
}

/* The period at which a scheduler that holds new prompts to batch them
 * releases them (serve.batch_wait_iters k, serve.batch_wait_tokens_frac
 * r; TensorRT-LLM's PyExecutor._waiting_requests): it counts every
 * iteration, holds the prompts until k iterations have passed or the
 * iteration's tokens (the b q decode tokens and the prompts') reach r of
 * its budget, then releases all of them and counts again.  So the
 * releases come every k + 1 iterations, or sooner when the prompts
 * arriving at lambda a second fill the budget first; a prompt waits for
 * the next one, uniform over the period.  0 without holding. */
static double release_period_s(const struct engine *e, double b, double lambda,
                               double step)
{
    double need = e->wait_frac * e->chunk - b * e->q, per, k;

    if (!(e->wait_iters >= 1) || !(e->wait_frac > 0) || !(step > 0))
        return 0;
    if (!(need > 0))
        return 0;
    per = lambda * e->in_new * step;
    k = per > 0 ? ceil(need / per) : e->wait_iters;
    if (k > e->wait_iters)
        k = e->wait_iters;
    return (k + 1) * step;
}

/* b requests always in flight on one replica (closed-loop users, or
 * everything queued offline): the engine never idles, so each generation
 * of b requests costs b prefills (batched into chunks) and (O - 1) / tau
 * decode steps - the first token comes with the prefill.  A new prompt
 * joins the running batch at the next step (chunked prefill), behind the
 * prompts of the other b - 1 users that arrived before it (M/M/1 at their
 * share of the GPU time). */
static void busy_point(const struct engine *e, double b, struct point *pt)
{
    double pf1 = serve_prefill_one_s(e);
    double pf = b > 1 ? serve_prefill_bulk_s(e) : pf1;
    double step = serve_decode_step_s(e, b, serve_mean_ctx(e));
    double decode = (e->out > 1 ? e->out - 1 : 0) / e->tau * step;
    double prompts = b * pf * adp_prompt_stretch(e, b);
    double cycle = prompts + decode;
    double frac = cycle > 0 ? prompts / cycle : 0;

    memset(pt, 0, sizeof(*pt));
    pt->batch = b;
    pt->step = step;
    pt->pf1 = pf1;
    pt->rho_q = b > 1 ? frac * (b - 1) / b : 0;
    pt->s_q = pf;
    pt->round = b > 1 ? round_s(e, step) : 0;
    /* held prompts wait for the next release instead of the next round */
    pt->round = fmax(pt->round,
                     release_period_s(e, b, cycle > 0 ? b / cycle : 0, step));
    wait_dist(pt->rho_q, pf, &pt->queue);
    if (b > 1)
        dist_add_uniform(&pt->queue, pt->round);
    pt->ttft = pt->queue;
    dist_shift(&pt->ttft, pf1);
    pt->pf_frac = frac;
    pt->e2e = cycle > pt->ttft.mean ? cycle : pt->ttft.mean;
    pt->tpot.mean = e->out > 1 ? (pt->e2e - pt->ttft.mean) / (e->out - 1) : 0;
    pt->rps = pt->e2e > 0 ? b / pt->e2e : 0;
    tpot_dist(e, pt->tpot.mean, b, b > 1 ? (b - 1) / cycle : 0, pf, 1, 0,
              &pt->tpot);
    pt->ok = 1;
}

/* busy_point's TTFT at quantile p (the M/M/1 wait and the uniform wait
 * for the running round added quantile by quantile, as it does). */
static double busy_q(const void *arg, double p)
{
    const struct point *pt = arg;

    return pt->pf1 + p * pt->round + serve_wait_at(pt->rho_q, pt->s_q, p);
}

/* A closed loop's first burst over the load test's window of `window`
 * requests on this replica (serve_burst.c, serve.window_requests): its
 * first `run` prompts arrive at once and are prefilled in bulk, one
 * after another, before any decode runs; the requests after them see
 * busy_point's steady state.  The mean and the percentiles become the
 * window's mixture; TPOT and the steady rate stay (serve_window_rps turns
 * the rate into the window's, with the stagger kept in burst_span). */
static void closed_burst(const struct engine *e, double run, double window,
                         struct point *pt)
{
    struct serve_burst b;
    struct dist t;

    b.frac = serve_burst_frac(run, window);
    b.lo = pt->pf1;
    b.span = serve_burst_span_s(fmin(run, window), serve_prefill_bulk_s(e));
    if (!(b.frac > 0) || !(b.span > 0))
        return;
    t.mean = serve_burst_mean(&b, pt->ttft.mean);
    t.p50 = serve_burst_quantile(&b, busy_q, pt, 0.5);
    t.p90 = serve_burst_quantile(&b, busy_q, pt, 0.9);
    t.p99 = serve_burst_quantile(&b, busy_q, pt, 0.99);
    pt->e2e += t.mean - pt->ttft.mean;
    pt->burst_span = b.span;
    pt->ttft = t;
    pt->queue = t;
    dist_shift(&pt->queue, -pt->pf1);
}

/* Closed loop with `queued` users beyond the batch the engine runs (its
 * cap, or the KV that fits): they wait for a slot.  The engine runs the
 * batch at pt's rate, so by Little's law over the closed system (N = rate
 * x (wait + e2e)) every request waits queued / rate before its prefill;
 * with every user alike the wait is the same for each (a shift of the
 * distribution).  vLLM and TensorRT-LLM hold them in the scheduler's
 * waiting queue. */
static void wait_for_slot(struct point *pt, double queued)
{
    double w = queued > 0 && pt->rps > 0 ? queued / pt->rps : 0;

    dist_shift(&pt->queue, w);
    dist_shift(&pt->ttft, w);
    pt->e2e += w;
}

static int meets(const struct point *pt, double ttft_s, double tpot_s,
                 enum serve_pct pct)
{
    if (!pt->ok)
        return 0;
    if (ttft_s > 0 && dist_at(&pt->ttft, pct) > ttft_s)
        return 0;
    if (tpot_s > 0 && dist_at(&pt->tpot, pct) > tpot_s)
        return 0;
    return 1;
}

/* The highest arrival rate one replica sustains within the targets (no
 * targets: its capacity). */
static double replica_capacity(const struct engine *e, double maxb,
                               enum serve_pct pct, double ttft_s, double tpot_s,
                               struct point *best)
{
    struct point pt;
    double lo = 0, hi = 1 / serve_prefill_bulk_s(e);
    int i;

    memset(best, 0, sizeof(*best));
    open_point(e, hi * 1e-9, maxb, &pt);
    if (!meets(&pt, ttft_s, tpot_s, pct))
        return 0;
    *best = pt;
    for (i = 0; i < BISECT_ITERS; i++) {
        double mid = (lo + hi) / 2;

        open_point(e, mid, maxb, &pt);
        if (meets(&pt, ttft_s, tpot_s, pct)) {
            lo = mid;
            *best = pt;
        } else {
            hi = mid;
        }
    }
    return lo;
}

/* The replica's decode step at batch b, for serve_overload_waits. */
static double fill_step(const void *arg, double b)
{
    const struct engine *e = arg;

    return serve_decode_step_s(e, b, serve_mean_ctx(e));
}

/* Offered lambda above a replica's capacity cap (at_cap its point there):
 * throughput saturates at cap and the queue beyond the running batch
 * grows over the load test's n requests (serve_overload_waits: the batch
 * fills to at_cap's while short requests already finish, then admissions
 * settle at cap).  Added to the waits at capacity, quantile by quantile.
 * n = 0 (steady state): the wait is unbounded and pt->ok is 0. */
static void saturate(const struct engine *e, double lambda, double cap,
                     const struct point *at_cap, double n, double cv,
                     struct point *pt)
{
    struct serve_load_test lt = {
        n, lambda, cap, at_cap->batch, cv, 1 / serve_prefill_bulk_s(e)};
    struct serve_waits w;

    *pt = *at_cap;
    pt->rps = cap;
    if (!(n >= 1)) {
        pt->ok = 0;
        return;
    }
    serve_overload_waits(&lt, fill_step, (const void *)e, &w);
    pt->queue.mean += w.mean;
    pt->queue.p50 += w.p50;
    pt->queue.p90 += w.p90;
    pt->queue.p99 += w.p99;
    pt->ttft.mean += w.mean;
    pt->ttft.p50 += w.p50;
    pt->ttft.p90 += w.p90;
    pt->ttft.p99 += w.p99;
    pt->e2e += w.mean;
    pt->ok = 1;
}

/* Decode steps one request takes on average. */
static double decode_steps(const struct engine *e)
{
    return e->out > 1 ? (e->out - 1) / e->tau : 0;
}

/* The drain of a last batch of n requests once no more wait (serve.h):
 * lengths a shifted exponential of mean S steps and standard deviation
 * cv S, so all n run (1 - cv) S steps together, then with j left the next
 * finishes after cv S / j steps at batch j.  The sum over j runs in
 * geometric groups of ratio DRAIN_RATIO, each at its middle batch
 * (weight H_hi - H_lo), so a batch of thousands costs ~40 steps. */
#define DRAIN_RATIO 1.25
static double drain_s(const struct engine *e, double n, double cv)
{
    double s = decode_steps(e), ctx = serve_mean_ctx(e), hi, t;

    /* A spread wider than an exponential's (a hyperexponential, serve.h
     * serve_overload_waits) has more short requests, but its longest are
     * taken as an exponential's: ShareGPT's longest of 1000 outputs is 6.4x
     * the mean, below the exponential's H_1000 = 7.5x (the output_lens
     * of dstackai/benchmarks h100sxm5_vs_mi300x raw_data). */
    cv = fmin(cv, 1);
    n = floor(n);
    if (!(n >= 1) || !(s > 0))
        return 0;
    t = (1 - cv) * s * serve_decode_step_s(e, n, ctx);
    for (hi = n; hi >= 1;) {
        double lo = floor(hi / DRAIN_RATIO);
        double w = serve_harmonic(hi) - serve_harmonic(lo);

        t += cv * s * w * serve_decode_step_s(e, sqrt(hi * (lo + 1)), ctx);
        hi = lo;
    }
    return t;
}

/* The makespan of a finite run of `n` requests on one replica whose
 * engine, kept full, completes rps_full requests/s at batch `b`: all but
 * the last batch leave at the full rate; the last min(n, b) are
 * prefilled (batched into chunks when more than one) and drain
 * (drain_s).  With cv = 0 and n >= b it is n / rps_full, the steady
 * state of busy_point. */
static double burst_s(const struct engine *e, double n, double b,
                      double rps_full, double cv)
{
    double last = floor(n < b ? n : b);
    double pf = last > 1 ? serve_prefill_bulk_s(e) : serve_prefill_one_s(e);

    if (!(rps_full > 0) || !(last >= 1))
        return 0;
    return (n - last) / rps_full + last * pf + drain_s(e, last, cv);
}

/* The request throughput a finite load test of n requests offered at
 * lambda below capacity measures (benchmark_serving.py: completed over
 * the duration to the last completion): the last arrives (n - 1) /
 * lambda after the first, is prefilled, and the batch of b then in
 * flight drains (drain_s; by the exponential's memorylessness the
 * requests in flight have the spread of fresh ones).  Never above
 * lambda; with cv = 0 the steady state's lambda. */
static double finite_run_rps(const struct engine *e, double n, double lambda,
                             double b, double cv)
{
    double t, rps;

    if (!(cv > 0) || !(n >= 1) || !(lambda > 0))
        return lambda;
    t = (n - 1) / lambda + serve_prefill_one_s(e) +
        drain_s(e, n < b ? n : b, cv);
    rps = t > 0 ? n / t : lambda;
    return rps < lambda ? rps : lambda;
}

/* Why a replica meets no target even at the lightest load. */
static void explain_miss(const struct engine *e, double ttft_s, double tpot_s,
                         struct serve_result *s)
{
    double pf = serve_prefill_one_s(e),
           step = serve_decode_step_s(e, 1, serve_mean_ctx(e));

    if (ttft_s > 0 && pf > ttft_s)
        serve_miss(s, SERVE_MISS_TTFT,
                   "no batch meets serve.ttft_ms: one prompt's prefill alone "
                   "takes %.0f ms",
                   pf * 1e3);
    else if (tpot_s > 0 && step / e->tau > tpot_s)
        serve_miss(s, SERVE_MISS_TPOT,
                   "no batch meets serve.tpot_ms: one decode step at batch 1 "
                   "takes %.1f ms",
                   step / e->tau * 1e3);
    else
        serve_miss(s, SERVE_MISS_OTHER,
                   "the targets cannot be met at any load");
}

static void fill_dist(const struct dist *d, double *mean, double *p50,
                      double *p90, double *p99)
{
    *mean = clamp_pos(d->mean * 1e3);
    *p50 = clamp_pos(d->p50 * 1e3);
    *p90 = clamp_pos(d->p90 * 1e3);
    *p99 = clamp_pos(d->p99 * 1e3);
}

/* The operating point into s; its latencies only when it has them (a
 * queue without bound has none: latency_known false, exported null). */
static void fill_point(const struct point *pt, struct serve_result *s)
{
    s->batch = clamp_pos(pt->batch);
    s->decode_step_ms = clamp_pos(pt->step * 1e3);
    s->prefill_time_frac = clamp_pos(pt->pf_frac);
    s->latency_known = pt->ok != 0;
    if (!pt->ok)
        return;
    s->queue_ms = clamp_pos(pt->queue.mean * 1e3);
    fill_dist(&pt->ttft, &s->ttft_ms, &s->ttft_p50_ms, &s->ttft_p90_ms,
              &s->ttft_p99_ms);
    fill_dist(&pt->tpot, &s->tpot_ms, &s->tpot_p50_ms, &s->tpot_p90_ms,
              &s->tpot_p99_ms);
    s->e2e_s = clamp_pos(pt->e2e);
}

/* serve.offload=weights: do the weights a GPU leaves on the host exceed
 * its share of the node's host memory (when the system states it)?  Then
 * the replica does not fit. */
static bool host_short(const struct scenario *sc, const struct engine *e,
                       struct memory_result *mem)
{
    double share = serve_offload_host_share(sc);

    if (!(e->w_host > 0 && share > 0 && e->w_host > share))
        return false;
    mem->fits = false;
    return true;
}

/* Memory of one GPU: weights, activations of a prefill chunk, runtime
 * reserve, and the KV pool of what is left. */
void serve_memory_of(const struct scenario *sc, const struct engine *e,
                     const struct model_shape *m, struct result *r)
{
    struct serve_result *s = &r->serve;
    struct memory_result *mem = &r->memory;
    double hbm = sc->accel.hbm_bytes;
    double frac = sc->stack.kv_mem_frac > 0 ? sc->stack.kv_mem_frac : 0.9;
    double act = serve_chunk_act_bytes(e, m);
    double reserve = sc->stack.mem_reserve_bytes;
    /* serve.offload=weights: the GPU holds what is not on the host and
     * the layer staged ahead (serve_offload.c) */
    double w_hbm = e->w_gpu - e->w_host + e->w_stage;
    double free_b = hbm - w_hbm - act - reserve;
    double len =
        (double)sc->serve.input_tokens + (double)sc->serve.output_tokens;
    double per_seq = e->kv_tok * len;
    double maxb;

    s->weights_bytes = clamp_pos(e->w_gpu);
    s->kv_bytes_per_token =
        clamp_pos(serve_kv_bytes_per_token(m, sc->serve.kv_cache));
    s->kv_bytes_per_token_gpu = clamp_pos(e->kv_tok);
    s->kv_bytes = clamp_pos(free_b * frac);
    maxb = per_seq > 0 ? floor(s->kv_bytes / per_seq) : 0;
    /* serve.max_batch is the engine's cap as launched (vLLM
     * --max-num-seqs, TensorRT-LLM max_batch_size): it replaces the
     * stack's default, above it as well as below; memory still bounds. */
    if (sc->serve.max_batch >= 1) {
        /* with attention DP beside EP the cap is the replica's, shared
         * by its attention ranks */
        double cap = floor((double)sc->serve.max_batch / e->moe_group);

        if (maxb > cap)
            maxb = cap;
    } else if (sc->stack.max_seqs >= 1 && maxb > sc->stack.max_seqs) {
        maxb = sc->stack.max_seqs;
    }
    s->max_batch = clamp_pos(maxb);
    /* Overhead: the runtime reserve, the KV the largest batch holds (at
     * least one request's) and the share of free memory the engine keeps
     * back: within HBM when one request fits, over it by what is missing
     * when none does. */
    mem->weights_bytes = clamp_pos(w_hbm);
    mem->host_weights_bytes = clamp_pos(e->w_host);
    mem->activations_bytes = clamp_pos(act);
    mem->overhead_bytes = clamp_pos(reserve + per_seq * (maxb >= 1 ? maxb : 1) +
                                    clamp_pos(free_b) * (1 - frac));
    mem->allocator_bytes = clamp_pos(reserve);
    mem->buffers_bytes = 0;
    mem->total_bytes = clamp_pos(mem->weights_bytes + mem->activations_bytes +
                                 mem->overhead_bytes);
    mem->capacity_bytes = clamp_pos(hbm);
    mem->fits = free_b > 0 && maxb >= 1 && mem->total_bytes <= hbm;
    if (!(free_b > 0))
        serve_miss(s, SERVE_MISS_MEMORY,
                   "weights need %.1f GiB per GPU, more than the %.1f GiB of "
                   "HBM (raise parallel.tp or quantise serve.weights)",
                   (w_hbm + act + reserve) / 1073741824.0, hbm / 1073741824.0);
    else if (maxb < 1)
        serve_miss(s, SERVE_MISS_MEMORY,
                   "the KV cache of one %.0f-token request (%.2f GiB per GPU) "
                   "never fits in the %.2f GiB left after the weights",
                   len, per_seq / 1073741824.0, s->kv_bytes / 1073741824.0);
    else if (host_short(sc, e, mem))
        serve_miss(s, SERVE_MISS_MEMORY,
                   "the %.1f GiB of weights each GPU leaves on the host "
                   "exceed its %.1f GiB share of host memory "
                   "(systems.host_mem_gb)",
                   e->w_host / 1073741824.0,
                   serve_offload_host_share(sc) / 1073741824.0);
}

/* Batches 1, 2, 4 ... up to the max batch, closed loop. */
static void curve(const struct engine *e, struct serve_result *s)
{
    double b;

    s->curve_n = 0;
    for (b = 1; b <= s->max_batch && s->curve_n < SERVE_CURVE_MAX; b *= 2) {
        struct point pt;
        uint64_t i = s->curve_n++;

        busy_point(e, b, &pt);
        s->curve_batch[i] = b;
        s->curve_tok_s_gpu[i] =
            pt.e2e > 0 ? clamp_pos(b * e->out / pt.e2e / e->gpr) : 0;
        s->curve_user_tok_s[i] =
            pt.tpot.mean > 0 ? clamp_pos(1 / pt.tpot.mean) : 0;
    }
}

/* KV of one prompt from its prefill replica to a decode replica: every
 * GPU sends its shard over its scale-out NIC (DistServe, Zhong et al.
 * 2024, section 4: the transfer is small next to the prefill). */
double serve_kv_transfer_s(const struct scenario *sc, const struct engine *e)
{
    double bw = sc->fabric.gbps_per_gpu * 1e9 / 8 * sc->fabric.bw_frac * e->gpr;
    double bytes = e->kv_tok * e->gpr * (e->in_new + e->in_hit);

    return bw > 0 ? comm_p2p_s(bytes, bw, sc->fabric.latency_s) : 0;
}

/* Separate prefill and decode pools for the peak demand (DistServe;
 * Splitwise, Patel et al. 2024): prefill replicas run prompts back to back
 * at the utilization the TTFT target allows; decode replicas run the
 * largest batch the TPOT target allows, with no prompts interleaved.
 * Returns 0 (and the reason) when no pool meets the targets. */
static int disaggregate(const struct scenario *sc, const struct engine *e,
                        double maxb, enum serve_pct pct, double ttft_s,
                        double tpot_s, double demand, struct serve_result *s)
{
    double pf1 = serve_prefill_one_s(e), pfb = serve_prefill_bulk_s(e);
    double kv = serve_kv_transfer_s(sc, e), ctx = serve_mean_ctx(e);
    double rho = 0.9, lo, hi, b, step, lam_dec, pre, dec, bop, rho_op;
    double steps = e->out > 1 ? (e->out - 1) / e->tau : 1;
    struct dist w;
    int i;

    if (ttft_s > 0) {
        if (pf1 + kv > ttft_s) {
            serve_miss(s, SERVE_MISS_TTFT,
                       "no prefill pool meets serve.ttft_ms: one prompt takes "
                       "%.0f ms with the KV transfer",
                       (pf1 + kv) * 1e3);
            return 0;
        }
        lo = 0;
        hi = 0.999;
        for (i = 0; i < BISECT_ITERS; i++) {
            double mid = (lo + hi) / 2;

            wait_dist(mid, pfb, &w);
            if (pf1 + dist_at(&w, pct) + kv <= ttft_s)
                lo = mid;
            else
                hi = mid;
        }
        rho = lo;
    }
    /* The largest decode batch within the TPOT target. */
    lo = 1;
    hi = maxb >= 1 ? maxb : 1;
    if (tpot_s > 0 && serve_decode_step_s(e, 1, ctx) / e->tau > tpot_s) {
        serve_miss(s, SERVE_MISS_TPOT,
                   "no decode pool meets serve.tpot_ms: one step at batch 1 "
                   "takes %.1f ms",
                   serve_decode_step_s(e, 1, ctx) / e->tau * 1e3);
        return 0;
    }
    while (tpot_s > 0 && hi - lo > 0.5) {
        double mid = floor((lo + hi + 1) / 2);

        if (serve_decode_step_s(e, mid, ctx) / e->tau <= tpot_s)
            lo = mid;
        else
            hi = mid - 1;
    }
    b = tpot_s > 0 ? lo : hi;
    step = serve_decode_step_s(e, b, ctx);
    lam_dec = b / (steps * step);
    if (!(rho > 0) || !(lam_dec > 0))
        return 0;
    pre = ceil(demand * pfb / rho);
    dec = ceil(demand / lam_dec);
    /* The operating point: the decode batch at the demand, by Little. */
    bop = b;
    for (i = 0; i < FIXED_POINT_ITERS; i++) {
        double nb = demand / dec * steps * serve_decode_step_s(e, bop, ctx);

        if (fabs(nb - bop) < 1e-9 * bop)
            break;
        bop = nb < b ? nb : b;
    }
    rho_op = demand * pfb / pre;
    step = serve_decode_step_s(e, bop, ctx);
    s->prefill_gpus = pre * e->gpr;
    s->decode_gpus = dec * e->gpr;
    s->replicas = pre + dec;
    s->batch = clamp_pos(bop);
    s->decode_step_ms = clamp_pos(step * 1e3);
    /* TTFT: the prefill pool's M/M/1 wait, the prompt, the KV transfer;
     * TPOT: decode replicas hold the batch with no prompts interleaved. */
    wait_dist(rho_op, pfb, &w);
    dist_shift(&w, kv);
    s->queue_ms = clamp_pos(w.mean * 1e3);
    dist_shift(&w, pf1);
    fill_dist(&w, &s->ttft_ms, &s->ttft_p50_ms, &s->ttft_p90_ms,
              &s->ttft_p99_ms);
    memset(&w, 0, sizeof(w));
    dist_shift(&w, step / e->tau);
    fill_dist(&w, &s->tpot_ms, &s->tpot_p50_ms, &s->tpot_p90_ms,
              &s->tpot_p99_ms);
    s->latency_known = true;
    s->e2e_s = clamp_pos(s->ttft_ms / 1e3 + steps * step);
    s->prefill_time_frac =
        clamp_pos(s->prefill_gpus / (s->prefill_gpus + s->decode_gpus));
    s->requests_per_s = demand;
    s->utilization = clamp_pos(demand / fmin(pre * rho / pfb, dec * lam_dec));
    s->disaggregated = true;
    return 1;
}

/* The fleet of `replicas` under `demand` requests/s of open arrivals:
 * below capacity the steady state at demand / replicas; above it the
 * throughput saturates at capacity and TTFT grows with the queue over the
 * load test's serve.window_requests (saturate).  With no window the
 * queue grows without bound: pt->ok is 0 and s says why. */
static void offered(const struct scenario *sc, const struct engine *e,
                    double demand, double replicas, double cap_t,
                    const struct point *at_cap_t, struct serve_result *s,
                    struct point *pt /* OUT */)
{
    struct point at_cap;
    double lambda = demand / replicas, cap;

    s->requests_per_s = demand;
    /* With no target the capacity at the targets is the capacity. */
    if (!(sc->serve.ttft_ms > 0) && !(sc->serve.tpot_ms > 0)) {
        cap = cap_t;
        at_cap = *at_cap_t;
    } else if (sc->serve.gpus_auto && lambda <= cap_t) {
        /* A fleet sized for the demand: below capacity by construction;
         * the search evaluates thousands, so no second bisection. */
        open_point(e, lambda, s->max_batch, pt);
        return;
    } else {
        cap = replica_capacity(e, s->max_batch, SERVE_PCT_MEAN, 0, 0, &at_cap);
    }
    s->capacity_requests_per_s = clamp_pos(cap * replicas);
    if (lambda < cap) {
        open_point(e, lambda, s->max_batch, pt);
        s->requests_per_s =
            finite_run_rps(e, (double)sc->serve.window_requests / replicas,
                           lambda, pt->batch, sc->serve.output_cv) *
            replicas;
        return;
    }
    s->saturated = true;
    s->fits = false;
    s->requests_per_s = cap * replicas;
    saturate(e, lambda, cap, &at_cap,
             (double)sc->serve.window_requests / replicas, sc->serve.output_cv,
             pt);
    /* Over a finite window the drain of spread lengths lowers what the
     * load test measures below the capacity (never above). */
    if (pt->ok && sc->serve.output_cv > 0) {
        double n = (double)sc->serve.window_requests / replicas;
        double t = burst_s(e, n, at_cap.batch, cap, sc->serve.output_cv);

        if (t > 0 && n / t < cap)
            s->requests_per_s = n / t * replicas;
    }
    if (!pt->ok) {
        serve_miss(s, SERVE_MISS_CAPACITY,
                   "offered %.3g req/s exceeds the capacity of %.0f "
                   "replicas (%.3g req/s): the queue and TTFT grow without "
                   "bound (serve.window_requests = 0)",
                   demand, replicas, cap * replicas);
        return;
    }
    serve_miss(s, SERVE_MISS_CAPACITY,
               "offered %.3g req/s exceeds the capacity of %.0f replicas "
               "(%.3g req/s): throughput saturates and TTFT grows with the "
               "queue over %llu requests",
               demand, replicas, cap * replicas,
               (unsigned long long)sc->serve.window_requests);
}

/* Tokens per second in and out, and out per GPU, from the request rate
 * and s->gpus. */
static void set_throughput(const struct engine *e, const struct serve_spec *sv,
                           struct serve_result *s)
{
    s->output_tokens_per_s = clamp_pos(s->requests_per_s * e->out);
    s->input_tokens_per_s =
        clamp_pos(s->requests_per_s * (double)sv->input_tokens);
    s->output_tokens_per_s_per_gpu =
        s->gpus > 0 ? clamp_pos(s->output_tokens_per_s / s->gpus) : 0;
}

/* Offline: every replica runs its largest batch; with gpus = auto, the
 * fewest replicas that clear the demand. */
static void serve_offline(const struct serve_spec *sv, const struct engine *e,
                          double demand, double replicas,
                          struct serve_result *s)
{
    struct point pt;

    double rps;

    busy_point(e, s->max_batch, &pt);
    fill_point(&pt, s);
    rps = pt.rps;
    /* A burst of serve.window_requests with spread lengths ends in a
     * drain (burst_s): the throughput is the burst over its makespan. */
    if (sv->output_cv > 0 && sv->window_requests >= 1) {
        double n = (double)sv->window_requests / (sv->gpus_auto ? 1 : replicas);
        double t = burst_s(e, n, s->max_batch, pt.rps, sv->output_cv);

        if (t > 0 && n / t < rps)
            rps = n / t;
    }
    s->replicas = replicas;
    s->requests_per_s = rps * replicas;
    s->utilization = 1;
    if (demand > 0 && sv->gpus_auto) {
        s->replicas = ceil(demand / rps);
        s->requests_per_s = demand;
        s->utilization = demand / (s->replicas * rps);
    }
}

/* Closed loop: users spread over the replicas; with gpus = auto
 * the fewest replicas whose batch meets the targets. */
static void serve_closed_loop(const struct serve_spec *sv,
                              const struct engine *e, double replicas,
                              double ttft_s, double tpot_s, enum serve_pct pct,
                              struct serve_result *s)
{
    struct point pt;
    double n = (double)sv->concurrency, per, run;

    if (sv->gpus_auto) {
        double lo = 1, hi = n;

        while (hi - lo > 0.5) {
            double mid = floor((lo + hi) / 2);
            struct point q;
            double each = ceil(n / mid);

            busy_point(e, each, &q);
            closed_burst(e, each, serve_closed_window(sv) / mid, &q);
            if (each <= s->max_batch && meets(&q, ttft_s, tpot_s, pct))
                hi = mid;
            else
                lo = mid + 1;
            if (lo >= hi)
                break;
        }
        replicas = hi;
    }
    per = ceil(n / replicas);
    run = per > s->max_batch && s->max_batch >= 1 ? s->max_batch : per;
    busy_point(e, run, &pt);
    closed_burst(e, run, serve_closed_window(sv) / replicas, &pt);
    wait_for_slot(&pt, per - run);
    fill_point(&pt, s);
    s->replicas = replicas;
    /* the window measures its makespan (serve_window_rps), the first
     * burst's stagger included */
    s->requests_per_s =
        serve_window_rps(per, serve_closed_window(sv) / replicas, pt.rps,
                         pt.burst_span) *
        replicas;
    s->utilization = 1;
    if (run > s->max_batch) {
        s->fits = false;
        serve_miss(s, SERVE_MISS_CAPACITY,
                   "%.0f users per replica exceed the %.0f sequences "
                   "that fit",
                   ceil(n / replicas), s->max_batch);
    } else if (!meets(&pt, ttft_s, tpot_s, pct)) {
        s->fits = false;
        serve_miss(s, SERVE_MISS_OTHER,
                   "%.0f users per replica miss the latency targets "
                   "(%s TTFT %.0f ms, TPOT %.1f ms)",
                   ceil(n / replicas), serve_pct_name(pct),
                   dist_at(&pt.ttft, pct) * 1e3, dist_at(&pt.tpot, pct) * 1e3);
    }
}

/* Open arrivals: the capacity of one replica at the targets, or pools
 * split into prefill and decode; true when s is complete (a split, or a
 * miss). */
static bool serve_open(const struct scenario *sc, const struct engine *e,
                       double demand, double replicas, double ttft_s,
                       double tpot_s, enum serve_pct pct,
                       struct serve_result *s)
{
    const struct serve_spec *sv = &sc->serve;
    struct point pt;
    double cap;
    struct point best;
    struct serve_result split = *s;
    int can_split =
        demand > 0 && sv->gpus_auto && sv->disaggregated != DISAGG_NO &&
        disaggregate(sc, e, s->max_batch, pct, ttft_s, tpot_s, demand, &split);

    cap = replica_capacity(e, s->max_batch, pct, ttft_s, tpot_s, &best);
    if (sv->disaggregated == DISAGG_YES ||
        (can_split && (!(cap > 0) || (split.prefill_gpus + split.decode_gpus) <
                                         ceil(demand / cap) * e->gpr))) {
        *s = split;
        s->fits = can_split;
        if (!can_split && !s->reason[0])
            serve_miss(s, SERVE_MISS_OTHER,
                       "disaggregation sizes pools for online demand "
                       "(serve.requests_per_s or serve.tokens_per_day) "
                       "with hardware.gpus = auto");
        s->gpus = s->prefill_gpus + s->decode_gpus;
        if (!can_split)
            s->gpus = e->gpr;
        set_throughput(e, sv, s);
        return true;
    }
    if (!(cap > 0)) {
        s->fits = false;
        explain_miss(e, ttft_s, tpot_s, s);
        s->replicas = replicas;
        s->gpus = replicas * e->gpr;
        return true;
    }
    if (demand > 0 && sv->gpus_auto)
        replicas = ceil(demand / cap);
    if (demand > 0) {
        s->utilization = demand / (replicas * cap);
        offered(sc, e, demand, replicas, cap, &best, s, &pt);
        if (!s->saturated && !meets(&pt, ttft_s, tpot_s, pct)) {
            s->fits = false;
            serve_miss(s, SERVE_MISS_CAPACITY,
                       "peak demand %.3g req/s exceeds the capacity of "
                       "%.0f replicas at the %s targets (%.3g req/s)",
                       demand, replicas, serve_pct_name(pct), replicas * cap);
        }
    } else {
        pt = best;
        s->requests_per_s = cap * replicas;
        s->utilization = 1;
    }
    fill_point(&pt, s);
    s->replicas = replicas;
    return false;
}

void serve_estimate(const struct scenario *sc, const struct model_shape *m,
                    struct result *r)
{
    struct serve_result *s = &r->serve;
    const struct serve_spec *sv = &sc->serve;
    struct engine e;
    enum serve_pct pct = sv->percentile;
    double ttft_s = sv->ttft_ms / 1e3, tpot_s = sv->tpot_ms / 1e3;
    double demand = serve_peak_demand_rps(sv), replicas, given_rep;

    if (serve_pool_applies(sc)) {
        serve_pool_estimate(sc, m, r);
        return;
    }
    memset(s, 0, sizeof(*s));
    serve_engine_init(sc, m, &e);
    serve_memory_of(sc, &e, m, r);
    s->gpus_per_replica = e.gpr;
    s->tokens_per_step = e.tau;
    s->prefill_ms = clamp_pos(serve_prefill_one_s(&e) * 1e3);
    s->demand_requests_per_s = clamp_pos(demand);
    s->owned_gpus = (double)sv->owned_gpus;
    given_rep = floor((double)sc->gpus / e.gpr);
    if (given_rep < 1)
        given_rep = 1;
    replicas = sv->gpus_auto ? 1 : given_rep;
    if (!r->memory.fits) {
        s->replicas = replicas;
        s->gpus = replicas * e.gpr;
        return;
    }
    s->fits = true;
    curve(&e, s);

    if (sv->mode == SERVE_OFFLINE)
        serve_offline(sv, &e, demand, replicas, s);
    else if (sv->concurrency > 0)
        serve_closed_loop(sv, &e, replicas, ttft_s, tpot_s, pct, s);
    else if (serve_open(sc, &e, demand, replicas, ttft_s, tpot_s, pct, s))
        return;
    s->gpus = clamp_pos(s->replicas * e.gpr);
    set_throughput(&e, sv, s);
    s->requests_per_s = clamp_pos(s->requests_per_s);
    s->utilization = clamp_pos(s->utilization);
}

double serve_ttft_at_ms(const struct serve_result *s, enum serve_pct p)
{
    struct dist d = {s->ttft_ms, s->ttft_p50_ms, s->ttft_p90_ms,
                     s->ttft_p99_ms};

    return dist_at(&d, p);
}

double serve_tpot_at_ms(const struct serve_result *s, enum serve_pct p)
{
    struct dist d = {s->tpot_ms, s->tpot_p50_ms, s->tpot_p90_ms,
                     s->tpot_p99_ms};

    return serve_tpot_known(s) ? dist_at(&d, p) : 0;
}

bool serve_tpot_known(const struct serve_result *s)
{
    return s->latency_known && s->pool != POOL_PREFILL;
}
