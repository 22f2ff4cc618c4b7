/*
 * serve_pool.c - wide EP and disaggregated pools (see serve_pool.h).
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/clamp.h"
#include "core/comm.h"
#include "core/serve.h"
#include "core/serve_int.h"
#include "core/serve_pool.h"

#define BIG 1e300
#define BISECT_ITERS 60

/* The quantile serve.percentile names (an enum serve_pct, not a number):
 * the median stands for the mean where one quantile is needed. */
static double pct_quantile(enum serve_pct p)
{
    switch (p) {
    case SERVE_PCT_P90:
        return 0.9;
    case SERVE_PCT_P99:
        return 0.99;
    case SERVE_PCT_P50:
    case SERVE_PCT_MEAN:
    default:
        return 0.5;
    }
}

static double or_default(uint64_t v, double def)
{
    return v >= 1 ? (double)v : def;
}

void serve_pool_layout_of(const struct scenario *sc, enum serve_pool phase,
                          struct serve_pool_layout *out)
{
    const struct serve_spec *sv = &sc->serve;
    const struct serve_pool_spec *p = phase == POOL_PREFILL  ? &sv->prefill
                                      : phase == POOL_DECODE ? &sv->decode
                                                             : NULL;
    double adp = or_default(sv->attention_dp, 1);

    out->tp = (double)sc->layout.tp;
    out->pp = (double)sc->layout.pp;
    out->ep = (double)sc->layout.ep;
    out->adp = adp;
    out->gpus = sv->gpus_auto ? 0 : (double)sc->gpus;
    if (!p)
        return;
    out->tp = or_default(p->tp, out->tp);
    out->ep = or_default(p->ep, out->ep);
    out->adp = or_default(p->attention_dp, adp);
    if (sv->disaggregated == DISAGG_YES && p->gpus >= 1)
        out->gpus = (double)p->gpus;
    else if (sv->disaggregated == DISAGG_YES && sv->pool == POOL_BOTH)
        out->gpus = 0; /* sized, or the rest of hardware.gpus */
}

bool serve_dispatch_fp8(enum serve_comm_prec comm, enum serve_dtype weights)
{
    if (comm == SCOMM_FP8)
        return true;
    if (comm == SCOMM_BF16)
        return false;
    return weights == SD_FP8 || weights == SD_FP4 || weights == SD_INT4;
}

double serve_a2a_bytes_el(bool fp8)
{
    /* dispatch: fp8 e4m3 with one fp32 scale per 128 elements (DeepEP
     * dispatch, DeepSeek-V3 tech report 3.3.2: 1 + 4 / 128 bytes), else
     * bf16; combine: bf16 */
    return (fp8 ? 1 + 4.0 / 128 : 2) + 2;
}

void serve_a2a_init(const struct scenario *sc, const struct model_shape *m,
                    double tp, double ep, struct serve_a2a *a)
{
    const struct stack_spec *st = &sc->stack;
    enum serve_dtype w = sc->serve.weights;
    double up = sc->system.scaleup_bps > 0 ? sc->system.scaleup_bps
                                           : sc->accel.scaleup_bps;
    double frac = sc->system.scaleup_frac > 0 ? sc->system.scaleup_frac : 1;
    double domain = (double)sc->system.scaleup_domain;
    bool low = serve_dispatch_fp8(sc->serve.comm, w);

    memset(a, 0, sizeof(*a));
    if (m->experts < 2 || !(ep > 1))
        return;
    a->ep = ep;
    a->tp = tp >= 1 ? tp : 1;
    a->top_k = m->top_k;
    a->h = m->h;
    a->layers = m->moe_layers;
    a->bytes_el = serve_a2a_bytes_el(low);
    if (!(domain >= 1))
        domain = sc->system.gpus_per_node >= 1
                     ? (double)sc->system.gpus_per_node
                     : 1;
    /* the EP ranks of one domain: consecutive ranks tp apart */
    a->g = floor(domain / a->tp);
    if (a->g < 1)
        a->g = 1;
    if (a->g > ep)
        a->g = ep;
    a->beta_in = up > 0 ? up * frac : 0;
    a->beta_out = sc->fabric.gbps_per_gpu * 1e9 / 8 * sc->fabric.bw_frac;
    if (!(a->beta_in > 0))
        a->beta_in = a->beta_out;
    if (!(a->beta_out > 0))
        a->beta_out = a->beta_in > 0 ? a->beta_in : 1e9;
    if (!(a->beta_in > 0))
        a->beta_in = a->beta_out;
    a->alpha_in = st->allreduce_s;
    a->alpha_out =
        sc->fabric.latency_s > a->alpha_in ? sc->fabric.latency_s : a->alpha_in;
    a->overlap =
        st->ep_overlap >= 0 && st->ep_overlap <= 1 ? st->ep_overlap : 0;
}

static double a2a_s(const struct serve_a2a *a, double tokens, bool per_node)
{
    double el, t, alpha;

    if (!(a->ep > 1) || !(tokens > 0))
        return 0;
    el = tokens / a->tp * a->h * a->bytes_el; /* one copy of each token */
    alpha = a->ep > a->g ? a->alpha_out : a->alpha_in;
    t = comm_all_to_all_tiers_s(el * a->top_k, a->ep, a->g, a->top_k, per_node,
                                a->beta_in, a->beta_out) +
        2 * alpha;
    return clamp_pos(a->layers * t * (1 - a->overlap));
}

double serve_a2a_s(const struct serve_a2a *a, double tokens)
{
    return a2a_s(a, tokens, false);
}

double serve_a2a_prefill_s(const struct serve_a2a *a, double tokens)
{
    return a2a_s(a, tokens, true);
}

bool serve_pool_applies(const struct scenario *sc)
{
    const struct serve_spec *sv = &sc->serve;

    if (sv->pool != POOL_BOTH)
        return true;
    return sv->disaggregated == DISAGG_YES &&
           (sv->prefill.gpus || sv->prefill.tp || sv->prefill.ep ||
            sv->prefill.attention_dp || sv->decode.gpus || sv->decode.tp ||
            sv->decode.ep || sv->decode.attention_dp || sv->decode.max_batch);
}

/* ---- one pool --------------------------------------------------------- */

struct pool {
    struct scenario sc; /* the plan with the pool's parallelism */
    const struct model_shape *m;
    struct serve_pool_layout lay;
    struct serve_rank k;
    struct result r; /* its memory */
    double ranks;    /* attention ranks: gpus / (tp x pp) */
    double group;    /* GPUs of one replica: tp x pp x adp */
    bool fits;
};

/* serve.decode.max_batch: the engine's cap on one attention rank of the
 * decode pool as launched (TensorRT-LLM max_batch_size with attention DP,
 * which the InferenceX recipes name "batchN": ctx1_gen1_dep32_batch4 runs
 * 4 sequences a rank).  It stands for serve.max_batch in the pool's plan,
 * which is the replica's, shared by its attention ranks when the experts
 * spread over them (serve_memory_of): above the stack's default as well
 * as below, and the KV cache still bounds it.  A closed loop of more
 * users than the ranks hold keeps them waiting for a slot (both_pools). */
static void decode_cap(const struct serve_spec *sv, struct pool *p)
{
    double share = p->lay.ep > 1 && p->lay.adp > 1 ? p->lay.adp : 1;

    if (sv->decode.max_batch >= 1)
        p->sc.serve.max_batch =
            (uint64_t)((double)sv->decode.max_batch * share);
}

static void pool_init(const struct scenario *sc, const struct model_shape *m,
                      enum serve_pool phase, struct pool *p)
{
    memset(&p->r, 0, sizeof(p->r));
    p->sc = *sc;
    p->m = m;
    serve_pool_layout_of(sc, phase, &p->lay);
    p->sc.layout.tp = (uint64_t)p->lay.tp;
    p->sc.layout.ep = (uint64_t)p->lay.ep;
    p->sc.serve.attention_dp = (uint64_t)p->lay.adp;
    if (phase == POOL_DECODE)
        decode_cap(&sc->serve, p);
    serve_rank_init(&p->sc, m, &p->k, &p->r);
    p->group = p->lay.tp * p->lay.pp * p->lay.adp;
    p->ranks = p->lay.gpus > 0 ? floor(p->lay.gpus / p->k.gpr) : 0;
    p->fits = p->r.memory.fits;
}

/* Decode steps of one request after its first token. */
static double steps_of(const struct pool *p)
{
    return p->k.out > 1 ? (p->k.out - 1) / p->k.tau : 0;
}

/* The decode time of one request at b sequences per rank. */
static double decode_time(const struct pool *p, double b)
{
    return steps_of(p) * serve_rank_step_s(&p->sc, p->m, b);
}

/* One prompt on the prefill pool: pipeline stages work on successive
 * chunks at once (chunked pipeline parallelism), so a prompt of n passes
 * takes (n + pp - 1) stage times, not n x pp.  Causal chunks are not
 * alike: chunk i attends to the i chunks before it, so the first stage,
 * busy with every chunk in turn, never waits, and the prompt is done
 * when the last, longest, chunk has crossed the other pp - 1 stages:
 * all passes over pp, plus (pp - 1) stage times of the last pass (equal
 * passes: the (n + pp - 1) stage times). */
static double prefill_latency(const struct pool *p)
{
    double pp = p->lay.pp, n = p->k.passes >= 1 ? p->k.passes : 1;
    double last = n > 1 ? p->k.prefill_last_s : p->k.prefill_one_s;

    return (p->k.prefill_one_s + (pp - 1) * last) / pp;
}

static void fill_tokens(struct serve_result *s, double rps, double in,
                        double out_tok_s)
{
    s->requests_per_s = clamp_pos(rps);
    s->input_tokens_per_s = clamp_pos(rps * in);
    s->output_tokens_per_s = clamp_pos(out_tok_s);
    s->output_tokens_per_s_per_gpu =
        s->gpus > 0 ? clamp_pos(out_tok_s / s->gpus) : 0;
}

/* The prefill pool alone: prompts back to back (offline), or N users,
 * each waiting for the prompts ahead of it. */
static void prefill_alone(const struct pool *p, struct serve_result *s)
{
    const struct serve_spec *sv = &p->sc.serve;
    double pfb = p->k.prefill_bulk_s, pf1 = prefill_latency(p);
    double cap = p->ranks / pfb, rps = cap, ttft = pf1;
    double q = pct_quantile(sv->percentile);

    if (sv->mode == SERVE_ONLINE && sv->concurrency > 0) {
        double n = (double)sv->concurrency / p->ranks;

        ttft = pf1 + (n > 1 ? (n - 1) * pfb : 0);
        rps = (double)sv->concurrency / ttft;
    } else if (sv->mode == SERVE_ONLINE && sv->requests_per_s > 0) {
        rps = sv->requests_per_s;
        ttft = pf1 + serve_wait_at(rps / cap, pfb, q);
        if (rps >= cap) {
            s->fits = false;
            serve_miss(s, SERVE_MISS_CAPACITY,
                       "%.3g req/s exceed the prefill pool's %.3g req/s", rps,
                       cap);
        }
    }
    s->ttft_ms = clamp_pos(ttft * 1e3);
    s->prefill_ms = clamp_pos(pf1 * 1e3);
    s->queue_ms = clamp_pos((ttft - pf1) * 1e3);
    s->batch = clamp_pos(floor(serve_prefill_chunk(&p->sc) / p->k.in));
    s->prefill_time_frac = 1;
    s->prefill_bound = true;
    s->prefill_gpus = s->gpus;
    s->utilization = cap > 0 ? clamp_pos(rps / cap) : 0;
    /* each prompt yields its first output token */
    fill_tokens(s, rps, p->k.in, rps);
}

/* The decode pool alone: sequences arrive with their KV; offline it runs
 * the largest batch, online N users (or the demand by Little's law). */
static void decode_alone(const struct pool *p, struct serve_result *s)
{
    const struct serve_spec *sv = &p->sc.serve;
    double b = p->k.max_batch, step, rate;

    if (sv->mode == SERVE_ONLINE && sv->concurrency > 0) {
        double want = ceil((double)sv->concurrency / p->ranks);

        if (want < b)
            b = want;
    } else if (sv->mode == SERVE_ONLINE && sv->requests_per_s > 0) {
        double lam = sv->requests_per_s / p->ranks, x = 1;
        int i;

        for (i = 0; i < 60; i++) {
            double nb = lam * decode_time(p, x);

            if (nb > b) {
                s->fits = false;
                serve_miss(s, SERVE_MISS_CAPACITY,
                           "%.3g req/s exceed the decode pool's batch of %.0f "
                           "per rank",
                           sv->requests_per_s, b);
                nb = b;
            }
            if (fabs(nb - x) < 1e-9 * x)
                break;
            x = nb > 1 ? nb : 1;
        }
        b = x;
    }
    step = serve_rank_step_s(&p->sc, p->m, b);
    rate = p->ranks * b * p->k.tau / step; /* tokens/s of the pool */
    s->batch = clamp_pos(b * p->lay.adp);
    s->decode_step_ms = clamp_pos(step * 1e3);
    s->tpot_ms = clamp_pos(step / p->k.tau * 1e3);
    s->ttft_ms = s->decode_step_ms;
    s->e2e_s = clamp_pos(steps_of(p) * step + step);
    s->decode_gpus = s->gpus;
    s->utilization = p->k.max_batch > 0 ? clamp_pos(b / p->k.max_batch) : 0;
    fill_tokens(s, rate / (p->k.out >= 1 ? p->k.out : 1), p->k.in, rate);
}

/* Both pools, the KV crossing between them: the request rate that the N
 * users (or the demand) and the two pools allow. */
struct joint {
    double rps, ttft, queue, b, step;
    double ttft_mean;     /* what Little's law sees (the percentile reports) */
    double t0, rho, most; /* prefill + transfer, the prefill pool's load,
                           * the closed loop's cap on the wait */
    double s_bulk;        /* a prompt's share of a bulk prefill pass */
    double join;          /* the decode step a first token waits within */
    bool spread;          /* the wait varies over requests (M/M/1) */
    struct serve_burst burst; /* a closed loop's first burst (none: 0) */
    double fluid; /* offered above capacity: the wait the window's last
                   * request has for those ahead (pools_overload; 0: none) */
};

/* Mean waiting time of the same M/M/1 queue: rho s / (1 - rho). */
static double wait_mean(double rho, double s)
{
    if (!(rho > 0))
        return 0;
    return rho < 1 ? rho * s / (1 - rho) : BIG;
}

/* A request whose KV has landed joins the decode worker's running batch
 * at its next iteration, and its first token reaches the client with that
 * iteration's output (SGLang's PD decode scheduler polls the KV transfers
 * and merges the arrived requests between decode steps; likewise the
 * aggregated engines between rounds, round_s in serve_point.c): a wait
 * uniform over the running step, step / 2 on average. */
static double decode_join_s(double step)
{
    return step > 0 ? step : 0;
}

static void joint_at(const struct pool *pf, const struct pool *dc, double rps,
                     double q, double users, struct joint *j)
{
    double cap = pf->ranks / pf->k.prefill_bulk_s, rho = rps / cap;
    double b = 1, d = 0, t0 = prefill_latency(pf) + pf->k.kv_transfer_s;
    double wm = wait_mean(rho, pf->k.prefill_bulk_s);
    int i;

    /* the decode batch by Little: b = rps D(b) / ranks */
    for (i = 0; i < 60; i++) {
        double nb;

        d = decode_time(dc, b);
        nb = rps * d / dc->ranks;
        if (nb > dc->k.max_batch)
            nb = dc->k.max_batch;
        if (nb < 1)
            nb = 1;
        if (fabs(nb - b) < 1e-9 * b)
            break;
        b = nb;
    }
    j->rps = rps;
    j->b = b;
    j->step = serve_rank_step_s(&dc->sc, dc->m, b);
    j->queue = serve_wait_at(rho, pf->k.prefill_bulk_s, q);
    j->most = BIG;
    if (users > 0) {
        /* closed loop: no more than the other users wait ahead */
        j->most = users * pf->k.prefill_bulk_s / pf->ranks;
        wm = fmin(wm, j->most);
        j->queue = fmin(j->queue, j->most);
    }
    j->join = decode_join_s(j->step);
    j->ttft = t0 + q * j->join + j->queue;
    j->ttft_mean = t0 + j->join / 2 + wm;
    j->t0 = t0;
    j->rho = rho;
    j->s_bulk = pf->k.prefill_bulk_s;
    j->spread = true;
    j->fluid = 0;
    memset(&j->burst, 0, sizeof(j->burst));
}

/* The steady state's TTFT at quantile p: prefill and transfer, the wait
 * to join the decode batch (its quantile added, as serve_point.c adds
 * the running round's), then the M/M/1 wait at the prefill pool's load,
 * capped by the users ahead. */
static double joint_q(const void *arg, double p)
{
    const struct joint *j = arg;

    return j->t0 + p * j->join +
           fmin(serve_wait_at(j->rho, j->s_bulk, p), j->most) + p * j->fluid;
}

/* Open arrivals at rps above the pools' capacity top, over a load test of
 * n requests (serve.window_requests): the pools serve top a second and
 * the queue grows by rps - top until the last arrival, so the k-th
 * request waits k (1 / top - 1 / rps) for those ahead (the fluid queue
 * serve_queue.c settles into past its stepped horizon), uniform over the
 * window: the mean is half the last one's wait, quantile p that share of
 * it.  It replaces the steady M/M/1 wait, which has no bound at the
 * capacity.  Throughput saturates at top.  Returns false with no window
 * (n = 0): the wait grows without bound. */
static bool pools_overload(double rps, double top, double n, struct joint *j)
{
    j->rps = top;
    if (!(n >= 1) || !(top > 0))
        return false;
    j->fluid = n * (1 / top - 1 / rps);
    j->rho = 0;
    j->queue = j->fluid / 2;
    j->ttft_mean = j->t0 + j->join / 2 + j->queue;
    j->spread = true;
    return true;
}

/* A closed loop's first burst over the load test's window (serve_burst.c,
 * serve.window_requests): the users' first prompts arrive at once and
 * each prefill rank drains its share of them one bulk prefill after
 * another; the requests after them see the steady state.  Adds to the
 * mean TTFT that the percentiles and the report use, not to the one
 * Little's law solved the steady rate with. */
static void pool_burst(const struct pool *pf, double users, double window,
                       struct joint *j)
{
    double first = fmin(users, window);

    j->burst.frac = serve_burst_frac(users, window);
    j->burst.lo = j->t0 + j->join / 2;
    j->burst.span = pf->ranks > 0 ? serve_burst_span_s(first / pf->ranks,
                                                       pf->k.prefill_bulk_s)
                                  : 0;
    j->ttft_mean = serve_burst_mean(&j->burst, j->ttft_mean);
}

/* TTFT over requests: the mean, and the M/M/1 wait at the prefill
 * pool's load at 0.5, 0.9 and 0.99 after the prefill and the transfer
 * (capped in a closed loop by the users ahead), mixed with a closed
 * loop's first burst (serve_burst_quantile); one value for all when
 * every request waits alike. */
static void joint_ttft(const struct joint *j, struct serve_result *s)
{
    static const double qs[3] = {0.5, 0.9, 0.99};
    double *out[3] = {&s->ttft_p50_ms, &s->ttft_p90_ms, &s->ttft_p99_ms};
    int i;

    s->ttft_ms = clamp_pos(j->ttft_mean * 1e3);
    for (i = 0; i < 3; i++)
        *out[i] =
            j->spread
                ? clamp_pos(serve_burst_quantile(&j->burst, joint_q, j, qs[i]) *
                            1e3)
                : s->ttft_ms;
}

static void both_pools(const struct pool *pf, const struct pool *dc,
                       struct serve_result *s)
{
    const struct serve_spec *sv = &pf->sc.serve;
    double q = pct_quantile(sv->percentile);
    double pcap = pf->ranks / pf->k.prefill_bulk_s;
    double dcap =
        dc->ranks * dc->k.max_batch /
        (decode_time(dc, dc->k.max_batch) > 0 ? decode_time(dc, dc->k.max_batch)
                                              : 1);
    double top = fmin(pcap, dcap), d, measured;
    struct joint j;
    int i;

    s->prefill_bound = pcap < dcap;

    if (sv->mode == SERVE_ONLINE && sv->concurrency > 0) {
        /* N = r (TTFT(r) + D(r)): increasing in r; bisect below the
         * capacity, and past it the users queue for the prefill pool */
        double n = (double)sv->concurrency, lo = 0, hi = top * 0.999999;

        joint_at(pf, dc, hi, q, n, &j);
        if (hi * (j.ttft_mean + decode_time(dc, j.b)) <= n) {
            d = decode_time(dc, j.b);
            j.ttft = n / hi - d;
            j.ttft_mean = j.ttft;
            j.spread = false; /* every user waits its turn alike */
            j.queue = j.ttft - prefill_latency(pf) - pf->k.kv_transfer_s;
        } else {
            for (i = 0; i < BISECT_ITERS; i++) {
                double mid = (lo + hi) / 2;

                joint_at(pf, dc, mid, q, n, &j);
                if (mid * (j.ttft_mean + decode_time(dc, j.b)) < n)
                    lo = mid;
                else
                    hi = mid;
            }
            joint_at(pf, dc, lo > 0 ? lo : hi, q, n, &j);
            pool_burst(pf, n, serve_closed_window(sv), &j);
        }
    } else if (sv->mode == SERVE_ONLINE &&
               (sv->requests_per_s > 0 || sv->tokens_per_day > 0)) {
        double rps = serve_peak_demand_rps(sv);

        joint_at(pf, dc, fmin(rps, top * 0.999999), q, 0, &j);
        if (rps >= top) {
            s->fits = false;
            s->saturated = true;
            if (pools_overload(rps, top, (double)sv->window_requests, &j))
                serve_miss(s, SERVE_MISS_CAPACITY,
                           "%.3g req/s exceed the pools' capacity (prefill "
                           "%.3g, decode %.3g req/s): throughput saturates "
                           "and TTFT grows with the queue over %llu requests",
                           rps, pcap, dcap,
                           (unsigned long long)sv->window_requests);
            else
                serve_miss(s, SERVE_MISS_CAPACITY,
                           "%.3g req/s exceed the pools' capacity (prefill "
                           "%.3g, decode %.3g req/s): the queue and TTFT "
                           "grow without bound (serve.window_requests = 0)",
                           rps, pcap, dcap);
        }
        if (sv->ttft_ms > 0 && j.ttft * 1e3 > sv->ttft_ms) {
            s->fits = false;
            serve_miss(s, SERVE_MISS_TTFT,
                       "the prefill pool misses serve.ttft_ms: %.0f ms",
                       j.ttft * 1e3);
        }
        if (sv->tpot_ms > 0 && j.step / dc->k.tau * 1e3 > sv->tpot_ms) {
            s->fits = false;
            serve_miss(s, SERVE_MISS_TPOT,
                       "the decode pool misses serve.tpot_ms: %.1f ms",
                       j.step / dc->k.tau * 1e3);
        }
    } else {
        /* offline: the slower pool sets the pace */
        joint_at(pf, dc, top * 0.999999, q, 0, &j);
        j.queue = 0;
        j.ttft = prefill_latency(pf) + pf->k.kv_transfer_s;
        j.ttft_mean = j.ttft;
        j.spread = false;
    }
    s->batch = clamp_pos(j.b * dc->lay.adp);
    s->decode_step_ms = clamp_pos(j.step * 1e3);
    s->tpot_ms = clamp_pos(j.step / dc->k.tau * 1e3);
    s->queue_ms = clamp_pos(
        (j.ttft_mean - prefill_latency(pf) - pf->k.kv_transfer_s) * 1e3);
    joint_ttft(&j, s);
    s->prefill_ms = clamp_pos(prefill_latency(pf) * 1e3);
    s->e2e_s = clamp_pos(j.ttft_mean + steps_of(dc) * j.step);
    s->utilization = top > 0 ? clamp_pos(j.rps / top) : 0;
    /* a closed loop's window measures its makespan (serve_window_rps) */
    measured =
        sv->concurrency > 0 && sv->mode == SERVE_ONLINE
            ? serve_window_rps((double)sv->concurrency, serve_closed_window(sv),
                               j.rps, j.burst.span)
            : j.rps;
    fill_tokens(s, measured, pf->k.in, measured * dc->k.out);
}

/* Whole replicas (tp x pp x attention_dp GPUs) of at least `ranks`
 * attention ranks. */
static double whole_ranks(const struct pool *p, double ranks)
{
    double per = p->lay.adp >= 1 ? p->lay.adp : 1;

    return ceil((ranks > 1 ? ranks : 1) / per) * per;
}

/* Size the pools that have no GPUs for the demand (or the users): the
 * prefill pool at the load the TTFT target allows (0.8 without one), the
 * decode pool at the largest batch the TPOT target allows. */
static void size_pools(const struct serve_spec *sv, double gpus,
                       struct pool *pf, struct pool *dc)
{
    double q = pct_quantile(sv->percentile);
    double b = dc->k.max_batch >= 1 ? dc->k.max_batch : 1, rps, rho = 0.8;
    double lo = 1, hi = b;
    int i;

    if (pf->ranks > 0 && dc->ranks <= 0 && gpus > pf->lay.gpus) {
        dc->ranks = floor((gpus - pf->lay.gpus) / dc->k.gpr);
        return;
    }
    if (dc->ranks > 0 && pf->ranks <= 0 && gpus > dc->lay.gpus) {
        pf->ranks = floor((gpus - dc->lay.gpus) / pf->k.gpr);
        return;
    }
    while (sv->tpot_ms > 0 && hi - lo > 0.5) {
        double mid = floor((lo + hi + 1) / 2);

        if (serve_rank_step_s(&dc->sc, dc->m, mid) / dc->k.tau * 1e3 <=
            sv->tpot_ms)
            lo = mid;
        else
            hi = mid - 1;
    }
    b = sv->tpot_ms > 0 ? lo : hi;
    if (sv->ttft_ms > 0) {
        double base = prefill_latency(pf) + pf->k.kv_transfer_s;

        lo = 0;
        hi = 0.999;
        for (i = 0; i < BISECT_ITERS; i++) {
            double mid = (lo + hi) / 2;

            if (base + serve_wait_at(mid, pf->k.prefill_bulk_s, q) <=
                sv->ttft_ms / 1e3)
                lo = mid;
            else
                hi = mid;
        }
        rho = lo > 0.01 ? lo : 0.01;
    }
    if (sv->concurrency > 0)
        rps = (double)sv->concurrency /
              (prefill_latency(pf) + decode_time(dc, b));
    else
        rps = serve_peak_demand_rps(sv);
    if (pf->ranks <= 0)
        pf->ranks = whole_ranks(pf, rps * pf->k.prefill_bulk_s / rho);
    if (dc->ranks <= 0)
        dc->ranks = whole_ranks(dc, rps * decode_time(dc, b) / b);
}

static void copy_memory(const struct pool *p, struct result *r)
{
    struct serve_result *s = &r->serve;

    r->memory = p->r.memory;
    s->weights_bytes = p->r.serve.weights_bytes;
    s->kv_bytes = p->r.serve.kv_bytes;
    s->kv_bytes_per_token = p->r.serve.kv_bytes_per_token;
    s->kv_bytes_per_token_gpu = p->r.serve.kv_bytes_per_token_gpu;
    s->max_batch = clamp_pos(p->k.max_batch * p->lay.adp);
    s->tokens_per_step = p->k.tau;
    if (!p->fits)
        serve_miss(s, p->r.serve.miss, "%s", p->r.serve.reason);
}

/* Pools report TPOT at the pool's batch, one value for every request;
 * TTFT over requests (joint_ttft, or one value for a pool alone); known
 * (not null) once the pools are sized. */
static void one_latency(struct serve_result *s, bool ttft_set)
{
    if (!ttft_set)
        s->ttft_p50_ms = s->ttft_p90_ms = s->ttft_p99_ms = s->ttft_ms;
    s->tpot_p50_ms = s->tpot_p90_ms = s->tpot_p99_ms = s->tpot_ms;
    s->latency_known = true;
}

void serve_pool_estimate(const struct scenario *sc, const struct model_shape *m,
                         struct result *r)
{
    const struct serve_spec *sv = &sc->serve;
    struct serve_result *s = &r->serve;
    struct pool pf, dc;

    memset(s, 0, sizeof(*s));
    s->owned_gpus = (double)sv->owned_gpus;
    if (sv->pool != POOL_BOTH) {
        struct pool *p = sv->pool == POOL_PREFILL ? &pf : &dc;

        pool_init(sc, m, sv->pool, p);
        s->pool = sv->pool;
        if (p->ranks <= 0)
            p->ranks = whole_ranks(p, 1);
        s->gpus = p->ranks * p->k.gpr;
        s->gpus_per_replica = p->group;
        s->replicas = ceil(p->ranks / p->lay.adp);
        s->demand_requests_per_s = clamp_pos(serve_peak_demand_rps(sv));
        copy_memory(p, r);
        if (!p->fits)
            return;
        s->fits = true;
        if (sv->pool == POOL_PREFILL)
            prefill_alone(p, s);
        else
            decode_alone(p, s);
        one_latency(s, false);
        return;
    }
    pool_init(sc, m, POOL_PREFILL, &pf);
    pool_init(sc, m, POOL_DECODE, &dc);
    copy_memory(&dc, r);
    if (!pf.fits) {
        copy_memory(&pf, r);
        s->max_batch = clamp_pos(dc.k.max_batch * dc.lay.adp);
    }
    s->disaggregated = true;
    s->demand_requests_per_s = clamp_pos(serve_peak_demand_rps(sv));
    if (!pf.fits || !dc.fits) {
        s->gpus = pf.lay.gpus + dc.lay.gpus;
        return;
    }
    size_pools(sv, sv->gpus_auto ? 0 : (double)sc->gpus, &pf, &dc);
    s->fits = true;
    s->prefill_gpus = clamp_pos(pf.ranks * pf.k.gpr);
    s->decode_gpus = clamp_pos(dc.ranks * dc.k.gpr);
    s->gpus = s->prefill_gpus + s->decode_gpus;
    s->gpus_per_replica = dc.group;
    s->replicas = ceil(pf.ranks / pf.lay.adp) + ceil(dc.ranks / dc.lay.adp);
    s->prefill_time_frac =
        s->gpus > 0 ? clamp_pos(s->prefill_gpus / s->gpus) : 0;
    both_pools(&pf, &dc, s);
    one_latency(s, true);
    /* above capacity with no window the queue has no bound: no latency */
    if (s->saturated && !(sv->window_requests >= 1))
        s->latency_known = false;
}
