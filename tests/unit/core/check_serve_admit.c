/*
 * check_serve_admit.c - a finite load test admits no faster than the
 * replica can prefill (serve_queue.c prefill_bound; serve.h struct
 * serve_load_test prefill_rate): with room in the batch for every prompt,
 * an offered rate above the prefill rate still queues.
 */
#include <math.h>
#include <string.h>

#include "check_helpers.h"
#include "core/serve.h"

static double flat_step(const void *arg, double b)
{
    (void)arg;
    (void)b;
    return 0.1;
}

/* By hand: n prompts arrive at lambda; a batch of 5,000 never runs out of
 * room, so request k is admitted at k / mu (mu the prefill rate, queued
 * from the start) and waits k (1 / mu - 1 / lambda): the median at k =
 * n / 2, p90 at 0.9 n, p99 at 0.99 n, the mean (the queue's area over n)
 * n / 2 (1 / mu - 1 / lambda). */
/* clang-format off */
static const struct admit_case {
    double n, lambda, mu;           /* inputs */
    double mean, p50, p90, p99;     /* expected waits, s */
    const char *source;
} cases[] = {
    {1000, 32, 20, 9.375, 9.375, 16.875, 18.5625,
     "1,000 prompts at 32/s, 20/s prefilled: 0.01875 s a request"},
    {1000, 16, 12, 10.4167, 10.4167, 18.75, 20.625,
     "at 16/s, 12/s prefilled: 1/12 - 1/16 = 0.0208 s a request"},
    {1000, 32, 0, 0, 0, 0, 0,
     "no bound: the batch holds them all, nobody waits"},
    {1000, 32, 40, 0, 0, 0, 0,
     "a prefill rate above the offered rate: nobody waits"},
};
/* clang-format on */

START_TEST(test_admit_prefill_bound)
{
    const struct admit_case *c = &cases[_i];
    struct serve_load_test lt;
    struct serve_waits w;
    double tol = 0.02 * c->p99 + 0.05;

    memset(&lt, 0, sizeof(lt));
    lt.n = c->n;
    lt.lambda = c->lambda;
    lt.cap = 10;
    lt.batch = 5000;
    lt.cv = 1;
    lt.prefill_rate = c->mu;
    serve_overload_waits(&lt, flat_step, NULL, &w);
    ck_assert_msg(
        fabs(w.mean - c->mean) <= tol && fabs(w.p50 - c->p50) <= tol &&
            fabs(w.p90 - c->p90) <= tol && fabs(w.p99 - c->p99) <= tol,
        "%s: mean %g p50 %g p90 %g p99 %g, want %g %g %g %g", c->source, w.mean,
        w.p50, w.p90, w.p99, c->mean, c->p50, c->p90, c->p99);
}
END_TEST

Suite *suite_serve_admit(void); /* listed by the Makefile */

Suite *suite_serve_admit(void)
{
    Suite *s = suite_create("serve_admit");
    TCase *core = tcase_create("core");

    tcase_add_loop_test(core, test_admit_prefill_bound, 0,
                        (int)(sizeof(cases) / sizeof(cases[0])));
    suite_add_tcase(s, core);
    return s;
}
