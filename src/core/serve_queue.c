/*
 * serve_queue.c - the waiting queue of a finite open-loop load test
 * offered above a replica's capacity (vLLM benchmark_serving.py: n
 * prompts sent at Poisson rate lambda; its TTFT counts from the send, so
 * it includes the wait in the engine's queue).  A fluid model stepped in
 * time: the batch fills up to the batch at capacity while the requests in
 * it complete as their lengths say, then admissions settle at the
 * capacity.  See serve.h.
 */
#include <math.h>
#include <string.h>

#include "core/serve.h"

#define LOAD_STEPS 2048
#define LOAD_HORIZON 64 /* requests' times in the batch stepped */

/* The fluid state of the load test: the queue, and the batch in its
 * fixed part (b1) and its exponential parts (b2; with a spread wider than
 * an exponential's, b2 the short and b3 the long phase). */
struct fluid {
    double t, dt, arrived, queue, admitted, b1, b2, b3, queue_s;
    double p2, m2, m3;      /* share and mean (s) of each exponential phase */
    double adm[LOAD_STEPS]; /* admitted in each step (the delay line) */
};

/* The lengths as phases of time in the batch, S = batch / cap in all:
 * cv <= 1 a fixed (1 - cv) S then an exponential of mean cv S; cv > 1 a
 * two-phase hyperexponential with balanced means (share p of mean S / 2p
 * and 1 - p of mean S / 2(1 - p), p = (1 + sqrt((cv^2 - 1) / (cv^2 +
 * 1))) / 2: Whitt 1982, "Approximating a point process by a renewal
 * process", the H2 fit of mean and cv).  Returns the fixed part. */
static double phases(const struct serve_load_test *lt, struct fluid *f)
{
    double s = lt->batch / lt->cap, cv = lt->cv > 0 ? lt->cv : 0;

    if (cv <= 1) {
        f->p2 = 1;
        f->m2 = cv * s;
        return (1 - cv) * s;
    }
    f->p2 = (1 + sqrt((cv * cv - 1) / (cv * cv + 1))) / 2;
    f->m2 = s / (2 * f->p2);
    f->m3 = s / (2 * (1 - f->p2));
    return 0;
}

/* Requests completing over step i (admissions count from the start of
 * their step): those past the fixed part of their length (delay steps,
 * read between the two steps it falls between) move on to the
 * exponential phases, which complete at b / m a second each (m scaled by
 * the step at the batch; at that rate exactly, so the batch at capacity
 * completes cap a second whatever the step); with a fixed part shorter
 * than a step, all of the last step's admissions move at once and run
 * this step.  No spread: they complete as they leave the delay line. */
static double complete(const struct serve_load_test *lt, struct fluid *f, int i,
                       double delay, double at_cap, serve_step_fn step,
                       const void *arg)
{
    double moved = 0, done, b = f->b1 + f->b2 + f->b3, scale;
    double frac = delay - floor(delay), old2 = f->b2, old3 = f->b3;
    int d = (int)floor(delay);

    if (d < 1) {
        moved = f->b1;
        old2 += f->p2 * moved;
        old3 += (1 - f->p2) * moved;
    } else if (i >= d) {
        moved =
            (1 - frac) * f->adm[i - d] + (i > d ? frac * f->adm[i - d - 1] : 0);
    }
    if (moved > f->b1)
        moved = f->b1;
    f->b1 -= moved;
    if (!(lt->cv > 0))
        return moved;
    scale = b > 0 && at_cap > 0 ? step(arg, b) / at_cap : 1;
    if (!(scale > 0))
        scale = 1;
    done = old2 * fmin(1, f->dt / (f->m2 * scale));
    f->b2 += f->p2 * moved - done;
    if (f->p2 < 1) {
        double d3 = old3 * fmin(1, f->dt / (f->m3 * scale));

        f->b3 += (1 - f->p2) * moved - d3;
        done += d3;
    }
    return done;
}

/* What the engine can prefill over one step of the fluid: prefill_rate
 * a second with every iteration given to prompts (no bound when 0). */
static double prefill_bound(const struct serve_load_test *lt,
                            const struct fluid *f, double a)
{
    double most = lt->prefill_rate * f->dt;

    return lt->prefill_rate > 0 && a > most ? most : a;
}

/* The engine admits from the queue what the batch at capacity has room
 * for, as fast as it can prefill it. */
static double admit(const struct serve_load_test *lt, const struct fluid *f)
{
    double room = lt->batch - f->b1 - f->b2 - f->b3, a = f->queue;

    if (a > room)
        a = room;
    a = prefill_bound(lt, f, a);
    return a > 0 ? a : 0;
}

/* The time request k (of the admitted count) enters the batch, read
 * between the steps at which the count passed it. */
static double admitted_at(double k, double a0, double a1, double t0, double dt)
{
    return a1 > a0 ? t0 + dt * (k - a0) / (a1 - a0) : t0 + dt;
}

/* Past the stepped horizon the batch has settled and the rest are
 * admitted at the capacity: request k at t + (k - admitted) / cap, and
 * the queue grows by lambda - cap a second until the last arrival, then
 * drains at cap (its area added to f->queue_s). */
static void past_horizon(const struct serve_load_test *lt, struct fluid *f,
                         const double *qs, double **at)
{
    double last = lt->n / lt->lambda, q = f->queue;
    int j;

    for (j = 0; j < 3; j++)
        if (*at[j] < 0)
            *at[j] = fmax(0, f->t + (qs[j] * lt->n - f->admitted) / lt->cap -
                                 qs[j] * lt->n / lt->lambda);
    if (last > f->t) {
        double grown = q + (lt->lambda - lt->cap) * (last - f->t);

        f->queue_s += (q + grown) / 2 * (last - f->t);
        q = grown;
    }
    f->queue_s += q * q / (2 * lt->cap);
}

void serve_overload_waits(const struct serve_load_test *lt, serve_step_fn step,
                          const void *arg, struct serve_waits *w)
{
    static const double qs[3] = {0.5, 0.9, 0.99};
    double *at[3], horizon, at_cap, s, fixed;
    struct fluid f;
    double delay;
    int i, j;

    memset(w, 0, sizeof(*w));
    if (!(lt->lambda > lt->cap) || !(lt->cap > 0) || !(lt->n >= 1) ||
        !(lt->batch >= 1))
        return;
    memset(&f, 0, sizeof(f));
    at[0] = &w->p50;
    at[1] = &w->p90;
    at[2] = &w->p99;
    s = lt->batch / lt->cap;
    /* Every request is admitted by the time the capacity clears all n
     * after the batch's first S; twice that for margin.  A step must stay
     * short of S, so at most LOAD_HORIZON S are stepped: by then the batch
     * has long settled and the rest is admitted at the capacity. */
    horizon = 2 * (lt->n / lt->cap + s);
    if (horizon > LOAD_HORIZON * s)
        horizon = LOAD_HORIZON * s;
    f.dt = horizon / LOAD_STEPS;
    fixed = phases(lt, &f);
    delay = fixed / f.dt;
    at_cap = step(arg, lt->batch);
    for (i = 0; i < 3; i++)
        *at[i] = -1;
    for (i = 0; i < LOAD_STEPS && f.admitted < lt->n * (1 - 1e-9); i++) {
        double before = f.admitted, more = lt->lambda * f.dt, a;

        if (more > lt->n - f.arrived)
            more = lt->n - f.arrived;
        f.arrived += more;
        f.queue += more;
        complete(lt, &f, i, delay, at_cap, step, arg);
        a = admit(lt, &f);
        f.adm[i] = a;
        f.b1 += a;
        f.queue -= a;
        f.admitted += a;
        f.queue_s += f.queue * f.dt;
        for (j = 0; j < 3; j++) {
            double k = qs[j] * lt->n;

            if (*at[j] < 0 && f.admitted >= k)
                *at[j] = fmax(0, admitted_at(k, before, f.admitted, f.t, f.dt) -
                                     k / lt->lambda);
        }
        f.t += f.dt;
    }
    past_horizon(lt, &f, qs, at);
    /* The waiting time summed over requests is the queue's area (Little). */
    w->mean = f.queue_s / lt->n;
}
