/*
 * check_serve_burst.c - the first burst of a closed-loop load test
 * (serve_burst.c): c users start at once, so the first min(c, n) of a
 * window of n requests queue at the prefill; the window's TTFT is a
 * mixture of that burst (uniform) and the steady state after it.
 */
#include <math.h>
#include <string.h>

#include "check_helpers.h"
#include "core/model.h"
#include "core/scenario.h"
#include "core/serve.h"
#include "fixture.h"

/* A steady state that is one value for every request. */
static double constant_q(const void *arg, double p)
{
    (void)p;
    return *(const double *)arg;
}

/* A steady state of exponential latencies of mean 1: -ln(1 - p). */
static double exp_q(const void *arg, double p)
{
    (void)arg;
    return -log1p(-p);
}

/* clang-format off */
static const struct frac_case {
    double users, window; /* inputs */
    double frac;          /* expected */
    const char *source;
} frac_cases[] = {
    {128, 500, 0.256, "dstack PD ratio runs: 500 prompts at max_concurrency 128"},
    {128, 1000, 0.128, "benchmark_serving.py's default of 1000 prompts"},
    {32, 500, 0.064, "32 of 500"},
    {600, 500, 1, "more users than requests: every request is the burst's"},
    {128, 0, 0, "no window: the steady state"},
    {0, 500, 0, "no users"},
};

static const struct span_case {
    double per_server, each_s; /* inputs */
    double span_s;             /* expected */
    const char *source;
} span_cases[] = {
    {128, 0.02, 2.54, "127 prompts ahead of the last of 128, 20 ms each"},
    {64, 0.02, 1.26, "63 x 20 ms"},
    {1, 0.02, 0, "one prompt waits for none"},
    {0.5, 0.02, 0, "less than one prompt per server"},
};

/* Mixture quantiles by hand: F(t) = (1 - f) F_steady(t) + f F_burst(t),
 * the least t with F(t) >= p; to 1e-6 (a quantile 1e-11 from the steady
 * state's end is as fine as a double's u = 1 - 1e-11 allows). */
static const struct mix_case {
    double frac, lo, span, steady; /* inputs; steady < 0: Exp(1) */
    double p;
    double want; /* expected */
    const char *source;
} mix_cases[] = {
    {0.256, 0, 1, 0, 0.5, 0,
     "F(0) = 0.744 >= 0.5: the steady state's 0"},
    {0.256, 0, 1, 0, 0.9, 0.609375,
     "0.744 + 0.256 t = 0.9: t = 0.156 / 0.256"},
    {0.256, 0, 1, 0, 0.99, 0.9609375,
     "0.744 + 0.256 t = 0.99: t = 0.246 / 0.256"},
    {1, 0.1, 2, 5, 0.5, 1.1, "all burst: 0.1 + 0.5 x 2"},
    {1, 0.1, 2, 5, 0.99, 2.08, "all burst: 0.1 + 0.99 x 2"},
    {0, 0.1, 2, 5, 0.9, 5, "no burst: the steady state"},
    {0.5, 0, 1, 2, 0.5, 1, "F = t / 2 below 1, then flat at 0.5 until 2"},
    {0.5, 0, 1, 2, 0.9, 2, "the steady state's step at 2"},
    {0.1, 0, 10, -1, 0.99, 9.010985535,
     "0.1 (1 - t / 10) + 0.9 e^-t = 0.01: t = 9 + 90 e^-t, fixed point"},
    {0.064, 0, 30, -1, 0.99, 25.312500004458,
     "0.064 (1 - t / 30) + 0.936 e^-t = 0.01: deep in the steady tail "
     "(e^-t ~ 1e-11), t = 30 (1 - 0.01 / 0.064) + 4.5e-9"},
    {0.1, 0, 10, -1, 0.5, 0.7913398695,
     "0.9 (1 - e^-t) + 0.01 t = 0.5, solved by bisection"},
};

/* A closed-loop window's measured rate: n / (ceil(n / c) c / rps + span). */
static const struct window_case {
    double users, window, rps, span; /* inputs */
    double want;                     /* expected, requests/s */
    const char *source;
} window_cases[] = {
    {128, 500, 12.8, 2.0, 500.0 / 42.0,
     "4 cycles of 10 s (128 / 12.8) and a 2 s stagger: 500 / 42"},
    {128, 512, 12.8, 0, 12.8, "whole waves and no stagger: the steady rate"},
    {32, 500, 6.4, 0.5, 500.0 / 80.5, "16 cycles of 5 s and 0.5 s"},
    {1, 1000, 2, 0, 2, "one user: 1000 requests of 0.5 s"},
    {128, 0, 12.8, 2, 12.8, "no window: the steady state"},
    {128, 100, 12.8, 2, 12.8, "fewer requests than users: not modelled"},
};
/* clang-format on */

START_TEST(test_window_rps)
{
    const struct window_case *c = &window_cases[_i];

    ck_assert_rel(serve_window_rps(c->users, c->window, c->rps, c->span),
                  c->want, 1e-12);
}
END_TEST

/* Never above the steady rate; it approaches it as the window grows. */
START_TEST(test_window_rps_invariants)
{
    double n;

    for (n = 128; n < 1e6; n *= 1.7) {
        double r = serve_window_rps(128, n, 12.8, 2);

        ck_assert(r <= 12.8 * (1 + 1e-12));
        ck_assert(r > 0);
    }
    ck_assert_rel(serve_window_rps(128, 1e6, 12.8, 2), 12.8, 1e-3);
}
END_TEST

START_TEST(test_burst_frac)
{
    const struct frac_case *c = &frac_cases[_i];

    ck_assert_rel(serve_burst_frac(c->users, c->window), c->frac, 1e-12);
}
END_TEST

START_TEST(test_burst_span)
{
    const struct span_case *c = &span_cases[_i];

    ck_assert_rel(serve_burst_span_s(c->per_server, c->each_s), c->span_s,
                  1e-12);
}
END_TEST

START_TEST(test_burst_quantile)
{
    const struct mix_case *c = &mix_cases[_i];
    struct serve_burst b = {c->frac, c->lo, c->span};
    double got = c->steady < 0
                     ? serve_burst_quantile(&b, exp_q, NULL, c->p)
                     : serve_burst_quantile(&b, constant_q, &c->steady, c->p);

    ck_assert_msg(fabs(got - c->want) <= 1e-6 * (1 + c->want),
                  "%s: got %.10g want %.10g", c->source, got, c->want);
}
END_TEST

/* The mean over the window weighs the burst's mean, lo + span / 2. */
START_TEST(test_burst_mean)
{
    struct serve_burst b = {0.256, 0.03, 2.54};

    ck_assert_rel(serve_burst_mean(&b, 0.04),
                  0.744 * 0.04 + 0.256 * (0.03 + 1.27), 1e-12);
    b.frac = 0;
    ck_assert_rel(serve_burst_mean(&b, 0.04), 0.04, 1e-12);
}
END_TEST

/* Quantiles are non-decreasing in p and lie between the smaller lower
 * end and the larger upper end of the two parts. */
START_TEST(test_burst_quantile_invariants)
{
    static const double fr[] = {0.001, 0.064, 0.256, 0.5, 0.9};
    double prev = -1, p;
    int i;

    for (i = 0; i < (int)(sizeof(fr) / sizeof(fr[0])); i++) {
        struct serve_burst b = {fr[i], 0.2, 3};

        prev = -1;
        for (p = 0.05; p < 0.995; p += 0.05) {
            double t = serve_burst_quantile(&b, exp_q, NULL, p);

            ck_assert_finite(t);
            ck_assert(t >= prev - 1e-9);
            ck_assert(t >= 0);
            ck_assert(t <= fmax(3.2, -log1p(-p)) + 1e-6);
            prev = t;
        }
    }
}
END_TEST

/* Disaggregated pools like dstack's PD ratio runs (one prefill worker
 * and three decode workers of TP2, 2048-token prompts) with the
 * fixture's Llama 70B in fp8 on H100s. */
static void pd_1p3d(struct scenario *sc)
{
    fixture_serving(sc, 2);
    sc->gpus = 8;
    sc->serve.mode = SERVE_ONLINE;
    sc->serve.input_tokens = 2048;
    sc->serve.output_tokens = 732;
    sc->serve.disaggregated = DISAGG_YES;
    sc->serve.prefill.gpus = 2;
    sc->serve.prefill.tp = 2;
    sc->serve.decode.gpus = 6;
    sc->serve.decode.tp = 2;
}

/* Disaggregated closed loop: with a window the mean TTFT is the steady
 * state's plus frac (span / 2 + lo - steady); with every request in the
 * burst (window = users) it is the prefill and transfer, half a decode
 * step (the wait to join the running batch) and half the drain of the
 * users' prompts on the one prefill worker; TPOT is the steady state's,
 * the throughput the window's makespan. */
START_TEST(test_pd_closed_loop_burst)
{
    struct scenario sc;
    struct result steady, win, all, one;
    double pfb, lo;

    pd_1p3d(&sc);
    sc.serve.concurrency = 128;
    sc.serve.window_stated = true;
    sc.serve.window_requests = 0;
    fixture_eval_ok(&sc, &steady);
    ck_assert_msg(steady.serve.fits, "%s", steady.serve.reason);
    sc.serve.window_requests = 500;
    fixture_eval_ok(&sc, &win);
    sc.serve.window_requests = 128;
    fixture_eval_ok(&sc, &all);
    ck_assert_rel(win.serve.tpot_ms, steady.serve.tpot_ms, 1e-12);
    ck_assert(win.serve.ttft_ms > steady.serve.ttft_ms);
    ck_assert(all.serve.ttft_ms > win.serve.ttft_ms);
    /* the prefill pool alone, offline: one worker's bulk prefill rate */
    sc.serve.concurrency = 1;
    sc.serve.window_requests = 0;
    fixture_eval_ok(&sc, &one);
    lo = one.serve.ttft_ms - one.serve.queue_ms; /* prefill + transfer */
    sc.serve.pool = POOL_PREFILL;
    sc.serve.disaggregated = DISAGG_AUTO;
    sc.serve.prefill.gpus = 0;
    sc.serve.prefill.tp = 0;
    sc.serve.decode.gpus = 0;
    sc.serve.decode.tp = 0;
    sc.gpus = 2;
    sc.serve.mode = SERVE_OFFLINE;
    sc.serve.concurrency = 0;
    fixture_eval_ok(&sc, &one);
    pfb = 1e3 / one.serve.requests_per_s;
    /* the burst starts after prefill, transfer and half a decode step */
    ck_assert_rel(all.serve.ttft_ms,
                  lo + all.serve.decode_step_ms / 2 + 127 * pfb / 2, 1e-6);
    ck_assert_rel(win.serve.ttft_ms,
                  0.744 * steady.serve.ttft_ms + 0.256 * all.serve.ttft_ms,
                  1e-6);
    ck_assert(win.serve.ttft_p99_ms > win.serve.ttft_p90_ms);
    ck_assert(win.serve.ttft_p90_ms >= win.serve.ttft_p50_ms);
    ck_assert(all.serve.ttft_p99_ms > steady.serve.ttft_p99_ms);
    /* the window's rate: 4 cycles of 128 / rate and the burst's stagger */
    ck_assert_rel(
        win.serve.requests_per_s,
        500 / (4 * 128 / steady.serve.requests_per_s + 127 * pfb / 1e3), 1e-6);
    ck_assert_rel(win.serve.output_tokens_per_s, win.serve.requests_per_s * 732,
                  1e-9);
}
END_TEST

/* Disaggregated pools at a trickle of open arrivals: no prefill queue,
 * but a request whose KV has landed waits for the decode worker's running
 * step to end before its first token (uniform over the step): half a step
 * on average, p99 - p50 = 0.49 steps. */
START_TEST(test_pd_decode_join)
{
    struct scenario sc;
    struct result r;
    double step;

    pd_1p3d(&sc);
    sc.serve.requests_per_s = 1e-6;
    fixture_eval_ok(&sc, &r);
    ck_assert_msg(r.serve.fits, "%s", r.serve.reason);
    step = r.serve.decode_step_ms;
    ck_assert(step > 0);
    ck_assert_rel(r.serve.queue_ms, step / 2, 1e-3);
    ck_assert_rel(r.serve.ttft_p99_ms - r.serve.ttft_p50_ms, 0.49 * step, 1e-3);
    ck_assert_rel(r.serve.ttft_p90_ms - r.serve.ttft_p50_ms, 0.4 * step, 1e-3);
}
END_TEST

/* Aggregated closed loop (one replica, chunked prefill): the same
 * mixture; one user makes no burst. */
/* A plan that does not give serve.window_requests sizes the steady state
 * its users settle in: the default window (1000, for queues above
 * capacity) adds no first burst and no makespan, in one replica or in
 * disaggregated pools; stated, the same window does. */
/* Open arrivals above the pools' capacity over a load test of n requests:
 * throughput saturates at the capacity and the k-th request waits
 * k (1 / cap - 1 / rps) for those ahead, so the mean queue is half the
 * last one's wait (n / 2 (1 / cap - 1 / rps)) beside half a decode step
 * (the wait to join the running batch), the percentiles are in order and
 * below the whole window's span, n more requests wait that much more, and
 * with no window the latency is unknown (null), not
 * a number near a day (the steady M/M/1 wait at the capacity). */
START_TEST(test_pd_open_overload)
{
    struct scenario sc;
    struct result at, twice, none;
    double cap, rps, want;

    pd_1p3d(&sc);
    sc.serve.requests_per_s = 1e-3;
    fixture_eval_ok(&sc, &at);
    ck_assert(at.serve.fits && !at.serve.saturated);
    sc.serve.requests_per_s = 1e3;
    sc.serve.window_requests = 500;
    fixture_eval_ok(&sc, &at);
    cap = at.serve.requests_per_s;
    rps = sc.serve.requests_per_s;
    ck_assert(cap > 0 && cap < rps);
    ck_assert(at.serve.saturated && !at.serve.fits);
    ck_assert(at.serve.latency_known);
    want = 500.0 / 2 * (1 / cap - 1 / rps) * 1e3;
    ck_assert_rel(at.serve.queue_ms, want + at.serve.decode_step_ms / 2,
                  1e-9);
    ck_assert(at.serve.ttft_p50_ms <= at.serve.ttft_p90_ms);
    ck_assert(at.serve.ttft_p90_ms <= at.serve.ttft_p99_ms);
    ck_assert(at.serve.ttft_p99_ms * 1e-3 < 500 / cap + at.serve.e2e_s);
    sc.serve.window_requests = 1000;
    fixture_eval_ok(&sc, &twice);
    ck_assert_rel(twice.serve.queue_ms - at.serve.queue_ms, want, 1e-9);
    ck_assert_rel(twice.serve.requests_per_s, cap, 1e-12);
    sc.serve.window_requests = 0;
    fixture_eval_ok(&sc, &none);
    ck_assert(none.serve.saturated && !none.serve.latency_known);
}
END_TEST

START_TEST(test_closed_window_unstated)
{
    struct scenario sc;
    struct result unstated, steady, stated;

    fixture_serving(&sc, 1);
    sc.serve.mode = SERVE_ONLINE;
    sc.serve.concurrency = 16;
    ck_assert_msg(sc.serve.window_requests >= 1, "default window");
    ck_assert(!sc.serve.window_stated);
    fixture_eval_ok(&sc, &unstated);
    sc.serve.window_stated = true;
    fixture_eval_ok(&sc, &stated);
    sc.serve.window_requests = 0;
    fixture_eval_ok(&sc, &steady);
    ck_assert_rel(unstated.serve.ttft_ms, steady.serve.ttft_ms, 1e-12);
    ck_assert_rel(unstated.serve.ttft_p99_ms, steady.serve.ttft_p99_ms, 1e-12);
    ck_assert_rel(unstated.serve.requests_per_s, steady.serve.requests_per_s,
                  1e-12);
    ck_assert(stated.serve.ttft_ms > unstated.serve.ttft_ms);

    pd_1p3d(&sc);
    sc.serve.concurrency = 128;
    fixture_eval_ok(&sc, &unstated);
    sc.serve.window_stated = true;
    fixture_eval_ok(&sc, &stated);
    sc.serve.window_requests = 0;
    fixture_eval_ok(&sc, &steady);
    ck_assert_rel(unstated.serve.ttft_ms, steady.serve.ttft_ms, 1e-12);
    ck_assert(stated.serve.ttft_ms > unstated.serve.ttft_ms);
}
END_TEST

START_TEST(test_closed_loop_burst)
{
    struct scenario sc;
    struct result steady, win, all;
    double span;

    fixture_serving(&sc, 1);
    sc.serve.mode = SERVE_ONLINE;
    sc.serve.concurrency = 1;
    sc.serve.window_stated = true;
    sc.serve.window_requests = 0;
    fixture_eval_ok(&sc, &steady);
    sc.serve.window_requests = 10;
    fixture_eval_ok(&sc, &win);
    ck_assert_rel(win.serve.ttft_ms, steady.serve.ttft_ms, 1e-12);
    ck_assert_rel(win.serve.ttft_p99_ms, steady.serve.ttft_p99_ms, 1e-12);
    sc.serve.concurrency = 16;
    sc.serve.window_requests = 0;
    fixture_eval_ok(&sc, &steady);
    sc.serve.window_requests = 160;
    fixture_eval_ok(&sc, &win);
    sc.serve.window_requests = 16;
    fixture_eval_ok(&sc, &all);
    ck_assert(win.serve.ttft_ms > steady.serve.ttft_ms);
    ck_assert(all.serve.ttft_ms > win.serve.ttft_ms);
    ck_assert_rel(win.serve.ttft_ms,
                  0.9 * steady.serve.ttft_ms + 0.1 * all.serve.ttft_ms, 1e-6);
    ck_assert(all.serve.ttft_p99_ms >= all.serve.ttft_p90_ms);
    ck_assert(all.serve.ttft_p90_ms >= all.serve.ttft_p50_ms);
    ck_assert(all.serve.ttft_p50_ms > steady.serve.ttft_p50_ms);
    /* the window's rate: 10 cycles of 16 / rate and the burst's stagger,
     * twice the mean wait of the window of 16 (all burst) */
    span = 2 * (all.serve.ttft_ms - all.serve.prefill_ms) / 1e3;
    ck_assert_rel(win.serve.requests_per_s,
                  160 / (10 * 16 / steady.serve.requests_per_s + span), 1e-6);
    ck_assert(win.serve.requests_per_s < steady.serve.requests_per_s);
}
END_TEST

Suite *suite_serve_burst(void); /* listed by the Makefile */

Suite *suite_serve_burst(void)
{
    Suite *s = suite_create("serve_burst");
    TCase *core = tcase_create("core");
    TCase *inv = tcase_create("invariants");

    tcase_add_loop_test(core, test_burst_frac, 0,
                        (int)(sizeof(frac_cases) / sizeof(frac_cases[0])));
    tcase_add_loop_test(core, test_burst_span, 0,
                        (int)(sizeof(span_cases) / sizeof(span_cases[0])));
    tcase_add_loop_test(core, test_burst_quantile, 0,
                        (int)(sizeof(mix_cases) / sizeof(mix_cases[0])));
    tcase_add_test(core, test_burst_mean);
    tcase_add_loop_test(core, test_window_rps, 0,
                        (int)(sizeof(window_cases) / sizeof(window_cases[0])));
    tcase_add_test(inv, test_window_rps_invariants);
    tcase_add_test(core, test_pd_closed_loop_burst);
    tcase_add_test(core, test_closed_loop_burst);
    tcase_add_test(core, test_closed_window_unstated);
    tcase_add_test(core, test_pd_open_overload);
    tcase_add_test(core, test_pd_decode_join);
    tcase_add_test(inv, test_burst_quantile_invariants);
    suite_add_tcase(s, core);
    suite_add_tcase(s, inv);
    return s;
}
